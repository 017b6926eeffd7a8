#include "runtime/backend/mpi_communicator.hpp"
#include "runtime/backend/wait_watchdog.hpp"

#include "common/error.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/pinned_buffer.hpp"
#include "runtime/backend/side_stream.hpp"

#include <limits>

namespace fv::backend {

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return MPI_SUM;
  case ReduceOp::Max:
    return MPI_MAX;
  case ReduceOp::Min:
    return MPI_MIN;
  }
  return MPI_SUM;
}

namespace {

/// Point-to-point messages of one layout; what the buffers handed to MPI are is left to the
/// derived sets.
class MpiMessagesBase : public MessageSet {
 public:
  MpiMessagesBase(MPI_Comm comm, int tag, const MessageLayout& l) : comm_(comm), tag_(tag), l_(l) {
    const std::size_t total =
        static_cast<std::size_t>(std::max(l.sendOffsets.empty() ? 0 : l.sendOffsets.back(),
                                          l.recvOffsets.empty() ? 0 : l.recvOffsets.back()));
    FV_VERIFY(total * static_cast<std::size_t>(l.maxComponents) <=
                  static_cast<std::size_t>(std::numeric_limits<int>::max()),
              l.name << ": " << total << " entries x " << l.maxComponents
                     << " components exceed one MPI message (2^31-1 values)");
  }
  void abandon() noexcept override {
    for (auto* reqs : {&recv_, &send_})
      for (MPI_Request& r : *reqs)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }

 protected:
  /// Posts the receives into `buf` (K values per entity).
  void post_recvs(real_t* buf, int K) {
    recv_.assign(l_.peers.size(), MPI_REQUEST_NULL);
    for (std::size_t k = 0; k < l_.peers.size(); ++k) {
      const idx_t b = l_.recvOffsets[k], n = l_.recvOffsets[k + 1] - b;
      if (n > 0)
        MPI_Irecv(buf + static_cast<std::size_t>(b) * K, static_cast<int>(n * K), MPI_DOUBLE,
                  l_.peers[k], tag_, comm_, &recv_[k]);
    }
  }
  void post_sends(const real_t* buf, int K) {
    send_.assign(l_.peers.size(), MPI_REQUEST_NULL);
    for (std::size_t k = 0; k < l_.peers.size(); ++k) {
      const idx_t b = l_.sendOffsets[k], n = l_.sendOffsets[k + 1] - b;
      if (n > 0)
        MPI_Isend(buf + static_cast<std::size_t>(b) * K, static_cast<int>(n * K), MPI_DOUBLE,
                  l_.peers[k], tag_, comm_, &send_[k]);
    }
  }
  void test_all() {
    int done = 0;
    MPI_Testall(static_cast<int>(recv_.size()), recv_.data(), &done, MPI_STATUSES_IGNORE);
    MPI_Testall(static_cast<int>(send_.size()), send_.data(), &done, MPI_STATUSES_IGNORE);
  }
  void wait_recvs() {
    CollectiveWait w("the halo messages' arrival");
    MPI_Waitall(static_cast<int>(recv_.size()), recv_.data(), MPI_STATUSES_IGNORE);
  }
  void wait_sends() {
    CollectiveWait w("the halo messages' delivery");
    MPI_Waitall(static_cast<int>(send_.size()), send_.data(), MPI_STATUSES_IGNORE);
  }
  idx_t n_recv() const { return l_.recvOffsets.empty() ? 0 : l_.recvOffsets.back(); }
  idx_t n_send() const { return l_.sendOffsets.empty() ? 0 : l_.sendOffsets.back(); }

  MPI_Comm comm_;
  int tag_;
  MessageLayout l_;
  std::vector<MPI_Request> recv_, send_;
};

/// MPI on the buffers themselves: host memory (CPU backend) or device memory (CUDA-aware MPI).
/// MPI is not stream-ordered, so the host waits for the queued work before the sends and
/// before the receives overwrite a buffer the previous unpack may still read.
class DirectMpiMessages final : public MpiMessagesBase {
 public:
  using MpiMessagesBase::MpiMessagesBase;
  void start(int K) override {
    synchronize(); // packing done; the previous exchange's unpack done with the receive buffer
    post_recvs(l_.recvBuffer, K);
    post_sends(l_.sendBuffer, K);
  }
  void progress() override { test_all(); }
  void finish() override {
    wait_recvs();
    wait_sends();
  }
};

/// Host-staged (CUDA device): device send buffer -> page-locked host -> MPI -> page-locked host
/// -> device receive buffer. The copies run on a side stream while the compute stream goes on;
/// the sends are posted as soon as the data is on the host (progress() or finish()).
class StagedMpiMessages final : public MpiMessagesBase {
 public:
  StagedMpiMessages(MPI_Comm comm, int tag, const MessageLayout& l)
      : MpiMessagesBase(comm, tag, l),
        sendHost_(static_cast<std::size_t>(n_send()) * l.maxComponents, active_device(),
                  "halo send buffer"),
        recvHost_(static_cast<std::size_t>(n_recv()) * l.maxComponents, active_device(),
                  "halo receive buffer") {}
  void start(int K) override {
    K_ = K;
    // the previous exchange's copy out of recvHost_ must be complete before MPI writes it again
    if (copyInQueued_) {
      side_.wait();
      copyInQueued_ = false;
    }
    post_recvs(recvHost_.data(), K);
    side_.wait_for_compute(); // the packed data
    side_.copy_to_host_async(sendHost_.data(), l_.sendBuffer,
                             static_cast<std::size_t>(n_send()) * K * sizeof(real_t));
    side_.mark();
    sendsPosted_ = false;
  }
  void progress() override {
    post_sends_when_staged(false);
    test_all();
  }
  void finish() override {
    post_sends_when_staged(true);
    wait_recvs();
    side_.copy_to_device_async(l_.recvBuffer, recvHost_.data(),
                               static_cast<std::size_t>(n_recv()) * K_ * sizeof(real_t));
    side_.mark();
    side_.compute_waits(); // the unpack, queued next on the compute stream, sees the data
    copyInQueued_ = true;
    wait_sends();
  }

 private:
  void post_sends_when_staged(bool block) {
    if (sendsPosted_) return;
    if (!block && !side_.done()) return;
    side_.wait();
    post_sends(sendHost_.data(), K_);
    sendsPosted_ = true;
  }
  PinnedBuffer<real_t> sendHost_, recvHost_;
  SideStream side_;
  int K_ = 1;
  bool sendsPosted_ = false;
  bool copyInQueued_ = false;
};

} // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm, bool cudaAware)
    : comm_(comm), cudaAware_(cudaAware) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

std::string MpiCommunicator::name() const {
  if (active_device() != Device::Cuda) return "MPI (host memory)";
  return cudaAware_ ? "CUDA-aware MPI" : "host-staged MPI";
}

void MpiCommunicator::allreduce(double* v, int n, ReduceOp op) {
  CollectiveWait w("an allreduce");
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, mpi_op(op), comm_);
}

void MpiCommunicator::allreduce(std::int64_t* v, int n, ReduceOp op) {
  CollectiveWait w("an allreduce");
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, mpi_op(op), comm_);
}

void MpiCommunicator::broadcast(void* data, std::size_t bytes, int root) {
  FV_VERIFY(bytes <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
            "broadcast of " << bytes << " bytes exceeds one MPI message");
  CollectiveWait w("a broadcast");
  MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, root, comm_);
}

void MpiCommunicator::alltoall(const int* send, int* recv) {
  CollectiveWait w("an all-to-all");
  MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm_);
}

std::unique_ptr<MessageSet> MpiCommunicator::messages(const MessageLayout& layout) {
  const int tag = next_tag();
  if (active_device() == Device::Cuda && !cudaAware_)
    return std::make_unique<StagedMpiMessages>(comm_, tag, layout);
  return std::make_unique<DirectMpiMessages>(comm_, tag, layout);
}

} // namespace fv::backend
