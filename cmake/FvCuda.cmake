# FV_ENABLE_CUDA=AUTO turns the CUDA backend on when nvcc is found (PATH or /usr/local/cuda).
# Architectures default to 90 (H100/H200); override with -DCMAKE_CUDA_ARCHITECTURES=...
set(FV_CUDA OFF)
if(NOT FV_ENABLE_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER)
    find_program(FV_NVCC nvcc HINTS ENV CUDACXX PATHS /usr/local/cuda/bin)
    if(FV_NVCC)
      set(CMAKE_CUDA_COMPILER ${FV_NVCC})
    endif()
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(FV_CUDA ON)
  elseif(FV_ENABLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "fvkit: FV_ENABLE_CUDA=ON but no CUDA compiler (nvcc) was found")
  else()
    message(STATUS "fvkit: nvcc not found; building the CPU (OpenMP) backend only")
  endif()
endif()

# NCCL (the nccl halo transport, backend/transport.hpp): found with the CUDA backend when nccl.h
# and libnccl are present, in the CUDA toolkit, under NCCL_HOME / NCCL_ROOT (e.g. Python's
# nvidia-nccl package: site-packages/nvidia/nccl) or on the system paths. FV_ENABLE_NCCL=OFF
# leaves it out; ON makes its absence an error.
set(FV_ENABLE_NCCL "AUTO" CACHE STRING "Build the NCCL transport: AUTO (when found), ON, OFF")
set_property(CACHE FV_ENABLE_NCCL PROPERTY STRINGS AUTO ON OFF)
set(FV_NCCL OFF)
if(FV_CUDA AND NOT FV_ENABLE_NCCL STREQUAL "OFF")
  find_path(FV_NCCL_INCLUDE_DIR nccl.h
    HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME ENV NCCL_ROOT PATH_SUFFIXES include)
  find_library(FV_NCCL_LIBRARY NAMES nccl libnccl.so.2
    HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME ENV NCCL_ROOT PATH_SUFFIXES lib lib64)
  if(FV_NCCL_INCLUDE_DIR AND FV_NCCL_LIBRARY)
    set(FV_NCCL ON)
    message(STATUS "fvkit: NCCL transport with ${FV_NCCL_LIBRARY}")
  elseif(FV_ENABLE_NCCL STREQUAL "ON")
    message(FATAL_ERROR "fvkit: FV_ENABLE_NCCL=ON but nccl.h / libnccl were not found (set NCCL_HOME)")
  else()
    message(STATUS "fvkit: NCCL not found; no nccl transport")
  endif()
endif()
