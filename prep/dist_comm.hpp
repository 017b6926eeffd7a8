#pragma once
/// \file dist_comm.hpp
/// The MPI the distributed fvprep needs (`mpirun -np N fvprep ...`): a communicator handle with
/// typed collectives over whole vectors, and collective error handling, so that bad input found
/// on any rank ends every rank with the same one-line error.
///
/// Counts: a personalised exchange moves any number of elements of a trivially copyable T per
/// pair of ranks below 2^31 elements (MPI int counts over a contiguous type of sizeof(T) bytes).
#include "common/error.hpp"
#include "common/types.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <mpi.h>
#include <string>
#include <type_traits>
#include <vector>

namespace fv::dist {

/// A communicator (not owned: MPI_COMM_WORLD or a duplicate the caller frees).
class Comm {
 public:
  explicit Comm(MPI_Comm c = MPI_COMM_WORLD);
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  void barrier() const;

  /// Sum / min / max over ranks of one value.
  std::int64_t sum(std::int64_t v) const;
  std::int64_t min(std::int64_t v) const;
  std::int64_t max(std::int64_t v) const;
  double min(double v) const;
  double max(double v) const;
  /// Exclusive prefix sum over ranks (0 on rank 0).
  std::int64_t exscan(std::int64_t v) const;
  /// Element-wise exclusive prefix sums over ranks (zeros on rank 0).
  std::vector<std::int64_t> exscan(const std::vector<std::int64_t>& v) const;
  /// Element-wise sums over ranks, in place.
  void sum_in_place(std::vector<std::int64_t>& v) const;
  void min_in_place(std::vector<double>& v) const;
  void min_in_place(std::vector<std::int32_t>& v) const;
  void max_in_place(std::vector<std::int32_t>& v) const;
  void max_in_place(std::vector<double>& v) const;
  /// Every rank's value, by rank.
  std::vector<std::int64_t> all_gather(std::int64_t v) const;
  /// Broadcasts a string from `root`.
  std::string broadcast(const std::string& s, int root) const;

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

/// Elements received from every rank, concatenated in rank order; offsets[r] .. offsets[r+1]
/// came from rank r.
template <class T>
struct Received {
  std::vector<T> data;
  std::vector<std::int64_t> offsets;
};

namespace detail {
/// A contiguous MPI datatype of `bytes` bytes (committed; freed by the caller).
MPI_Datatype bytes_type(std::size_t bytes);
/// MPI_Alltoallv of elements of `bytes` bytes; counts per rank in elements.
void alltoallv(const Comm& comm, const void* send, const std::vector<std::int64_t>& sendCounts,
               void* recv, const std::vector<std::int64_t>& recvCounts, std::size_t bytes);
/// MPI_Allgatherv of elements of `bytes` bytes.
void allgatherv(const Comm& comm, const void* send, std::int64_t n, void* recv,
                const std::vector<std::int64_t>& counts, std::size_t bytes);
} // namespace detail

/// Personalised all-to-all: `send` is grouped by destination rank (sendCounts[r] elements for
/// rank r, in rank order); returns what every rank sent to this one.
template <class T>
Received<T> exchange(const Comm& comm, const std::vector<T>& send,
                     const std::vector<std::int64_t>& sendCounts) {
  static_assert(std::is_trivially_copyable_v<T>, "exchange moves raw bytes");
  FV_VERIFY(static_cast<int>(sendCounts.size()) == comm.size(), "exchange: one count per rank");
  std::vector<std::int64_t> recvCounts(static_cast<std::size_t>(comm.size()));
  MPI_Alltoall(sendCounts.data(), 1, MPI_INT64_T, recvCounts.data(), 1, MPI_INT64_T, comm.get());
  Received<T> out;
  out.offsets.assign(static_cast<std::size_t>(comm.size()) + 1, 0);
  for (int r = 0; r < comm.size(); ++r)
    out.offsets[r + 1] = out.offsets[r] + recvCounts[r];
  out.data.resize(static_cast<std::size_t>(out.offsets.back()));
  detail::alltoallv(comm, send.data(), sendCounts, out.data.data(), recvCounts, sizeof(T));
  return out;
}

namespace detail {
/// Items [0, n) in fixed chunks (at most 64, of at least 2^16 items, so that what is computed
/// from them does not depend on the thread count) and, per chunk and destination rank, where
/// the chunk's items for that rank start in the grouped order (rank after rank, item order
/// within a rank). weight(i): the slots item i takes (1 for an item, its length for a row).
struct ChunkedGroups {
  std::int64_t n = 0, nChunks = 1, p = 1;
  std::vector<std::int64_t> at;  ///< [chunk * p + rank]: first slot of the chunk's items for rank
  std::vector<std::int64_t> per; ///< slots per rank
  std::int64_t total = 0;
  std::int64_t first(std::int64_t c) const { return n / nChunks * c + std::min(c, n % nChunks); }
  template <class Dest, class Weight>
  ChunkedGroups(std::int64_t items, int ranks, Dest dest, Weight weight)
      : n(items), nChunks(std::max<std::int64_t>(1, std::min<std::int64_t>(64, items >> 16))),
        p(ranks), at(static_cast<std::size_t>(nChunks * p), 0),
        per(static_cast<std::size_t>(p), 0) {
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < nChunks; ++c)
      for (std::int64_t i = first(c); i < first(c + 1); ++i)
        at[static_cast<std::size_t>(c * p + dest(i))] += weight(i);
    for (std::int64_t r = 0; r < p; ++r)
      for (std::int64_t c = 0; c < nChunks; ++c) {
        const std::int64_t k = at[static_cast<std::size_t>(c * p + r)];
        at[static_cast<std::size_t>(c * p + r)] = total;
        total += k;
        per[static_cast<std::size_t>(r)] += k;
      }
  }
  /// Calls place(i, slot) for every item, chunks on the OpenMP threads, items of a chunk in
  /// order (slots advance by weight(i)).
  template <class Dest, class Weight, class Place>
  void place(Dest dest, Weight weight, Place place) {
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < nChunks; ++c)
      for (std::int64_t i = first(c); i < first(c + 1); ++i) {
        std::int64_t& slot = at[static_cast<std::size_t>(c * p + dest(i))];
        place(i, slot);
        slot += weight(i);
      }
  }
};
} // namespace detail

/// Buckets items by destination: dest(i) in [0, size) for i in [0, n); fill(i, T&) writes the
/// item. Returns the grouped items (in item order within each rank) and counts, ready for
/// exchange(). Runs on the OpenMP threads (in fixed chunks of items, so the result does not
/// depend on the thread count): dest and fill are called concurrently.
template <class T, class Dest, class Fill>
std::pair<std::vector<T>, std::vector<std::int64_t>> group_by_rank(const Comm& comm, std::int64_t n,
                                                                   Dest dest, Fill fill) {
  auto one = [](std::int64_t) { return std::int64_t(1); };
  detail::ChunkedGroups g(n, comm.size(), dest, one);
  std::vector<T> out(static_cast<std::size_t>(g.total));
  g.place(dest, one,
          [&](std::int64_t i, std::int64_t slot) { fill(i, out[static_cast<std::size_t>(slot)]); });
  return {std::move(out), std::move(g.per)};
}

/// group_by_rank() of rows of varying length: item i is a row of size(i) elements of T that
/// fill(i, T* out) writes. Returns the elements grouped by rank (rows in item order within each
/// rank) and the element count per rank. Runs on the OpenMP threads like group_by_rank().
template <class T, class Dest, class Size, class Fill>
std::pair<std::vector<T>, std::vector<std::int64_t>>
group_rows_by_rank(const Comm& comm, std::int64_t n, Dest dest, Size size, Fill fill) {
  auto weight = [&](std::int64_t i) { return static_cast<std::int64_t>(size(i)); };
  detail::ChunkedGroups g(n, comm.size(), dest, weight);
  std::vector<T> out(static_cast<std::size_t>(g.total));
  g.place(dest, weight, [&](std::int64_t i, std::int64_t slot) { fill(i, out.data() + slot); });
  return {std::move(out), std::move(g.per)};
}

/// Where the answers to items grouped by group_by_rank() (dest as there) land when every rank
/// answers its items in the order received, the answers coming back in rank order (what
/// exchange() of the answers gives): pos[i] of item i, for i in [0, n). On the OpenMP threads.
template <class Dest>
std::vector<std::int64_t> answer_positions(const Comm& comm, std::int64_t n, Dest dest) {
  auto one = [](std::int64_t) { return std::int64_t(1); };
  detail::ChunkedGroups g(n, comm.size(), dest, one);
  std::vector<std::int64_t> pos(static_cast<std::size_t>(n));
  g.place(dest, one,
          [&](std::int64_t i, std::int64_t slot) { pos[static_cast<std::size_t>(i)] = slot; });
  return pos;
}

/// Every rank's `local`, concatenated in rank order.
template <class T>
std::vector<T> all_gather(const Comm& comm, const std::vector<T>& local) {
  static_assert(std::is_trivially_copyable_v<T>, "all_gather moves raw bytes");
  std::vector<std::int64_t> counts = comm.all_gather(static_cast<std::int64_t>(local.size()));
  std::int64_t total = 0;
  for (std::int64_t c : counts)
    total += c;
  std::vector<T> out(static_cast<std::size_t>(total));
  detail::allgatherv(comm, local.data(), static_cast<std::int64_t>(local.size()), out.data(),
                     counts, sizeof(T));
  return out;
}

/// Block distribution of n items over the ranks: rank r holds [first(r), first(r + 1)).
struct Blocks {
  std::int64_t n = 0;
  int parts = 1;
  std::int64_t first(int r) const { return n / parts * r + std::min<std::int64_t>(r, n % parts); }
  std::int64_t count(int r) const { return first(r + 1) - first(r); }
  /// The rank holding item i.
  int owner(std::int64_t i) const {
    const std::int64_t q = n / parts, rem = n % parts;
    const std::int64_t big = rem * (q + 1);
    return static_cast<int>(i < big ? i / (q + 1) : rem + (q ? (i - big) / q : 0));
  }
};

/// Hands every rank's `bytes` (nBytes of them) to consume() on rank 0, rank by rank in rank order
/// and in chunks of at most chunkBytes (< 2^31; rank 0's own first), so that rank 0 can fold them
/// into one stream (a hash) without holding them all. COLLECTIVE; consume() is called on rank 0
/// only.
void stream_to_root(const Comm& comm, const unsigned char* bytes, std::size_t nBytes,
                    const std::function<void(const unsigned char*, std::size_t)>& consume,
                    std::size_t chunkBytes = std::size_t(64) << 20);

/// Contiguous ranges of keys [0, n), one per rank: rank r holds [first[r], first[r + 1]).
/// Unlike Blocks, the ranges may differ in size (some may be empty).
struct Ranges {
  std::vector<std::int64_t> first; ///< nRanks + 1 bounds, first[0] = 0, last = n
  /// The rank whose range holds key k (0 <= k < n).
  int owner(std::int64_t k) const {
    return static_cast<int>(std::upper_bound(first.begin() + 1, first.end() - 1, k) -
                            (first.begin() + 1));
  }
};

/// Ranges of [0, n) from every rank's histogram of its items' keys (`hist`: bins of `width`
/// consecutive keys, summed over the ranks here), each holding about 1/size of all items; a
/// range ends at a bin boundary. COLLECTIVE.
Ranges ranges_from_histogram(const Comm& comm, std::int64_t n, std::int64_t width,
                             std::vector<std::int64_t> hist);

/// Ranges of [0, n) holding about equal numbers of the ranks' items: key(i) in [0, n) for this
/// rank's items i in [0, nLocal). Granularity: at most 2^18 bins. COLLECTIVE.
template <class Key>
Ranges balanced_ranges(const Comm& comm, std::int64_t n, std::int64_t nLocal, Key key) {
  const std::int64_t nBins = std::max<std::int64_t>(1, std::min<std::int64_t>(n, 1 << 18));
  const std::int64_t width = std::max<std::int64_t>(1, (n + nBins - 1) / nBins);
  std::vector<std::int64_t> hist(static_cast<std::size_t>(nBins), 0);
  for (std::int64_t i = 0; i < nLocal; ++i)
    ++hist[static_cast<std::size_t>(key(i) / width)];
  return ranges_from_histogram(comm, n, width, std::move(hist));
}

/// Runs body() on every rank and makes a failure on any rank collective: every rank throws an
/// fv::Error with the message (and kind) of the lowest failing rank, so all ranks exit non-zero
/// with the same one line. body() must not communicate after a rank-local throw point.
void run_collectively(const Comm& comm, const std::function<void()>& body);

} // namespace fv::dist
