#pragma once
/// \file cuda_check.hpp
/// FV_CUDA_CHECK(call): runs a CUDA runtime call and throws fv::Error naming the call and the
/// CUDA error when it fails. Only for backend sources compiled with CUDA.
#include "common/error.hpp"

#include <cuda_runtime.h>

#define FV_CUDA_CHECK(call)                                                                        \
  do {                                                                                             \
    const cudaError_t fv_cuda_err_ = (call);                                                       \
    FV_VERIFY(fv_cuda_err_ == cudaSuccess,                                                         \
              "CUDA call " #call " failed: " << cudaGetErrorName(fv_cuda_err_) << " ("             \
                                             << cudaGetErrorString(fv_cuda_err_) << ")");          \
  } while (0)
