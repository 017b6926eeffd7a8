#include "runtime/backend/mpi_cuda.hpp"

#include "runtime/backend/forall.hpp"

#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

namespace fv::backend {
namespace {
[[maybe_unused]] int query() {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  return MPIX_Query_cuda_support();
#else
  return -1; // the MPI library offers no query
#endif
}
} // namespace

bool mpi_cuda_aware() {
#if defined(FV_BACKEND_CUDA)
  return query() == 1;
#else
  return false;
#endif
}

std::string mpi_cuda_aware_description() {
#if !defined(FV_BACKEND_CUDA)
  return "this fvrun was built without the CUDA backend";
#else
  const int q = query();
  if (q < 0)
    return "the MPI library offers no CUDA-awareness query (mpi-ext.h MPIX_Query_cuda_support)";
  return q == 1 ? "the MPI library reports CUDA support (MPIX_Query_cuda_support() = 1)"
                : "the MPI library reports no CUDA support (MPIX_Query_cuda_support() = 0)";
#endif
}

} // namespace fv::backend
