#include "runtime/backend/side_stream.hpp"

#include <cstring>

#if defined(FV_BACKEND_CUDA)
#include "runtime/backend/cuda_check.hpp"
#endif

namespace fv::backend {

struct SideStream::Impl {
  Device device = Device::Cpu;
#if defined(FV_BACKEND_CUDA)
  cudaStream_t stream = nullptr;
  cudaEvent_t fromCompute = nullptr, toCompute = nullptr, marked = nullptr;
#endif
};

SideStream::SideStream() : impl_(std::make_unique<Impl>()) {
  impl_->device = active_device();
#if defined(FV_BACKEND_CUDA)
  if (impl_->device == Device::Cuda) {
    int least = 0, greatest = 0; // numerically lower = higher priority
    FV_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    FV_CUDA_CHECK(cudaStreamCreateWithPriority(&impl_->stream, cudaStreamNonBlocking, greatest));
    for (cudaEvent_t* e : {&impl_->fromCompute, &impl_->toCompute, &impl_->marked})
      FV_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  }
#endif
}

SideStream::~SideStream() {
#if defined(FV_BACKEND_CUDA)
  if (impl_ && impl_->stream) {
    (void)cudaStreamSynchronize(impl_->stream);
    for (cudaEvent_t e : {impl_->fromCompute, impl_->toCompute, impl_->marked})
      if (e) (void)cudaEventDestroy(e);
    (void)cudaStreamDestroy(impl_->stream);
  }
#endif
}

void SideStream::wait_for_compute() {
#if defined(FV_BACKEND_CUDA)
  if (impl_->stream) {
    FV_CUDA_CHECK(cudaEventRecord(impl_->fromCompute, detail::current_stream()));
    FV_CUDA_CHECK(cudaStreamWaitEvent(impl_->stream, impl_->fromCompute, 0));
  }
#endif
}

void SideStream::compute_waits() {
#if defined(FV_BACKEND_CUDA)
  if (impl_->stream) {
    FV_CUDA_CHECK(cudaEventRecord(impl_->toCompute, impl_->stream));
    FV_CUDA_CHECK(cudaStreamWaitEvent(detail::current_stream(), impl_->toCompute, 0));
  }
#endif
}

void SideStream::copy_to_host_async(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
#if defined(FV_BACKEND_CUDA)
  if (impl_->stream) {
    FV_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, impl_->stream));
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

void SideStream::copy_to_device_async(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
#if defined(FV_BACKEND_CUDA)
  if (impl_->stream) {
    FV_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, impl_->stream));
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

void SideStream::mark() {
#if defined(FV_BACKEND_CUDA)
  if (impl_->stream) FV_CUDA_CHECK(cudaEventRecord(impl_->marked, impl_->stream));
#endif
}

bool SideStream::done() const {
#if defined(FV_BACKEND_CUDA)
  if (impl_->stream) {
    const cudaError_t e = cudaEventQuery(impl_->marked);
    if (e == cudaErrorNotReady) return false;
    FV_CUDA_CHECK(e);
  }
#endif
  return true;
}

void SideStream::wait() const {
#if defined(FV_BACKEND_CUDA)
  if (impl_->stream) FV_CUDA_CHECK(cudaEventSynchronize(impl_->marked));
#endif
}

void* SideStream::native_handle() const {
#if defined(FV_BACKEND_CUDA)
  return impl_->stream;
#else
  return nullptr;
#endif
}

SideStream::Redirect::Redirect(SideStream& s) {
#if defined(FV_BACKEND_CUDA)
  previous = detail::current_stream();
  if (s.impl_->stream) detail::set_current_stream(s.impl_->stream);
#else
  (void)s;
#endif
}

SideStream::Redirect::~Redirect() {
#if defined(FV_BACKEND_CUDA)
  detail::set_current_stream(static_cast<cudaStream_t>(previous));
#endif
}

} // namespace fv::backend
