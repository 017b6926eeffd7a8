#pragma once
/// \file mpi_util.hpp
/// Small typed helpers over MPI used by the parallel layer: MPI datatypes of fvkit's types,
/// checked int counts and whole-vector point-to-point transfers.
#include "common/error.hpp"
#include "common/types.hpp"
#include "runtime/backend/wait_watchdog.hpp"

#include <cstdint>
#include <limits>
#include <mpi.h>
#include <vector>

namespace fv::parallel {

/// MPI datatype of a plain fvkit type.
template <class T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
inline MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
inline MPI_Datatype mpi_type<std::int64_t>() {
  return MPI_INT64_T;
}
template <>
inline MPI_Datatype mpi_type<std::int32_t>() {
  return MPI_INT32_T;
}
template <>
inline MPI_Datatype mpi_type<std::int8_t>() {
  return MPI_INT8_T;
}

/// Rank and size of a communicator.
inline int comm_rank(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
inline int comm_size(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

/// n as an MPI int count; throws naming `what` when a single message would exceed 2^31-1.
inline int mpi_count(std::size_t n, const char* what) {
  FV_VERIFY(n <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
            what << ": " << n << " values exceed one MPI message (2^31-1)");
  return static_cast<int>(n);
}

/// Sends a whole vector to `dest` (the receiver learns the size from the message).
template <class T>
void send_vector(MPI_Comm comm, const std::vector<T>& v, int dest, int tag) {
  MPI_Send(v.data(), mpi_count(v.size(), "send_vector"), mpi_type<T>(), dest, tag, comm);
}

/// Receives a whole vector sent by send_vector() from `src`.
template <class T>
std::vector<T> recv_vector(MPI_Comm comm, int src, int tag) {
  MPI_Status st;
  backend::CollectiveWait w("a message from another rank");
  MPI_Probe(src, tag, comm, &st);
  int n = 0;
  MPI_Get_count(&st, mpi_type<T>(), &n);
  std::vector<T> v(static_cast<std::size_t>(n));
  MPI_Recv(v.data(), n, mpi_type<T>(), src, tag, comm, MPI_STATUS_IGNORE);
  return v;
}

} // namespace fv::parallel
