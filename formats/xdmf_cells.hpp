#pragma once
/// \file xdmf_cells.hpp
/// Cells in XDMF "Mixed" topology streams: writing and reading them, with the shape codes and
/// the node-order conversion between CGNS (fvkit's order) and XDMF/VTK of the shape table
/// (CellShape::xdmfCode, xdmfName and vtk_corner() in common/cell_shapes.hpp).
///
/// XDMF codes: tetrahedron 6, pyramid 7, wedge 8, hexahedron 9, polyhedron 16.
/// Tetrahedron, pyramid and hexahedron corners are numbered the same in CGNS and XDMF/VTK; the
/// wedge's triangles are reversed (ParaView's XDMF reader uses VTK's wedge unchanged).
#include "common/cell_shapes.hpp"
#include "common/zone.hpp"
#include "formats/solution_file.hpp"

#include <string>
#include <vector>

namespace fv::xdmf {

/// The Mixed topology stream of a mesh (codes + node ids in XDMF order).
std::vector<gidx_t> mixed_topology(const SolutionMesh& mesh);

/// Decodes a Mixed topology stream of `n_cells` cells into mesh.cellType / cellNodeOffsets /
/// cellNodes (CGNS order); throws naming `what` and the cell on a malformed stream.
void parse_mixed_topology(const std::vector<gidx_t>& stream, gidx_t n_cells,
                          const std::string& what, SolutionMesh& mesh);

/// Checks a polyhedron face stream (nFaces, then per face n, ids) of `len` entries.
void check_polyhedron_stream(const gidx_t* s, gidx_t len, gidx_t n_nodes, const std::string& what,
                             gidx_t cell);

} // namespace fv::xdmf
