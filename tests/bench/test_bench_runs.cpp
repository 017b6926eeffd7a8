// fvbench --runs: merging complete measurements into run-to-run deviations, and their CSV.
#include "bench/fvbench/benchmark.hpp"
#include "common/error.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {
fv::bench::BenchReport report(double a, double b, double c) {
  fv::bench::BenchReport r;
  r.device = "test device";
  r.mesh = "m";
  r.date = "2026-01-01T00:00:00Z";
  r.rows.push_back({"ceiling", "theoretical", "", 0, 0, 0, 1000, 0, 0, 0, "no time"});
  r.rows.push_back({"kernel", "flux_sum", "", a, a, 1, 1, 1, 1, 1, ""});
  r.rows.push_back({"variant", "residual_assembly", "smem", b, b, 1, 1, 1, 1, 1, ""});
  r.rows.push_back({"stage", "rk_stage_total", "gather", c, c, 0, 0, 0, 1, 0, ""});
  return r;
}
} // namespace

TEST(BenchRuns, DeviationPerRowAndFlag) {
  std::vector<fv::bench::BenchReport> runs = {report(2.0, 1.0, 4.0), report(2.1, 1.0, 3.0),
                                              report(1.9, 1.02, 4.0)};
  const fv::bench::BenchReport m = fv::bench::merge_runs(runs);
  EXPECT_EQ(m.runs, 3);
  ASSERT_EQ(m.spread.size(), 4u);
  // run 1's values are kept; the others are listed per row
  EXPECT_DOUBLE_EQ(m.rows[1].medianMs, 2.0);
  ASSERT_EQ(m.spread[1].medianMs.size(), 2u);
  EXPECT_DOUBLE_EQ(m.spread[1].medianMs[0], 2.1);
  EXPECT_DOUBLE_EQ(m.spread[1].medianMs[1], 1.9);
  EXPECT_NEAR(m.spread[0].devPct, 0.0, 1e-12); // no time: no deviation
  EXPECT_NEAR(m.spread[1].devPct, 100.0 * (2.1 - 1.9) / 1.9, 1e-9);
  EXPECT_NEAR(m.spread[2].devPct, 2.0, 1e-9);
  EXPECT_NEAR(m.spread[3].devPct, 100.0 / 3.0, 1e-9);

  std::ostringstream table;
  fv::bench::print_report(m, table);
  EXPECT_NE(table.str().find("dev%"), std::string::npos) << table.str();
  // flux_sum (10.5 %) and the stage (33 %) are above 5 %, the smem variant (2 %) is not
  EXPECT_NE(table.str().find("reproducibility: 2 of 4 rows"), std::string::npos) << table.str();

  const std::string csv = fv::testing::scratch_dir() + "/runs.csv";
  std::remove(csv.c_str());
  fv::bench::append_csv(m, csv);
  fv::bench::append_csv(fv::bench::merge_runs({report(1, 1, 1)}), csv); // single run: empty
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_NE(header.find(",runs,run2_median_ms,run_dev_pct,reproducible"), std::string::npos);
  std::vector<std::string> lines;
  while (std::getline(in, line))
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_NE(lines[1].find(",3,2.1,"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[1].substr(lines[1].size() - 3), ",no");
  EXPECT_EQ(lines[2].substr(lines[2].size() - 4), ",yes");
  EXPECT_EQ(lines[5].substr(lines[5].size() - 5), ",1,,,");
}

TEST(BenchRuns, MismatchedRowsAndOldCsvAreErrors) {
  fv::bench::BenchReport a = report(1, 1, 1), b = report(1, 1, 1);
  b.rows[2].variant = "gather";
  EXPECT_THROW(fv::bench::merge_runs({a, b}), fv::Error);
  b.rows.pop_back();
  EXPECT_THROW(fv::bench::merge_runs({a, b}), fv::Error);
  EXPECT_THROW(fv::bench::merge_runs({}), fv::Error);
  const std::string csv = fv::testing::scratch_dir() + "/old.csv";
  std::ofstream(csv) << "date,device,mesh\n1,2,3\n";
  EXPECT_THROW(fv::bench::append_csv(a, csv), fv::Error);
}
