#include "runtime/backend/timer.hpp"

#include "common/error.hpp"

#include <fstream>
#include <string>
#if defined(FV_HAVE_OPENMP)
#include <omp.h>
#endif
#if defined(FV_BACKEND_CUDA)
#include "runtime/backend/cuda_check.hpp"
#endif

namespace fv::backend {

KernelTimer::KernelTimer() : dev_(active_device()) {
#if defined(FV_BACKEND_CUDA)
  if (dev_ == Device::Cuda)
    for (auto& e : ev_) {
      cudaEvent_t ce = nullptr;
      FV_CUDA_CHECK(cudaEventCreate(&ce));
      e = ce;
    }
#endif
}

KernelTimer::~KernelTimer() {
#if defined(FV_BACKEND_CUDA)
  for (auto& e : ev_)
    if (e) (void)cudaEventDestroy(static_cast<cudaEvent_t>(e));
#endif
}

void KernelTimer::start() {
#if defined(FV_BACKEND_CUDA)
  if (dev_ == Device::Cuda) {
    FV_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(ev_[0]), detail::current_stream()));
    return;
  }
#endif
  t0_ = std::chrono::steady_clock::now();
}

double KernelTimer::stop_ms() {
#if defined(FV_BACKEND_CUDA)
  if (dev_ == Device::Cuda) {
    auto a = static_cast<cudaEvent_t>(ev_[0]), b = static_cast<cudaEvent_t>(ev_[1]);
    FV_CUDA_CHECK(cudaEventRecord(b, detail::current_stream()));
    FV_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    FV_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
  }
#endif
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0_).count();
}

namespace {
std::string first_line_with(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) return line;
  return {};
}
} // namespace

DeviceInfo device_info() {
  DeviceInfo d;
#if defined(FV_BACKEND_CUDA)
  if (active_device() == Device::Cuda) {
    int dev = 0, drv = 0, rt = 0;
    FV_CUDA_CHECK(cudaGetDevice(&dev));
    cudaDeviceProp p{};
    FV_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    (void)cudaDriverGetVersion(&drv);
    (void)cudaRuntimeGetVersion(&rt);
    d.name = p.name;
    d.threads = p.multiProcessorCount;
    int clockKHz = 0, busBits = 0;
    (void)cudaDeviceGetAttribute(&clockKHz, cudaDevAttrMemoryClockRate, dev);
    (void)cudaDeviceGetAttribute(&busBits, cudaDevAttrGlobalMemoryBusWidth, dev);
    d.peakGBs = 2.0 * clockKHz * 1e3 * (busBits / 8.0) / 1e9;
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  ..." -> 550.54.15
    std::string kmod = first_line_with("/proc/driver/nvidia/version", "NVRM version");
    const auto pos = kmod.find("Kernel Module");
    std::string ver = "?";
    if (pos != std::string::npos) {
      std::string rest = kmod.substr(pos + 13);
      const auto b = rest.find_first_not_of(' ');
      if (b != std::string::npos) ver = rest.substr(b, rest.find(' ', b) - b);
    }
    d.driver = "driver " + ver + " / CUDA " + std::to_string(drv / 1000) + "." +
               std::to_string((drv % 1000) / 10) + " / runtime " + std::to_string(rt / 1000) + "." +
               std::to_string((rt % 1000) / 10);
    return d;
  }
#endif
  std::string model = first_line_with("/proc/cpuinfo", "model name");
  const auto colon = model.find(':');
  d.name =
      colon == std::string::npos ? "cpu" : model.substr(model.find_first_not_of(' ', colon + 1));
#if defined(FV_HAVE_OPENMP)
  d.threads = omp_get_max_threads();
  d.driver = "OpenMP " + std::to_string(d.threads) + " threads";
#else
  d.driver = "serial";
#endif
  return d;
}

} // namespace fv::backend
