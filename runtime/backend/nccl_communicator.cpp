// The NCCL communicator (transport.hpp): halo messages as ncclSend/ncclRecv in one group on a
// side stream, host reductions through ncclAllReduce on a small device buffer; setup
// collectives (and the ncclUniqueId) through MPI. Compiled to a stub without NCCL.
#include "runtime/backend/forall.hpp" // defines FV_BACKEND_CUDA
#include "runtime/backend/mpi_communicator.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/backend/wait_watchdog.hpp"

#include "common/error.hpp"

#if defined(FV_BACKEND_CUDA) && defined(FV_HAVE_NCCL)
#include "runtime/backend/cuda_check.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/side_stream.hpp"

#include <cstdlib>
#include <nccl.h>

#define FV_NCCL_CHECK(call)                                                                        \
  do {                                                                                             \
    const ncclResult_t fv_nccl_res_ = (call);                                                      \
    FV_VERIFY(fv_nccl_res_ == ncclSuccess,                                                         \
              "NCCL call " #call " failed: " << ncclGetErrorString(fv_nccl_res_) << " ("           \
                                             << ncclGetLastError(nullptr) << ")");                 \
  } while (0)
#endif

namespace fv::backend {

bool built_with_nccl() {
#if defined(FV_BACKEND_CUDA) && defined(FV_HAVE_NCCL)
  return true;
#else
  return false;
#endif
}

#if defined(FV_BACKEND_CUDA) && defined(FV_HAVE_NCCL)
namespace {

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return ncclSum;
  case ReduceOp::Max:
    return ncclMax;
  case ReduceOp::Min:
    return ncclMin;
  }
  return ncclSum;
}

/// One group of ncclRecv/ncclSend per exchange on a side stream: the side stream waits for the
/// packing, the compute stream for the messages; the host never waits.
class NcclMessages final : public MessageSet {
 public:
  NcclMessages(ncclComm_t comm, const MessageLayout& l) : comm_(comm), l_(l) {}
  void start(int K) override {
    side_.wait_for_compute(); // the packed data; the previous unpack is done with recvBuffer
    auto s = static_cast<cudaStream_t>(side_.native_handle());
    FV_NCCL_CHECK(ncclGroupStart());
    for (std::size_t k = 0; k < l_.peers.size(); ++k) {
      const idx_t rb = l_.recvOffsets[k], rn = l_.recvOffsets[k + 1] - rb;
      const idx_t sb = l_.sendOffsets[k], sn = l_.sendOffsets[k + 1] - sb;
      if (rn > 0)
        FV_NCCL_CHECK(ncclRecv(l_.recvBuffer + static_cast<std::size_t>(rb) * K,
                               static_cast<std::size_t>(rn) * K, ncclDouble, l_.peers[k], comm_,
                               s));
      if (sn > 0)
        FV_NCCL_CHECK(ncclSend(l_.sendBuffer + static_cast<std::size_t>(sb) * K,
                               static_cast<std::size_t>(sn) * K, ncclDouble, l_.peers[k], comm_,
                               s));
    }
    FV_NCCL_CHECK(ncclGroupEnd());
  }
  void progress() override {}
  void finish() override { side_.compute_waits(); }
  void abandon() noexcept override {}

 private:
  ncclComm_t comm_;
  MessageLayout l_;
  SideStream side_;
};

class NcclCommunicator final : public MpiCommunicator {
 public:
  explicit NcclCommunicator(MPI_Comm comm) : MpiCommunicator(comm, false) {
    // NVLink SHARP (multicast) stays off unless the user asks for it: the lent GPU machines
    // require it, and the halo messages are point-to-point anyway
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    ncclUniqueId id{};
    if (rank() == 0) FV_NCCL_CHECK(ncclGetUniqueId(&id));
    MpiCommunicator::broadcast(&id, sizeof id, 0);
    FV_NCCL_CHECK(ncclCommInitRank(&nccl_, size(), id, rank()));
    scratch_ = DeviceArray<double>(kScratch, "NCCL reduction buffer");
    FV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~NcclCommunicator() override {
    if (stream_) (void)cudaStreamSynchronize(stream_);
    if (nccl_) (void)ncclCommDestroy(nccl_);
    if (stream_) (void)cudaStreamDestroy(stream_);
  }
  std::string name() const override { return "NCCL"; }
  void allreduce(double* v, int n, ReduceOp op) override { reduce(v, n, ncclDouble, op); }
  void allreduce(std::int64_t* v, int n, ReduceOp op) override { reduce(v, n, ncclInt64, op); }
  std::unique_ptr<MessageSet> messages(const MessageLayout& layout) override {
    return std::make_unique<NcclMessages>(nccl_, layout);
  }

 private:
  static constexpr int kScratch = 256; ///< values per reduction call (chunked beyond)
  template <class T>
  void reduce(T* v, int n, ncclDataType_t type, ReduceOp op) {
    static_assert(sizeof(T) == sizeof(double), "8-byte values");
    CollectiveWait w("an NCCL allreduce"); // the stream synchronisation waits for the peers
    for (int first = 0; first < n; first += kScratch) {
      const int m = std::min(kScratch, n - first);
      const std::size_t bytes = static_cast<std::size_t>(m) * sizeof(T);
      FV_CUDA_CHECK(
          cudaMemcpyAsync(scratch_.data(), v + first, bytes, cudaMemcpyHostToDevice, stream_));
      FV_NCCL_CHECK(ncclAllReduce(scratch_.data(), scratch_.data(), static_cast<std::size_t>(m),
                                  type, nccl_op(op), nccl_, stream_));
      FV_CUDA_CHECK(
          cudaMemcpyAsync(v + first, scratch_.data(), bytes, cudaMemcpyDeviceToHost, stream_));
      FV_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
  }
  ncclComm_t nccl_ = nullptr;
  cudaStream_t stream_ = nullptr;
  DeviceArray<double> scratch_;
};

} // namespace

std::unique_ptr<Communicator> make_nccl_communicator(MPI_Comm comm) {
  return std::make_unique<NcclCommunicator>(comm);
}
#else
std::unique_ptr<Communicator> make_nccl_communicator(MPI_Comm) {
  FV_THROW("this fvrun was built without NCCL (CMake found no nccl.h / libnccl with nvcc)");
}
#endif

} // namespace fv::backend
