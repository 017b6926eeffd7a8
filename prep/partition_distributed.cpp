#include "prep/partition_distributed.hpp"

#include "common/error.hpp"
#include "common/log.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mpi.h>

// PT-Scotch (SCOTCH_randomSeed) and its ParMETIS v3 interface: both declare SCOTCH_Num.
#include <ptscotch.h>

#include <parmetis.h>

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

namespace fv {

static_assert(std::is_same_v<SCOTCH_Num, std::int32_t>,
              "PT-Scotch must be the 32-bit flavour (include/parmetis-int32, scotch-int32)");

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

/// Runs PT-Scotch on one thread per rank while in scope, unless SCOTCH_PTHREAD_NUMBER is set:
/// Scotch reads it whenever it starts a computation and otherwise starts a thread per core on
/// every rank, and its threaded algorithms give a different partition from run to run.
class OneScotchThread {
 public:
  OneScotchThread() : set_(std::getenv(kVariable) == nullptr) {
    if (set_) setenv(kVariable, "1", 0);
  }
  ~OneScotchThread() {
    if (set_) unsetenv(kVariable);
  }
  OneScotchThread(const OneScotchThread&) = delete;
  OneScotchThread& operator=(const OneScotchThread&) = delete;

 private:
  static constexpr const char* kVariable = "SCOTCH_PTHREAD_NUMBER";
  bool set_;
};

} // namespace

std::vector<idx_t> partition_cells_distributed(const dist::Comm& comm,
                                               const std::vector<gidx_t>& vtxdist,
                                               const Csr& adjacency, int nParts,
                                               const PartitionOptions& opts) {
  const Share s = check_arguments(comm, vtxdist, adjacency, nParts, opts, "PT-Scotch partition");
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

  // Ranks without vertices sit out: ParMETIS refuses them, and so the call stays portable to it.
  std::vector<SCOTCH_Num> subdist{0};
  for (int r = 0; r < comm.size(); ++r)
    if (vtxdist[r + 1] > vtxdist[r]) subdist.push_back(static_cast<SCOTCH_Num>(vtxdist[r + 1]));
  MPI_Comm pcomm = comm.get();
  const bool someEmpty = static_cast<int>(subdist.size()) < comm.size() + 1;
  if (someEmpty) MPI_Comm_split(comm.get(), s.local > 0 ? 0 : MPI_UNDEFINED, comm.rank(), &pcomm);

  const OneScotchThread oneThread;
  // PT-Scotch's seed (its compatibility library ignores options[]): set and reset the
  // generator so that the result depends on the arguments only, not on earlier calls.
  SCOTCH_randomSeed(static_cast<SCOTCH_Num>(opts.seed));
  SCOTCH_randomReset();

  int rc = METIS_OK;
  if (s.local > 0) {
    std::fill(part.begin(), part.end(), kNone); // a failure of Scotch leaves them so
    std::vector<float> tpwgts(static_cast<std::size_t>(nParts), 1.0f / nParts);
    float ubvec = static_cast<float>(opts.imbalance);
    SCOTCH_Num wgtflag = 0, numflag = 0, ncon = 1, np = nParts, edgecut = 0;
    // ParMETIS: options[0] = 1 (use the others), [1] debug level, [2] seed. PT-Scotch: unused.
    SCOTCH_Num options[3] = {1, 0, static_cast<SCOTCH_Num>(opts.seed)};
    rc = ParMETIS_V3_PartKway(subdist.data(), xadj.data(), adjncy.data(), nullptr, nullptr,
                              &wgtflag, &numflag, &ncon, &np, tpwgts.data(), &ubvec, options,
                              &edgecut, part.data(), &pcomm);
  }
  if (someEmpty && pcomm != MPI_COMM_NULL) MPI_Comm_free(&pcomm);

  dist::run_collectively(comm, [&] {
    FV_VERIFY(rc == METIS_OK, "PT-Scotch partition: ParMETIS_V3_PartKway failed (status "
                                  << rc << ") on " << s.n << " cells, " << nParts << " parts");
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
