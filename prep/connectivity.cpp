#include "prep/connectivity.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <numeric>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

namespace {

/// Reserves the next slot of `counter` (relaxed atomic fetch-and-add).
inline idx_t take_slot(idx_t& counter) {
  return __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
}

} // namespace

// The builders below scatter in parallel: counts and slots by atomic adds, so the order inside
// a row depends on the threads until each row is sorted, which makes every result the same for
// any thread count. On a large mesh in a poor order each scatter is a cache miss; threads
// overlap them (see docs/performance.md, fvprep at scale).

namespace {

/// Threads pay off for large relations outside a parallel region (a zone built by one thread
/// of fvprep's pipeline takes the serial path, which needs no atomics and no sorting).
bool use_threads(std::int64_t work) {
#if defined(_OPENMP)
  return work > 200000 && !omp_in_parallel() && omp_get_max_threads() > 1;
#else
  (void)work;
  return false;
#endif
}

/// build_cell_faces() in one thread: faces visited in ascending order fill sorted rows.
void build_cell_faces_serial(idx_t nCells, const std::vector<idx_t>& owner,
                             const std::vector<idx_t>& neighbour, Csr& cellFaces,
                             std::vector<std::int8_t>& sign) {
  const idx_t nFaces = static_cast<idx_t>(owner.size());
  std::vector<idx_t> counts(static_cast<std::size_t>(nCells), 0);
  for (idx_t f = 0; f < nFaces; ++f) {
    ++counts[owner[f]];
    if (neighbour[f] != kNone && neighbour[f] < nCells) ++counts[neighbour[f]];
  }
  cellFaces = Csr::from_counts(counts);
  sign.assign(static_cast<std::size_t>(cellFaces.nnz()), 0);
  std::vector<idx_t> fill(cellFaces.offsets().begin(), cellFaces.offsets().end() - 1);
  idx_t* out = cellFaces.indices().data();
  for (idx_t f = 0; f < nFaces; ++f) {
    const idx_t o = owner[f], n = neighbour[f];
    sign[static_cast<std::size_t>(fill[o])] = 1;
    out[fill[o]++] = f;
    if (n != kNone && n < nCells) {
      sign[static_cast<std::size_t>(fill[n])] = -1;
      out[fill[n]++] = f;
    }
  }
}

} // namespace

void build_cell_faces(idx_t nCells, const std::vector<idx_t>& owner,
                      const std::vector<idx_t>& neighbour, Csr& cellFaces,
                      std::vector<std::int8_t>& sign) {
  const idx_t nFaces = static_cast<idx_t>(owner.size());
  if (!use_threads(nFaces)) {
    build_cell_faces_serial(nCells, owner, neighbour, cellFaces, sign);
    return;
  }
  std::vector<idx_t> counts(static_cast<std::size_t>(nCells), 0);
#pragma omp parallel for schedule(static)
  for (idx_t f = 0; f < nFaces; ++f) {
    take_slot(counts[owner[f]]);
    if (neighbour[f] != kNone && neighbour[f] < nCells) take_slot(counts[neighbour[f]]);
  }
  cellFaces = Csr::from_counts(counts);
  std::vector<idx_t> fill(cellFaces.offsets().begin(), cellFaces.offsets().end() - 1);
  idx_t* out = cellFaces.indices().data();
#pragma omp parallel for schedule(static)
  for (idx_t f = 0; f < nFaces; ++f) {
    out[take_slot(fill[owner[f]])] = f;
    const idx_t n = neighbour[f];
    if (n != kNone && n < nCells) out[take_slot(fill[n])] = f;
  }
  sign.assign(static_cast<std::size_t>(cellFaces.nnz()), 0);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nCells; ++c) {
    idx_t* row = cellFaces.row(c);
    std::sort(row, row + cellFaces.size(c));
    for (idx_t k = cellFaces.begin(c); k < cellFaces.end(c); ++k)
      sign[static_cast<std::size_t>(k)] = owner[cellFaces.indices()[k]] == c ? 1 : -1;
  }
}

Csr build_cell_cells(const Csr& cellFaces, const std::vector<idx_t>& owner,
                     const std::vector<idx_t>& neighbour) {
  const idx_t nCells = cellFaces.rows();
  std::vector<idx_t> counts(static_cast<std::size_t>(nCells), 0);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nCells; ++c)
    for (idx_t k = cellFaces.begin(c); k < cellFaces.end(c); ++k)
      counts[c] += neighbour[cellFaces.indices()[k]] != kNone;
  Csr cc = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nCells; ++c) {
    idx_t* out = cc.row(c);
    idx_t n = 0;
    for (idx_t k = cellFaces.begin(c); k < cellFaces.end(c); ++k) {
      const idx_t f = cellFaces.indices()[k];
      if (neighbour[f] == kNone) continue;
      out[n++] = owner[f] == c ? neighbour[f] : owner[f];
    }
    std::sort(out, out + n);
  }
  return cc;
}

Bandwidth face_bandwidth(idx_t nCells, const std::vector<idx_t>& owner,
                         const std::vector<idx_t>& neighbour) {
  std::vector<idx_t> lo(static_cast<std::size_t>(nCells));
  std::iota(lo.begin(), lo.end(), 0);
  std::int64_t bandwidth = 0, profile = 0;
  const idx_t nFaces = static_cast<idx_t>(owner.size());
#pragma omp parallel for schedule(static) reduction(max : bandwidth)
  for (idx_t f = 0; f < nFaces; ++f) {
    const idx_t o = owner[f], n = neighbour[f];
    if (n == kNone || n >= nCells) continue;
    bandwidth = std::max<std::int64_t>(bandwidth, o > n ? o - n : n - o);
    idx_t& hi = lo[static_cast<std::size_t>(std::max(o, n))];
    const idx_t other = std::min(o, n);
    idx_t cur = __atomic_load_n(&hi, __ATOMIC_RELAXED);
    while (other < cur && !__atomic_compare_exchange_n(&hi, &cur, other, true, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED)) {
    }
  }
#pragma omp parallel for schedule(static) reduction(+ : profile)
  for (idx_t c = 0; c < nCells; ++c)
    profile += c - lo[static_cast<std::size_t>(c)];
  Bandwidth b;
  b.bandwidth = bandwidth;
  b.profile = profile;
  return b;
}

Bandwidth adjacency_bandwidth(const Csr& adj) {
  std::int64_t bandwidth = 0, profile = 0;
#pragma omp parallel for schedule(static) reduction(max : bandwidth) reduction(+ : profile)
  for (idx_t i = 0; i < adj.rows(); ++i) {
    idx_t lo = i;
    for (idx_t k = adj.begin(i); k < adj.end(i); ++k) {
      const idx_t j = adj.indices()[k];
      bandwidth = std::max<std::int64_t>(bandwidth, j > i ? j - i : i - j);
      lo = std::min(lo, j);
    }
    profile += i - lo;
  }
  Bandwidth b;
  b.bandwidth = bandwidth;
  b.profile = profile;
  return b;
}

} // namespace fv
