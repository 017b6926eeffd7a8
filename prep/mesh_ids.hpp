#pragma once
/// \file mesh_ids.hpp
/// Helpers that name mesh entities in error messages by the ids the mesh FILE uses
/// (fv::Mesh::cellFileId / bfaceFileId), so users can find them in their mesher.
#include "formats/mesh.hpp"

#include <string>

namespace fv {

/// File id of cell c (mesh.cellFileId[c], or c + 1 when the mesh carries no file ids).
gidx_t cell_file_id(const Mesh& mesh, idx_t c);

/// File id of boundary face b (mesh.bfaceFileId[b]; -1 for synthesised faces; b + 1 when the mesh
/// carries no file ids).
gidx_t bface_file_id(const Mesh& mesh, idx_t b);

/// "element 17 (hexahedron)" — the cell's file id and shape, for messages.
std::string cell_label(const Mesh& mesh, idx_t c);

/// "boundary face 903 of patch 'wall'" (or "boundary face #12 (synthesised)"), for messages.
std::string bface_label(const Mesh& mesh, idx_t b);

/// The mesh's path for message prefixes ("<unnamed mesh>" when empty).
std::string mesh_name(const Mesh& mesh);

} // namespace fv
