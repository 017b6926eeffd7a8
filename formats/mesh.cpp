#include "formats/mesh.hpp"

namespace fv {

namespace {
std::string zone_suffix(const Mesh& m, const std::vector<std::int32_t>& zoneOf, idx_t i) {
  if (m.fileZones.empty() || zoneOf.empty()) return {};
  const auto z = zoneOf[static_cast<std::size_t>(i)];
  if (z < 0 || static_cast<std::size_t>(z) >= m.fileZones.size()) return {};
  return " of zone '" + m.fileZones[static_cast<std::size_t>(z)] + "'";
}
} // namespace

std::string cell_label(const Mesh& m, idx_t c) {
  const gidx_t id = static_cast<std::size_t>(c) < m.cellFileId.size() ? m.cellFileId[c] : c + 1;
  return "cell " + std::to_string(id) + zone_suffix(m, m.cellFileZone, c);
}

std::string bface_label(const Mesh& m, idx_t f) {
  const gidx_t id = static_cast<std::size_t>(f) < m.bfaceFileId.size() ? m.bfaceFileId[f] : f + 1;
  if (id < 0) return "boundary face #" + std::to_string(f) + " (made by 2D extrusion)";
  return "boundary face " + std::to_string(id) + zone_suffix(m, m.bfaceFileZone, f);
}

} // namespace fv
