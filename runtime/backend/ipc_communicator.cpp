// The CUDA IPC communicator (transport.hpp): every rank maps its peers' receive buffers
// (cudaIpcOpenMemHandle) and copies its messages straight into them on a side stream, over
// NVLink between GPUs or within one GPU. Interprocess events order the copies on the device;
// two tiny MPI messages per peer and exchange tell each side that the other recorded them:
//
//   receiver: record "free" (its previous unpack is done)     -> token "free"  -> sender
//   sender:   wait "free", copy into the receiver's buffer, record "ready" -> token "ready"
//   receiver: its compute stream waits "ready" before the unpack
//
// Host reductions and setup collectives are MPI's. All ranks must share one node.
#include "runtime/backend/forall.hpp" // defines FV_BACKEND_CUDA
#include "runtime/backend/mpi_communicator.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/backend/wait_watchdog.hpp"

#include "common/error.hpp"

#if defined(FV_BACKEND_CUDA)
#include "runtime/backend/cuda_check.hpp"
#include "runtime/backend/side_stream.hpp"

#include <cstring>
#endif

namespace fv::backend {

#if defined(FV_BACKEND_CUDA)
namespace {

/// What one rank tells a peer about itself at setup.
struct IpcPeerInfo {
  cudaIpcMemHandle_t recvBuffer{};   ///< this rank's receive buffer (valid when hasRecv)
  cudaIpcEventHandle_t freeEvent{};  ///< recorded when the receive buffer may be written
  cudaIpcEventHandle_t readyEvent{}; ///< recorded when this rank's copy to the peer is done
  std::int64_t recvOffset = 0;       ///< first entity of the peer's message in the buffer
  int hasRecv = 0;
};

cudaEvent_t ipc_event() {
  cudaEvent_t e = nullptr;
  FV_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventInterprocess));
  return e;
}

class IpcMessages final : public MessageSet {
 public:
  IpcMessages(MPI_Comm comm, int tag, const MessageLayout& l) : comm_(comm), tag_(tag), l_(l) {
    const std::size_t np = l.peers.size();
    myFree_.resize(np, nullptr);
    myReady_.resize(np, nullptr);
    peerFree_.resize(np, nullptr);
    peerReady_.resize(np, nullptr);
    remote_.resize(np, nullptr);
    remoteOffset_.resize(np, 0);
    freeIn_.resize(np, 0);
    readyIn_.resize(np, 0);
    std::vector<IpcPeerInfo> mine(np), theirs(np);
    cudaIpcMemHandle_t recvHandle{};
    if (n_recv() > 0) FV_CUDA_CHECK(cudaIpcGetMemHandle(&recvHandle, l.recvBuffer));
    for (std::size_t k = 0; k < np; ++k) {
      myFree_[k] = ipc_event();
      myReady_[k] = ipc_event();
      FV_CUDA_CHECK(cudaIpcGetEventHandle(&mine[k].freeEvent, myFree_[k]));
      FV_CUDA_CHECK(cudaIpcGetEventHandle(&mine[k].readyEvent, myReady_[k]));
      mine[k].recvBuffer = recvHandle;
      mine[k].recvOffset = l.recvOffsets[k];
      mine[k].hasRecv = l.recvOffsets[k + 1] > l.recvOffsets[k] ? 1 : 0;
    }
    std::vector<MPI_Request> req(2 * np, MPI_REQUEST_NULL);
    for (std::size_t k = 0; k < np; ++k) {
      MPI_Irecv(&theirs[k], sizeof(IpcPeerInfo), MPI_BYTE, l.peers[k], tag_, comm_, &req[2 * k]);
      MPI_Isend(&mine[k], sizeof(IpcPeerInfo), MPI_BYTE, l.peers[k], tag_, comm_, &req[2 * k + 1]);
    }
    {
      CollectiveWait w("the exchange of CUDA IPC handles");
      MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
    }
    for (std::size_t k = 0; k < np; ++k) {
      FV_CUDA_CHECK(cudaIpcOpenEventHandle(&peerFree_[k], theirs[k].freeEvent));
      FV_CUDA_CHECK(cudaIpcOpenEventHandle(&peerReady_[k], theirs[k].readyEvent));
      const bool sends = l.sendOffsets[k + 1] > l.sendOffsets[k];
      FV_VERIFY(sends == (theirs[k].hasRecv != 0),
                l.name << ": rank " << l.peers[k] << " and this rank disagree on their message");
      if (!sends) continue;
      // one mapping per distinct peer buffer (every peer has one receive buffer per exchange)
      void* p = nullptr;
      FV_CUDA_CHECK(cudaIpcOpenMemHandle(&p, theirs[k].recvBuffer, cudaIpcMemLazyEnablePeerAccess));
      remote_[k] = static_cast<real_t*>(p);
      remoteOffset_[k] = static_cast<idx_t>(theirs[k].recvOffset);
    }
  }
  ~IpcMessages() override {
    (void)cudaStreamSynchronize(static_cast<cudaStream_t>(side_.native_handle()));
    for (real_t* p : remote_)
      if (p) (void)cudaIpcCloseMemHandle(p);
    for (auto* v : {&myFree_, &myReady_, &peerFree_, &peerReady_})
      for (cudaEvent_t e : *v)
        if (e) (void)cudaEventDestroy(e);
  }

  void start(int K) override {
    K_ = K;
    const std::size_t np = l_.peers.size();
    auto side = static_cast<cudaStream_t>(side_.native_handle());
    side_.wait_for_compute(); // the packed data; this rank's previous unpack
    freeTokens_.assign(np, MPI_REQUEST_NULL);
    readyTokens_.assign(np, MPI_REQUEST_NULL);
    outTokens_.assign(2 * np, MPI_REQUEST_NULL);
    copied_.assign(np, 0);
    for (std::size_t k = 0; k < np; ++k) {
      if (l_.recvOffsets[k + 1] > l_.recvOffsets[k]) {
        FV_CUDA_CHECK(cudaEventRecord(myFree_[k], side));
        MPI_Isend(&token_, 1, MPI_INT, l_.peers[k], tag_, comm_, &outTokens_[2 * k]);
        MPI_Irecv(&readyIn_[k], 1, MPI_INT, l_.peers[k], tag_ + 1, comm_, &readyTokens_[k]);
      }
      if (l_.sendOffsets[k + 1] > l_.sendOffsets[k])
        MPI_Irecv(&freeIn_[k], 1, MPI_INT, l_.peers[k], tag_, comm_, &freeTokens_[k]);
      else
        copied_[k] = 1;
    }
  }

  void progress() override {
    for (std::size_t k = 0; k < l_.peers.size(); ++k) {
      if (copied_[k]) continue;
      int arrived = 0;
      MPI_Test(&freeTokens_[k], &arrived, MPI_STATUS_IGNORE);
      if (arrived) copy(k);
    }
  }

  void finish() override {
    CollectiveWait w("the halo exchange's CUDA IPC tokens");
    for (std::size_t k = 0; k < l_.peers.size(); ++k)
      if (!copied_[k]) {
        MPI_Wait(&freeTokens_[k], MPI_STATUS_IGNORE);
        copy(k);
      }
    cudaStream_t compute = detail::current_stream();
    for (std::size_t k = 0; k < l_.peers.size(); ++k) {
      if (readyTokens_[k] == MPI_REQUEST_NULL) continue;
      MPI_Wait(&readyTokens_[k], MPI_STATUS_IGNORE);
      FV_CUDA_CHECK(cudaStreamWaitEvent(compute, peerReady_[k], 0));
    }
    side_.compute_waits(); // the next pack must not overwrite what the copies still read
    MPI_Waitall(static_cast<int>(outTokens_.size()), outTokens_.data(), MPI_STATUSES_IGNORE);
  }

  void abandon() noexcept override {
    for (auto* reqs : {&freeTokens_, &readyTokens_, &outTokens_})
      for (MPI_Request& r : *reqs)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }

 private:
  idx_t n_recv() const { return l_.recvOffsets.empty() ? 0 : l_.recvOffsets.back(); }

  /// The message to peer k: wait until its buffer is free, copy, record ready, tell it.
  void copy(std::size_t k) {
    auto side = static_cast<cudaStream_t>(side_.native_handle());
    const idx_t b = l_.sendOffsets[k], n = l_.sendOffsets[k + 1] - b;
    FV_CUDA_CHECK(cudaStreamWaitEvent(side, peerFree_[k], 0));
    FV_CUDA_CHECK(cudaMemcpyAsync(remote_[k] + static_cast<std::size_t>(remoteOffset_[k]) * K_,
                                  l_.sendBuffer + static_cast<std::size_t>(b) * K_,
                                  static_cast<std::size_t>(n) * K_ * sizeof(real_t),
                                  cudaMemcpyDeviceToDevice, side));
    FV_CUDA_CHECK(cudaEventRecord(myReady_[k], side));
    MPI_Isend(&token_, 1, MPI_INT, l_.peers[k], tag_ + 1, comm_, &outTokens_[2 * k + 1]);
    copied_[k] = 1;
  }

  MPI_Comm comm_;
  int tag_;
  MessageLayout l_;
  SideStream side_;
  int K_ = 1;
  int token_ = 1;                     ///< token payload sent (never read)
  std::vector<int> freeIn_, readyIn_; ///< token payloads received, one per peer
  std::vector<cudaEvent_t> myFree_, myReady_, peerFree_, peerReady_;
  std::vector<real_t*> remote_; ///< mapped peer receive buffers (senders only)
  std::vector<idx_t> remoteOffset_;
  std::vector<MPI_Request> freeTokens_, readyTokens_, outTokens_;
  std::vector<char> copied_;
};

class IpcCommunicator final : public MpiCommunicator {
 public:
  explicit IpcCommunicator(MPI_Comm comm) : MpiCommunicator(comm, false) {}
  std::string name() const override { return "CUDA IPC"; }
  std::unique_ptr<MessageSet> messages(const MessageLayout& layout) override {
    const int tag = next_tag() + 2000; // token tags: tag (free) and tag + 1 (ready)
    std::unique_ptr<MessageSet> m;
    std::string err;
    try {
      m = std::make_unique<IpcMessages>(mpi_comm(), tag, layout);
    } catch (const std::exception& e) {
      err = e.what();
    }
    // every rank fails together (a peer may have mapped this rank's buffer already)
    std::int64_t bad = err.empty() ? 0 : 1;
    MpiCommunicator::allreduce(&bad, 1, ReduceOp::Max);
    FV_VERIFY(bad == 0, layout.name << " exchange over CUDA IPC: "
                                    << (err.empty() ? "another rank failed to map its peers" : err)
                                    << "; run with [run] transport = host_staged_mpi");
    return m;
  }
};

} // namespace

std::unique_ptr<Communicator> make_ipc_communicator(MPI_Comm comm) {
  FV_VERIFY(active_device() == Device::Cuda, "the CUDA IPC transport needs the CUDA device");
  return std::make_unique<IpcCommunicator>(comm);
}
#else
std::unique_ptr<Communicator> make_ipc_communicator(MPI_Comm) {
  FV_THROW("this fvrun was built without the CUDA backend: no CUDA IPC transport");
}
#endif

} // namespace fv::backend
