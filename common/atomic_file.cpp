#include "common/atomic_file.hpp"

#include "common/error.hpp"
#include "common/log.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>
#include <unistd.h>

namespace fv {

namespace {

// ---- removal of the live temporaries on SIGINT / SIGTERM / SIGHUP

constexpr int kSlots = 64; ///< live temporaries the handler knows of (more: not removed)
std::atomic<const char*> g_live[kSlots];
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kNumSignals = sizeof(kSignals) / sizeof(kSignals[0]);
struct sigaction g_previous[kNumSignals];

/// Async-signal-safe: unlink(), sigaction() and raise() only.
void remove_live_temporaries(int sig) {
  const int savedErrno = errno;
  for (std::atomic<const char*>& slot : g_live)
    if (const char* path = slot.load()) ::unlink(path);
  for (int k = 0; k < kNumSignals; ++k)
    if (kSignals[k] == sig) ::sigaction(sig, &g_previous[k], nullptr);
  errno = savedErrno;
  ::raise(sig); // delivered on return, to the previous disposition (by default: terminate)
}

std::atomic<bool> g_programHandlesStops{false};

void install_signal_handlers() {
  if (g_programHandlesStops.load()) return; // stop_request.hpp's handlers
  static std::once_flag once;
  std::call_once(once, [] {
    for (int k = 0; k < kNumSignals; ++k) {
      struct sigaction current {};
      if (::sigaction(kSignals[k], nullptr, &current) != 0) continue;
      if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN)
        continue; // ignored (nohup): stays ignored
      struct sigaction sa {};
      sa.sa_handler = remove_live_temporaries;
      sigemptyset(&sa.sa_mask);
      ::sigaction(kSignals[k], &sa, &g_previous[k]);
    }
  });
}

/// The thread of take_stop_signals_on_a_thread(): waits for one of `stops`, then removes the
/// live temporaries, says so in one line and ends the process by that signal.
void wait_for_stop(const char* program, sigset_t stops) {
  int sig = 0;
  while (sigwait(&stops, &sig) != 0) {
  }
  std::string removed;
  for (std::atomic<const char*>& slot : g_live)
    if (const char* path = slot.exchange(nullptr))
      if (::unlink(path) == 0) removed += std::string(removed.empty() ? "" : ", ") + path;
  const std::string line = std::string(program) + ": stopped by " +
                           (sig == SIGINT    ? "SIGINT"
                            : sig == SIGTERM ? "SIGTERM"
                                             : "SIGHUP") +
                           (removed.empty() ? "" : "; removed the unfinished " + removed) + "\n";
  log::end_progress();
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  // the signal's default action (terminate), whatever handler a library set meanwhile
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);
  std::_Exit(128 + sig); // not reached
}

int register_live(const char* path) {
  for (int i = 0; i < kSlots; ++i) {
    const char* expected = nullptr;
    if (g_live[i].compare_exchange_strong(expected, path)) return i;
  }
  return -1;
}

/// The decimal number in s, or -1 when s is empty or not all digits.
long long parse_number(const std::string& s) {
  if (s.empty() || s.size() > 18) return -1;
  long long v = 0;
  for (const char ch : s) {
    if (ch < '0' || ch > '9') return -1;
    v = 10 * v + (ch - '0');
  }
  return v;
}

/// Whether a process with this id exists on this host (kill(pid, 0): EPERM means it does).
bool process_exists(long long pid) {
  if (pid <= 0 || pid > 0x7fffffff) return true; // not a process id: leave the file alone
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

} // namespace

std::string temporary_host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "host";
  std::string h(buf);
  h = h.substr(0, h.find('.')); // the first label of a fully qualified name
  for (char& ch : h)
    if (ch == '/' || ch == '.') ch = '-';
  return h.empty() ? "host" : h;
}

std::vector<std::string> stale_temporaries(const std::string& target, const std::string& host) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  const fs::path t(target);
  const fs::path dir = t.parent_path().empty() ? fs::path(".") : t.parent_path();
  const std::string prefix = t.filename().string() + ".tmp." + host + ".";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size()); // "<pid>.<n>"
    const std::size_t dot = rest.find('.');
    if (dot == std::string::npos) continue;
    const long long pid = parse_number(rest.substr(0, dot));
    if (pid < 0 || parse_number(rest.substr(dot + 1)) < 0) continue;
    if (!process_exists(pid)) out.push_back(it->path().string());
  }
  return out;
}

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  static std::atomic<int> counter{0};
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(target_).parent_path();
  std::error_code ec;
  FV_VERIFY(dir.empty() || fs::is_directory(dir, ec),
            target_ << ": cannot write: directory '" << dir.string() << "' does not exist");
  FV_VERIFY(!fs::is_directory(target_, ec), target_ << ": cannot write: it is a directory");
  const std::string host = temporary_host_name();
  for (const std::string& stale : stale_temporaries(target_, host))
    if (std::remove(stale.c_str()) == 0)
      FV_LOG_WARN("removed " << stale << ", a temporary file of " << target_
                             << " left by a process that no longer runs (killed?)");
  temp_ =
      target_ + ".tmp." + host + "." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  install_signal_handlers();
  slot_ = register_live(temp_.c_str());
}

AtomicFile::~AtomicFile() {
  if (slot_ >= 0) g_live[slot_].store(nullptr);
  if (!committed_) std::remove(temp_.c_str());
}

void AtomicFile::commit() {
  FV_VERIFY(!committed_, target_ << ": already committed");
  const int fd = ::open(temp_.c_str(), O_RDONLY);
  if (fd < 0) {
    FV_THROW(target_ << ": temporary file " << temp_
                     << " was not written: " << std::strerror(errno));
  }
  const int sync_rc = ::fsync(fd);
  const int sync_errno = errno;
  ::close(fd);
  FV_VERIFY(sync_rc == 0,
            target_ << ": cannot flush " << temp_ << ": " << std::strerror(sync_errno));
  FV_VERIFY(std::rename(temp_.c_str(), target_.c_str()) == 0,
            target_ << ": cannot rename " << temp_ << " over it: " << std::strerror(errno));
  committed_ = true;
  if (slot_ >= 0) g_live[slot_].store(nullptr);
  slot_ = -1;
}

void leave_stop_signals_to_the_program() { g_programHandlesStops = true; }

void unlink_live_temporaries() {
  for (std::atomic<const char*>& slot : g_live)
    if (const char* path = slot.load()) ::unlink(path);
}

void take_stop_signals_on_a_thread(const char* program) {
  sigset_t stops;
  sigemptyset(&stops);
  for (const int sig : kSignals) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) != 0) continue;
    if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN)
      continue; // ignored (nohup): stays ignored
    sigaddset(&stops, sig);
  }
  FV_VERIFY(::pthread_sigmask(SIG_BLOCK, &stops, nullptr) == 0,
            program << ": cannot block the stop signals");
  std::thread(wait_for_stop, program, stops).detach();
}

} // namespace fv
