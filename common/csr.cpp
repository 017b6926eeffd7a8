#include "common/csr.hpp"
#include "common/relaxed_atomics.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

Csr::Csr(Array<idx_t> offsets, Array<idx_t> indices)
    : offsets_(std::move(offsets)), indices_(std::move(indices)) {
#if defined(FV_DEBUG)
  check("Csr");
#endif
}

Csr Csr::from_counts(const std::vector<idx_t>& counts) {
  std::vector<idx_t> off(counts.size() + 1);
  std::int64_t total = 0;
  off[0] = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    total += counts[i];
    FV_VERIFY(total <= std::numeric_limits<idx_t>::max(),
              "connectivity too large for 32-bit offsets (" << total << " entries)");
    off[i + 1] = static_cast<idx_t>(total);
  }
  return Csr(Array<idx_t>(std::move(off)), Array<idx_t>(static_cast<std::size_t>(total)));
}

void Csr::check(const char* what, idx_t cols) const {
  if (offsets_.empty()) {
    FV_VERIFY(indices_.empty(), what << ": CSR has indices but no offsets");
    return;
  }
  FV_VERIFY(offsets_[0] == 0, what << ": CSR offsets[0] = " << offsets_[0] << ", expected 0");
  const std::size_t n = offsets_.size() - 1;
  for (std::size_t i = 0; i < n; ++i)
    FV_VERIFY(offsets_[i] <= offsets_[i + 1], what << ": CSR offsets decrease at row " << i << " ("
                                                   << offsets_[i] << " > " << offsets_[i + 1]
                                                   << ")");
  FV_VERIFY(static_cast<std::size_t>(offsets_[n]) == indices_.size(),
            what << ": CSR offsets end at " << offsets_[n] << " but there are " << indices_.size()
                 << " indices");
  if (cols >= 0) {
    for (std::size_t k = 0; k < indices_.size(); ++k)
      FV_VERIFY(indices_[k] >= 0 && indices_[k] < cols, what << ": CSR index " << indices_[k]
                                                             << " at entry " << k << " outside [0, "
                                                             << cols << ")");
  }
}

Csr Csr::transpose(idx_t cols) const {
  std::vector<idx_t> counts(static_cast<std::size_t>(cols), 0);
#if defined(_OPENMP)
  const std::int64_t n = indices_.size();
  // Large relations outside a parallel region: counts and slots by atomic adds, then every row
  // sorted, which gives the one-thread result (rows ascending) for any thread count.
  if (n > 200000 && !omp_in_parallel() && omp_get_max_threads() > 1) {
    bool inRange = true;
#pragma omp parallel for schedule(static) reduction(&& : inRange)
    for (std::int64_t k = 0; k < n; ++k) {
      const idx_t j = indices_[k];
      if (j < 0 || j >= cols)
        inRange = false;
      else
        fetch_increment(counts[static_cast<std::size_t>(j)]);
    }
    FV_VERIFY(inRange, "transpose: an index lies outside [0," << cols << ")");
    Csr t = from_counts(counts);
    std::vector<idx_t> fill(t.offsets_.begin(), t.offsets_.end() - 1);
    idx_t* out = t.indices_.data();
#pragma omp parallel for schedule(static)
    for (idx_t i = 0; i < rows(); ++i)
      for (idx_t k = begin(i); k < end(i); ++k)
        out[fetch_increment(fill[static_cast<std::size_t>(indices_[k])])] = i;
#pragma omp parallel for schedule(static)
    for (idx_t j = 0; j < cols; ++j)
      std::sort(t.row(j), t.row(j) + t.size(j));
    return t;
  }
#endif
  for (idx_t j : indices_) {
    FV_ASSERT(j >= 0 && j < cols, "transpose: index " << j << " outside [0," << cols << ")");
    ++counts[static_cast<std::size_t>(j)];
  }
  Csr t = from_counts(counts);
  std::vector<idx_t> fill(t.offsets_.begin(), t.offsets_.end() - 1);
  idx_t* out = t.indices_.data();
  for (idx_t i = 0; i < rows(); ++i)
    for (idx_t k = begin(i); k < end(i); ++k)
      out[fill[static_cast<std::size_t>(indices_[k])]++] = i;
  return t;
}

idx_t Csr::max_row_size() const {
  idx_t m = 0;
  for (idx_t i = 0; i < rows(); ++i)
    m = std::max(m, size(i));
  return m;
}

idx_t Csr::uniform_row_size() const {
  if (rows() == 0) return 0;
  const idx_t k = size(0);
  for (idx_t i = 1; i < rows(); ++i)
    if (size(i) != k) return 0;
  return k;
}

bool Csr::operator==(const Csr& o) const {
  return offsets_.size() == o.offsets_.size() && indices_.size() == o.indices_.size() &&
         std::equal(offsets_.begin(), offsets_.end(), o.offsets_.begin()) &&
         std::equal(indices_.begin(), indices_.end(), o.indices_.begin());
}

} // namespace fv
