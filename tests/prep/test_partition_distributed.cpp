// The distributed partitioners (prep/partition_distributed.hpp) under mpiexec -n 1, 2 and 3:
// PT-Scotch (its native distributed interface) on a structured 3D grid graph split in blocks
// over the ranks (evenly, unevenly, and with ranks that hold no vertex), the gathered METIS
// variant against serial partition_cells(), and errors that reach every rank.
#include "common/error.hpp"
#include "prep/dist_comm.hpp"
#include "prep/partition.hpp"
#include "prep/partition_distributed.hpp"

#include <cstdio>
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace fv;

namespace {

/// A structured nx x ny x nz grid of cells, each joined to its (up to) 6 face neighbours.
struct Grid {
  idx_t nx, ny, nz;
  gidx_t cells() const { return gidx_t{nx} * ny * nz; }
  /// Face neighbours of cell c, in a fixed order.
  std::vector<idx_t> neighbours(gidx_t c) const {
    const auto i = static_cast<idx_t>(c % nx), j = static_cast<idx_t>(c / nx % ny),
               k = static_cast<idx_t>(c / nx / ny);
    std::vector<idx_t> out;
    const auto id = [&](idx_t a, idx_t b, idx_t d) { return a + nx * (b + ny * d); };
    if (i > 0) out.push_back(id(i - 1, j, k));
    if (i + 1 < nx) out.push_back(id(i + 1, j, k));
    if (j > 0) out.push_back(id(i, j - 1, k));
    if (j + 1 < ny) out.push_back(id(i, j + 1, k));
    if (k > 0) out.push_back(id(i, j, k - 1));
    if (k + 1 < nz) out.push_back(id(i, j, k + 1));
    return out;
  }
  /// Rows [first, last) of the dual graph, with global ids.
  Csr rows(gidx_t first, gidx_t last) const {
    std::vector<idx_t> counts;
    for (gidx_t c = first; c < last; ++c)
      counts.push_back(static_cast<idx_t>(neighbours(c).size()));
    Csr g = Csr::from_counts(counts);
    for (gidx_t c = first; c < last; ++c) {
      const auto nb = neighbours(c);
      std::copy(nb.begin(), nb.end(), g.row(static_cast<idx_t>(c - first)));
    }
    return g;
  }
  Csr whole() const { return rows(0, cells()); }
};

/// How the vertices are split over the ranks.
enum class Split {
  Even,       ///< dist::Blocks
  Uneven,     ///< rank r holds a share proportional to r + 1
  FirstEmpty, ///< rank 0 holds nothing, the others even blocks
  LastEmpty   ///< the last rank holds nothing, the others even blocks
};

const char* split_name(Split s) {
  switch (s) {
  case Split::Even:
    return "even";
  case Split::Uneven:
    return "uneven";
  case Split::FirstEmpty:
    return "first-empty";
  default:
    return "last-empty";
  }
}

std::vector<gidx_t> make_vtxdist(gidx_t n, int p, Split s) {
  std::vector<gidx_t> d(static_cast<std::size_t>(p) + 1, 0);
  if (s == Split::Uneven) {
    const gidx_t total = gidx_t{p} * (p + 1) / 2;
    gidx_t acc = 0;
    for (int r = 0; r < p; ++r) {
      acc += r + 1;
      d[r + 1] = n * acc / total;
    }
    return d;
  }
  const bool empty = p > 1 && s != Split::Even;
  const int holders = empty ? p - 1 : p;
  const int skip = !empty ? -1 : (s == Split::FirstEmpty ? 0 : p - 1);
  const dist::Blocks b{n, holders};
  int h = 0;
  for (int r = 0; r < p; ++r) {
    d[r + 1] = d[r] + (r == skip ? 0 : b.count(h++));
  }
  return d;
}

/// The splits worth running on this number of ranks (no empty rank on one rank).
std::vector<Split> splits(int p) {
  if (p == 1) return {Split::Even};
  return {Split::Even, Split::Uneven, Split::FirstEmpty, Split::LastEmpty};
}

/// This rank's rows of the grid graph.
Csr local_rows(const Grid& g, const dist::Comm& comm, const std::vector<gidx_t>& vtxdist) {
  return g.rows(vtxdist[comm.rank()], vtxdist[comm.rank() + 1]);
}

/// The largest imbalance a partition of n cells into k parts may have under tolerance `tol`:
/// the tolerance plus one cell of rounding, ceil(n / k) / (n / k).
double allowed_imbalance(double tol, gidx_t n, int k) {
  return tol + static_cast<double>(k) / static_cast<double>(n);
}

} // namespace

TEST(PartitionDistributed, ScotchPartsAreValidBalancedDeterministicAndCutLittle) {
  const dist::Comm comm;
  const Grid grid{12, 10, 8};
  const Csr whole = grid.whole();
  const PartitionOptions opts; // imbalance 1.03, seed 0
  for (const int nParts : {1, 2, 5, 8}) {
    const auto metis = partition_report(whole, partition_cells(whole, nParts, opts), nParts);
    for (const Split s : splits(comm.size())) {
      SCOPED_TRACE(std::string("split ") + split_name(s) + ", parts " + std::to_string(nParts));
      const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), s);
      const Csr mine = local_rows(grid, comm, vtxdist);
      const auto part = partition_cells_distributed(comm, vtxdist, mine, nParts, opts);
      ASSERT_EQ(static_cast<gidx_t>(part.size()), vtxdist[comm.rank() + 1] - vtxdist[comm.rank()]);
      for (idx_t q : part)
        ASSERT_TRUE(q >= 0 && q < nParts) << q;

      // Same arguments, same ranks: the same partition (the seed is reset on every call).
      EXPECT_EQ(partition_cells_distributed(comm, vtxdist, mine, nParts, opts), part);

      const auto all = dist::all_gather(comm, part);
      ASSERT_EQ(static_cast<gidx_t>(all.size()), grid.cells());
      const auto r = partition_report(whole, all, nParts);
      for (int q = 0; q < nParts; ++q)
        EXPECT_GT(r.cells[static_cast<std::size_t>(q)], 0) << "zone " << q << " is empty";
      // Scotch honours opts.imbalance (kbalval = imbalance - 1), plus one cell of rounding.
      EXPECT_LE(r.imbalance, allowed_imbalance(opts.imbalance, grid.cells(), nParts));
      if (nParts == 1) {
        EXPECT_EQ(r.edgeCut, 0);
      } else {
        EXPECT_LE(r.edgeCut, 2 * metis.edgeCut) << "METIS cuts " << metis.edgeCut;
      }
      if (comm.rank() == 0)
        std::printf("[ measure  ] np %d %-11s parts %d: PT-Scotch cut %lld imbalance %.3f | "
                    "METIS cut %lld imbalance %.3f\n",
                    comm.size(), split_name(s), nParts, static_cast<long long>(r.edgeCut),
                    r.imbalance, static_cast<long long>(metis.edgeCut), metis.imbalance);
    }
  }
}

TEST(PartitionDistributed, ScotchHonoursTheImbalanceTolerance) {
  // kbalval = opts.imbalance - 1: the largest part stays within the tolerance (plus one cell of
  // rounding) however tight or loose it is.
  const dist::Comm comm;
  const Grid grid{16, 12, 10};
  for (const double tol : {1.0, 1.01, 1.05, 1.2}) {
    PartitionOptions opts;
    opts.imbalance = tol;
    for (const int nParts : {3, 7, 16}) {
      for (const Split s : splits(comm.size())) {
        SCOPED_TRACE(std::string("split ") + split_name(s) + ", parts " + std::to_string(nParts) +
                     ", imbalance " + std::to_string(tol));
        const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), s);
        const auto part = partition_cells_distributed(
            comm, vtxdist, local_rows(grid, comm, vtxdist), nParts, opts);
        const auto r = partition_report(grid.whole(), dist::all_gather(comm, part), nParts);
        EXPECT_LE(r.imbalance, allowed_imbalance(tol, grid.cells(), nParts));
        if (comm.rank() == 0 && s == Split::Even)
          std::printf("[ measure  ] np %d imbalance tolerance %.2f parts %2d: largest/average "
                      "%.4f, cut %lld\n",
                      comm.size(), tol, nParts, r.imbalance, static_cast<long long>(r.edgeCut));
      }
    }
  }
}

TEST(PartitionDistributed, ThreadedScotchIsDeterministic) {
  // More than one Scotch thread per rank (partition_cells_ptscotch(); the default is one): the
  // context's deterministic option makes repeated calls agree. Scotch's threads call MPI, so
  // this executable asks for MPI_THREAD_MULTIPLE (tests/prep/CMakeLists.txt); an MPI that does
  // not provide it must see the threaded calls refused instead.
  const dist::Comm comm;
  const Grid grid{24, 20, 16};
  const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), Split::Even);
  const Csr mine = local_rows(grid, comm, vtxdist);
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  for (const int threads : {1, 2, 3}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    PtScotchTuning tuning;
    tuning.threads = threads;
    if (threads > 1 && level < MPI_THREAD_MULTIPLE) {
      EXPECT_THROW(partition_cells_ptscotch(comm, vtxdist, mine, 8, {}, tuning), Error);
      continue;
    }
    const auto part = partition_cells_ptscotch(comm, vtxdist, mine, 8, {}, tuning);
    for (idx_t q : part)
      ASSERT_TRUE(q >= 0 && q < 8) << q;
    for (int again = 0; again < 2; ++again)
      EXPECT_EQ(partition_cells_ptscotch(comm, vtxdist, mine, 8, {}, tuning), part);
  }
  // The default is one thread: partition_cells_distributed() gives threads = 1's partition.
  PtScotchTuning one;
  one.threads = 1;
  EXPECT_EQ(partition_cells_distributed(comm, vtxdist, mine, 8, {}),
            partition_cells_ptscotch(comm, vtxdist, mine, 8, {}, one));
}

TEST(PartitionDistributed, GatheredEqualsSerialMetisExactly) {
  const dist::Comm comm;
  const Grid grid{12, 10, 8};
  const Csr whole = grid.whole();
  for (const int seed : {0, 7}) {
    PartitionOptions opts;
    opts.seed = seed;
    for (const int nParts : {1, 2, 5, 8}) {
      const auto serial = partition_cells(whole, nParts, opts);
      for (const Split s : splits(comm.size())) {
        SCOPED_TRACE(std::string("split ") + split_name(s) + ", parts " + std::to_string(nParts) +
                     ", seed " + std::to_string(seed));
        const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), s);
        const auto part =
            partition_cells_gathered(comm, vtxdist, local_rows(grid, comm, vtxdist), nParts, opts);
        EXPECT_EQ(dist::all_gather(comm, part), serial);
      }
    }
  }
}

TEST(PartitionDistributed, TinyGraphsGetEveryPartNonEmpty) {
  // As many parts as cells (and one fewer): PT-Scotch may leave parts empty on such graphs.
  const dist::Comm comm;
  for (const Grid grid : {Grid{2, 2, 2}, Grid{3, 1, 1}, Grid{5, 2, 1}}) {
    for (const gidx_t nParts : {grid.cells(), grid.cells() - 1}) {
      for (const Split s : splits(comm.size())) {
        SCOPED_TRACE(std::string("split ") + split_name(s) + ", cells " +
                     std::to_string(grid.cells()) + ", parts " + std::to_string(nParts));
        const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), s);
        const auto part = partition_cells_distributed(
            comm, vtxdist, local_rows(grid, comm, vtxdist), static_cast<int>(nParts), {});
        const auto all = dist::all_gather(comm, part);
        std::vector<int> size(static_cast<std::size_t>(nParts), 0);
        for (idx_t q : all) {
          ASSERT_TRUE(q >= 0 && q < nParts) << q;
          ++size[static_cast<std::size_t>(q)];
        }
        for (gidx_t q = 0; q < nParts; ++q)
          EXPECT_GT(size[static_cast<std::size_t>(q)], 0) << "zone " << q << " is empty";
      }
    }
  }
}

TEST(PartitionDistributed, EmptyPartsLeftByScotchAreFilled) {
  // PT-Scotch 7.0.3 leaves one part empty on a star of 40 or more cells cut into as many parts
  // (or one fewer): the lowest-id cell of the largest part moves there, the same on every call.
  const dist::Comm comm;
  const gidx_t n = 48;
  for (const int nParts : {48, 47}) {
    for (const Split s : splits(comm.size())) {
      SCOPED_TRACE(std::string("split ") + split_name(s) + ", parts " + std::to_string(nParts));
      const auto vtxdist = make_vtxdist(n, comm.size(), s);
      const gidx_t first = vtxdist[comm.rank()], last = vtxdist[comm.rank() + 1];
      std::vector<idx_t> counts;
      for (gidx_t c = first; c < last; ++c)
        counts.push_back(c == 0 ? static_cast<idx_t>(n - 1) : 1);
      Csr star = Csr::from_counts(counts);
      for (gidx_t c = first; c < last; ++c) {
        idx_t* row = star.row(static_cast<idx_t>(c - first));
        if (c == 0)
          for (idx_t d = 1; d < n; ++d)
            row[d - 1] = d;
        else
          row[0] = 0;
      }
      const auto part = partition_cells_distributed(comm, vtxdist, star, nParts, {});
      EXPECT_EQ(partition_cells_distributed(comm, vtxdist, star, nParts, {}), part);
      std::vector<int> size(static_cast<std::size_t>(nParts), 0);
      for (idx_t q : dist::all_gather(comm, part)) {
        ASSERT_TRUE(q >= 0 && q < nParts) << q;
        ++size[static_cast<std::size_t>(q)];
      }
      for (int q = 0; q < nParts; ++q)
        EXPECT_GT(size[static_cast<std::size_t>(q)], 0) << "zone " << q << " is empty";
      EXPECT_LE(*std::max_element(size.begin(), size.end()), 2);
    }
  }
}

TEST(PartitionDistributed, RepeatedNeighboursAndSelfLoopsAreIgnored) {
  const dist::Comm comm;
  const Grid grid{6, 5, 4};
  const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), Split::Even);
  const Csr clean = local_rows(grid, comm, vtxdist);
  // Every row twice, plus the cell itself.
  std::vector<idx_t> counts;
  for (idx_t i = 0; i < clean.rows(); ++i)
    counts.push_back(2 * clean.size(i) + 1);
  Csr noisy = Csr::from_counts(counts);
  for (idx_t i = 0; i < clean.rows(); ++i) {
    idx_t* out = noisy.row(i);
    *out++ = static_cast<idx_t>(vtxdist[comm.rank()] + i);
    for (int twice = 0; twice < 2; ++twice)
      out = std::copy(clean.row(i), clean.row(i) + clean.size(i), out);
  }
  EXPECT_EQ(partition_cells_distributed(comm, vtxdist, noisy, 4, {}),
            partition_cells_distributed(comm, vtxdist, clean, 4, {}));
}

TEST(PartitionDistributed, TooManyPartsIsAUsageErrorOnEveryRank) {
  const dist::Comm comm;
  const Grid grid{4, 3, 2};
  for (const Split s : splits(comm.size())) {
    const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), s);
    const Csr mine = local_rows(grid, comm, vtxdist);
    const int nParts = static_cast<int>(grid.cells()) + 1;
    for (const bool gathered : {false, true}) {
      SCOPED_TRACE(std::string("split ") + split_name(s) + (gathered ? ", gathered" : ", scotch"));
      try {
        if (gathered)
          partition_cells_gathered(comm, vtxdist, mine, nParts, {});
        else
          partition_cells_distributed(comm, vtxdist, mine, nParts, {});
        ADD_FAILURE() << "no error";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Usage);
        EXPECT_NE(std::string(e.what()).find("--parts 25 exceeds the number of cells (24)"),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

TEST(PartitionDistributed, InconsistentDistributionIsAnErrorOnEveryRank) {
  // One rank's adjacency has a row too many for vtxdist: every rank throws the same error.
  const dist::Comm comm;
  const Grid grid{4, 3, 2};
  const auto vtxdist = make_vtxdist(grid.cells(), comm.size(), Split::Even);
  const int bad = comm.size() - 1;
  const Csr mine = grid.rows(vtxdist[comm.rank()], vtxdist[comm.rank() + 1] +
                                                       (comm.rank() == bad && bad > 0 ? 1 : 0) -
                                                       (comm.rank() == bad && bad == 0 ? 1 : 0));
  for (const bool gathered : {false, true}) {
    try {
      if (gathered)
        partition_cells_gathered(comm, vtxdist, mine, 2, {});
      else
        partition_cells_distributed(comm, vtxdist, mine, 2, {});
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Runtime);
      EXPECT_NE(std::string(e.what()).find("vtxdist gives rank " + std::to_string(bad)),
                std::string::npos)
          << e.what();
    }
  }
}
