#pragma once
/// \file wait_watchdog.hpp
/// No rank waits for ever for a peer that stopped (SIGSTOP, a hung node, a lost GPU): the
/// host's blocking waits on other ranks (collectives, the completion of messages, the
/// host-synchronised device collectives) each run inside a CollectiveWait, and a watchdog
/// thread calls the expiry handler (parallel::run_mpi_main: abort_all, which ends every rank)
/// when one has lasted longer than the limit ([run] wait_limit).
///
///   { backend::CollectiveWait w("allreduce"); MPI_Allreduce(...); }
#include <functional>
#include <string>

namespace fv::backend {

/// The limit of an MPI program before its case says otherwise, and [run] wait_limit's default:
/// ten minutes, far beyond any imbalance of a healthy run.
inline constexpr double kDefaultWaitLimit = 600;

/// Sets the longest wait, in seconds (0: no limit), and the handler that gets the message
/// naming the wait and its length; starts the watchdog thread at the first limit > 0. The
/// handler must end the process.
void set_wait_limit(double seconds, std::function<void(const std::string&)> onExpiry = {});
/// The current limit in seconds (0: none).
double wait_limit();

/// A blocking wait on other ranks, named for the message (a string literal). Nested waits
/// count as the outermost one.
class CollectiveWait {
 public:
  explicit CollectiveWait(const char* what);
  ~CollectiveWait();
  CollectiveWait(const CollectiveWait&) = delete;
  CollectiveWait& operator=(const CollectiveWait&) = delete;
};

} // namespace fv::backend
