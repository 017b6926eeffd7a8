#include "runtime/backend/wait_watchdog.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <thread>

namespace fv::backend {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<double> g_limit{0};           ///< seconds; 0: none
std::atomic<Clock::rep> g_since{0};       ///< start of the outermost wait (0: not waiting)
std::atomic<const char*> g_what{nullptr}; ///< its name
thread_local int t_depth = 0;             ///< nesting of this thread's waits
std::mutex g_mutex;                       ///< guards g_expiry and the thread's start
std::function<void(const std::string&)> g_expiry;
bool g_started = false;

void expire(const std::string& msg) {
  std::function<void(const std::string&)> f;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    f = g_expiry;
  }
  if (f) f(msg);
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

void watch() {
  for (;;) {
    const double limit = g_limit.load();
    // a tick of a quarter of the limit, at most a second: the wait is caught within 25 %
    const double tick = limit > 0 ? std::min(1.0, limit / 4) : 1.0;
    std::this_thread::sleep_for(std::chrono::duration<double>(tick));
    const Clock::rep since = g_since.load();
    if (limit <= 0 || since == 0) continue;
    const double waited =
        std::chrono::duration<double>(Clock::now() - Clock::time_point(Clock::duration(since)))
            .count();
    if (waited <= limit) continue;
    std::ostringstream m;
    const char* what = g_what.load();
    m << "waited " << static_cast<long>(waited) << " s for the other ranks in "
      << (what ? what : "a collective") << ", longer than [run] wait_limit = " << limit
      << " s: a rank stopped, hung or died; ending every rank";
    expire(m.str());
  }
}

} // namespace

void set_wait_limit(double seconds, std::function<void(const std::string&)> onExpiry) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (onExpiry) g_expiry = std::move(onExpiry);
  g_limit = std::max(0.0, seconds);
  if (seconds > 0 && !g_started) {
    std::thread(watch).detach(); // lives until the process ends; sleeps between its checks
    g_started = true;
  }
}

double wait_limit() {
  return g_limit.load();
}

CollectiveWait::CollectiveWait(const char* what) {
  if (t_depth++ > 0) return;
  g_what = what;
  g_since = std::max<Clock::rep>(1, Clock::now().time_since_epoch().count());
}

CollectiveWait::~CollectiveWait() {
  if (--t_depth == 0) g_since = 0;
}

} // namespace fv::backend
