#include "common/stop_request.hpp"

#include "common/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>

namespace fv {
namespace {

constexpr int kStops[] = {SIGINT, SIGTERM, SIGUSR1, SIGHUP};
std::atomic<int> g_signal{0};

/// Async-signal-safe: atomics, unlink() (unlink_live_temporaries), sigaction() and raise().
void on_stop(int sig) {
  const int savedErrno = errno;
  int none = 0;
  if (!g_signal.compare_exchange_strong(none, sig)) { // the second stop: end now
    unlink_live_temporaries();
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
  }
  errno = savedErrno;
}

} // namespace

void install_stop_request() {
  static std::once_flag once;
  std::call_once(once, [] {
    leave_stop_signals_to_the_program();
    for (const int sig : kStops) {
      struct sigaction current {};
      if (::sigaction(sig, nullptr, &current) != 0) continue;
      if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) continue; // nohup
      struct sigaction sa {};
      sa.sa_handler = on_stop;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESTART; // system calls in progress go on: the loop reads the flag
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

int stop_signal() {
  return g_signal.load();
}

const char* signal_name(int sig) {
  switch (sig) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGUSR1:
    return "SIGUSR1";
  case SIGHUP:
    return "SIGHUP";
  default:
    return "a signal";
  }
}

} // namespace fv
