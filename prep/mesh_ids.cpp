#include "prep/mesh_ids.hpp"

#include "common/cell_shapes.hpp"

#include <sstream>

namespace fv {

namespace {
/// " of zone 'blk-2'" when the mesh merges several file zones (CGNS multi-zone), else "".
std::string zone_suffix(const Mesh& mesh, const std::vector<std::int32_t>& zoneOf, idx_t i) {
  if (mesh.fileZones.empty() || i < 0 || static_cast<std::size_t>(i) >= zoneOf.size()) return {};
  const std::int32_t z = zoneOf[static_cast<std::size_t>(i)];
  if (z < 0 || static_cast<std::size_t>(z) >= mesh.fileZones.size()) return {};
  return " of zone '" + mesh.fileZones[static_cast<std::size_t>(z)] + "'";
}
} // namespace

gidx_t cell_file_id(const Mesh& mesh, idx_t c) {
  if (c >= 0 && static_cast<std::size_t>(c) < mesh.cellFileId.size())
    return mesh.cellFileId[static_cast<std::size_t>(c)];
  return static_cast<gidx_t>(c) + 1;
}

gidx_t bface_file_id(const Mesh& mesh, idx_t b) {
  if (b >= 0 && static_cast<std::size_t>(b) < mesh.bfaceFileId.size())
    return mesh.bfaceFileId[static_cast<std::size_t>(b)];
  return static_cast<gidx_t>(b) + 1;
}

std::string cell_label(const Mesh& mesh, idx_t c) {
  std::ostringstream os;
  os << "element " << cell_file_id(mesh, c) << zone_suffix(mesh, mesh.cellFileZone, c);
  if (c >= 0 && c < mesh.nCells())
    os << " (" << cell_type_name(mesh.cellType[static_cast<std::size_t>(c)]) << ")";
  return os.str();
}

std::string bface_label(const Mesh& mesh, idx_t b) {
  std::ostringstream os;
  const gidx_t id = bface_file_id(mesh, b);
  if (id < 0)
    os << "boundary face #" << b << " (synthesised)";
  else
    os << "boundary face " << id << zone_suffix(mesh, mesh.bfaceFileZone, b);
  if (b >= 0 && static_cast<std::size_t>(b) < mesh.bfacePatch.size()) {
    const idx_t p = mesh.bfacePatch[static_cast<std::size_t>(b)];
    if (p >= 0 && static_cast<std::size_t>(p) < mesh.patches.size())
      os << " of patch '" << mesh.patches[static_cast<std::size_t>(p)].name << "'";
  }
  return os.str();
}

std::string mesh_name(const Mesh& mesh) {
  return mesh.path.empty() ? "<unnamed mesh>" : mesh.path;
}

} // namespace fv
