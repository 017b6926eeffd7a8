#include "runtime/backend/device_buffer.hpp"

#include "common/error.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace fv::backend {
namespace {
constexpr std::size_t kAlign = 64; // cache line; also enough for any vector load
std::size_t round_up(std::size_t b) {
  return (b + kAlign - 1) / kAlign * kAlign;
}

void* host_alloc(std::size_t bytes, const char* what) {
  void* p = std::aligned_alloc(kAlign, round_up(bytes));
  FV_VERIFY(p, what << ": out of host memory allocating " << bytes << " bytes");
  return p;
}

#if defined(FV_BACKEND_CUDA)
void check(cudaError_t err, const char* op, std::size_t bytes, const char* what) {
  FV_VERIFY(err == cudaSuccess,
            what << ": " << op << " of " << bytes << " bytes failed: " << cudaGetErrorString(err));
}
#endif
} // namespace

void* allocate(std::size_t bytes, Device where, const char* what) {
  if (bytes == 0) return nullptr;
#if defined(FV_BACKEND_CUDA)
  if (where == Device::Cuda) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc", bytes, what);
    return p;
  }
#endif
  FV_VERIFY(where == Device::Cpu, what << ": this build has no CUDA backend");
  return host_alloc(bytes, what);
}

void deallocate(void* p, Device where) noexcept {
  if (!p) return;
#if defined(FV_BACKEND_CUDA)
  if (where == Device::Cuda) {
    cudaFree(p);
    return;
  }
#endif
  (void)where;
  std::free(p);
}

void* allocate_host(std::size_t bytes, Device where, const char* what) {
  if (bytes == 0) return nullptr;
#if defined(FV_BACKEND_CUDA)
  if (where == Device::Cuda) {
    void* p = nullptr;
    check(cudaMallocHost(&p, bytes), "cudaMallocHost", bytes, what);
    return p;
  }
#endif
  (void)where;
  return host_alloc(bytes, what);
}

void deallocate_host(void* p, Device where) noexcept {
  if (!p) return;
#if defined(FV_BACKEND_CUDA)
  if (where == Device::Cuda) {
    cudaFreeHost(p);
    return;
  }
#endif
  (void)where;
  std::free(p);
}

void copy_to_host(void* host_dst, const void* dev_src, std::size_t bytes, Device where) {
  if (bytes == 0) return;
#if defined(FV_BACKEND_CUDA)
  if (where == Device::Cuda) {
    check(
        cudaMemcpyAsync(host_dst, dev_src, bytes, cudaMemcpyDeviceToHost, detail::current_stream()),
        "device-to-host copy", bytes, "copy_to_host");
    check(cudaStreamSynchronize(detail::current_stream()), "stream synchronisation", bytes,
          "copy_to_host");
    return;
  }
#endif
  (void)where;
  std::memcpy(host_dst, dev_src, bytes);
}

void copy_to_device(void* dev_dst, const void* host_src, std::size_t bytes, Device where) {
  if (bytes == 0) return;
#if defined(FV_BACKEND_CUDA)
  if (where == Device::Cuda) {
    check(
        cudaMemcpyAsync(dev_dst, host_src, bytes, cudaMemcpyHostToDevice, detail::current_stream()),
        "host-to-device copy", bytes, "copy_to_device");
    check(cudaStreamSynchronize(detail::current_stream()), "stream synchronisation", bytes,
          "copy_to_device");
    return;
  }
#endif
  (void)where;
  std::memcpy(dev_dst, host_src, bytes);
}

void synchronize(Device where) {
#if defined(FV_BACKEND_CUDA)
  if (where == Device::Cuda) {
    const cudaError_t err = cudaStreamSynchronize(detail::current_stream());
    FV_VERIFY(err == cudaSuccess, "CUDA stream synchronisation failed (a kernel faulted?): "
                                      << cudaGetErrorString(err));
    return;
  }
#endif
  (void)where;
}

} // namespace fv::backend
