// The threaded connectivity builders (prep/connectivity.hpp, Csr::transpose,
// first_touch_numbering) against plain one-thread constructions, on relations large enough to
// take the threaded path.
#include "prep/connectivity.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace fv {
namespace {

struct Faces {
  std::vector<idx_t> owner, neighbour;
};

// Random faces between 100k cells: 3 per cell on average, a tenth of them on the boundary.
Faces random_faces(idx_t nCells, idx_t nFaces) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<idx_t> cell(0, nCells - 1);
  Faces f;
  for (idx_t k = 0; k < nFaces; ++k) {
    idx_t a = cell(rng), b = cell(rng);
    if (k % 10 == 0 || a == b) b = kNone;
    f.owner.push_back(b == kNone ? a : std::min(a, b));
    f.neighbour.push_back(b == kNone ? kNone : std::max(a, b));
  }
  return f;
}

TEST(Connectivity, ThreadedBuildersMatchOneThread) {
  const idx_t nc = 100000;
  const Faces f = random_faces(nc, 300000);
  Csr cellFaces;
  std::vector<std::int8_t> sign;
  build_cell_faces(nc, f.owner, f.neighbour, cellFaces, sign);
  // Reference: faces in ascending order appended to their cells.
  std::vector<std::vector<std::pair<idx_t, int>>> ref(static_cast<std::size_t>(nc));
  for (idx_t k = 0; k < static_cast<idx_t>(f.owner.size()); ++k) {
    ref[f.owner[k]].push_back({k, 1});
    if (f.neighbour[k] != kNone) ref[f.neighbour[k]].push_back({k, -1});
  }
  ASSERT_EQ(cellFaces.rows(), nc);
  for (idx_t c = 0; c < nc; ++c) {
    ASSERT_EQ(cellFaces.size(c), static_cast<idx_t>(ref[c].size())) << "cell " << c;
    for (idx_t j = 0; j < cellFaces.size(c); ++j) {
      EXPECT_EQ(cellFaces.row(c)[j], ref[c][j].first);
      EXPECT_EQ(sign[cellFaces.begin(c) + j], ref[c][j].second);
    }
  }
  // The transpose of cellFaces (threaded at this size) lists each face's cells, ascending.
  const Csr faceCells = cellFaces.transpose(static_cast<idx_t>(f.owner.size()));
  for (idx_t k = 0; k < static_cast<idx_t>(f.owner.size()); ++k) {
    std::vector<idx_t> cells{f.owner[k]};
    if (f.neighbour[k] != kNone) cells.push_back(f.neighbour[k]);
    ASSERT_EQ(std::vector<idx_t>(faceCells.row(k), faceCells.row(k) + faceCells.size(k)), cells)
        << "face " << k;
  }
  // Bandwidth through faces equals the bandwidth of the adjacency.
  const Bandwidth a = adjacency_bandwidth(build_cell_cells(cellFaces, f.owner, f.neighbour));
  const Bandwidth b = face_bandwidth(nc, f.owner, f.neighbour);
  EXPECT_EQ(a.bandwidth, b.bandwidth);
  EXPECT_EQ(a.profile, b.profile);
}

TEST(Connectivity, FirstTouchNumberingFollowsRowOrder) {
  std::mt19937 rng(3);
  const idx_t n = 50000, rows = 40000;
  std::vector<idx_t> counts(static_cast<std::size_t>(rows));
  for (idx_t& c : counts)
    c = 4 + static_cast<idx_t>(rng() % 5);
  Csr a = Csr::from_counts(counts);
  for (idx_t& v : a.indices())
    v = static_cast<idx_t>(rng() % static_cast<unsigned>(n - 100)); // the last 100 never occur
  const std::vector<idx_t> got = first_touch_numbering(a, n);
  std::vector<idx_t> ref(static_cast<std::size_t>(n), kNone);
  idx_t next = 0;
  for (idx_t v : a.indices())
    if (ref[v] == kNone) ref[v] = next++;
  EXPECT_EQ(got, ref);
}

} // namespace
} // namespace fv
