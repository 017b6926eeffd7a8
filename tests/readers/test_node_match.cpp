// Coincident-node search (formats/node_match.hpp).
#include "formats/node_match.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {

using fv::idx_t;

TEST(NodeMatch, StructuredGridWithDuplicatesAcrossGroups) {
  // two 6x6x6 lattices sharing the plane x = 5: 36 coincident pairs, found only across groups
  std::vector<double> xyz;
  std::vector<std::int32_t> group;
  for (int g = 0; g < 2; ++g)
    for (int k = 0; k < 6; ++k)
      for (int j = 0; j < 6; ++j)
        for (int i = 0; i < 6; ++i) {
          xyz.insert(xyz.end(), {5.0 * g + i + (g ? 1e-12 : 0.0), 1.0 * j, 1.0 * k});
          group.push_back(g);
        }
  const auto pairs = fv::find_coincident_nodes(xyz, 1e-9, group);
  EXPECT_EQ(pairs.size(), 36u);
  for (auto [a, b] : pairs) {
    EXPECT_LT(a, b);
    EXPECT_NE(group[a], group[b]);
    EXPECT_NEAR(xyz[3 * a], 5.0, 1e-9);
  }
  const auto rep = fv::merge_representatives(static_cast<idx_t>(group.size()), pairs);
  int merged = 0;
  for (std::size_t i = 0; i < rep.size(); ++i)
    merged += rep[i] != static_cast<idx_t>(i);
  EXPECT_EQ(merged, 36);
  // within one group nothing coincides
  EXPECT_TRUE(
      fv::find_coincident_nodes(xyz, 1e-9, std::vector<std::int32_t>(group.size(), 0)).empty());
}

TEST(NodeMatch, MatchesBruteForceOnRandomPoints) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> xyz;
  for (int i = 0; i < 400; ++i)
    xyz.insert(xyz.end(), {u(rng), u(rng), u(rng)});
  for (int i = 0; i < 50; ++i) // near copies of the first 50 points
    for (int d = 0; d < 3; ++d)
      xyz.push_back(xyz[3 * i + d] + (u(rng) - 0.5) * 1e-7);
  const double tol = 1e-7;
  const auto pairs = fv::find_coincident_nodes(xyz, tol);
  std::size_t brute = 0;
  const std::size_t n = xyz.size() / 3;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      bool near = true;
      for (int d = 0; d < 3; ++d)
        near &= std::fabs(xyz[3 * a + d] - xyz[3 * b + d]) <= tol;
      brute += near;
    }
  EXPECT_EQ(pairs.size(), brute);
  EXPECT_GE(brute, 50u);
}

} // namespace
