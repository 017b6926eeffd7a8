#pragma once
/// \file partition_distributed.hpp
/// Cell partitioning of a dual graph distributed in blocks over MPI ranks, for the distributed
/// prepare (`mpirun -np N fvprep ...`):
///   - partition_cells_distributed(): PT-Scotch through its native distributed interface
///     (ptscotch.h: SCOTCH_dgraphPart; Debian's libptscotch-dev), never gathering the graph;
///   - partition_cells_gathered(): serial METIS on rank 0, exactly partition_cells() of the
///     whole graph, so that a distributed prepare can reproduce a serial one.
///
/// Both are collective over `comm` (every rank calls them with the same vtxdist, nParts and
/// options), and every error is collective: every rank throws the same fv::Error (usage errors
/// with the wording of partition_cells()).
///
/// The graph: rank r holds vertices [vtxdist[r], vtxdist[r + 1]) (vtxdist has ranks + 1
/// non-decreasing entries from 0; a rank may hold no vertex), and row i of its `adjacency`
/// lists the GLOBAL ids of the neighbours of vertex vtxdist[rank] + i. The graph must be
/// symmetric (as a cell dual graph is; not checked); repeated neighbours and self-loops are
/// ignored. The partitioners index with 32 bits: the graph is limited to 2^31 - 1 vertices.
#include "common/csr.hpp"
#include "common/types.hpp"
#include "prep/dist_comm.hpp"
#include "prep/partition.hpp"

#include <vector>

namespace fv {

/// Partitions a dual graph distributed in blocks over comm's ranks: this rank holds vertices
/// [vtxdist[rank], vtxdist[rank+1]) and `adjacency` row i lists the GLOBAL ids of vertex
/// vtxdist[rank]+i's neighbours. Returns the part (in [0,nParts)) of each local vertex.
///
/// PT-Scotch 7.0 computes the partition: SCOTCH_dgraphPart() with the strategy of
/// SCOTCH_stratDgraphMapBuild(kPtScotchStrategy, ranks, nParts, kbalval = opts.imbalance - 1)
/// (parallel recursive bipartitioning; Scotch minimises the edge cut, so opts.objective is
/// ignored). opts.imbalance is honoured: the largest part holds at most opts.imbalance times the
/// average plus one vertex of rounding (measured up to 1M-cell and 10M-cell meshes, 1-16 ranks:
/// 1.0300 at most for 1.03; tests/prep/test_partition_distributed.cpp checks 1.0 to 1.2).
///
/// The strategy flags are SCOTCH_STRATSPEED | SCOTCH_STRATSAFETY (kPtScotchStrategy), chosen by
/// measurement (bench/bench_partition_dist.cpp; bench/results/partition_dist_vm_20261125.md):
/// SPEED drops the second of the two multilevel bipartitions Scotch tries at each sequential
/// bipartition and SAFETY the diffusion refinement of the band graphs. Against
/// SCOTCH_STRATDEFAULT (the strategy of the ParMETIS interface) they measured several times
/// faster on 1-16 ranks for a few per cent more cut, which stays close to serial METIS's.
/// QUALITY and SCALABILITY change nothing in Scotch 7.0.3 at these sizes (the distributed
/// strategy builder does not read QUALITY; SCALABILITY only skips the centralised refinement of
/// band graphs of 10M edges or more); BALANCE gives exact balance for up to 15 % more cut.
///
/// The seed is applied with SCOTCH_randomSeed + SCOTCH_randomReset before every call (the
/// context uses Scotch's global generator), so that the result depends on the graph, nParts,
/// opts.seed, opts.imbalance and the number of ranks only (not on earlier calls); the same
/// arguments on the same number of ranks give the same partition.
/// PT-Scotch runs in a SCOTCH_Context of one thread per rank with SCOTCH_OPTIONNUMDETERMINISTIC
/// set; SCOTCH_PTHREAD_NUMBER and OMP_NUM_THREADS are not read. With the deterministic option,
/// Scotch 7.0.3's threaded partitions are reproducible for a given thread count (they differ
/// between thread counts; without the option they differ from call to call), but threads only
/// cost time (measured slower: bench/results/partition_dist_vm_20261125.md).
/// partition_cells_ptscotch() takes another thread count.
/// Ranks that hold no vertex sit the call out (a sub-communicator of the others runs it).
///
/// nParts == 1 returns zeros without calling PT-Scotch; nParts larger than the number of
/// vertices is a usage error. Every part is non-empty: should PT-Scotch leave a part empty (it
/// may on tiny graphs), the lowest-global-id vertex of the largest part (lowest part id among
/// equals) is moved into it, deterministically and with a warning on rank 0.
std::vector<idx_t> partition_cells_distributed(const dist::Comm& comm,
                                               const std::vector<gidx_t>& vtxdist,
                                               const Csr& adjacency, int nParts,
                                               const PartitionOptions& opts = {});

/// The same graph partitioned by serial METIS on rank 0 (the graph is gathered there) and the
/// parts scattered back: exactly the partition_cells() result of the whole graph, so that a
/// distributed prepare can reproduce a serial one (tests, `--partitioner metis`).
/// Rank 0 holds the whole graph (4 bytes per vertex and per adjacency entry, twice) while METIS
/// runs: for graphs that fit one node's memory.
std::vector<idx_t> partition_cells_gathered(const dist::Comm& comm,
                                            const std::vector<gidx_t>& vtxdist,
                                            const Csr& adjacency, int nParts,
                                            const PartitionOptions& opts = {});

/// The PT-Scotch settings of partition_cells_distributed(), for benchmarks
/// (bench/bench_partition_dist.cpp) and tests.
struct PtScotchTuning {
  /// SCOTCH_STRAT* flags of SCOTCH_stratDgraphMapBuild(); negative: kPtScotchStrategy.
  int strategy = -1;
  /// Scotch threads per rank (deterministic for a given count); 0 or less: one.
  int threads = 0;
};

/// The strategy flags partition_cells_distributed() uses (see its comment):
/// SCOTCH_STRATSPEED | SCOTCH_STRATSAFETY (0x2 | 0x8; checked against ptscotch.h).
constexpr int kPtScotchStrategy = 0x2 | 0x8;

/// partition_cells_distributed() with other PT-Scotch settings. More than one Scotch thread per
/// rank needs MPI initialised with MPI_THREAD_MULTIPLE: Scotch's threads call MPI themselves
/// (its halo exchanges run inside the threaded bipartitions), which any lower level forbids and
/// Open MPI does not survive (a free of a non-heap address in its point-to-point layer, seen
/// under AddressSanitizer); with a lower level the call is refused with a one-line error on
/// every rank.
std::vector<idx_t> partition_cells_ptscotch(const dist::Comm& comm,
                                            const std::vector<gidx_t>& vtxdist,
                                            const Csr& adjacency, int nParts,
                                            const PartitionOptions& opts,
                                            const PtScotchTuning& tuning);

} // namespace fv
