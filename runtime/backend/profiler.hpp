#pragma once
/// \file profiler.hpp
/// Per-kernel time over a run (fvrun --profile): while profiling is on, every fv::forall (and
/// every fv::KernelSequence, counted as one kernel under its own label) adds its time to its
/// label's total:
///
///   fv::backend::profiling_start();
///   ... iterations ...
///   const auto rows = fv::backend::profiling_stop();   // sorted by total time, largest first
///
/// On the GPU the time is device time between two CUDA events recorded on the launch stream
/// around the launch (read back in batches, so profiling adds no synchronisation per kernel);
/// launches made while a CUDA graph is being captured are not timed (the replayed sequence
/// is). On the CPU it is the wall time of the (synchronous) OpenMP loop. Nested regions count
/// once, under the outermost label. When profiling is off the cost is one load of a bool per
/// launch; profiling never changes what the kernels compute.
#include <string>
#include <vector>

namespace fv::backend {

/// Accumulated time of one kernel label.
struct KernelProfileRow {
  std::string label;
  long long calls = 0; ///< launches (a KernelSequence run counts once)
  double ms = 0;       ///< total device (GPU) or wall (CPU) time, milliseconds
};

/// Clears the totals and turns profiling on.
void profiling_start();
/// Waits for the timed kernels, turns profiling off and returns the totals, largest first.
std::vector<KernelProfileRow> profiling_stop();
/// True between profiling_start() and profiling_stop().
bool profiling_on();

} // namespace fv::backend
