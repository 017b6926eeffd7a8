// fv::KernelSequence: CUDA-graph capture and replay of a fixed launch sequence; a plain loop on
// the CPU backend.
#include "runtime/backend/kernel_sequence.hpp"

#include "common/error.hpp"

#if defined(FV_BACKEND_CUDA)
#include "runtime/backend/cuda_check.hpp"
#endif

namespace fv {

KernelSequence::KernelSequence(std::string label, Mode mode)
    : label_(std::move(label)), mode_(mode) {}

KernelSequence::~KernelSequence() {
  reset();
#if defined(FV_BACKEND_CUDA)
  if (stream_) (void)cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
#endif
}

bool KernelSequence::uses_graph() const {
#if defined(FV_BACKEND_CUDA)
  return mode_ == Mode::Graph && active_device() == Device::Cuda;
#else
  return false;
#endif
}

void KernelSequence::reset() {
#if defined(FV_BACKEND_CUDA)
  if (exec_) (void)cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec_));
  if (graph_) (void)cudaGraphDestroy(static_cast<cudaGraph_t>(graph_));
#endif
  exec_ = nullptr;
  graph_ = nullptr;
}

void KernelSequence::run(const std::function<void()>& record) {
  // profiled as one kernel under the sequence's label (its launches nest inside)
  const detail::ProfileScope profile(label_.c_str());
  if (!uses_graph()) {
    record();
    return;
  }
#if defined(FV_BACKEND_CUDA)
  if (!exec_) {
    if (!stream_) {
      cudaStream_t s = nullptr;
      FV_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      stream_ = s;
    }
    cudaStream_t s = static_cast<cudaStream_t>(stream_);
    // capturing executes nothing: the launches are recorded on the private stream and the graph
    // is then launched on the current (default) stream, ordered after the work queued there
    FV_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    detail::set_current_stream(s);
    try {
      record();
    } catch (...) {
      detail::set_current_stream(nullptr);
      cudaGraph_t broken = nullptr;
      (void)cudaStreamEndCapture(s, &broken);
      if (broken) (void)cudaGraphDestroy(broken);
      throw;
    }
    detail::set_current_stream(nullptr);
    cudaGraph_t g = nullptr;
    const cudaError_t err = cudaStreamEndCapture(s, &g);
    FV_VERIFY(err == cudaSuccess, "capturing the CUDA graph of '"
                                      << label_ << "' failed: " << cudaGetErrorString(err)
                                      << " (use lusgs_launch = plain)");
    graph_ = g;
    cudaGraphExec_t e = nullptr;
    FV_CUDA_CHECK(cudaGraphInstantiate(&e, g, 0));
    exec_ = e;
    ++captures_;
  }
  FV_CUDA_CHECK(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec_), detail::current_stream()));
#else
  record();
#endif
}

} // namespace fv
