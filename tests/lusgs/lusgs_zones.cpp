#include "tests/lusgs/lusgs_zones.hpp"

#include "prep/zones.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fv::testing {

GenOptions transonic_channel_options() {
  GenOptions o;
  o.family = MeshFamily::Channel;
  o.cells = GenCells::Hex;
  o.n = {48, 16, 1};
  o.extent = {3, 1, 1.0 / 16};
  o.bumpHeight = 0.03;
  return o;
}

TestZone generated_zone(const GenOptions& o, int parts, int zone) {
  const Mesh mesh = generate_mesh(o);
  const idx_t n = mesh.nCells();
  std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
  for (idx_t c = 0; c < n; ++c)
    part[c] = static_cast<idx_t>(static_cast<std::int64_t>(c) * parts / n);
  PrepOptions po;
  std::vector<Zone> zones = build_zones(mesh, part, parts, po);
  TestZone t;
  t.zone = std::move(zones.at(static_cast<std::size_t>(zone)));
  t.patches = mesh.patches;
  return t;
}

std::string channel_patches(const std::string& inlet, const std::string& outlet) {
  return "\n[patch inlet]\ntype = " + inlet + "\n[patch outlet]\ntype = " + outlet +
         "\n[patch lower_wall]\ntype = slip_wall\n[patch upper_wall]\ntype = slip_wall\n"
         "[patch side1]\ntype = symmetry\n[patch side2]\ntype = symmetry\n";
}

double max_relative_difference(const Zone& z, const std::vector<double>& a,
                               const std::vector<double>& b) {
  const idx_t n = z.nTotalCells();
  double diff = 0, scale = 0;
  for (int k = 0; k < 5; ++k)
    for (idx_t c = 0; c < z.nCells; ++c) {
      if (!std::isfinite(a[k * n + c]) || !std::isfinite(b[k * n + c]))
        return std::numeric_limits<double>::infinity();
      diff = std::max(diff, std::fabs(a[k * n + c] - b[k * n + c]));
      scale = std::max(scale, std::fabs(a[k * n + c]));
    }
  return scale > 0 ? diff / scale : diff;
}

} // namespace fv::testing
