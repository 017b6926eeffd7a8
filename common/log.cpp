#include "common/log.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <sys/resource.h>
#include <unistd.h>

namespace fv::log {
namespace {

Level g_level = Level::Info;
bool g_bar_visible = false;
std::mutex g_mutex;

std::chrono::steady_clock::time_point start_time() {
  static const auto t0 = std::chrono::steady_clock::now();
  return t0;
}

void clear_bar_locked() {
  if (g_bar_visible) {
    std::fputs("\r\033[K", stderr);
    g_bar_visible = false;
  }
}

} // namespace

void set_level(Level lvl) {
  g_level = lvl;
}
Level level() {
  return g_level;
}

double elapsed() {
  return seconds_since(start_time());
}

void write(Level lvl, const std::string& line) {
  if (static_cast<int>(g_level) < static_cast<int>(lvl)) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  clear_bar_locked();
  if (lvl == Level::Warn) std::fputs("warning: ", stderr);
  std::fputs(line.c_str(), stderr);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

void end_progress() {
  std::lock_guard<std::mutex> lock(g_mutex);
  clear_bar_locked();
  std::fflush(stderr);
}

namespace {

double seconds_of(const timeval& t) {
  return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
}

} // namespace

Phase::Phase(std::string name) : name_(std::move(name)), start_(std::chrono::steady_clock::now()) {
  (void)start_time();
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  userStart_ = seconds_of(ru.ru_utime);
  systemStart_ = seconds_of(ru.ru_stime);
}

double Phase::seconds() const {
  return seconds_since(start_);
}

Phase::~Phase() {
  char buf[128];
  // "• name (1.23 s, CPU 8.1 s + 0.4 s sys, peak 1.4 GiB)": the process's CPU time in the phase
  // (all threads) and its peak resident size so far, so that -v shows the phase whose memory sets
  // fvprep's peak.
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  std::snprintf(buf, sizeof buf, " (%.2f s, CPU %.1f s + %.1f s sys, peak %.2f GiB)", seconds(),
                seconds_of(ru.ru_utime) - userStart_, seconds_of(ru.ru_stime) - systemStart_,
                static_cast<double>(ru.ru_maxrss) / (1024.0 * 1024.0));
  std::string line = "\xE2\x80\xA2 " + name_ + buf;
  if (!note_.empty()) line += ": " + note_;
  write(Level::Info, line);
}

Progress::Progress(std::string label, std::int64_t total)
    : label_(std::move(label)), total_(std::max<std::int64_t>(total, 1)),
      tty_(isatty(fileno(stderr)) != 0) {
  next_check_ = 0;
}

Progress::~Progress() {
  if (static_cast<int>(g_level) < static_cast<int>(Level::Info)) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  clear_bar_locked();
  std::fflush(stderr);
}

void Progress::tick(std::int64_t done) {
  // Re-check about every 1/1000 of the work so update() stays one comparison per iteration.
  next_check_ = done + std::max<std::int64_t>(total_ / 1000, 1);
  if (static_cast<int>(g_level) < static_cast<int>(Level::Info)) return;
  const double now = elapsed();
  const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
  std::lock_guard<std::mutex> lock(g_mutex);
  if (tty_) {
    if (now - last_draw_ < 0.1 && done < total_) return;
    last_draw_ = now;
    const int width = 30, filled = static_cast<int>(frac * width);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(static_cast<size_t>(width), '.');
    std::fprintf(stderr, "\r\033[K  %s [%s] %3d%%", label_.c_str(), bar.c_str(),
                 static_cast<int>(frac * 100.0));
    g_bar_visible = true;
  } else {
    const int decile = static_cast<int>(frac * 10.0);
    if (decile <= last_decile_) return;
    if (last_line_ >= 0.0 && now - last_line_ < 5.0 && decile < 10) return;
    last_decile_ = decile;
    last_line_ = now;
    std::fprintf(stderr, "  %s: %d%%\n", label_.c_str(), decile * 10);
  }
  std::fflush(stderr);
}

} // namespace fv::log
