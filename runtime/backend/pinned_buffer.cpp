#include "runtime/backend/pinned_buffer.hpp"

#include "common/error.hpp"

#include <cstdlib>
#if defined(FV_BACKEND_CUDA)
#include "runtime/backend/cuda_check.hpp"
#endif

namespace fv::backend {

void* allocate_pinned(Device d, std::size_t bytes, const char* what) {
  if (bytes == 0) return nullptr;
#if defined(FV_BACKEND_CUDA)
  if (d == Device::Cuda) {
    void* p = nullptr;
    const cudaError_t err = cudaMallocHost(&p, bytes);
    FV_VERIFY(err == cudaSuccess,
              what << ": cannot allocate " << bytes
                   << " bytes of page-locked host memory: " << cudaGetErrorString(err));
    return p;
  }
#endif
  (void)d;
  constexpr std::size_t kAlign = 64;
  void* p = std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
  FV_VERIFY(p, what << ": out of host memory allocating " << bytes << " bytes");
  return p;
}

void release_pinned(Device d, void* p) noexcept {
  if (!p) return;
#if defined(FV_BACKEND_CUDA)
  if (d == Device::Cuda) {
    cudaFreeHost(p);
    return;
  }
#endif
  (void)d;
  std::free(p);
}

} // namespace fv::backend
