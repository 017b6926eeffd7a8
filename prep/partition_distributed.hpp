#pragma once
/// \file partition_distributed.hpp
/// Cell partitioning of a dual graph distributed in blocks over MPI ranks, for the distributed
/// prepare (`mpirun -np N fvprep ...`):
///   - partition_cells_distributed(): PT-Scotch through its ParMETIS-compatible interface
///     (ParMETIS_V3_PartKway; Debian's libscotchparmetis-dev), never gathering the graph;
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
/// PT-Scotch (7.0, ParMETIS_V3_PartKway of its compatibility library) computes the partition.
/// That library passes only the graph and the (uniform) target part weights on to Scotch's
/// default mapping strategy: it ignores `ubvec` (so opts.imbalance is not enforced: Scotch's
/// default strategy aims at 5 % imbalance), `options` (so no seed through it) and the
/// objective (opts.objective is ignored: Scotch minimises the edge cut), and reports no edge
/// cut. The seed is applied with SCOTCH_randomSeed + SCOTCH_randomReset before every call, so
/// that the result depends on the graph, nParts, opts.seed and the number of ranks only (not on
/// earlier calls); the same arguments on the same number of ranks give the same partition.
/// PT-Scotch runs on one thread per rank (SCOTCH_PTHREAD_NUMBER=1 for the call, unless that
/// variable is set): its threaded algorithms are not deterministic (a thread per core on every
/// rank would also oversubscribe the node).
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

} // namespace fv
