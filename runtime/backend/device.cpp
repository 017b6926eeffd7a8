#include "runtime/backend/forall.hpp"

#include <string>
#if defined(FV_HAVE_OPENMP)
#include <omp.h>
#endif

namespace fv {
namespace {
Device g_device = Device::Cpu;
}

Device active_device() { return g_device; }

void set_active_device(Device d) {
#if !defined(FV_BACKEND_CUDA)
  FV_VERIFY_USAGE(d == Device::Cpu, "this fvrun was built without CUDA; use --device cpu");
#endif
  g_device = d;
}

const char* backend_name() {
  static std::string name;
  if (g_device == Device::Cuda) return "cuda";
#if defined(FV_HAVE_OPENMP)
  name = "cpu (OpenMP, " + std::to_string(omp_get_max_threads()) + " threads)";
#else
  name = "cpu (serial)";
#endif
  return name.c_str();
}

#if defined(FV_BACKEND_CUDA)
namespace detail {
void check_launch(const char* label) {
  const cudaError_t err = cudaGetLastError();
  FV_VERIFY(err == cudaSuccess, "CUDA kernel '" << label << "' failed to launch: "
                                                << cudaGetErrorString(err));
}
cudaStream_t current_stream() { return nullptr; }
} // namespace detail
#endif

} // namespace fv
