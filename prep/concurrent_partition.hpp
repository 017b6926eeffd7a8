#pragma once
/// \file concurrent_partition.hpp
/// METIS on a thread of its own while the serial prepare goes on with the work that does not
/// depend on the partition (renumbering faces and nodes, connectivity, geometry, wall
/// distance): METIS is serial, and at 10M cells and more it is the longest phase of fvprep.
#include "common/csr.hpp"
#include "prep/partition.hpp"
#include "prep/prep_report.hpp"

#include <future>
#include <string>
#include <vector>

namespace fv {

/// One partition of a cell dual graph computed concurrently with the caller:
///   ConcurrentPartition p(parts, options);
///   p.start(g.cellCells);            // builds METIS's graph on the OpenMP threads, then returns
///   ... work that leaves g.cellCells alone ...
///   std::vector<idx_t> part = p.finish(&partitionReport, &prepReport);
/// The partition is partition_cells()'s and the report partition_report()'s, bit for bit. While
/// METIS runs, the caller's OpenMP regions use one thread fewer (METIS's) when they have three
/// or more, so that no thread of a statically scheduled loop shares its core with METIS (on
/// two, halving the team cost as much as sharing: 2M tetrahedra, 2 cores, both within the
/// noise of the sequential prepare); prep's results do not depend on the thread count. Not
/// copyable; the
/// destructor waits for a partition still running (after an exception in the caller) and
/// restores the thread count.
class ConcurrentPartition {
 public:
  /// `beside`: what runs meanwhile, for the log line of finish() ("METIS 6.52 s on its own
  /// thread, beside <beside>").
  ConcurrentPartition(int nParts, const PartitionOptions& options,
                      std::string beside = "the global mesh's renumbering, connectivity, "
                                           "geometry, wall distance and mesh UUID");
  ~ConcurrentPartition();
  ConcurrentPartition(const ConcurrentPartition&) = delete;
  ConcurrentPartition& operator=(const ConcurrentPartition&) = delete;

  /// Checks the request (usage errors are thrown here, at once) and starts METIS on `cellCells`.
  /// The graph is shared, not copied (fv::Array's shallow copy): the caller must not write it
  /// until finish() returns. Call once.
  void start(const Csr& cellCells);

  /// Waits for the partition and returns the zone of each cell. Records the wait as the phase
  /// "partitioning" in `phases` (the log line gives METIS's own time) and fills `report`.
  /// Rethrows METIS's error, if any.
  std::vector<idx_t> finish(PartitionReport* report, PrepReport* phases);

 private:
  struct Result {
    std::vector<idx_t> part;
    PartitionReport report;
    double seconds = 0.0; ///< METIS and the report, on their thread
  };
  void restore_threads();

  int nParts_;
  PartitionOptions options_;
  std::string beside_;
  std::future<Result> running_;
  int savedThreads_ = 0; ///< the caller's OpenMP thread count while METIS runs, else 0
};

} // namespace fv
