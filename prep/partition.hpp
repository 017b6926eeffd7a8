#pragma once
/// \file partition.hpp
/// Cell partitioning with METIS (METIS_PartGraphKway on the cell dual graph) and a report of
/// the partition's quality (edge cut, interface faces, load imbalance, neighbour counts).
#include "common/csr.hpp"
#include "common/types.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace fv {

/// What METIS minimises.
enum class PartitionObjective {
  EdgeCut,   ///< number of interface faces (METIS_OBJTYPE_CUT), the default
  CommVolume ///< total communication volume (METIS_OBJTYPE_VOL): halo cells summed over zones
};

/// Options of partition_cells().
struct PartitionOptions {
  /// Allowed load imbalance: the largest part may hold up to `imbalance` times the average
  /// number of cells (METIS ufactor = round(1000 (imbalance - 1))). Must be >= 1.
  double imbalance = 1.03;
  /// METIS random seed (same seed + same graph = same partition).
  int seed = 0;
  PartitionObjective objective = PartitionObjective::EdgeCut;
};

/// Parses "cut" / "vol" (also "edgecut", "volume"); throws a usage fv::Error otherwise.
PartitionObjective parse_partition_objective(const std::string& s);
const char* partition_objective_name(PartitionObjective o);

/// Partitions the cells of a mesh into nParts zones. `cellCells` is the global dual graph
/// (row c: face neighbours of cell c; symmetric; duplicates and self-loops are ignored).
/// Returns the zone of each cell, in [0, nParts). nParts == 1 skips METIS; nParts larger than
/// the number of cells is a usage error. Every zone is non-empty.
std::vector<idx_t> partition_cells(const Csr& cellCells, int nParts,
                                   const PartitionOptions& options = {});

/// The pieces of partition_cells(), for callers that run METIS on a thread of its own
/// (prep/concurrent_partition.hpp): partition_cells(g, n, o) is
/// partition_graph(g, metis_graph(g, n, o), n, o).
/// METIS's form of a dual graph: row c of `cellCells` sorted, without repeats and self-loops.
/// Owns its data (4 bytes per cell and per graph edge end).
struct MetisGraph {
  std::vector<idx_t> xadj; ///< size nCells + 1
  std::vector<idx_t> adj;  ///< neighbours, ascending per row
};

/// Checks the request (nParts in [1, nCells], imbalance in [1, 10): usage errors; the graph's
/// invariants) and builds the METIS graph of `cellCells` on the OpenMP threads (the same for any
/// thread count); empty for one part, which needs no METIS.
MetisGraph metis_graph(const Csr& cellCells, int nParts, const PartitionOptions& options);

/// The zone of each cell from `graph` (metis_graph()'s, consumed): METIS_PartGraphKway, then
/// empty parts refilled from `cellCells`; all zeros for one part. Runs on the calling thread only.
std::vector<idx_t> partition_graph(const Csr& cellCells, MetisGraph&& graph, int nParts,
                                   const PartitionOptions& options);

/// Quality of a partition.
struct PartitionReport {
  int nParts = 0;
  gidx_t nCells = 0;
  gidx_t edgeCut = 0;        ///< dual-graph edges (interior faces) between different zones
  gidx_t commVolume = 0;     ///< sum over cells of the number of other zones they touch (= halo
                             ///< cells summed over zones)
  double imbalance = 0;      ///< largest zone / average zone (1 = perfect)
  std::vector<gidx_t> cells; ///< cells per zone
  std::vector<gidx_t> interfaceFaces; ///< faces per zone shared with another zone
  std::vector<gidx_t> haloCells;      ///< distinct other-zone cells next to the zone
  std::vector<int> neighbours;        ///< number of neighbouring zones per zone
};

/// Computes the report of `part` (one zone per cell) on the dual graph.
PartitionReport partition_report(const Csr& cellCells, const std::vector<idx_t>& part, int nParts);

/// Prints a summary (and with perZone, one line per zone) to `os`.
void print_partition_report(std::ostream& os, const PartitionReport& r, bool perZone = false);

} // namespace fv
