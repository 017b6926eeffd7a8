#pragma once
/// \file timer.hpp
/// Timing and identification of the active device, for benchmarks (fvbench):
///
///   fv::backend::KernelTimer t;     // CUDA events on the GPU, steady_clock on the CPU
///   t.start(); kernel(...); const double ms = t.stop_ms();   // waits for the kernel
///
/// On the GPU both events are recorded on the stream fv::forall launches on, so the time is
/// the device time of everything queued between start() and stop_ms() (launch gaps included);
/// on the CPU it is wall time of the (synchronous) OpenMP loops.
#include "runtime/backend/forall.hpp"

#include <chrono>
#include <string>

namespace fv::backend {

/// Times a sequence of kernels on the device that is active at construction. Move-free.
class KernelTimer {
 public:
  KernelTimer();
  ~KernelTimer();
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;
  void start();
  /// Milliseconds since start(); waits for the device to finish.
  double stop_ms();

 private:
  Device dev_;
  void* ev_[2] = {nullptr, nullptr};
  std::chrono::steady_clock::time_point t0_;
};

/// What a benchmark row records about the machine.
struct DeviceInfo {
  std::string name;   ///< GPU name ("NVIDIA H100 80GB HBM3") or CPU model
  std::string driver; ///< NVIDIA driver and CUDA runtime versions, or "OpenMP N threads"
  int threads = 1;    ///< CPU threads (OpenMP) or GPU multiprocessors
  double peakGBs =
      0; ///< theoretical memory bandwidth (GPU: from clock and bus width), 0 if unknown
};

/// Describes the active device.
DeviceInfo device_info();

} // namespace fv::backend
