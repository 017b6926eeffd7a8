#pragma once
/// \file communicator.hpp
/// fv::backend::Communicator: how the ranks of a run talk to each other. The solver and the halo
/// exchanges receive one and never see MPI: host reductions (residual norms, time steps,
/// forces), a few setup collectives, and persistent point-to-point message sets whose buffers
/// live in the active backend's memory.
///
/// Message sets are stream-ordered. start() sends what the work queued so far on the compute
/// stream (the one fv::forall launches on) left in the send buffer; after finish(), work
/// queued on the compute stream sees the received values. Whether the host waits in between
/// (MPI) or only the device does (NCCL, CUDA IPC) is the transport's business:
///
///   auto msgs = comm.messages(layout);      // once: peers, offsets, buffers (collective)
///   pack kernel -> msgs->start(K);          // every exchange, K values per entity
///   interior kernels, msgs->progress() now and then
///   msgs->finish();  unpack kernel          // the unpack sees the received values
///
/// Implementations (make_communicator(), transport.hpp): host-staged MPI, CUDA-aware MPI, NCCL,
/// CUDA IPC; the tests add an in-process fake. Collective calls must be made by every rank in the
/// same order. Not copyable.
#include "common/types.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace fv::backend {

/// Operation of a host all-reduce.
enum class ReduceOp { Sum, Max, Min };

/// The messages of one halo exchange, fixed for its lifetime. Message k goes to / comes from
/// peers[k] and holds entities [sendOffsets[k], sendOffsets[k+1]) of the send buffer
/// ([recvOffsets[k], recvOffsets[k+1]) of the receive buffer), K values each, so that with K
/// values per entity it is the slice [offset * K, next offset * K). Buffers are device memory of
/// the active backend (fv::DeviceArray), at least last offset x maxComponents values, owned by
/// the caller and kept alive and in place as long as the MessageSet.
struct MessageLayout {
  std::vector<int> peers;         ///< ascending ranks, not this one
  std::vector<idx_t> sendOffsets; ///< peers.size() + 1 entries (CSR offsets, in entities)
  std::vector<idx_t> recvOffsets; ///< peers.size() + 1 entries
  int maxComponents = 1;          ///< largest K of a start()
  real_t* sendBuffer = nullptr;
  real_t* recvBuffer = nullptr;
  std::string name = "halo"; ///< for errors ("cells", "nodes")
};

/// One exchange's persistent messages (see file comment). One start() in flight at a time.
class MessageSet {
 public:
  virtual ~MessageSet() = default;
  /// Sends every peer its slice of the send buffer as left by the work queued so far on the
  /// compute stream, K values per entity (1 <= K <= maxComponents), and receives the peers'
  /// slices. Posts and returns: nothing is complete yet.
  virtual void start(int K) = 0;
  /// Optional between start() and finish(): lets the messages advance (host transports move
  /// large messages only inside library calls). Cheap when nothing is pending.
  virtual void progress() = 0;
  /// Completes the exchange in stream order: work queued on the compute stream from now on sees
  /// the received values, and may overwrite the send buffer.
  virtual void finish() = 0;
  /// Error path between start() and finish(): releases what is pending without waiting for
  /// peers that may never answer (the buffers may still be touched: the caller leaks them).
  virtual void abandon() noexcept = 0;
};

/// The ranks of one run and the transport between them (see file comment).
class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// The transport's name as printed at start-up ("NCCL", "host-staged MPI", ...).
  virtual std::string name() const = 0;

  /// COLLECTIVE: element-wise reduction of n host values in place, the result on every rank.
  virtual void allreduce(double* v, int n, ReduceOp op) = 0;
  virtual void allreduce(std::int64_t* v, int n, ReduceOp op) = 0;
  /// COLLECTIVE: root's `bytes` host bytes overwrite everyone's.
  virtual void broadcast(void* data, std::size_t bytes, int root) = 0;
  /// COLLECTIVE: recv[q] = what rank q passed in send[rank()] (size() host ints each).
  virtual void alltoall(const int* send, int* recv) = 0;

  /// COLLECTIVE over the ranks that are each other's peers (every rank calls it for the same
  /// exchange, in the same order): the persistent messages of one exchange.
  virtual std::unique_ptr<MessageSet> messages(const MessageLayout& layout) = 0;

  Communicator() = default;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
};

/// Sum / maximum / minimum of one host value over all ranks (COLLECTIVE).
template <class T>
T reduce_all(Communicator& c, T v, ReduceOp op) {
  if constexpr (std::is_floating_point_v<T>) {
    double d = static_cast<double>(v);
    c.allreduce(&d, 1, op);
    return static_cast<T>(d);
  } else {
    std::int64_t i = static_cast<std::int64_t>(v);
    c.allreduce(&i, 1, op);
    return static_cast<T>(i);
  }
}

} // namespace fv::backend
