#include "prep/partition_distributed.hpp"

#include "common/error.hpp"
#include "common/log.hpp"

#include <cstdint>
#include <mpi.h>
#include <ptscotch.h>

#include <algorithm>
#include <limits>
#include <type_traits>

namespace fv {

static_assert(
    std::is_same_v<SCOTCH_Num, std::int32_t>,
    "PT-Scotch must be the 32-bit flavour (include/scotch-int32, lib/<arch>/scotch-int32)");
static_assert(kPtScotchStrategy == (SCOTCH_STRATSPEED | SCOTCH_STRATSAFETY),
              "kPtScotchStrategy is SCOTCH_STRATSPEED | SCOTCH_STRATSAFETY");

namespace {

/// This rank's share of a validated distributed graph.
struct Share {
  gidx_t n = 0;     ///< vertices of the whole graph
  gidx_t first = 0; ///< global id of the first local vertex
  idx_t local = 0;  ///< local vertices
};

/// Checks the arguments of both partitioners (collectively: every rank throws the same error).
/// The usage checks and their wording are partition_cells()'s; the adjacency's global ids are
/// range-checked when nParts > 1.
Share check_arguments(const dist::Comm& comm, const std::vector<gidx_t>& vtxdist,
                      const Csr& adjacency, int nParts, const PartitionOptions& opts,
                      const char* what) {
  const std::vector<std::int64_t> rows = comm.all_gather(std::int64_t{adjacency.rows()});
  Share s;
  dist::run_collectively(comm, [&] {
    const int p = comm.size();
    FV_VERIFY(static_cast<int>(vtxdist.size()) == p + 1, what << ": vtxdist has " << vtxdist.size()
                                                              << " entries for " << p
                                                              << " ranks (expected ranks + 1)");
    FV_VERIFY(vtxdist[0] == 0, what << ": vtxdist[0] = " << vtxdist[0] << ", expected 0");
    for (int r = 0; r < p; ++r)
      FV_VERIFY(vtxdist[r + 1] - vtxdist[r] == rows[r],
                what << ": vtxdist gives rank " << r << " " << vtxdist[r + 1] - vtxdist[r]
                     << " vertices but its adjacency has " << rows[r] << " rows");
    s.n = vtxdist[p];
    FV_VERIFY_USAGE(nParts >= 1, "--parts must be at least 1, got " << nParts);
    FV_VERIFY_USAGE(s.n > 0, "cannot partition a mesh without cells");
    FV_VERIFY_USAGE(nParts <= s.n, "--parts " << nParts << " exceeds the number of cells (" << s.n
                                              << "): every zone needs at least one cell");
    FV_VERIFY_USAGE(opts.imbalance >= 1.0 && opts.imbalance < 10.0,
                    "imbalance tolerance must be in [1, 10), got " << opts.imbalance);
    FV_VERIFY(s.n <= std::numeric_limits<idx_t>::max(),
              what << ": " << s.n << " cells exceed the partitioner's 32-bit index range");
    s.first = vtxdist[comm.rank()];
    s.local = adjacency.rows();
    if (nParts > 1) adjacency.check(what, static_cast<idx_t>(s.n));
  });
  return s;
}

/// Moves one vertex into every empty part: the lowest-global-id vertex of the currently largest
/// part (lowest part id among equals). Collective; the same moves on every rank.
void fill_empty_parts(const dist::Comm& comm, const Share& s, std::vector<idx_t>& part,
                      int nParts) {
  std::vector<std::int64_t> size(static_cast<std::size_t>(nParts), 0);
  for (idx_t q : part)
    ++size[static_cast<std::size_t>(q)];
  comm.sum_in_place(size);
  for (int q = 0; q < nParts; ++q) {
    if (size[static_cast<std::size_t>(q)] > 0) continue;
    const auto big = static_cast<idx_t>(std::max_element(size.begin(), size.end()) - size.begin());
    const auto it = std::find(part.begin(), part.end(), big);
    const gidx_t mine = it == part.end() ? s.n : s.first + (it - part.begin());
    const gidx_t pick = comm.min(mine);
    if (it != part.end() && mine == pick) *it = q;
    --size[static_cast<std::size_t>(big)];
    ++size[static_cast<std::size_t>(q)];
    if (comm.rank() == 0)
      FV_LOG_WARN("PT-Scotch left zone " << q << " empty; moved cell " << pick << " from zone "
                                         << big << " into it");
  }
}

/// The PT-Scotch objects of one partitioning, freed in reverse order of creation.
class ScotchRun {
 public:
  ScotchRun() = default;
  ~ScotchRun() {
    if (bound_) SCOTCH_dgraphExit(&container_);
    if (graph_) SCOTCH_dgraphExit(&graph_data_);
    if (strat_) SCOTCH_stratExit(&strat_data_);
    if (context_) SCOTCH_contextExit(&context_data_);
  }
  ScotchRun(const ScotchRun&) = delete;
  ScotchRun& operator=(const ScotchRun&) = delete;

  /// Partitions the local graph (xadj/adjncy, global ids) over pcomm into nParts parts; returns
  /// the name of the Scotch call that failed, or nullptr.
  const char* run(MPI_Comm pcomm, std::vector<SCOTCH_Num>& xadj, std::vector<SCOTCH_Num>& adjncy,
                  int nParts, double imbalance, int strategy, int threads, idx_t* part) {
    // The context: exactly `threads` threads (SCOTCH_PTHREAD_NUMBER is not read) and Scotch's
    // deterministic algorithms (without them, its threaded graph matching gives a different
    // partition from call to call). Its pseudo-random generator is Scotch's global one (not
    // cloned), which the caller has seeded and reset.
    if (SCOTCH_contextInit(&context_data_) != 0) return "SCOTCH_contextInit";
    context_ = true;
    if (SCOTCH_contextOptionSetNum(&context_data_, SCOTCH_OPTIONNUMDETERMINISTIC, 1) != 0)
      return "SCOTCH_contextOptionSetNum";
    if (SCOTCH_contextThreadSpawn(&context_data_, threads, nullptr) != 0)
      return "SCOTCH_contextThreadSpawn";

    if (SCOTCH_stratInit(&strat_data_) != 0) return "SCOTCH_stratInit";
    strat_ = true;
    int procs = 1;
    MPI_Comm_size(pcomm, &procs);
    if (SCOTCH_stratDgraphMapBuild(&strat_data_, strategy, procs, nParts, imbalance - 1.0) != 0)
      return "SCOTCH_stratDgraphMapBuild";

    if (SCOTCH_dgraphInit(&graph_data_, pcomm) != 0) return "SCOTCH_dgraphInit";
    graph_ = true;
    const auto local = static_cast<SCOTCH_Num>(xadj.size() - 1);
    const SCOTCH_Num edges = xadj.back();
    if (SCOTCH_dgraphBuild(&graph_data_, 0, local, local, xadj.data(), nullptr, nullptr, nullptr,
                           edges, edges, adjncy.data(), nullptr, nullptr) != 0)
      return "SCOTCH_dgraphBuild";
    if (SCOTCH_contextBindDgraph(&context_data_, &graph_data_, &container_) != 0)
      return "SCOTCH_contextBindDgraph";
    bound_ = true;
    if (SCOTCH_dgraphPart(&container_, nParts, &strat_data_, part) != 0) return "SCOTCH_dgraphPart";
    return nullptr;
  }

 private:
  SCOTCH_Context context_data_{};
  SCOTCH_Strat strat_data_{};
  SCOTCH_Dgraph graph_data_{}, container_{};
  bool context_ = false, strat_ = false, graph_ = false, bound_ = false;
};

} // namespace

std::vector<idx_t> partition_cells_distributed(const dist::Comm& comm,
                                               const std::vector<gidx_t>& vtxdist,
                                               const Csr& adjacency, int nParts,
                                               const PartitionOptions& opts) {
  return partition_cells_ptscotch(comm, vtxdist, adjacency, nParts, opts, {});
}

std::vector<idx_t> partition_cells_ptscotch(const dist::Comm& comm,
                                            const std::vector<gidx_t>& vtxdist,
                                            const Csr& adjacency, int nParts,
                                            const PartitionOptions& opts,
                                            const PtScotchTuning& tuning) {
  const Share s = check_arguments(comm, vtxdist, adjacency, nParts, opts, "PT-Scotch partition");
  const int threads = tuning.threads > 0 ? tuning.threads : 1;
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  // the same on every rank (the tuning and MPI's thread level are): all refuse together
  FV_VERIFY(threads == 1 || level >= MPI_THREAD_MULTIPLE,
            "PT-Scotch partition: " << threads
                                    << " Scotch threads per rank call MPI from several threads, "
                                       "which needs MPI_THREAD_MULTIPLE; MPI was initialised with "
                                       "thread level "
                                    << level << " (use one thread per rank)");
  std::vector<idx_t> part(static_cast<std::size_t>(s.local), 0);
  if (nParts == 1) return part;

  // The local graph as Scotch wants it: no self-loops, no repeated neighbours.
  std::vector<SCOTCH_Num> xadj(static_cast<std::size_t>(s.local) + 1, 0), adjncy;
  adjncy.reserve(static_cast<std::size_t>(adjacency.nnz()));
  std::vector<idx_t> row;
  for (idx_t i = 0; i < s.local; ++i) {
    row.assign(adjacency.row(i), adjacency.row(i) + adjacency.size(i));
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (idx_t d : row)
      if (d != s.first + i) adjncy.push_back(d);
    xadj[static_cast<std::size_t>(i) + 1] = static_cast<SCOTCH_Num>(adjncy.size());
  }
  if (adjncy.empty()) adjncy.push_back(0); // a valid pointer for Scotch; never read

  // Ranks without vertices sit out (a sub-communicator of the others runs Scotch).
  MPI_Comm pcomm = comm.get();
  bool someEmpty = false;
  for (int r = 0; r < comm.size(); ++r)
    someEmpty = someEmpty || vtxdist[r + 1] == vtxdist[r];
  if (someEmpty) MPI_Comm_split(comm.get(), s.local > 0 ? 0 : MPI_UNDEFINED, comm.rank(), &pcomm);

  // Scotch's seed: set and reset the generator so that the result depends on the arguments
  // only, not on earlier calls.
  SCOTCH_randomSeed(static_cast<SCOTCH_Num>(opts.seed));
  SCOTCH_randomReset();

  const char* failed = nullptr;
  if (s.local > 0) {
    std::fill(part.begin(), part.end(), kNone); // a failure of Scotch leaves them so
    const int strategy = tuning.strategy >= 0 ? tuning.strategy : kPtScotchStrategy;
    ScotchRun run;
    failed = run.run(pcomm, xadj, adjncy, nParts, opts.imbalance, strategy, threads, part.data());
  }
  if (someEmpty && pcomm != MPI_COMM_NULL) MPI_Comm_free(&pcomm);

  dist::run_collectively(comm, [&] {
    FV_VERIFY(failed == nullptr, "PT-Scotch partition: " << failed << " failed on " << s.n
                                                         << " cells, " << nParts
                                                         << " parts (see Scotch's message above)");
    for (idx_t i = 0; i < s.local; ++i) {
      const idx_t q = part[static_cast<std::size_t>(i)];
      FV_VERIFY(q >= 0 && q < nParts, "PT-Scotch partition failed on "
                                          << s.n << " cells, " << nParts << " parts: cell "
                                          << s.first + i << " got zone " << q
                                          << " (see Scotch's message above)");
    }
  });
  fill_empty_parts(comm, s, part, nParts);
  return part;
}

std::vector<idx_t> partition_cells_gathered(const dist::Comm& comm,
                                            const std::vector<gidx_t>& vtxdist,
                                            const Csr& adjacency, int nParts,
                                            const PartitionOptions& opts) {
  const Share s = check_arguments(comm, vtxdist, adjacency, nParts, opts, "gathered partition");
  if (nParts == 1) return std::vector<idx_t>(static_cast<std::size_t>(s.local), 0);

  // Rank 0 gathers the row sizes and the rows (in rank order, i.e. in global vertex order).
  const auto p = static_cast<std::size_t>(comm.size());
  std::vector<idx_t> sizes(static_cast<std::size_t>(s.local));
  for (idx_t i = 0; i < s.local; ++i)
    sizes[static_cast<std::size_t>(i)] = adjacency.size(i);
  std::vector<std::int64_t> toRoot(p, 0);
  toRoot[0] = s.local;
  const dist::Received<idx_t> allSizes = dist::exchange(comm, sizes, toRoot);
  toRoot[0] = adjacency.nnz();
  const dist::Received<idx_t> allRows =
      dist::exchange(comm, adjacency.indices().to_vector(), toRoot);

  std::vector<idx_t> all;
  dist::run_collectively(comm, [&] {
    if (comm.rank() != 0) return;
    Csr g = Csr::from_counts(allSizes.data);
    std::copy(allRows.data.begin(), allRows.data.end(), g.indices().begin());
    all = partition_cells(g, nParts, opts);
  });

  // ... and sends every rank its vertices' parts.
  std::vector<std::int64_t> counts(p, 0);
  if (comm.rank() == 0)
    for (std::size_t r = 0; r < p; ++r)
      counts[r] = vtxdist[r + 1] - vtxdist[r];
  return dist::exchange(comm, all, counts).data;
}

} // namespace fv
