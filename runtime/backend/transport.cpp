#include "runtime/backend/transport.hpp"

#include "common/error.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/backend/mpi_communicator.hpp"
#include "runtime/backend/mpi_cuda.hpp"

#include <algorithm>
#include <cstring>
#include <unistd.h>

#if defined(FV_BACKEND_CUDA)
#include "runtime/backend/cuda_check.hpp"
#endif

namespace fv::backend {

const char* to_string(TransportKind k) {
  return enum_name(kTransportNames, k);
}

TransportKind parse_transport(const std::string& s) {
  TransportKind k = TransportKind::Auto;
  FV_VERIFY_USAGE(parse_enum(kTransportNames, s, k),
                  "transport '" << s << "' is not one of " << join_enum_names(kTransportNames));
  return k;
}

namespace {

/// "host:PCI bus id" of this rank's GPU (empty on the CPU backend).
std::string gpu_identity() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string id = host;
#if defined(FV_BACKEND_CUDA)
  if (active_device() == Device::Cuda) {
    int dev = 0;
    char bus[64] = {};
    FV_CUDA_CHECK(cudaGetDevice(&dev));
    FV_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, dev));
    return id + ":" + bus;
  }
#endif
  return id;
}

/// Whether two ranks of comm run on the same GPU (NCCL refuses that).
bool gpu_shared(MPI_Comm comm) {
  constexpr int kLen = 320;
  std::string mine = gpu_identity();
  mine.resize(kLen, '\0');
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<char> all(static_cast<std::size_t>(size) * kLen);
  MPI_Allgather(mine.data(), kLen, MPI_CHAR, all.data(), kLen, MPI_CHAR, comm);
  std::vector<std::string> ids;
  for (int r = 0; r < size; ++r)
    ids.emplace_back(all.data() + static_cast<std::size_t>(r) * kLen, kLen);
  std::sort(ids.begin(), ids.end());
  return std::adjacent_find(ids.begin(), ids.end()) != ids.end();
}

/// Whether every rank of comm is on this node.
bool one_node(MPI_Comm comm) {
  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int n = 0, size = 0;
  MPI_Comm_size(local, &n);
  MPI_Comm_size(comm, &size);
  MPI_Comm_free(&local);
  int all = n == size ? 1 : 0, every = 0;
  MPI_Allreduce(&all, &every, 1, MPI_INT, MPI_MIN, comm);
  return every == 1;
}

/// This rank's answer for k (collective parts included).
std::string why_not(MPI_Comm comm, TransportKind k) {
  const bool cuda = active_device() == Device::Cuda;
  switch (k) {
  case TransportKind::Auto:
  case TransportKind::HostStagedMpi:
    return {};
  case TransportKind::CudaAwareMpi:
    if (!cuda) return "CUDA-aware MPI needs the CUDA device ([run] device = cuda)";
    return mpi_cuda_aware() ? std::string() : mpi_cuda_aware_description();
  case TransportKind::Nccl: {
    if (!built_with_nccl())
      return "this fvrun was built without NCCL (CMake found no nccl.h and libnccl)";
    if (!cuda) return "NCCL needs the CUDA device ([run] device = cuda)";
    return gpu_shared(comm) ? "two ranks share a GPU, which NCCL refuses (one GPU per rank)"
                            : std::string();
  }
  case TransportKind::CudaIpc:
    if (!cuda) return "CUDA IPC needs the CUDA device ([run] device = cuda)";
    return one_node(comm) ? std::string() : "the ranks span several nodes (CUDA IPC is within one)";
  }
  return "unknown transport";
}

} // namespace

TransportAvailability transport_available(MPI_Comm comm, TransportKind k) {
  const std::string why = why_not(comm, k);
  int ok = why.empty() ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (all == 1) return {true, {}};
  return {false, why.empty() ? std::string("not available on another rank") : why};
}

std::unique_ptr<Communicator> make_mpi_communicator(MPI_Comm comm, bool cudaAware) {
  return std::make_unique<MpiCommunicator>(comm, cudaAware);
}

std::unique_ptr<Communicator> make_communicator(MPI_Comm comm, TransportKind requested) {
  TransportKind k = requested;
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (k == TransportKind::Auto) {
    k = TransportKind::HostStagedMpi;
    // One rank sends nothing. CUDA IPC first (one node, distinct GPUs): the fastest measured on
    // 4 NVLinked H100s (bench/results/mpi_scaling_h100x4_20261128.md). Never with two ranks on
    // one GPU: its cross-process event waits serialise the ranks there, slower than host
    // staging (bench/results/transport_h100_20261124.md). NCCL where the ranks span nodes.
    if (active_device() == Device::Cuda && size > 1) {
      const bool shared = gpu_shared(comm);
      for (TransportKind c :
           {TransportKind::CudaIpc, TransportKind::Nccl, TransportKind::CudaAwareMpi})
        if ((c != TransportKind::CudaIpc || !shared) && transport_available(comm, c).ok) {
          k = c;
          break;
        }
    }
  } else {
    const TransportAvailability a = transport_available(comm, k);
    FV_VERIFY_USAGE(a.ok, "[run] transport = " << to_string(k) << ": " << a.why
                                               << "; use auto or host_staged_mpi");
  }
  switch (k) {
  case TransportKind::Nccl:
    return make_nccl_communicator(comm);
  case TransportKind::CudaIpc:
    return make_ipc_communicator(comm);
  case TransportKind::CudaAwareMpi:
    return make_mpi_communicator(comm, true);
  default:
    return make_mpi_communicator(comm, false);
  }
}

} // namespace fv::backend
