// Index arithmetic of structured blocks: cells, side faces, ranges and 1-to-1 transforms.
#include "common/error.hpp"
#include "formats/structured_block.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using fv::BlockFace;
using fv::PointSetAt;
using fv::StructuredBlock;
using Ijk = std::array<std::int64_t, 3>;

StructuredBlock block(std::int64_t ni, std::int64_t nj, std::int64_t nk) {
  StructuredBlock b;
  b.dim = nk > 0 ? 3 : 2;
  b.nv = {ni, nj, nk > 0 ? nk : 1};
  return b;
}

TEST(StructuredBlock, CellsAndFacesCoverTheBlock) {
  const StructuredBlock b = block(4, 3, 2);
  EXPECT_EQ(b.n_cells(), 3 * 2 * 1);
  const auto conn = fv::block_cells(b, false);
  ASSERT_EQ(conn.size(), 8u * 6u);
  // first cell: i fastest, bottom quad counter-clockwise seen from +k, then the top
  const std::vector<std::int64_t> first(conn.begin(), conn.begin() + 8);
  EXPECT_EQ(first, (std::vector<std::int64_t>{0, 1, 5, 4, 12, 13, 17, 16}));
  const auto mirrored = fv::block_cells(b, true);
  EXPECT_EQ(std::vector<std::int64_t>(mirrored.begin(), mirrored.begin() + 8),
            (std::vector<std::int64_t>{12, 13, 17, 16, 0, 1, 5, 4}));
  // 2 (2x1) + 2 (3x1) + 2 (3x2) side faces, every one distinct
  const auto faces = fv::block_boundary_faces(b);
  EXPECT_EQ(faces.size(), 2u * 2 + 2u * 3 + 2u * 6);
  std::set<std::vector<std::int64_t>> distinct;
  for (const BlockFace& f : faces) {
    std::int64_t n[4];
    ASSERT_EQ(fv::block_face_nodes(b, f, n), 4);
    std::vector<std::int64_t> key(n, n + 4);
    std::sort(key.begin(), key.end());
    distinct.insert(key);
  }
  EXPECT_EQ(distinct.size(), faces.size());
}

TEST(StructuredBlock, LeftHandedBlockIsDetected) {
  const StructuredBlock b = block(2, 2, 2);
  std::vector<double> xyz;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        xyz.insert(xyz.end(), {double(i), double(j), double(k)});
  EXPECT_FALSE(fv::block_is_left_handed(b, xyz));
  for (std::size_t n = 0; n < xyz.size(); n += 3)
    xyz[n + 2] = -xyz[n + 2];
  EXPECT_TRUE(fv::block_is_left_handed(b, xyz));
}

TEST(StructuredBlock, RangesNameFacesAtVerticesAndFaceCentres) {
  const StructuredBlock b = block(4, 3, 3);
  const auto faces = fv::block_boundary_faces(b);
  auto count = [&](PointSetAt at, Ijk lo, Ijk hi) {
    int n = 0;
    for (const BlockFace& f : faces)
      n += fv::face_in_range(b, f, at, lo, hi);
    return n;
  };
  EXPECT_EQ(count(PointSetAt::Vertex, {1, 1, 1}, {1, 3, 3}), 4);     // the whole imin side
  EXPECT_EQ(count(PointSetAt::Vertex, {1, 1, 1}, {1, 2, 3}), 2);     // half of it
  EXPECT_EQ(count(PointSetAt::Vertex, {1, 1, 1}, {4, 1, 1}), 0);     // an edge names no face
  EXPECT_EQ(count(PointSetAt::FaceCenter, {4, 1, 1}, {4, 2, 2}), 4); // imax by face index
  EXPECT_EQ(count(PointSetAt::FaceCenter, {1, 1, 3}, {3, 2, 3}), 6); // kmax
  EXPECT_EQ(count(PointSetAt::FaceCenter, {1, 1, 1}, {3, 2, 2}), 0); // a volume range
  // 2D: edges
  const StructuredBlock q = block(5, 3, 0);
  const auto edges = fv::block_boundary_faces(q);
  EXPECT_EQ(edges.size(), 2u * 2 + 2u * 4);
  int jmax = 0;
  for (const BlockFace& f : edges)
    jmax += fv::face_in_range(q, f, PointSetAt::Vertex, {1, 3, 1}, {5, 3, 1});
  EXPECT_EQ(jmax, 4);
}

TEST(StructuredBlock, OneToOneTransformPairsNodes) {
  const StructuredBlock a = block(3, 3, 3), b = block(3, 3, 3);
  // (iA, jA, kA) -> (4 - jA, iA - 2, 4 - kA), as in the two-block CGNS test file
  const auto pairs = fv::one_to_one_pairs(a, b, {3, 1, 1}, {3, 3, 3}, {3, 1, 3}, {2, -1, -3}, "t");
  ASSERT_EQ(pairs.size(), 9u);
  for (auto [na, nb] : pairs) {
    const std::int64_t ia = na % 3 + 1, ja = na / 3 % 3 + 1, ka = na / 9 + 1;
    EXPECT_EQ(ia, 3);
    EXPECT_EQ(nb, b.node({4 - ja, ia - 2, 4 - ka}));
  }
  EXPECT_THROW(fv::one_to_one_pairs(a, b, {3, 1, 1}, {3, 3, 3}, {3, 1, 3}, {2, 2, -3}, "t"),
               fv::Error);
  EXPECT_THROW(fv::one_to_one_pairs(a, b, {3, 1, 1}, {3, 3, 3}, {1, 1, 1}, {2, -1, -3}, "t"),
               fv::Error);
  EXPECT_THROW(fv::one_to_one_pairs(a, b, {3, 1, 1}, {3, 4, 3}, {3, 1, 3}, {2, -1, -3}, "t"),
               fv::Error);
}

} // namespace
