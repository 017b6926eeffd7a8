#pragma once
/// \file errors.hpp
/// Failure handling across ranks. fvrun must never hang because one rank failed:
///   - check_all(comm, ok, msg): COLLECTIVE. If any rank passes ok == false, every rank throws
///     the same fv::Error (the message of the lowest failing rank, prefixed with "rank R: "
///     unless every rank failed).
///     Use it where all ranks reach the same point (set-up, output, restart).
///   - abort_all(msg): NOT collective. Prints "fvrun: error: rank R: msg" once on stderr and
///     calls MPI_Abort, which terminates every rank. Use it when a rank fails where the others
///     may be blocked in communication (inside the iteration loop).
///   - run_mpi_main(): the MPI counterpart of fv::run_main(). An error escaping the body ends
///     the program cleanly with one message from rank 0 and the error's exit code when every
///     rank failed (check_all, or the same bad input on all ranks: they are given 3 s to
///     agree); otherwise it becomes abort_all(), so one failing rank never leaves the others
///     waiting.
#include "common/error.hpp"
#include "runtime/backend/communicator.hpp"

#include <functional>
#include <mpi.h>
#include <string>

namespace fv::parallel {

/// Collective error check (see file comment). Cost: one MPI_Allreduce (+ one broadcast on
/// failure).
/// `kind` is the error's kind on every rank (Usage: exit code 2).
void check_all(MPI_Comm comm, bool ok, const std::string& msg, ErrorKind kind = ErrorKind::Runtime);
/// The same over the solver's communicator (its host collectives).
void check_all(backend::Communicator& comm, bool ok, const std::string& msg,
               ErrorKind kind = ErrorKind::Runtime);

/// Runs body() on this rank and turns an exception on any rank into one collective fv::Error:
/// every rank throws with the lowest failing rank's message. body() must not itself
/// communicate after it has thrown on some ranks only (i.e. no collectives after a
/// rank-local throw point), which holds for local work such as file parsing.
void run_all(MPI_Comm comm, const std::function<void()>& body);

/// Prints the message once and terminates all ranks of MPI_COMM_WORLD (exit code 1).
[[noreturn]] void abort_all(const std::string& msg);

/// MPI_Init_thread + body + MPI_Finalize with the error policy above; returns the exit code.
/// `program` prefixes messages ("fvrun"). Usage errors (exit 2) on every rank exit cleanly.
int run_mpi_main(const char* program, int& argc, char**& argv, const std::function<int()>& body);

} // namespace fv::parallel
