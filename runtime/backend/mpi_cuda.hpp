#pragma once
/// \file mpi_cuda.hpp
/// Whether the MPI library can send and receive GPU memory directly ("CUDA-aware MPI").
#include <string>

namespace fv::backend {

/// True when this build has the CUDA backend and the MPI library reports CUDA support at run
/// time (Open MPI: MPIX_Query_cuda_support() from mpi-ext.h). Call after MPI_Init.
bool mpi_cuda_aware();

/// One line describing the answer, for logs and errors, e.g. "Open MPI reports no CUDA
/// support (MPIX_Query_cuda_support() = 0)".
std::string mpi_cuda_aware_description();

} // namespace fv::backend
