#pragma once
/// \file select.hpp
/// Choosing the device fvrun runs on.
#include "common/enum_names.hpp"
#include "runtime/backend/forall.hpp"

#include <string>

namespace fv {

/// What the user asked for: --device auto|cpu|cuda.
enum class DeviceRequest { Auto, Cpu, Cuda };

/// The requests' names ([run] device, fvrun --device, fvbench --device).
inline constexpr EnumName<DeviceRequest> kDeviceRequestNames[] = {
    {DeviceRequest::Auto, "auto"}, {DeviceRequest::Cpu, "cpu"}, {DeviceRequest::Cuda, "cuda"}};

/// Parses the names of kDeviceRequestNames (and fvbench's "gpu" for cuda); usage error naming
/// the valid choices otherwise.
DeviceRequest parse_device_request(const std::string& s);

/// Number of CUDA devices visible to this process (0 without CUDA or without a GPU).
int cuda_device_count();

/// Node-local rank of this process: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) when MPI is
/// initialised, else OMPI_COMM_WORLD_LOCAL_RANK / MV2_COMM_WORLD_LOCAL_RANK / SLURM_LOCALID,
/// else 0.
int local_rank();

/// Activates the requested device: with CUDA, GPU (local_rank() mod device count) is made
/// current; Auto falls back to the CPU when there is no GPU; Cuda without one is a usage
/// error. Returns a description, e.g. "cuda device 1 of 4 (NVIDIA H100 80GB HBM3, local rank 5)".
std::string select_device(DeviceRequest request);

} // namespace fv
