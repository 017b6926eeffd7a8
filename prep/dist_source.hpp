#pragma once
/// \file dist_source.hpp
/// The source mesh as the processes of the distributed fvprep hold it: one MeshSlice each
/// (formats/mesh_slice.hpp: blocks of cells, boundary faces and node coordinates). What the
/// numbering needs of the slices of others: node coordinates fetched by source node id, and the
/// names of cells and boundary faces in error messages.
///
/// Error messages name entities as the file does (prep/mesh_ids.hpp), which only the process
/// holding an entity can say. A check that finds bad input on one process names a cell or
/// boundary face of another by a token (cell_token(), bface_token()); run_labelled() throws the
/// error on every process with each token replaced by the label from its holder, so that the
/// message is the serial prepare's.
#include "formats/mesh_slice.hpp"
#include "prep/dist_comm.hpp"

#include <functional>
#include <string>
#include <vector>

namespace fv {

/// Where the slices' blocks start, on every process. COLLECTIVE (constructor).
struct SliceLayout {
  SliceLayout(const dist::Comm& comm, const MeshSlice& s);
  dist::Ranges cells, bfaces, nodes; ///< source ids held by each process
};

/// The checks of validate_mesh_arrays() on every slice: the cells of all processes first, then
/// the boundary faces (the serial order of the messages). COLLECTIVE.
void validate_slices(const dist::Comm& comm, const MeshSlice& s);

/// Placeholders for the label of source cell c / file boundary face b in a message.
std::string cell_token(gidx_t c);
std::string bface_token(gidx_t b);

/// dist::run_collectively(), with the error's tokens replaced by the labels the holders give.
/// COLLECTIVE.
void run_labelled(const dist::Comm& comm, const MeshSlice& s, const SliceLayout& layout,
                  const std::function<void()>& body);

/// The coordinates of source nodes `ids` (any order, repeats allowed), 3 per id, fetched from
/// the processes holding them. COLLECTIVE.
std::vector<real_t> fetch_source_xyz(const dist::Comm& comm, const MeshSlice& s,
                                     const SliceLayout& layout, const std::vector<idx_t>& ids);

} // namespace fv
