#pragma once
/// \file reduce.hpp
/// Global reductions over all ranks (residual norms, time steps, forces). COLLECTIVE: every
/// rank of `comm` must call the same reduction in the same order. Values are host values.
/// The solver reduces over its backend::Communicator (whose transport may be NCCL); the
/// MPI_Comm forms serve the host-side I/O around it (output gathers, start-up checks).
#include "runtime/backend/communicator.hpp"
#include "runtime/backend/wait_watchdog.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <vector>

namespace fv::parallel {

namespace detail {
template <class T>
T allreduce(MPI_Comm comm, T v, MPI_Op op) {
  T out{};
  backend::CollectiveWait w("an allreduce");
  MPI_Allreduce(&v, &out, 1, mpi_type<T>(), op, comm);
  return out;
}
template <class T>
void allreduce(MPI_Comm comm, std::vector<T>& v, MPI_Op op) {
  backend::CollectiveWait w("an allreduce");
  MPI_Allreduce(MPI_IN_PLACE, v.data(), mpi_count(v.size(), "allreduce"), mpi_type<T>(), op, comm);
}
} // namespace detail

/// Sum / maximum / minimum of one value over all ranks (the result on every rank).
template <class T>
T sum_all(MPI_Comm comm, T v) {
  return detail::allreduce(comm, v, MPI_SUM);
}
template <class T>
T max_all(MPI_Comm comm, T v) {
  return detail::allreduce(comm, v, MPI_MAX);
}
template <class T>
T min_all(MPI_Comm comm, T v) {
  return detail::allreduce(comm, v, MPI_MIN);
}

/// Element-wise, in place, over a vector of the same length on every rank (e.g. the residual
/// of each equation, force components).
template <class T>
void sum_all(MPI_Comm comm, std::vector<T>& v) {
  detail::allreduce(comm, v, MPI_SUM);
}
template <class T>
void max_all(MPI_Comm comm, std::vector<T>& v) {
  detail::allreduce(comm, v, MPI_MAX);
}
template <class T>
void min_all(MPI_Comm comm, std::vector<T>& v) {
  detail::allreduce(comm, v, MPI_MIN);
}

namespace detail {
template <class T>
void allreduce(backend::Communicator& c, std::vector<T>& v, backend::ReduceOp op) {
  if constexpr (std::is_same_v<T, double>) {
    c.allreduce(v.data(), mpi_count(v.size(), "allreduce"), op);
  } else {
    std::vector<std::int64_t> w(v.begin(), v.end());
    c.allreduce(w.data(), mpi_count(w.size(), "allreduce"), op);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<T>(w[i]);
  }
}
} // namespace detail

/// The same over a backend::Communicator (the solver's).
template <class T>
T sum_all(backend::Communicator& c, T v) {
  return backend::reduce_all(c, v, backend::ReduceOp::Sum);
}
template <class T>
T max_all(backend::Communicator& c, T v) {
  return backend::reduce_all(c, v, backend::ReduceOp::Max);
}
template <class T>
T min_all(backend::Communicator& c, T v) {
  return backend::reduce_all(c, v, backend::ReduceOp::Min);
}
template <class T>
void sum_all(backend::Communicator& c, std::vector<T>& v) {
  detail::allreduce(c, v, backend::ReduceOp::Sum);
}
template <class T>
void max_all(backend::Communicator& c, std::vector<T>& v) {
  detail::allreduce(c, v, backend::ReduceOp::Max);
}
template <class T>
void min_all(backend::Communicator& c, std::vector<T>& v) {
  detail::allreduce(c, v, backend::ReduceOp::Min);
}

} // namespace fv::parallel
