#include "prep/zones.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "common/memory.hpp"
#include "prep/mesh_ids.hpp"
#include "prep/zone_builder.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <iomanip>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>

namespace fv {

void build_zones_each(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                      const PrepOptions& opts, const std::function<void(Zone&&)>& sink,
                      PrepReport* report) {
  build_zones_streamed(
      g, cellPart, nParts, opts,
      [&](Zone&& z) {
        sink(std::move(z));
        return ZoneTail{};
      },
      report);
}

int zone_build_threads(int threads, int nParts, std::uint64_t available, std::uint64_t zoneBytes) {
  int n = std::max(1, std::min(threads, nParts));
  if (available > 0 && zoneBytes > 0) {
    const std::uint64_t fit = available / zoneBytes; // zones in memory: n + 1
    n = std::min<std::uint64_t>(static_cast<std::uint64_t>(n), fit > 1 ? fit - 1 : 1);
  }
  return std::max(1, n);
}

namespace {

/// A zone being built holds about this many times the process's resident bytes per global cell
/// at the start of the zones, for each of its owned cells (the rise of the peak over the
/// resident bytes per zone in memory, measured below 4 from 1M to 200M cells:
/// bench/results/prep_overlap_20261128/). With margin: an estimate too high only
/// costs threads where memory is short.
constexpr double kZoneBytesPerGlobalByte = 4.0;

/// The threads that build zones here: one per zone up to the OpenMP threads, fewer when the
/// zones in memory would not fit the memory left (a many-core node short of memory). Logs it.
int zone_threads_for(const GlobalMesh& g, const std::vector<idx_t>& partCount, int nParts) {
  int threads = 1;
#if defined(_OPENMP)
  threads = omp_get_max_threads();
#endif
  idx_t largest = 0;
  for (int p = 0; p < nParts; ++p)
    largest = std::max(largest, partCount[p + 1] - partCount[p]);
  const std::uint64_t available = available_bytes(), resident = resident_bytes();
  const double perCell = g.nCells() > 0 ? static_cast<double>(resident) / g.nCells() : 0.0;
  const auto zoneBytes =
      static_cast<std::uint64_t>(kZoneBytesPerGlobalByte * perCell * static_cast<double>(largest));
  const int n = zone_build_threads(threads, nParts, available, zoneBytes);
  if (n < std::min(threads, nParts))
    FV_LOG_INFO("  building zones on "
                << n << " of " << threads << " threads: " << available / 1048576
                << " MiB available, about " << zoneBytes / 1048576 << " MiB per zone");
  return n;
}

} // namespace

namespace {

/// The cells of each part: partOf[c] for every renumbered cell, and the cells of part p,
/// ascending, at partCells[partCount[p] .. partCount[p + 1]).
struct PartCells {
  std::vector<idx_t> partOf, partCount, partCells;
};

PartCells split_cells_by_part(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts) {
  const idx_t nc = g.nCells();
  FV_VERIFY(nParts >= 1, "build_zones: " << nParts << " parts requested");
  FV_VERIFY(static_cast<idx_t>(cellPart.size()) == nc, "build_zones: part vector has "
                                                           << cellPart.size() << " entries for "
                                                           << nc << " cells");
  PartCells pc;
  pc.partOf.resize(static_cast<std::size_t>(nc));
  pc.partCount.assign(static_cast<std::size_t>(nParts) + 1, 0);
  for (idx_t c = 0; c < nc; ++c) {
    const idx_t p = cellPart[g.cellMesh[c]];
    FV_VERIFY(p >= 0 && p < nParts, "build_zones: cell " << g.cellMesh[c] << " is in part " << p
                                                         << ", outside [0, " << nParts << ")");
    pc.partOf[c] = p;
    ++pc.partCount[p + 1];
  }
  for (int p = 0; p < nParts; ++p)
    FV_VERIFY(pc.partCount[p + 1] > 0, "build_zones: part "
                                           << p << " of " << nParts
                                           << " has no cells (fewer cells than parts?)");
  for (int p = 0; p < nParts; ++p)
    pc.partCount[p + 1] += pc.partCount[p];
  pc.partCells.resize(static_cast<std::size_t>(nc));
  std::vector<idx_t> fill(pc.partCount.begin(), pc.partCount.end() - 1);
  for (idx_t c = 0; c < nc; ++c)
    pc.partCells[fill[pc.partOf[c]]++] = c;
  return pc;
}

/// An ordered pipeline: threads take the next zone to build; whichever thread is free hands the
/// next zone in order to the sink (one at a time), queues the write of the zone's tail and then
/// runs the tail's prepare (the checksums of the zone's bytes) while another thread may already
/// sink the next zone; and one thread at a time, whichever is free, runs the queued writes in
/// zone order, each once its prepare is done. So the writes, which the file takes one at a time
/// anyway, overlap the building of the next zones instead of holding several threads in a queue
/// for the file, and what need not be one at a time is not. At most `window` zones are in
/// memory at once, whether being built, built and waiting for their turn, or waiting for or in
/// their tail: a thread does not start a zone beyond that (without the bound, a thread held
/// about two zones: fvprep's peak). Every member runs under `mutex_` except the work itself.
class ZonePipeline {
 public:
  ZonePipeline(const GlobalMesh& g, const PartCells& parts, int nParts, const PrepOptions& opts,
               const std::function<ZoneTail(Zone&&)>& sink, int window)
      : g_(g), parts_(parts), nParts_(nParts), opts_(opts), sink_(sink), window_(window),
        reports_(static_cast<std::size_t>(nParts)), zones_(static_cast<std::size_t>(nParts)),
        built_(static_cast<std::size_t>(nParts), 0), errorZone_(nParts) {}

  /// One thread's share: sink, write or build until every zone is written or one failed.
  void run(ZoneScratch& scratch) {
    std::unique_lock<std::mutex> lock(mutex_);
    while ((nextSink_ < nParts_ || !writes_.empty() || writing_) && errorZone_ == nParts_) {
      if (!sinking_ && nextSink_ < nParts_ && built_[static_cast<std::size_t>(nextSink_)]) {
        sink_next(lock);
      } else if (!writing_ && !writes_.empty() && writes_.front().ready) {
        run_next_write(lock);
      } else if (nextBuild_ < nParts_ && live_ < window_) {
        build_next(lock, scratch);
      } else {
        const auto t0 = std::chrono::steady_clock::now();
        changed_.wait(lock);
        idleSeconds_ += log::seconds_since(t0);
      }
    }
  }

  /// Throws the error of the lowest failing zone, if any.
  void rethrow() const { FV_VERIFY(error_.empty(), error_); }
  std::vector<ZoneReport>& reports() { return reports_; }
  /// "... s in the sink, ... s preparing ..., ... s writing ..., threads idle ... s": where the
  /// time went.
  std::string note(int nThreads) const {
    char note[240];
    std::snprintf(note, sizeof note,
                  "%d zones on %d threads; %.2f s in the sink, %.2f s preparing the writes "
                  "(beside the rest), %.2f s writing (one zone at a time, beside the building); "
                  "threads idle %.2f s in all",
                  nParts_, nThreads, sinkSeconds_, prepareSeconds_, writeSeconds_, idleSeconds_);
    return note;
  }

 private:
  void fail(int p, const std::string& what) {
    if (p < errorZone_) {
      errorZone_ = p;
      error_ = what;
    }
  }

  void sink_next(std::unique_lock<std::mutex>& lock) {
    const int p = nextSink_;
    sinking_ = true;
    Zone z = std::move(zones_[static_cast<std::size_t>(p)]);
    lock.unlock();
    const auto t0 = std::chrono::steady_clock::now();
    ZoneTail tail;
    std::string what;
    try {
      tail = sink_(std::move(z));
    } catch (const std::exception& e) {
      what = e.what();
    }
    const double t = log::seconds_since(t0);
    lock.lock();
    if (!what.empty()) fail(p, what);
    sinkSeconds_ += t;
    sinking_ = false;
    ++nextSink_;
    if (!tail) {
      --live_;
      changed_.notify_all();
      return;
    }
    writes_.push_back(QueuedWrite{p, std::move(tail.write), !tail.prepare});
    changed_.notify_all(); // the next zone may be sunk meanwhile
    if (tail.prepare) prepare(lock, p, tail.prepare);
  }

  /// Runs zone p's prepare outside the lock, then lets its queued write run.
  void prepare(std::unique_lock<std::mutex>& lock, int p, std::function<void()>& work) {
    lock.unlock();
    const auto t0 = std::chrono::steady_clock::now();
    std::string what;
    try {
      work();
    } catch (const std::exception& e) {
      what = e.what();
    }
    work = nullptr;
    const double t = log::seconds_since(t0);
    lock.lock();
    prepareSeconds_ += t;
    if (!what.empty()) fail(p, what);
    for (QueuedWrite& w : writes_)
      if (w.zone == p) w.ready = true;
    changed_.notify_all();
  }

  void run_next_write(std::unique_lock<std::mutex>& lock) { // the one thread writing
    writing_ = true;
    QueuedWrite w = std::move(writes_.front());
    writes_.pop_front();
    lock.unlock();
    const auto t0 = std::chrono::steady_clock::now();
    std::string what;
    try {
      if (w.write) w.write();
    } catch (const std::exception& e) {
      what = e.what();
    }
    w.write = nullptr; // frees what it holds (the zone) before taking the lock
    const double t = log::seconds_since(t0);
    lock.lock();
    writeSeconds_ += t;
    if (!what.empty()) fail(w.zone, what);
    writing_ = false;
    --live_;
    changed_.notify_all();
  }

  void build_next(std::unique_lock<std::mutex>& lock, ZoneScratch& scratch) {
    const int p = nextBuild_++;
    ++live_;
    lock.unlock();
    Zone z;
    std::string what;
    try {
      const idx_t first = parts_.partCount[p], count = parts_.partCount[p + 1] - first;
      z = build_one_zone(g_, parts_.partOf, parts_.partCells.data() + first, count, p, opts_,
                         scratch, reports_[static_cast<std::size_t>(p)]);
    } catch (const std::exception& e) {
      what = e.what();
    }
    lock.lock();
    if (!what.empty()) fail(p, what);
    zones_[static_cast<std::size_t>(p)] = std::move(z);
    built_[static_cast<std::size_t>(p)] = 1;
    changed_.notify_all();
  }

  const GlobalMesh& g_;
  const PartCells& parts_;
  const int nParts_;
  const PrepOptions& opts_;
  const std::function<ZoneTail(Zone&&)>& sink_;
  const int window_;
  std::vector<ZoneReport> reports_;
  std::vector<Zone> zones_; ///< built, not yet sunk
  std::vector<char> built_;
  /// A sunk zone's write, waiting for its turn (and, until `ready`, for its prepare).
  struct QueuedWrite {
    int zone;
    std::function<void()> write;
    bool ready;
  };
  std::deque<QueuedWrite> writes_; ///< in zone order
  std::mutex mutex_;
  std::condition_variable changed_;
  int nextBuild_ = 0, nextSink_ = 0;
  int live_ = 0; ///< zones in memory: building, built and not yet sunk, or with a tail to run
  bool sinking_ = false, writing_ = false;
  double sinkSeconds_ = 0;    ///< time in the sink, which no other thread can share
  double prepareSeconds_ = 0; ///< time in the tails' prepares, summed over threads
  double writeSeconds_ = 0;   ///< time in the tails' writes, one at a time
  double idleSeconds_ = 0;    ///< threads waiting for a zone to build, to sink or to write, summed
  int errorZone_;
  std::string error_;
};

/// "  zone steps (s, summed over zones): ordering ..., halo ...": where the zones' time went.
void log_zone_steps(const std::vector<ZoneReport>& reports) {
  ZoneStepTimes sum;
  for (const ZoneReport& r : reports)
    for (int k = 0; k < ZoneStepTimes::kSteps; ++k)
      sum.seconds[k] += r.steps.seconds[k];
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << "  zone steps (s, summed over zones):";
  for (int k = 0; k < ZoneStepTimes::kSteps; ++k)
    os << (k ? ", " : " ") << ZoneStepTimes::kNames[k] << ' ' << sum.seconds[k];
  FV_LOG_INFO(os.str());
}

} // namespace

void build_zones_streamed(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                          const PrepOptions& opts, const std::function<ZoneTail(Zone&&)>& sink,
                          PrepReport* report) {
  log::Phase phase("building zones");
  const PartCells parts = split_cells_by_part(g, cellPart, nParts);
  // The number of threads is bounded by the memory left (zone_build_threads()).
  const int nThreads = zone_threads_for(g, parts.partCount, nParts);
  std::vector<ZoneScratch> scratch(static_cast<std::size_t>(nThreads));
  ZonePipeline pipeline(g, parts, nParts, opts, sink, nThreads + 1);
#pragma omp parallel num_threads(nThreads)
  {
    int tid = 0;
#if defined(_OPENMP)
    tid = omp_get_thread_num();
#endif
    pipeline.run(scratch[static_cast<std::size_t>(tid)]);
  }
  pipeline.rethrow();
  phase.note(pipeline.note(nThreads));
  log_zone_steps(pipeline.reports());
  if (report) {
    report->zones = std::move(pipeline.reports());
    report->add_phase("building zones", phase.seconds());
  }
}

std::vector<Zone> build_zones(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report) {
  std::vector<Zone> zones;
  zones.reserve(static_cast<std::size_t>(std::max(nParts, 0)));
  build_zones_each(
      g, cellPart, nParts, opts, [&](Zone&& z) { zones.push_back(std::move(z)); }, report);
  return zones;
}

std::vector<idx_t> parts_in_mesh_order(const GlobalMesh& g, const std::vector<idx_t>& partGlobal) {
  FV_VERIFY(static_cast<idx_t>(partGlobal.size()) == g.nCells(),
            "parts_in_mesh_order: " << partGlobal.size() << " parts for " << g.nCells()
                                    << " cells");
  std::vector<idx_t> part(partGlobal.size());
  for (idx_t c = 0; c < g.nCells(); ++c)
    part[g.cellMesh[c]] = partGlobal[c];
  return part;
}

std::vector<Zone> build_zones(const Mesh& mesh, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report) {
  const GlobalMesh g = build_global_mesh(mesh, opts, report);
  return build_zones(g, cellPart, nParts, opts, report);
}

} // namespace fv
