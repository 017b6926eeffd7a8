#include "runtime/parallel/errors.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <cstdio>
#include <exception>

namespace fv::parallel {
namespace {
// Set just before check_all() throws: the error is known on every rank, so the program can
// end cleanly (rank 0 reports) instead of aborting.
thread_local bool g_error_is_collective = false;
const char* g_program = "fvrun";
} // namespace

void check_all(MPI_Comm comm, bool ok, const std::string& msg) {
  const int rank = comm_rank(comm);
  // Lowest failing rank, or `size` when all are fine.
  int mine = ok ? comm_size(comm) : rank, first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == comm_size(comm)) return;
  int len = rank == first ? static_cast<int>(msg.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  std::string text = rank == first ? msg : std::string(static_cast<std::size_t>(len), '\0');
  MPI_Bcast(text.data(), len, MPI_CHAR, first, comm);
  g_error_is_collective = true;
  FV_THROW((comm_size(comm) > 1 ? "rank " + std::to_string(first) + ": " : std::string()) + text);
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
  const int rank = comm_rank(MPI_COMM_WORLD);
  int code = 0;
  try {
    code = body();
  } catch (const Error& e) {
    if (!g_error_is_collective) abort_all(e.what());
    log::end_progress();
    if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    code = e.exit_code();
  } catch (const std::exception& e) {
    abort_all(e.what());
  }
  MPI_Finalize();
  return code;
}

} // namespace fv::parallel
