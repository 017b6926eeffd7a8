#include "prep/connectivity.hpp"

#include "common/error.hpp"
#include "common/relaxed_atomics.hpp"
#include "prep/parallel_work.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

namespace {} // namespace

// The builders below scatter in parallel: counts and slots by atomic adds, so the order inside
// a row depends on the threads until each row is sorted, which makes every result the same for
// any thread count. On a large mesh in a poor order each scatter is a cache miss; threads
// overlap them (see docs/performance.md, fvprep at scale).

namespace {

/// Threads pay off for large relations outside a parallel region (a zone built by one thread
/// of fvprep's pipeline takes the serial path, which needs no atomics and no sorting).
bool use_threads(std::int64_t work) {
  return threads_pay_off(work);
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
    fetch_increment(counts[owner[f]]);
    if (neighbour[f] != kNone && neighbour[f] < nCells) fetch_increment(counts[neighbour[f]]);
  }
  cellFaces = Csr::from_counts(counts);
  std::vector<idx_t> fill(cellFaces.offsets().begin(), cellFaces.offsets().end() - 1);
  idx_t* out = cellFaces.indices().data();
#pragma omp parallel for schedule(static)
  for (idx_t f = 0; f < nFaces; ++f) {
    out[fetch_increment(fill[owner[f]])] = f;
    const idx_t n = neighbour[f];
    if (n != kNone && n < nCells) out[fetch_increment(fill[n])] = f;
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

namespace {

/// build_cell_cells() with row c taken from cellFaces' row rowOf(c) and neighbour ids mapped by
/// idOf (identities for the plain form).
template <class RowOf, class IdOf>
Csr cell_cells(idx_t nCells, const Csr& cellFaces, const std::vector<idx_t>& owner,
               const std::vector<idx_t>& neighbour, RowOf rowOf, IdOf idOf) {
  std::vector<idx_t> counts(static_cast<std::size_t>(nCells), 0);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nCells; ++c)
    for (idx_t k = cellFaces.begin(rowOf(c)); k < cellFaces.end(rowOf(c)); ++k)
      counts[c] += neighbour[cellFaces.indices()[k]] != kNone;
  Csr cc = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nCells; ++c) {
    const idx_t r = rowOf(c);
    idx_t* out = cc.row(c);
    idx_t n = 0;
    for (idx_t k = cellFaces.begin(r); k < cellFaces.end(r); ++k) {
      const idx_t f = cellFaces.indices()[k];
      if (neighbour[f] == kNone) continue;
      out[n++] = idOf(owner[f] == r ? neighbour[f] : owner[f]);
    }
    std::sort(out, out + n);
  }
  return cc;
}

} // namespace

Csr build_cell_cells(const Csr& cellFaces, const std::vector<idx_t>& owner,
                     const std::vector<idx_t>& neighbour) {
  const auto same = [](idx_t c) { return c; };
  return cell_cells(cellFaces.rows(), cellFaces, owner, neighbour, same, same);
}

Csr build_cell_cells(const Csr& cellFaces, const std::vector<idx_t>& owner,
                     const std::vector<idx_t>& neighbour, const std::vector<idx_t>& cellOld,
                     const std::vector<idx_t>& newCell) {
  return cell_cells(
      static_cast<idx_t>(cellOld.size()), cellFaces, owner, neighbour,
      [&](idx_t c) { return cellOld[static_cast<std::size_t>(c)]; },
      [&](idx_t c) { return newCell[static_cast<std::size_t>(c)]; });
}

std::vector<idx_t> first_touch_numbering(const Csr& rows, idx_t n) {
  const std::int64_t nnz = rows.nnz();
  const idx_t* idx = rows.indices().data();
  // First position of every id in `rows` (positions run in row order, then entry order).
  std::vector<idx_t> first(static_cast<std::size_t>(n), std::numeric_limits<idx_t>::max());
  bool inRange = true;
#pragma omp parallel for schedule(static) reduction(&& : inRange)
  for (std::int64_t k = 0; k < nnz; ++k) {
    const idx_t v = idx[k];
    if (v < 0 || v >= n) {
      inRange = false;
      continue;
    }
    store_min(first[static_cast<std::size_t>(v)], static_cast<idx_t>(k));
  }
  FV_VERIFY(inRange, "first_touch_numbering: an id lies outside [0, " << n << ")");
  // Blocks of positions: count the first touches in each, then number them block by block.
  int nBlocks = 1;
#if defined(_OPENMP)
  nBlocks = 4 * omp_get_max_threads();
#endif
  const std::int64_t blk = (nnz + nBlocks - 1) / nBlocks;
  std::vector<idx_t> base(static_cast<std::size_t>(nBlocks) + 1, 0);
#pragma omp parallel for schedule(static)
  for (int b = 0; b < nBlocks; ++b) {
    idx_t m = 0;
    for (std::int64_t k = b * blk; k < std::min(nnz, (b + 1) * blk); ++k)
      m += first[static_cast<std::size_t>(idx[k])] == static_cast<idx_t>(k);
    base[static_cast<std::size_t>(b) + 1] = m;
  }
  for (int b = 0; b < nBlocks; ++b)
    base[static_cast<std::size_t>(b) + 1] += base[static_cast<std::size_t>(b)];
  std::vector<idx_t> out(static_cast<std::size_t>(n), kNone);
#pragma omp parallel for schedule(static)
  for (int b = 0; b < nBlocks; ++b) {
    idx_t next = base[static_cast<std::size_t>(b)];
    for (std::int64_t k = b * blk; k < std::min(nnz, (b + 1) * blk); ++k)
      if (first[static_cast<std::size_t>(idx[k])] == static_cast<idx_t>(k))
        out[static_cast<std::size_t>(idx[k])] = next++;
  }
  return out;
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
    store_min(hi, other);
  }
#pragma omp parallel for schedule(static) reduction(+ : profile)
  for (idx_t c = 0; c < nCells; ++c)
    profile += c - lo[static_cast<std::size_t>(c)];
  Bandwidth b;
  b.bandwidth = bandwidth;
  b.profile = profile;
  return b;
}

Bandwidth adjacency_bandwidth(const Csr& adj, idx_t n) {
  if (n < 0) n = adj.rows();
  std::int64_t bandwidth = 0, profile = 0;
#pragma omp parallel for schedule(static) reduction(max : bandwidth) reduction(+ : profile)
  for (idx_t i = 0; i < n; ++i) {
    idx_t lo = i;
    for (idx_t k = adj.begin(i); k < adj.end(i); ++k) {
      const idx_t j = adj.indices()[k];
      if (j >= n) continue;
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
