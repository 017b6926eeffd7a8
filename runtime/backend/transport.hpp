#pragma once
/// \file transport.hpp
/// The transports behind fv::backend::Communicator and how fvrun picks one
/// ([run] transport, docs/parallel.md "Transports"):
///
///   host_staged_mpi  device -> page-locked host -> MPI -> host -> device (every build)
///   cuda_aware_mpi   MPI reads and writes device memory (an MPI library with CUDA support)
///   nccl             ncclSend/ncclRecv in a group on a side stream, ncclAllReduce for the
///                    reductions; bootstrapped through MPI (a build with NCCL, one GPU per rank)
///   cuda_ipc         each rank copies its messages straight into its peers' receive buffers
///                    (cudaIpc* handles, interprocess events; all ranks on one node)
///   auto             the best available, in the order cuda_ipc (only when no two ranks
///                    share a GPU), nccl, cuda_aware_mpi, host_staged_mpi; with the CPU backend
///                    always MPI on host memory
#include "common/enum_names.hpp"
#include "runtime/backend/communicator.hpp"

#include <memory>
#include <mpi.h>
#include <string>

namespace fv::backend {

enum class TransportKind { Auto, HostStagedMpi, CudaAwareMpi, Nccl, CudaIpc };

/// The transports' names ([run] transport).
inline constexpr EnumName<TransportKind> kTransportNames[] = {
    {TransportKind::Auto, "auto"},
    {TransportKind::HostStagedMpi, "host_staged_mpi"},
    {TransportKind::CudaAwareMpi, "cuda_aware_mpi"},
    {TransportKind::Nccl, "nccl"},
    {TransportKind::CudaIpc, "cuda_ipc"}};

/// The name of k (kTransportNames).
const char* to_string(TransportKind k);
/// Inverse of to_string(); throws a usage error listing the names.
TransportKind parse_transport(const std::string& s);

/// Whether transport k can run on this build, device and rank layout, and if not why (one
/// line). COLLECTIVE over comm (the answer is the same on every rank). Call after MPI_Init and
/// fv::select_device().
struct TransportAvailability {
  bool ok = false;
  std::string why; ///< empty when ok
};
TransportAvailability transport_available(MPI_Comm comm, TransportKind k);

/// The communicator of `comm`'s ranks over transport `requested` (Auto: the best available);
/// an explicit request that cannot run is a usage error saying why, on every rank.
/// COLLECTIVE. `comm` must outlive the result.
std::unique_ptr<Communicator> make_communicator(MPI_Comm comm, TransportKind requested);

/// One transport, no selection (tests and benchmarks); throws when it cannot run here.
std::unique_ptr<Communicator> make_mpi_communicator(MPI_Comm comm, bool cudaAware = false);
std::unique_ptr<Communicator> make_nccl_communicator(MPI_Comm comm);
std::unique_ptr<Communicator> make_ipc_communicator(MPI_Comm comm);

/// Whether this fvrun was built with NCCL.
bool built_with_nccl();

} // namespace fv::backend
