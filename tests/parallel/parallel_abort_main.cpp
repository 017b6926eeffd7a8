// An MPI program for the "no hang" tests (tests/parallel/CMakeLists.txt): one rank fails while
// the others wait for it inside a halo exchange or at a collective check.
//   parallel_abort exchange   rank 1 throws before sending; rank 0 waits in finish():
//                             run_mpi_main must abort all ranks with one message.
//   parallel_abort inflight   rank 1 throws between begin() and finish() (its messages are in
//                             flight): the abandoned exchange must not hang in its destructor.
//   parallel_abort collective rank 1 fails a parallel::check_all(): every rank throws the same
//                             error and the program ends cleanly with exit code 1.
//   parallel_abort stopped    rank 1 stops itself (SIGSTOP) before an allreduce: rank 0's
//                             watchdog (a 2 s wait limit) must end every rank with a message.
#include "common/error.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/backend/wait_watchdog.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "runtime/parallel/reduce.hpp"
#include "tests/parallel/chain_zones.hpp"

#include <csignal>
#include <string>

int main(int argc, char** argv) {
  return fv::parallel::run_mpi_main("parallel_abort", argc, argv, [&] {
    const std::string mode = argc > 1 ? argv[1] : "";
    FV_VERIFY_USAGE(mode == "exchange" || mode == "inflight" || mode == "collective" ||
                        mode == "stopped",
                    "usage: parallel_abort exchange|inflight|collective|stopped");
    const int rank = fv::parallel::comm_rank(MPI_COMM_WORLD);
    const int size = fv::parallel::comm_size(MPI_COMM_WORLD);
    FV_VERIFY(size >= 2, "run on at least 2 ranks");
    const fv::Zone z = fv::testing::make_chain_zone(13, size, rank);
    if (mode == "stopped") {
      fv::backend::set_wait_limit(2.0); // run_mpi_main's handler: abort_all
      if (rank == 1) std::raise(SIGSTOP);
      (void)fv::parallel::sum_all(MPI_COMM_WORLD, 1);
      return 0;
    }
    if (mode == "collective") {
      fv::parallel::check_all(MPI_COMM_WORLD, rank != 1, "injected collective failure");
      return 0;
    }
    const auto comm = fv::backend::make_mpi_communicator(MPI_COMM_WORLD);
    fv::parallel::HaloExchange halo(*comm, z.cellExchange, z.nTotalCells(), 1,
                                    fv::parallel::HaloMode::Copy);
    std::vector<fv::real_t> u(static_cast<std::size_t>(z.nTotalCells()), 1.0);
    if (mode == "exchange") FV_VERIFY(rank != 1, "injected failure in the iteration loop");
    halo.begin({fv::parallel::FieldView::interleaved(u.data(), 1)});
    FV_VERIFY(rank != 1, "injected failure between begin and finish");
    halo.finish(); // rank 0 waits here for rank 1, which has failed
    return 0;
  });
}
