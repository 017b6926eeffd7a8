#pragma once
/// \file history_file.hpp
/// Convergence history (history.csv): one row per recorded iteration,
///   iteration,<columns...>      e.g. iteration,res_rho,res_rhoU,...,CL,CD,wall_time
///
/// Policy: REWRITTEN, not appended. The rows live in memory and flush() rewrites the whole file
/// through fv::AtomicFile (temporary + rename) at each output interval. Why: the file on disk
/// is then always a complete CSV (an append interrupted by a crash or a full disk leaves a torn
/// last line), and a restart from iteration N can drop the rows after N that the crashed run
/// had already logged (resume()), which an append-only file cannot do without rewriting
/// anyway. Optional '#' comment lines (e.g. the run's configuration) precede the header; a
/// resumed file's comments are available to the new run (resumed_comments()), which writes
/// its own (set_comments()). The cost is small: ~200 bytes per row, so 100k rows are ~20 MB
/// rewritten per output interval, not per iteration.
#include <cstdint>
#include <string>
#include <vector>

namespace fv {

/// Convergence history of one run. Only the writing rank (rank 0) creates one.
class HistoryFile {
 public:
  /// `columns` are the names after "iteration" (no commas, quotes or newlines).
  HistoryFile(std::string path, std::vector<std::string> columns);

  /// For a restart at `last_iteration`: loads the existing file (if any), checks that its
  /// header matches the columns, and keeps its rows with iteration <= last_iteration (and its
  /// '#' comment lines in resumed_comments()). Returns the number of rows kept. A malformed
  /// file is an fv::Error naming its line.
  std::size_t resume(std::int64_t last_iteration);

  /// Comment text written before the header, one "# " line per line of `text`.
  void set_comments(const std::string& text) { comments_ = text; }
  /// The comment lines of the file that resume() read, without their "#" and one space.
  const std::vector<std::string>& resumed_comments() const { return resumedComments_; }
  /// Significant digits of the values (default 10; 17 keeps doubles exact).
  void set_precision(int digits) { digits_ = digits; }
  /// Value of column `k` in row `r` (r < rows(), k < columns().size()).
  double value(std::size_t r, std::size_t k) const { return values_[r * columns_.size() + k]; }
  std::int64_t iteration(std::size_t r) const { return iterations_[r]; }

  /// Records one row (values.size() == columns().size(); iterations must increase).
  void add(std::int64_t iteration, const std::vector<double>& values);

  /// Rewrites the file atomically with every row recorded so far.
  void flush() const;

  const std::string& path() const { return path_; }
  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rows() const { return iterations_.size(); }

 private:
  std::string path_;
  std::vector<std::string> columns_;
  std::vector<std::int64_t> iterations_;
  std::vector<double> values_; // rows() x columns_.size()
  std::string comments_;
  std::vector<std::string> resumedComments_;
  int digits_ = 10;
};

} // namespace fv
