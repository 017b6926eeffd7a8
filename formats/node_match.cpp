#include "formats/node_match.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace fv {

std::vector<std::pair<idx_t, idx_t>> find_coincident_nodes(const std::vector<real_t>& xyz,
                                                           double tol,
                                                           const std::vector<std::int32_t>& group) {
  const idx_t n = static_cast<idx_t>(xyz.size() / 3);
  std::vector<std::pair<idx_t, idx_t>> pairs;
  if (n == 0 || !(tol > 0)) return pairs;
  std::array<double, 3> lo{1e300, 1e300, 1e300};
  for (idx_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      lo[d] = std::min(lo[d], xyz[3 * i + d]);
  const double h = 2.0 * tol;
  using Key = std::array<std::int64_t, 3>;
  auto bin = [&](double v, int d) {
    return static_cast<std::int64_t>(std::floor((v - lo[d]) / h));
  };
  std::vector<std::pair<Key, idx_t>> bins(static_cast<std::size_t>(n));
  for (idx_t i = 0; i < n; ++i)
    bins[i] = {Key{bin(xyz[3 * i], 0), bin(xyz[3 * i + 1], 1), bin(xyz[3 * i + 2], 2)}, i};
  std::sort(bins.begin(), bins.end());
  auto lower = [&](const Key& k) {
    return std::lower_bound(bins.begin(), bins.end(), std::make_pair(k, idx_t(-1)));
  };
  for (idx_t i = 0; i < n; ++i) {
    const real_t* p = &xyz[3 * i];
    std::int64_t b0[3], b1[3];
    for (int d = 0; d < 3; ++d) {
      b0[d] = bin(p[d] - tol, d);
      b1[d] = bin(p[d] + tol, d);
    }
    for (std::int64_t x = b0[0]; x <= b1[0]; ++x)
      for (std::int64_t y = b0[1]; y <= b1[1]; ++y)
        for (std::int64_t z = b0[2]; z <= b1[2]; ++z) {
          const Key k{x, y, z};
          for (auto it = lower(k); it != bins.end() && it->first == k; ++it) {
            const idx_t j = it->second;
            if (j <= i) continue;
            if (!group.empty() && group[i] == group[j]) continue;
            const real_t* q = &xyz[3 * j];
            if (std::fabs(p[0] - q[0]) <= tol && std::fabs(p[1] - q[1]) <= tol &&
                std::fabs(p[2] - q[2]) <= tol)
              pairs.emplace_back(i, j);
          }
        }
  }
  return pairs;
}

std::vector<idx_t> merge_representatives(idx_t n,
                                         const std::vector<std::pair<idx_t, idx_t>>& pairs) {
  std::vector<idx_t> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](idx_t x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (auto [a, b] : pairs) {
    const idx_t ra = find(a), rb = find(b);
    if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  for (idx_t i = 0; i < n; ++i)
    parent[i] = find(i);
  return parent;
}

} // namespace fv
