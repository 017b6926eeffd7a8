// halo_bench: times HaloExchange (pack + MPI + unpack) on synthetic lists, for the CPU backend
// and, when a GPU is visible, for the CUDA backend with each available transport.
//   mpiexec -n 2 halo_bench [owned_cells=2000000] [halo_per_neighbour=100000] [k=5] [iters=100]
// Ranks form a ring; each sends `halo_per_neighbour` strided owned cells to each neighbour and
// receives as many halo cells. The first exchange is verified value by value.
#include "common/error.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "runtime/parallel/reduce.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace fv;

namespace {

struct Setup {
  idx_t owned, halo;
  int k, iters;
};

/// Sender q's cells sent to rank r: i * stride + (r % stride), i < halo.
idx_t sent_cell(const Setup& s, int to, idx_t i) {
  const idx_t stride = s.owned / s.halo;
  return i * stride + to % stride;
}

real_t value(int rank, idx_t c, int j) {
  return rank * 1e9 + c * 10.0 + j;
}

void run(const Setup& s, backend::Communicator& comm) {
  const Device device = active_device();
  const int rank = comm.rank(), size = comm.size();
  std::vector<int> nbrs = {(rank + size - 1) % size, (rank + 1) % size};
  std::sort(nbrs.begin(), nbrs.end());
  nbrs.erase(std::unique(nbrs.begin(), nbrs.end()), nbrs.end());
  std::vector<idx_t> so{0}, si, ro{0}, ri;
  for (std::size_t n = 0; n < nbrs.size(); ++n) {
    for (idx_t i = 0; i < s.halo; ++i)
      si.push_back(sent_cell(s, nbrs[n], i));
    for (idx_t i = 0; i < s.halo; ++i)
      ri.push_back(s.owned + static_cast<idx_t>(n) * s.halo + i);
    so.push_back(static_cast<idx_t>(si.size()));
    ro.push_back(static_cast<idx_t>(ri.size()));
  }
  ExchangeLists l;
  l.neighbours = Array<std::int32_t>(std::vector<std::int32_t>(nbrs.begin(), nbrs.end()));
  l.send = Csr(Array<idx_t>(std::move(so)), Array<idx_t>(std::move(si)));
  l.recv = Csr(Array<idx_t>(std::move(ro)), Array<idx_t>(std::move(ri)));
  const idx_t total = s.owned + static_cast<idx_t>(nbrs.size()) * s.halo;
  parallel::HaloExchange halo(comm, l, total, s.k, parallel::HaloMode::Copy, "bench");

  std::vector<real_t> host(static_cast<std::size_t>(total) * s.k, -1.0);
  for (idx_t c = 0; c < s.owned; ++c)
    for (int j = 0; j < s.k; ++j)
      host[static_cast<std::size_t>(c) * s.k + j] = value(rank, c, j);
  DeviceArray<real_t> u(host, "bench field");
  const std::vector<parallel::FieldView> f = {parallel::FieldView::interleaved(u.data(), s.k)};

  halo.exchange(f); // warm-up + verification
  u.copy_to(host.data());
  long bad = 0;
  for (std::size_t n = 0; n < nbrs.size(); ++n)
    for (idx_t i = 0; i < s.halo; ++i)
      for (int j = 0; j < s.k; ++j)
        bad += host[(static_cast<std::size_t>(s.owned) + n * s.halo + i) * s.k + j] !=
               value(nbrs[n], sent_cell(s, rank, i), j);
  parallel::check_all(comm, bad == 0, std::to_string(bad) + " wrong halo values");

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 0; it < s.iters; ++it)
    halo.exchange(f);
  backend::synchronize();
  const double dt = parallel::max_all(comm, (MPI_Wtime() - t0) / s.iters);
  const double mb = 2.0 * static_cast<double>(nbrs.size()) * s.halo * s.k * sizeof(real_t) / 1e6;
  if (rank == 0)
    std::printf("%-5s %-16s ranks=%d neighbours=%zu entries/neighbour=%d k=%d: %9.1f us per "
                "exchange (%7.1f MB sent+received per rank, %6.2f GB/s)\n",
                device == Device::Cuda ? "cuda" : "cpu", comm.name().c_str(), size, nbrs.size(),
                s.halo, s.k, dt * 1e6, mb, mb / 1e3 / dt);
}

} // namespace

int main(int argc, char** argv) {
  return parallel::run_mpi_main("halo_bench", argc, argv, [&] {
    Setup s{2000000, 100000, 5, 100};
    if (argc > 1) s.owned = std::atoi(argv[1]);
    if (argc > 2) s.halo = std::atoi(argv[2]);
    if (argc > 3) s.k = std::atoi(argv[3]);
    if (argc > 4) s.iters = std::atoi(argv[4]);
    FV_VERIFY_USAGE(s.owned > 0 && s.halo > 0 && s.halo <= s.owned && s.k > 0 && s.iters > 0,
                    "usage: halo_bench [owned_cells] [halo_per_neighbour] [k] [iters]");
    FV_VERIFY_USAGE(parallel::comm_size(MPI_COMM_WORLD) >= 2, "run on at least 2 ranks");
    run(s, *backend::make_mpi_communicator(MPI_COMM_WORLD));
    if (cuda_device_count() > 0) { // every transport that can run on this rank layout
      set_active_device(Device::Cuda);
      for (const auto k :
           {backend::TransportKind::HostStagedMpi, backend::TransportKind::CudaAwareMpi,
            backend::TransportKind::Nccl, backend::TransportKind::CudaIpc}) {
        const backend::TransportAvailability a = backend::transport_available(MPI_COMM_WORLD, k);
        if (a.ok)
          run(s, *backend::make_communicator(MPI_COMM_WORLD, k));
        else if (parallel::comm_rank(MPI_COMM_WORLD) == 0)
          std::printf("%s: not here (%s)\n", backend::to_string(k), a.why.c_str());
      }
      set_active_device(Device::Cpu);
    }
    return 0;
  });
}
