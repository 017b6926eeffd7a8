#include "formats/node_match.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#if defined(_OPENMP)
#include <parallel/algorithm>
#endif

namespace fv {

std::vector<std::pair<idx_t, idx_t>> find_coincident_nodes(const std::vector<real_t>& xyz,
                                                           double tol,
                                                           const std::vector<std::int32_t>& group) {
  const idx_t n = static_cast<idx_t>(xyz.size() / 3);
  std::vector<std::pair<idx_t, idx_t>> pairs;
  if (n == 0 || !(tol > 0)) return pairs;
  // Project on a direction with rationally independent components, so that the nodes of
  // structured (axis-aligned, evenly spaced) grids get distinct projections, then sweep.
  const double u[3] = {1.0, std::sqrt(2.0), std::sqrt(3.0)};
  const double window = tol * (u[0] + u[1] + u[2]); // |u.(p-q)| bound when |p-q|_inf <= tol
  std::vector<std::pair<double, idx_t>> proj(static_cast<std::size_t>(n));
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
  for (idx_t i = 0; i < n; ++i) {
    const real_t* p = &xyz[3 * static_cast<std::size_t>(i)];
    proj[static_cast<std::size_t>(i)] = {u[0] * p[0] + u[1] * p[1] + u[2] * p[2], i};
  }
#if defined(_OPENMP)
  __gnu_parallel::sort(proj.begin(), proj.end()); // (projection, id): a total order
#else
  std::sort(proj.begin(), proj.end());
#endif
  // The sweep in parallel: each thread collects the pairs of its starting points.
  const std::int64_t np = static_cast<std::int64_t>(proj.size());
#if defined(_OPENMP)
#pragma omp parallel
#endif
  {
    std::vector<std::pair<idx_t, idx_t>> mine;
#if defined(_OPENMP)
#pragma omp for schedule(static) nowait
#endif
    for (std::int64_t a = 0; a < np; ++a) {
      const idx_t i = proj[static_cast<std::size_t>(a)].second;
      const real_t* p = &xyz[3 * static_cast<std::size_t>(i)];
      for (std::int64_t b = a + 1; b < np && proj[static_cast<std::size_t>(b)].first -
                                                     proj[static_cast<std::size_t>(a)].first <=
                                                 window;
           ++b) {
        const idx_t j = proj[static_cast<std::size_t>(b)].second;
        if (!group.empty() &&
            group[static_cast<std::size_t>(i)] == group[static_cast<std::size_t>(j)])
          continue;
        const real_t* q = &xyz[3 * static_cast<std::size_t>(j)];
        if (std::fabs(p[0] - q[0]) <= tol && std::fabs(p[1] - q[1]) <= tol &&
            std::fabs(p[2] - q[2]) <= tol)
          mine.emplace_back(std::min(i, j), std::max(i, j));
      }
    }
#if defined(_OPENMP)
#pragma omp critical(fv_node_match)
#endif
    pairs.insert(pairs.end(), mine.begin(), mine.end());
  }
  std::sort(pairs.begin(), pairs.end());
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
