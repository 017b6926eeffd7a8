#pragma once
/// \file log.hpp
/// Small logging facility: levelled messages, phase timings and a progress bar.
///
///   FV_LOG_INFO("read " << n << " cells");
///   { fv::log::Phase p("building faces"); ... }      // prints "• building faces (1.23 s)"
///   fv::log::Progress bar("reading cells", n);         // bar on a terminal, periodic lines
///   for (...) bar.update(i);                           // otherwise (never floods a log file)
///
/// Everything goes to stderr so that stdout stays clean for results (--json, tables).
#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>

namespace fv::log {

/// Verbosity threshold: messages with a level above it are dropped.
enum class Level : int { Quiet = 0, Warn = 1, Info = 2, Debug = 3 };

void set_level(Level level);
Level level();

/// Writes one line at the given level, prefixed with "warning: " for Warn.
void write(Level level, const std::string& line);

/// Clears a progress bar left on the terminal (called before errors are printed).
void end_progress();

/// Seconds since the first call to any log function (monotonic clock).
double elapsed();

/// Seconds from t0 to now (monotonic clock).
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// RAII phase timer: prints "• <name> (<wall> s, CPU <user> s + <system> s sys, peak <GiB> GiB)"
/// when it goes out of scope (Info level). CPU is the whole process's (every thread) during the
/// phase: CPU over wall shows how well a phase used its threads, and system time shows kernel
/// work (page faults, memory unmapped, file I/O). Peak is the process's peak resident size so far.
class Phase {
 public:
  explicit Phase(std::string name);
  ~Phase();
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;
  /// Seconds since construction.
  double seconds() const;
  /// Appends a note printed after the timing, e.g. "12 colours".
  void note(const std::string& text) { note_ = text; }

 private:
  std::string name_, note_;
  std::chrono::steady_clock::time_point start_;
  double userStart_ = 0, systemStart_ = 0; ///< process CPU seconds at construction
};

/// Progress of a long loop of `total` steps. On a terminal, a bar redrawn at most 10 times a
/// second; otherwise one line every 10 % of the work (and at least 5 s apart).
class Progress {
 public:
  Progress(std::string label, std::int64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  /// Reports that `done` of the total steps are complete. Cheap to call every iteration.
  void update(std::int64_t done) {
    if (done >= next_check_) tick(done);
  }

 private:
  void tick(std::int64_t done);
  std::string label_;
  std::int64_t total_, next_check_ = 0;
  int last_decile_ = -1;
  bool tty_;
  double last_draw_ = -1.0, last_line_ = -1.0;
};

} // namespace fv::log

#define FV_DETAIL_LOG(lvl, msg)                                                                    \
  do {                                                                                             \
    if (static_cast<int>(::fv::log::level()) >= static_cast<int>(lvl)) {                           \
      std::ostringstream fv_log_oss_;                                                              \
      fv_log_oss_ << msg;                                                                          \
      ::fv::log::write(lvl, fv_log_oss_.str());                                                    \
    }                                                                                              \
  } while (0)
#define FV_LOG_WARN(msg) FV_DETAIL_LOG(::fv::log::Level::Warn, msg)
#define FV_LOG_INFO(msg) FV_DETAIL_LOG(::fv::log::Level::Info, msg)
#define FV_LOG_DEBUG(msg) FV_DETAIL_LOG(::fv::log::Level::Debug, msg)
