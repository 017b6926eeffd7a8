#pragma once
/// \file reduce.hpp
/// Global reductions over all ranks (residual norms, time steps, forces). COLLECTIVE: every
/// rank of `comm` must call the same reduction in the same order. Values are host values.
#include "runtime/parallel/mpi_util.hpp"

#include <vector>

namespace fv::parallel {

namespace detail {
template <class T>
T allreduce(MPI_Comm comm, T v, MPI_Op op) {
  T out{};
  MPI_Allreduce(&v, &out, 1, mpi_type<T>(), op, comm);
  return out;
}
template <class T>
void allreduce(MPI_Comm comm, std::vector<T>& v, MPI_Op op) {
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

} // namespace fv::parallel
