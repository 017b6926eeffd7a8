#include "common/error.hpp"
#include "prep/concurrent_partition.hpp"
#include "prep/partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <sstream>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {

/// Dual graph of an nx * ny * nz block of hexahedra (6-neighbour stencil).
fv::Csr grid_dual_graph(int nx, int ny, int nz) {
  auto id = [&](int i, int j, int k) { return (k * ny + j) * nx + i; };
  std::vector<fv::idx_t> counts;
  std::vector<std::vector<fv::idx_t>> rows;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        std::vector<fv::idx_t> r;
        if (i > 0) r.push_back(id(i - 1, j, k));
        if (i < nx - 1) r.push_back(id(i + 1, j, k));
        if (j > 0) r.push_back(id(i, j - 1, k));
        if (j < ny - 1) r.push_back(id(i, j + 1, k));
        if (k > 0) r.push_back(id(i, j, k - 1));
        if (k < nz - 1) r.push_back(id(i, j, k + 1));
        std::sort(r.begin(), r.end());
        counts.push_back(static_cast<fv::idx_t>(r.size()));
        rows.push_back(r);
      }
  fv::Csr g = fv::Csr::from_counts(counts);
  std::size_t at = 0;
  for (const auto& r : rows)
    for (fv::idx_t v : r)
      g.indices()[at++] = v;
  return g;
}

TEST(Partition, MetisGivesNonEmptyBalancedParts) {
  const fv::Csr g = grid_dual_graph(24, 20, 16); // 7680 cells
  for (auto objective : {fv::PartitionObjective::EdgeCut, fv::PartitionObjective::CommVolume}) {
    for (int parts : {2, 7, 64}) {
      fv::PartitionOptions opt;
      opt.objective = objective;
      opt.imbalance = 1.05;
      const auto part = fv::partition_cells(g, parts, opt);
      ASSERT_EQ(part.size(), static_cast<std::size_t>(g.rows()));
      const fv::PartitionReport r = fv::partition_report(g, part, parts);
      for (int p = 0; p < parts; ++p)
        EXPECT_GT(r.cells[static_cast<std::size_t>(p)], 0) << p;
      // one cell of slack: METIS balances whole cells
      const double avg = static_cast<double>(g.rows()) / parts;
      EXPECT_LE(r.imbalance, opt.imbalance + 1.0 / avg)
          << parts << " parts, " << fv::partition_objective_name(objective);
      // consistency of the report
      EXPECT_EQ(std::accumulate(r.cells.begin(), r.cells.end(), fv::gidx_t{0}), g.rows());
      EXPECT_EQ(std::accumulate(r.interfaceFaces.begin(), r.interfaceFaces.end(), fv::gidx_t{0}),
                2 * r.edgeCut);
      EXPECT_EQ(std::accumulate(r.haloCells.begin(), r.haloCells.end(), fv::gidx_t{0}),
                r.commVolume);
      EXPECT_GT(r.edgeCut, 0);
      for (int nb : r.neighbours)
        EXPECT_GE(nb, 1);
      // a good partition cuts far fewer faces than a random one would (~all 21k faces)
      EXPECT_LT(r.edgeCut, g.nnz() / 4);
    }
  }
}

TEST(Partition, SameSeedSamePartitionAndOnePartSkipsMetis) {
  const fv::Csr g = grid_dual_graph(10, 10, 10);
  fv::PartitionOptions opt;
  opt.seed = 7;
  EXPECT_EQ(fv::partition_cells(g, 5, opt), fv::partition_cells(g, 5, opt));
  const auto one = fv::partition_cells(g, 1);
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](fv::idx_t p) { return p == 0; }));
  const auto r = fv::partition_report(g, one, 1);
  EXPECT_EQ(r.edgeCut, 0);
  EXPECT_DOUBLE_EQ(r.imbalance, 1.0);
}

TEST(Partition, AsManyPartsAsCellsWorksAndMoreIsAUsageError) {
  const fv::Csr g = grid_dual_graph(4, 2, 1); // 8 cells
  const auto part = fv::partition_cells(g, 8);
  auto sorted = part;
  std::sort(sorted.begin(), sorted.end());
  for (int c = 0; c < 8; ++c)
    EXPECT_EQ(sorted[static_cast<std::size_t>(c)], c);
  try {
    fv::partition_cells(g, 9);
    FAIL() << "9 parts of 8 cells accepted";
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("exceeds the number of cells (8)"), std::string::npos);
  }
  EXPECT_THROW(fv::partition_cells(g, 0), fv::Error);
  EXPECT_THROW(fv::parse_partition_objective("speed"), fv::Error);
  EXPECT_EQ(fv::parse_partition_objective("vol"), fv::PartitionObjective::CommVolume);
}

TEST(Partition, ReportPrintsSummaryAndZoneTable) {
  const fv::Csr g = grid_dual_graph(8, 8, 1);
  const auto part = fv::partition_cells(g, 4);
  std::ostringstream os;
  fv::print_partition_report(os, fv::partition_report(g, part, 4), true);
  const std::string s = os.str();
  EXPECT_NE(s.find("64 cells into 4 zones"), std::string::npos) << s;
  EXPECT_NE(s.find("imbalance"), std::string::npos);
  EXPECT_NE(s.find("neighbours"), std::string::npos);
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 5 + 1 + 4);
}

int max_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/// grid_dual_graph with every row's first neighbour repeated and the cell itself added: METIS's
/// graph drops both.
fv::Csr with_repeats_and_self_loops(const fv::Csr& g) {
  std::vector<fv::idx_t> counts;
  for (fv::idx_t c = 0; c < g.rows(); ++c)
    counts.push_back(g.size(c) + 2);
  fv::Csr out = fv::Csr::from_counts(counts);
  for (fv::idx_t c = 0; c < g.rows(); ++c) {
    fv::idx_t* r = out.row(c);
    std::copy(g.row(c), g.row(c) + g.size(c), r);
    r[g.size(c)] = g.row(c)[0];
    r[g.size(c) + 1] = c;
  }
  return out;
}

TEST(ConcurrentPartition, GivesPartitionCellsAndItsReportAndRestoresTheThreads) {
  const int threads = max_threads();
  const fv::Csr plain = grid_dual_graph(24, 20, 16);
  const fv::Csr messy = with_repeats_and_self_loops(plain);
  for (const fv::Csr* g : {&plain, &messy})
    for (int parts : {1, 2, 7, 64}) {
      fv::PartitionOptions opt;
      opt.seed = 3;
      fv::ConcurrentPartition p(parts, opt);
      p.start(*g);
      // the caller's work meanwhile, on the threads left
      double sum = 0;
#pragma omp parallel for reduction(+ : sum)
      for (int i = 0; i < 100000; ++i)
        sum += 1.0 / (1.0 + i);
      EXPECT_GT(sum, 0.0);
      fv::PartitionReport report;
      fv::PrepReport phases;
      const std::vector<fv::idx_t> part = p.finish(&report, &phases);
      const std::vector<fv::idx_t> serial = fv::partition_cells(*g, parts, opt);
      EXPECT_EQ(part, serial) << parts << " parts";
      const fv::PartitionReport expected = fv::partition_report(*g, serial, parts);
      EXPECT_EQ(report.edgeCut, expected.edgeCut);
      EXPECT_EQ(report.commVolume, expected.commVolume);
      EXPECT_EQ(report.cells, expected.cells);
      EXPECT_EQ(report.interfaceFaces, expected.interfaceFaces);
      ASSERT_EQ(phases.phases.size(), 1u);
      EXPECT_EQ(phases.phases[0].name, "partitioning");
      EXPECT_EQ(max_threads(), threads);
    }
}

TEST(ConcurrentPartition, UsageErrorsAtStartAndNoWaitWithoutFinish) {
  const int threads = max_threads();
  const fv::Csr g = grid_dual_graph(4, 2, 1); // 8 cells
  {
    fv::ConcurrentPartition p(9, {});
    try {
      p.start(g);
      FAIL() << "9 parts of 8 cells accepted";
    } catch (const fv::Error& e) {
      EXPECT_EQ(e.kind(), fv::ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find("exceeds the number of cells (8)"), std::string::npos);
    }
  }
  EXPECT_EQ(max_threads(), threads);
  // started, then abandoned (the caller threw): the destructor waits and restores the threads
  {
    const fv::Csr big = grid_dual_graph(30, 30, 30);
    fv::ConcurrentPartition p(16, {});
    p.start(big);
  }
  EXPECT_EQ(max_threads(), threads);
  fv::ConcurrentPartition p(2, {});
  EXPECT_THROW(p.finish(nullptr, nullptr), fv::Error); // finish before start
}

} // namespace
