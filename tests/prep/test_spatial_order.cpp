// The Morton cell order: fvprep's global order.
#include "box_mesh.hpp"

#include "prep/global_mesh.hpp"
#include "prep/id_set.hpp"
#include "prep/parallel_sort.hpp"
#include "prep/spatial_order.hpp"
#include "prep/zones.hpp"

#include <gtest/gtest.h>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace fv {
namespace {

using testing::BoxCells;
using testing::BoxSpec;
using testing::make_box_mesh;

std::array<double, 3> node_average(const Mesh& m, idx_t c) {
  std::array<double, 3> x{0, 0, 0};
  const idx_t n = m.cellNodes.size(c);
  for (idx_t k = 0; k < n; ++k)
    for (int d = 0; d < 3; ++d)
      x[d] += m.xyz[3 * m.cellNodes.row(c)[k] + d] / n;
  return x;
}

// Mean distance between the node averages of consecutive cells of an order.
double mean_step(const Mesh& m, const std::vector<idx_t>& order) {
  double s = 0;
  for (std::size_t i = 1; i < order.size(); ++i) {
    const auto a = node_average(m, order[i - 1]), b = node_average(m, order[i]);
    s += std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
  }
  return s / static_cast<double>(order.size() - 1);
}

TEST(MortonKey, InterleavesTheAxesFromTheBoxCorner) {
  const real_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const real_t o[3] = {0, 0, 0}, x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, z[3] = {0, 0, 1},
               all[3] = {1, 1, 1}, out[3] = {-5, 7, NAN};
  EXPECT_EQ(morton_key(o, lo, hi), 0u);
  // The top bit of each axis lands on bits 60 (x), 61 (y), 62 (z).
  EXPECT_EQ(morton_key(x, lo, hi), 0x1249249249249249ULL);
  EXPECT_EQ(morton_key(y, lo, hi), 0x1249249249249249ULL << 1);
  EXPECT_EQ(morton_key(z, lo, hi), 0x1249249249249249ULL << 2);
  EXPECT_EQ(morton_key(all, lo, hi), (std::uint64_t(1) << 63) - 1);
  // Outside the box (and NaN) clamps to its faces.
  EXPECT_EQ(morton_key(out, lo, hi), 0x1249249249249249ULL << 1);
}

TEST(SpatialCellOrder, IsADeterministicPermutationOfNearbyCells) {
  for (BoxCells cells : {BoxCells::Hex, BoxCells::Tet, BoxCells::Mixed}) {
    BoxSpec spec;
    spec.cells = cells;
    spec.nx = 12, spec.ny = 9, spec.nz = 7;
    spec.shuffle = true;
    spec.jitter = 0.1;
    const Mesh m = make_box_mesh(spec);
    const std::vector<idx_t> order = spatial_cell_order(m);
    std::vector<idx_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<idx_t> ids(static_cast<std::size_t>(m.nCells()));
    std::iota(ids.begin(), ids.end(), 0);
    ASSERT_EQ(sorted, ids) << "not a permutation";
    // Shuffled file order jumps across the box; the Morton order steps to near cells.
    EXPECT_LT(4 * mean_step(m, order), mean_step(m, ids))
        << mean_step(m, order) << " vs " << mean_step(m, ids);
#if defined(_OPENMP)
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    EXPECT_EQ(spatial_cell_order(m), order) << "depends on the thread count";
    omp_set_num_threads(threads);
#endif
  }
}

TEST(GlobalMesh, MortonOrderIsLocalAndTheZoneRcmIsBanded) {
  BoxSpec spec;
  spec.cells = BoxCells::Tet;
  spec.nx = 14, spec.ny = 11, spec.nz = 9;
  spec.shuffle = true;
  const Mesh m = make_box_mesh(spec);
  PrepReport r;
  const GlobalMesh g = build_global_mesh(m, PrepOptions{}, &r);
  EXPECT_GT(r.before.profile, 5 * r.after.profile) << r.before.profile << " -> " << r.after.profile;
  build_zones(g, std::vector<idx_t>(static_cast<std::size_t>(m.nCells()), 0), 1, PrepOptions{}, &r);
  // An RCM of a 14 x 11 x 9 box advances a plane of about 11 x 9 x 6 tetrahedra at a time.
  EXPECT_LT(r.zones.at(0).bandwidth.bandwidth, 3 * 11 * 9 * 6) << r.zones.at(0).bandwidth.bandwidth;
}

TEST(ParallelSort, MergeOfSortedRunsSortsAnyNumberOfRunsIncludingEmptyOnes) {
  std::mt19937 rng(5);
  for (int nRuns : {1, 2, 3, 8, 17}) {
    std::vector<int> v;
    std::vector<std::int64_t> runs{0};
    for (int r = 0; r < nRuns; ++r) {
      std::vector<int> run(static_cast<std::size_t>(r % 3 == 1 ? 0 : rng() % 50));
      for (int& x : run)
        x = static_cast<int>(rng() % 100);
      std::sort(run.begin(), run.end());
      v.insert(v.end(), run.begin(), run.end());
      runs.push_back(static_cast<std::int64_t>(v.size()));
    }
    std::vector<int> expected = v;
    std::sort(expected.begin(), expected.end());
    merge_sorted_runs(v, runs, std::less<int>());
    EXPECT_EQ(v, expected) << nRuns << " runs";
  }
}

TEST(IdSet, ListsAndRanksItsIdsAsASortedDeduplicatedListWould) {
  std::mt19937 rng(7);
  for (const gidx_t n : {gidx_t(1), gidx_t(63), gidx_t(64), gidx_t(65), gidx_t(1000)}) {
    std::vector<idx_t> ids(static_cast<std::size_t>(rng() % (2 * n + 1)));
    for (idx_t& x : ids)
      x = static_cast<idx_t>(rng() % static_cast<std::uint32_t>(n));
    IdSet set(n);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < ids.size(); ++i)
      set.insert(ids[i]);
    set.freeze();
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    EXPECT_EQ(set.ids(), ids) << n;
    EXPECT_EQ(set.size(), static_cast<gidx_t>(ids.size()));
    for (gidx_t id = 0; id < n; ++id) {
      const auto below = std::lower_bound(ids.begin(), ids.end(), id) - ids.begin();
      EXPECT_EQ(set.rank(id), below) << id;
      EXPECT_EQ(set.contains(id), std::binary_search(ids.begin(), ids.end(), id)) << id;
    }
  }
}

} // namespace
} // namespace fv
