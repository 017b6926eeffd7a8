#include "prep/concurrent_partition.hpp"

#include "common/error.hpp"
#include "common/log.hpp"

#include <chrono>
#include <sstream>
#include <utility>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

ConcurrentPartition::ConcurrentPartition(int nParts, const PartitionOptions& options,
                                         std::string beside)
    : nParts_(nParts), options_(options), beside_(std::move(beside)) {}

ConcurrentPartition::~ConcurrentPartition() {
  if (running_.valid()) running_.wait();
  restore_threads();
}

void ConcurrentPartition::restore_threads() {
#if defined(_OPENMP)
  if (savedThreads_ > 0) omp_set_num_threads(savedThreads_);
#endif
  savedThreads_ = 0;
}

void ConcurrentPartition::start(const Csr& cellCells) {
  FV_VERIFY(!running_.valid(), "ConcurrentPartition::start called twice");
  MetisGraph graph = metis_graph(cellCells, nParts_, options_);
#if defined(_OPENMP)
  const int threads = omp_get_max_threads();
  if (nParts_ > 1 && threads > 2) {
    savedThreads_ = threads;
    omp_set_num_threads(threads - 1);
  }
#endif
  running_ = std::async(std::launch::async, [cc = cellCells, nParts = nParts_, options = options_,
                                             g = std::move(graph)]() mutable {
    const auto t0 = std::chrono::steady_clock::now();
    Result r;
    r.part = partition_graph(cc, std::move(g), nParts, options);
    r.report = partition_report(cc, r.part, nParts);
    r.seconds = log::seconds_since(t0);
    return r;
  });
}

std::vector<idx_t> ConcurrentPartition::finish(PartitionReport* report, PrepReport* phases) {
  FV_VERIFY(running_.valid(), "ConcurrentPartition::finish called before start");
  Result r;
  {
    log::Phase p("partitioning");
    restore_threads(); // this thread only waits from here on
    r = running_.get();
    std::ostringstream os;
    os << "METIS " << std::fixed;
    os.precision(2);
    os << r.seconds << " s on its own thread, beside " << beside_;
    p.note(os.str());
    if (phases) phases->add_phase("partitioning", p.seconds());
  }
  if (report) *report = std::move(r.report);
  return std::move(r.part);
}

} // namespace fv
