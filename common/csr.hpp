#pragma once
/// \file csr.hpp
/// fv::Csr: compressed sparse row connectivity, the one type for every "entity -> list of
/// entities" relation in fvkit (cellFaces, cellCells, cellNodes, faceNodes, nodeFaces, ...).
///
/// Layout: row i holds indices[offsets[i] .. offsets[i+1]).
/// Invariants (checked by check(); in debug builds also on construction):
///   - offsets.size() == rows() + 1 (an empty Csr has no offsets at all, i.e. 0 rows);
///   - offsets[0] == 0, offsets is non-decreasing, offsets[rows()] == indices.size();
///   - indices.size() <= 2^31 - 1 (idx_t offsets);
///   - every index lies in [0, cols) when the column count is known (check(cols)).
/// Storage is two fv::Array, so a Csr may own its data or view a memory-mapped zone file.
#include "common/array.hpp"
#include "common/types.hpp"

#include <vector>

namespace fv {

class Csr {
 public:
  Csr() = default;
  /// Takes offsets (size n+1) and indices; verifies the invariants in debug builds.
  Csr(Array<idx_t> offsets, Array<idx_t> indices);

  /// Builds a Csr from per-row counts: offsets are the prefix sum, indices zero-filled.
  static Csr from_counts(const std::vector<idx_t>& counts);

  idx_t rows() const noexcept {
    return offsets_.empty() ? 0 : static_cast<idx_t>(offsets_.size() - 1);
  }
  idx_t nnz() const noexcept { return static_cast<idx_t>(indices_.size()); }
  idx_t size(idx_t row) const { return offsets_[row + 1] - offsets_[row]; }
  idx_t begin(idx_t row) const { return offsets_[row]; }
  idx_t end(idx_t row) const { return offsets_[row + 1]; }
  /// Pointer to the first index of a row (size(row) entries follow).
  const idx_t* row(idx_t r) const { return indices_.data() + offsets_[r]; }
  idx_t* row(idx_t r) { return indices_.data() + offsets_[r]; }

  const Array<idx_t>& offsets() const noexcept { return offsets_; }
  const Array<idx_t>& indices() const noexcept { return indices_; }
  Array<idx_t>& offsets() noexcept { return offsets_; }
  Array<idx_t>& indices() noexcept { return indices_; }

  /// Throws fv::Error naming `what` if an invariant is violated; cols < 0 skips the range check.
  void check(const char* what, idx_t cols = -1) const;

  /// Transpose: row j of the result lists the rows i that contain j, in increasing i.
  /// `cols` is the number of rows of the result (the column count of this matrix). Large
  /// relations outside a parallel region are transposed by OpenMP threads (same result).
  Csr transpose(idx_t cols) const;

  /// Maximum row length (0 for an empty Csr).
  idx_t max_row_size() const;
  /// The length of every row when all rows have the same one (then row i starts at i times
  /// it); 0 when the lengths differ or there are no rows.
  idx_t uniform_row_size() const;

  /// Deep copy.
  Csr clone() const { return Csr(offsets_.clone(), indices_.clone()); }

  bool operator==(const Csr& o) const;

 private:
  Array<idx_t> offsets_;
  Array<idx_t> indices_;
};

} // namespace fv
