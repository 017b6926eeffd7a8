// The distributed fvprep's MPI helpers (prep/dist_comm.hpp) under mpiexec -n 1, 2 and 3 (built
// into test_partition_distributed): balanced key ranges and the rank-ordered stream to rank 0.
#include "prep/dist_comm.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace fv;

namespace {

/// Items of every rank whose keys are the smallest of 4 random ids in [0, n): far more low
/// keys than high ones, like the smallest node of a face.
std::vector<std::int64_t> skewed_keys(int rank, std::int64_t n, int count) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(rank) + 11);
  std::vector<std::int64_t> keys(static_cast<std::size_t>(count));
  for (std::int64_t& k : keys) {
    k = n;
    for (int j = 0; j < 4; ++j)
      k = std::min<std::int64_t>(k,
                                 static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
  }
  return keys;
}

TEST(DistComm, BalancedRangesSplitSkewedKeysEvenly) {
  const dist::Comm comm;
  for (const std::int64_t n : {std::int64_t(1000), std::int64_t(3) << 20}) {
    const std::vector<std::int64_t> keys = skewed_keys(comm.rank(), n, 20000);
    const dist::Ranges r =
        dist::balanced_ranges(comm, n, static_cast<std::int64_t>(keys.size()),
                              [&](std::int64_t i) { return keys[static_cast<std::size_t>(i)]; });
    ASSERT_EQ(r.first.size(), static_cast<std::size_t>(comm.size()) + 1);
    EXPECT_EQ(r.first.front(), 0);
    EXPECT_EQ(r.first.back(), n);
    EXPECT_TRUE(std::is_sorted(r.first.begin(), r.first.end()));
    std::vector<std::int64_t> held(static_cast<std::size_t>(comm.size()), 0);
    for (const std::int64_t k : keys) {
      const int o = r.owner(k);
      ASSERT_GE(k, r.first[static_cast<std::size_t>(o)]);
      ASSERT_LT(k, r.first[static_cast<std::size_t>(o) + 1]);
      ++held[static_cast<std::size_t>(o)];
    }
    comm.sum_in_place(held);
    const double fair = 20000.0;                         // items per rank
    const double bin = 4.0 * 20000 * comm.size() / 1000; // most items of one bin at n = 1000
    for (const std::int64_t h : held)
      EXPECT_LE(static_cast<double>(h), fair + bin) << "n " << n;
  }
}

TEST(DistComm, BalancedRangesKeepEqualKeysTogetherAndAllowEmptyRanges) {
  const dist::Comm comm;
  // every item has key 5 of [0, 8): one rank holds them all, the others hold empty ranges
  const dist::Ranges r =
      dist::balanced_ranges(comm, 8, 100, [](std::int64_t) { return std::int64_t(5); });
  EXPECT_EQ(r.first.back(), 8);
  const int o = r.owner(5);
  for (int q = 0; q < comm.size(); ++q)
    if (q != o) {
      const bool holdsFive =
          r.first[static_cast<std::size_t>(q)] <= 5 && 5 < r.first[static_cast<std::size_t>(q) + 1];
      EXPECT_FALSE(holdsFive);
    }
  // no items at all: valid ranges still
  const dist::Ranges e =
      dist::balanced_ranges(comm, 8, 0, [](std::int64_t) { return std::int64_t(0); });
  EXPECT_EQ(e.first.front(), 0);
  EXPECT_EQ(e.first.back(), 8);
}

TEST(DistComm, StreamToRootDeliversEveryRanksBytesInRankOrderInChunks) {
  const dist::Comm comm;
  // rank r sends 37 r + 5 bytes (rank 0's own included), in chunks of 16 bytes
  std::vector<unsigned char> mine(static_cast<std::size_t>(37 * comm.rank() + 5));
  for (std::size_t i = 0; i < mine.size(); ++i)
    mine[i] = static_cast<unsigned char>(comm.rank() * 31 + static_cast<int>(i));
  std::vector<unsigned char> got;
  std::size_t largest = 0;
  dist::stream_to_root(
      comm, mine.data(), mine.size(),
      [&](const unsigned char* p, std::size_t n) {
        got.insert(got.end(), p, p + n);
        largest = std::max(largest, n);
      },
      16);
  if (comm.rank() != 0) {
    EXPECT_TRUE(got.empty());
    return;
  }
  std::vector<unsigned char> expected;
  for (int r = 0; r < comm.size(); ++r)
    for (int i = 0; i < 37 * r + 5; ++i)
      expected.push_back(static_cast<unsigned char>(r * 31 + i));
  EXPECT_EQ(got, expected);
  EXPECT_LE(largest, 16u);
}

} // namespace

namespace {

TEST(DistComm, GroupingByRankKeepsItemOrderOnEveryThreadCount) {
  const dist::Comm comm;
  const std::int64_t n = 300000; // several chunks of items
  auto dest = [&](std::int64_t i) { return static_cast<int>((i * 7919) % 13 % comm.size()); };
  auto size = [](std::int64_t i) { return static_cast<std::int64_t>(i % 4); };
  // the serial reference: items in order within each rank, rows of i % 4 copies of i
  std::vector<std::vector<std::int64_t>> items(static_cast<std::size_t>(comm.size())),
      rows(static_cast<std::size_t>(comm.size()));
  for (std::int64_t i = 0; i < n; ++i) {
    items[static_cast<std::size_t>(dest(i))].push_back(i);
    for (std::int64_t k = 0; k < size(i); ++k)
      rows[static_cast<std::size_t>(dest(i))].push_back(i);
  }
  const auto [grouped, counts] = dist::group_by_rank<std::int64_t>(
      comm, n, dest, [](std::int64_t i, std::int64_t& out) { out = i; });
  const auto [groupedRows, rowCounts] = dist::group_rows_by_rank<std::int64_t>(
      comm, n, dest, size, [&](std::int64_t i, std::int64_t* out) {
        for (std::int64_t k = 0; k < size(i); ++k)
          out[k] = i;
      });
  std::vector<std::int64_t> all, allRows;
  for (int r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(counts[static_cast<std::size_t>(r)],
              static_cast<std::int64_t>(items[static_cast<std::size_t>(r)].size()));
    EXPECT_EQ(rowCounts[static_cast<std::size_t>(r)],
              static_cast<std::int64_t>(rows[static_cast<std::size_t>(r)].size()));
    all.insert(all.end(), items[static_cast<std::size_t>(r)].begin(),
               items[static_cast<std::size_t>(r)].end());
    allRows.insert(allRows.end(), rows[static_cast<std::size_t>(r)].begin(),
                   rows[static_cast<std::size_t>(r)].end());
  }
  EXPECT_EQ(grouped, all);
  EXPECT_EQ(groupedRows, allRows);
  // answers in the grouped order land back at their items
  const std::vector<std::int64_t> pos = dist::answer_positions(comm, n, dest);
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_EQ(grouped[static_cast<std::size_t>(pos[static_cast<std::size_t>(i)])], i);
}

} // namespace
