// Per-kernel profiling behind fv::forall (profiler.hpp): CUDA events on the GPU, steady_clock on
// the CPU, totals per label.
#include "runtime/backend/profiler.hpp"

#include "common/error.hpp"
#include "runtime/backend/forall.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#if defined(FV_BACKEND_CUDA)
#include "runtime/backend/cuda_check.hpp"
#endif

namespace fv {
namespace {

struct State {
  std::map<std::string, backend::KernelProfileRow> rows;
  int depth = 0;            ///< nesting of open regions; only the outermost is timed
  bool timing = false;      ///< the outermost open region is timed
  std::string label;        ///< label of the open outermost region
  Device dev = Device::Cpu; ///< device of the open region
  std::chrono::steady_clock::time_point t0;
#if defined(FV_BACKEND_CUDA)
  // event pairs of regions recorded but not read back yet: pending[i] uses events[2i], [2i+1]
  std::vector<cudaEvent_t> events;
  std::vector<std::string> pending;
#endif
};

State& state() {
  static State s;
  return s;
}

backend::KernelProfileRow& row(State& s, const std::string& label) {
  backend::KernelProfileRow& r = s.rows[label];
  r.label = label;
  return r;
}

#if defined(FV_BACKEND_CUDA)
constexpr std::size_t kMaxPending = 4096; ///< regions timed before the events are read back

/// Reads back the elapsed times of the pending regions (waits for the last one).
void flush_events(State& s) {
  if (s.pending.empty()) return;
  FV_CUDA_CHECK(cudaEventSynchronize(s.events[2 * s.pending.size() - 1]));
  for (std::size_t i = 0; i < s.pending.size(); ++i) {
    float ms = 0;
    FV_CUDA_CHECK(cudaEventElapsedTime(&ms, s.events[2 * i], s.events[2 * i + 1]));
    row(s, s.pending[i]).ms += ms;
  }
  s.pending.clear();
}
#endif

} // namespace

namespace detail {

void profile_begin(const char* label) {
  State& s = state();
  if (s.depth++ > 0) return;
  s.label = label;
  s.dev = active_device();
  s.timing = true;
#if defined(FV_BACKEND_CUDA)
  if (s.dev == Device::Cuda) {
    cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
    FV_CUDA_CHECK(cudaStreamIsCapturing(current_stream(), &cap));
    if (cap != cudaStreamCaptureStatusNone) { // recorded into a graph: timed when replayed
      s.timing = false;
      return;
    }
    if (s.pending.size() == kMaxPending) flush_events(s);
    const std::size_t need = 2 * (s.pending.size() + 1);
    while (s.events.size() < need) {
      cudaEvent_t e = nullptr;
      FV_CUDA_CHECK(cudaEventCreate(&e));
      s.events.push_back(e);
    }
    FV_CUDA_CHECK(cudaEventRecord(s.events[need - 2], current_stream()));
    return;
  }
#endif
  s.t0 = std::chrono::steady_clock::now();
}

void profile_end() noexcept {
  State& s = state();
  if (s.depth == 0 || --s.depth > 0 || !s.timing) return;
  s.timing = false;
  try {
#if defined(FV_BACKEND_CUDA)
    if (s.dev == Device::Cuda) {
      const std::size_t i = s.pending.size();
      FV_CUDA_CHECK(cudaEventRecord(s.events[2 * i + 1], current_stream()));
      s.pending.push_back(s.label);
      ++row(s, s.label).calls;
      return;
    }
#endif
    const auto t1 = std::chrono::steady_clock::now();
    backend::KernelProfileRow& r = row(s, s.label);
    r.ms += std::chrono::duration<double, std::milli>(t1 - s.t0).count();
    ++r.calls;
  } catch (...) { // a failed event record loses one sample; the launch error itself is reported
  }
}

} // namespace detail

namespace backend {

void profiling_start() {
  State& s = state();
  s.rows.clear();
  s.depth = 0;
  s.timing = false;
#if defined(FV_BACKEND_CUDA)
  s.pending.clear();
#endif
  detail::g_profiling = true;
}

std::vector<KernelProfileRow> profiling_stop() {
  State& s = state();
  detail::g_profiling = false;
#if defined(FV_BACKEND_CUDA)
  flush_events(s);
  for (cudaEvent_t e : s.events)
    (void)cudaEventDestroy(e);
  s.events.clear();
#endif
  std::vector<KernelProfileRow> out;
  for (auto& kv : s.rows)
    out.push_back(kv.second);
  std::stable_sort(
      out.begin(), out.end(),
      [](const KernelProfileRow& a, const KernelProfileRow& b) { return a.ms > b.ms; });
  s.rows.clear();
  return out;
}

bool profiling_on() {
  return detail::g_profiling;
}

} // namespace backend
} // namespace fv
