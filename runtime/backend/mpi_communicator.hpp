#pragma once
/// \file mpi_communicator.hpp
/// fv::backend::MpiCommunicator: the Communicator over an MPI communicator. Host reductions and
/// setup collectives are MPI calls; halo messages are MPI_Irecv / MPI_Isend, either staged
/// through page-locked host buffers (CUDA device, host-staged) or on the buffers themselves (the
/// CPU backend, or CUDA-aware MPI on the device's memory). The NCCL and CUDA IPC communicators
/// derive from it for their setup collectives (bootstrapped through MPI).
#include "runtime/backend/communicator.hpp"

#include <mpi.h>

namespace fv::backend {

class MpiCommunicator : public Communicator {
 public:
  /// `comm` is not owned and must outlive this. cudaAware: MPI gets the device buffers (only
  /// meaningful on the CUDA device; the caller checked the library's support).
  explicit MpiCommunicator(MPI_Comm comm, bool cudaAware = false);

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string name() const override;
  void allreduce(double* v, int n, ReduceOp op) override;
  void allreduce(std::int64_t* v, int n, ReduceOp op) override;
  void broadcast(void* data, std::size_t bytes, int root) override;
  void alltoall(const int* send, int* recv) override;
  std::unique_ptr<MessageSet> messages(const MessageLayout& layout) override;

  MPI_Comm mpi_comm() const { return comm_; }

 protected:
  /// A tag no other message set of this communicator uses (the same on every rank: message
  /// sets are made in the same order everywhere).
  int next_tag() { return 7300 + (tags_++ % 1000); }

 private:
  MPI_Comm comm_;
  bool cudaAware_;
  int rank_ = 0, size_ = 1;
  int tags_ = 0;
};

/// MPI_Op of a ReduceOp.
MPI_Op mpi_op(ReduceOp op);

} // namespace fv::backend
