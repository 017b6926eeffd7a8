#pragma once
/// \file profile_report.hpp
/// The per-kernel share of the iteration that fvrun --profile prints and writes to
/// <output_dir>/profile.csv, from the totals of fv::backend::profiling_stop().
#include "runtime/backend/profiler.hpp"

#include <string>
#include <vector>

namespace fv {

/// One row of the profile table: a kernel label, or "(outside kernels)" for the rest of the
/// run loop's wall time (host work, launch gaps, halo exchanges, history output).
struct ProfileShare {
  std::string label;
  long long calls = 0;
  double ms = 0;                 ///< total time over the run, milliseconds
  double percent = 0;            ///< of the run loop's wall time
  double nsPerCellIteration = 0; ///< ms / (cells * iterations), nanoseconds
};

/// Shares of `rows` in `wallSeconds` of `iterations` iterations on `cells` cells; the last row
/// is "(outside kernels)" (never negative), so the percentages add up to 100 when the kernels
/// do not overlap one another.
std::vector<ProfileShare> profile_shares(const std::vector<backend::KernelProfileRow>& rows,
                                         double wallSeconds, int iterations, double cells);

/// Aligned text table (one line per row plus header and total).
std::string profile_table(const std::vector<ProfileShare>& shares);

/// CSV: label,calls,total_ms,percent_of_iteration,ns_per_cell_iteration.
std::string profile_csv(const std::vector<ProfileShare>& shares);

} // namespace fv
