#include "runtime/parallel/errors.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "runtime/backend/mpi_communicator.hpp"
#include "runtime/backend/wait_watchdog.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

namespace fv::parallel {
namespace {
// Set just before check_all() throws: the error is known on every rank, so the program can
// end cleanly (rank 0 reports) instead of aborting.
thread_local bool g_error_is_collective = false;
const char* g_program = "fvrun";

// How long a failed rank waits for the others to fail too before it aborts the job.
constexpr double kConsensusSeconds = 3.0;

/// True when every rank of `comm` calls this within `seconds` (non-blocking barrier + polling).
bool all_ranks_reach(MPI_Comm comm, double seconds) {
  MPI_Request req;
  MPI_Ibarrier(comm, &req);
  const double start = MPI_Wtime();
  int done = 0;
  while (true) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done || MPI_Wtime() - start > seconds) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return done != 0;
}
} // namespace

void check_all(MPI_Comm comm, bool ok, const std::string& msg, ErrorKind kind) {
  backend::MpiCommunicator c(comm);
  check_all(c, ok, msg, kind);
}

void check_all(backend::Communicator& comm, bool ok, const std::string& msg, ErrorKind kind) {
  const int rank = comm.rank(), size = comm.size();
  std::int64_t first = ok ? size : rank; // lowest failing rank, or size when all are fine
  comm.allreduce(&first, 1, backend::ReduceOp::Min);
  if (first == size) return;
  const int root = static_cast<int>(first);
  std::int64_t len = rank == root ? static_cast<std::int64_t>(msg.size()) : 0;
  comm.broadcast(&len, sizeof len, root);
  std::string text = rank == root ? msg : std::string(static_cast<std::size_t>(len), '\0');
  comm.broadcast(text.data(), text.size(), root);
  std::int64_t failing = ok ? 0 : 1;
  comm.allreduce(&failing, 1, backend::ReduceOp::Sum);
  g_error_is_collective = true;
  FV_DETAIL_THROW(kind, (failing < size ? "rank " + std::to_string(root) + ": " : std::string())
                            << text);
}

void run_all(MPI_Comm comm, const std::function<void()>& body) {
  std::string msg;
  bool ok = true;
  try {
    body();
  } catch (const std::exception& e) {
    ok = false;
    msg = e.what();
  }
  check_all(comm, ok, msg);
}

void abort_all(const std::string& msg) {
  log::end_progress();
  int rank = 0, initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "%s: error: rank %d: %s\n", g_program, rank, msg.c_str());
  std::fflush(stderr);
  if (initialised) MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

int run_mpi_main(const char* program, int& argc, char**& argv, const std::function<int()>& body) {
  g_program = program;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  // A communicator of its own for the failure consensus, so that it can never be confused with
  // the program's collectives on MPI_COMM_WORLD.
  MPI_Comm consensus = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &consensus);
  const int rank = comm_rank(MPI_COMM_WORLD);
  // until a case sets its own ([run] wait_limit)
  if (comm_size(MPI_COMM_WORLD) > 1)
    backend::set_wait_limit(backend::kDefaultWaitLimit, [](const std::string& m) { abort_all(m); });
  int code = 0;
  std::string failure;
  try {
    code = body();
  } catch (const Error& e) {
    failure = e.what();
    code = e.exit_code();
  } catch (const std::exception& e) {
    failure = e.what();
    code = 1;
  }
  if (!failure.empty()) {
    // Every rank failed (a collective check_all, or the same bad input everywhere): end
    // cleanly with rank 0's message. Otherwise some rank may be waiting for this one: abort.
    if (!g_error_is_collective && !all_ranks_reach(consensus, kConsensusSeconds))
      abort_all(failure);
    log::end_progress();
    if (rank == 0) {
      std::fprintf(stderr, "%s: error: %s\n", program, failure.c_str());
      std::fflush(stderr);
    }
  }
  MPI_Comm_free(&consensus);
  MPI_Finalize();
  return code;
}

} // namespace fv::parallel
