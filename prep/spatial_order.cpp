#include "prep/spatial_order.hpp"

#include "prep/parallel_sort.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace fv {

namespace {

// Spreads the low 21 bits of v so that bit i lands on bit 3i.
std::uint64_t spread3(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

} // namespace

std::uint64_t morton_key(const real_t x[3], const real_t lo[3], const real_t hi[3]) {
  constexpr real_t kMax = real_t((1 << 21) - 1);
  std::uint64_t key = 0;
  for (int d = 0; d < 3; ++d) {
    const real_t ext = hi[d] - lo[d];
    real_t t = ext > 0 ? (x[d] - lo[d]) / ext : 0.0;
    if (!(t > 0)) t = 0; // also NaN
    if (t > 1) t = 1;
    key |= spread3(static_cast<std::uint64_t>(t * kMax)) << d;
  }
  return key;
}

void morton_cube(real_t lo[3], real_t hi[3]) {
  // A cube around the mesh: one scale for all axes, so that the curve's cells are cubes and
  // a long thin domain is swept block by block rather than slab by slab.
  real_t ext = 0;
  for (int d = 0; d < 3; ++d)
    ext = std::max(ext, hi[d] - lo[d]);
  for (int d = 0; d < 3; ++d)
    hi[d] = lo[d] + ext;
}

std::uint64_t cell_morton_key(const Mesh& mesh, idx_t c, const real_t lo[3], const real_t hi[3]) {
  const idx_t* nodes = mesh.cellNodes.row(c);
  return mean_point_morton_key(
      mesh.cellNodes.size(c),
      [&](idx_t k) { return mesh.xyz.data() + 3 * static_cast<std::size_t>(nodes[k]); }, lo, hi);
}

std::vector<idx_t> spatial_cell_order(const Mesh& mesh) {
  const idx_t nc = mesh.nCells(), nn = mesh.nNodes();
  real_t lo[3] = {std::numeric_limits<real_t>::max(), std::numeric_limits<real_t>::max(),
                  std::numeric_limits<real_t>::max()};
  real_t hi[3] = {-lo[0], -lo[1], -lo[2]};
  for (idx_t v = 0; v < nn; ++v)
    for (int d = 0; d < 3; ++d) {
      const real_t x = mesh.xyz[3 * static_cast<std::size_t>(v) + d];
      lo[d] = std::min(lo[d], x);
      hi[d] = std::max(hi[d], x);
    }
  morton_cube(lo, hi);
  // (key, cell): sorting the pairs orders ties by cell id, i.e. file order.
  std::vector<std::pair<std::uint64_t, idx_t>> keyed(static_cast<std::size_t>(nc));
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nc; ++c)
    keyed[static_cast<std::size_t>(c)] = {cell_morton_key(mesh, c, lo, hi), c};
  parallel_sort(keyed.begin(), keyed.end(), std::less<std::pair<std::uint64_t, idx_t>>());
  std::vector<idx_t> order(static_cast<std::size_t>(nc));
#pragma omp parallel for schedule(static)
  for (idx_t i = 0; i < nc; ++i)
    order[static_cast<std::size_t>(i)] = keyed[static_cast<std::size_t>(i)].second;
  return order;
}

} // namespace fv
