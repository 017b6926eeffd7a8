#include "tests/lusgs/lusgs_zones.hpp"

#include "prep/zones.hpp"

#include <algorithm>
#include <cmath>

namespace fv::testing {

TestZone generated_zone(const GenOptions& o) {
  const Mesh mesh = generate_mesh(o);
  std::vector<idx_t> part(static_cast<std::size_t>(mesh.nCells()), 0);
  PrepOptions po;
  std::vector<Zone> zones = build_zones(mesh, part, 1, po);
  TestZone t;
  t.zone = std::move(zones.at(0));
  t.patches = mesh.patches;
  return t;
}

double max_relative_difference(const Zone& z, const std::vector<double>& a,
                               const std::vector<double>& b) {
  const idx_t n = z.nTotalCells();
  double diff = 0, scale = 0;
  for (int k = 0; k < 5; ++k)
    for (idx_t c = 0; c < z.nCells; ++c) {
      diff = std::max(diff, std::fabs(a[k * n + c] - b[k * n + c]));
      scale = std::max(scale, std::fabs(a[k * n + c]));
    }
  return scale > 0 ? diff / scale : diff;
}

} // namespace fv::testing
