#pragma once
/// \file atomic_file.hpp
/// Safe output: write to a temporary file next to the target, then rename over it.
///
///   fv::AtomicFile out("mesh.zones.h5");      // nothing touches mesh.zones.h5 yet
///   write_everything(out.temp_path());          // write the temporary file
///   out.commit();                               // fsync + rename(temp, target): atomic
///
/// If commit() is never reached, the temporary file goes and the previous good target file is
/// untouched:
/// - an exception: the destructor removes the temporary;
/// - SIGINT, SIGTERM or SIGHUP (Ctrl-C, `kill`, a batch system's time limit): a handler,
///   installed with the first AtomicFile, removes every live temporary of the process, then
///   lets the signal do what it did before (terminate, unless a handler of its own was set);
///   a signal the process ignores stays ignored; a program that calls libraries with handlers
///   of their own takes the signals on a thread instead (take_stop_signals_on_a_thread()),
///   which removes them the same way;
/// - a process killed outright (SIGKILL, the OOM killer): its temporary stays, and the next
///   AtomicFile of the same target on the same host removes it, with a warning, once that
///   process no longer exists.
/// The temporary lives in the same directory as the target so that rename() is atomic (same
/// filesystem); its name "<target>.tmp.<host>.<pid>.<n>" tells which host and process own it.
#include <string>
#include <vector>

namespace fv {

class AtomicFile {
 public:
  /// Chooses a unique temporary name "<target>.tmp.<host>.<pid>.<n>"; checks the directory
  /// exists; removes the temporaries of `target` left by dead processes of this host.
  explicit AtomicFile(std::string target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& target() const { return target_; }
  const std::string& temp_path() const { return temp_; }

  /// Flushes the temporary file to disk and renames it to the target. Throws fv::Error on
  /// failure (the temporary is then removed).
  void commit();

 private:
  std::string target_, temp_;
  int slot_ = -1; ///< where the temporary is registered for the signal handler (-1: not)
  bool committed_ = false;
};

/// The temporaries of `target` ("<target>.tmp.<host>.<pid>.<n>") whose host is `host` and
/// whose process no longer exists; AtomicFile's constructor removes them. Exposed for tests.
std::vector<std::string> stale_temporaries(const std::string& target, const std::string& host);

/// This host's name as it appears in temporary names (no dots or slashes).
std::string temporary_host_name();

/// For a program that calls libraries which install signal handlers of their own: METIS
/// (GKlib) sets SIGTERM's and SIGABRT's to a longjmp into its own thread's stack while it
/// partitions, so a SIGTERM taken by any other thread crashes the process and leaves its
/// temporaries. Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, and so in every thread
/// started after it, and takes them on a thread of its own (sigwait), whatever handler is
/// installed meanwhile: it removes the live temporaries of every AtomicFile, prints one line
/// "<program>: stopped by SIGTERM" (naming the temporaries removed) and ends the process by the
/// signal's default action. Call once, at the top of main(), before any thread starts. Signals
/// ignored at the call (nohup) stay ignored.
void take_stop_signals_on_a_thread(const char* program);

/// For a program that honours stop signals itself (stop_request.hpp): AtomicFile installs no
/// handlers of its own from now on. Call before the first AtomicFile.
void leave_stop_signals_to_the_program();
/// Removes every live temporary of the process (async-signal-safe: unlink() only): what
/// AtomicFile's own handler does, for a program's handler that ends the process.
void unlink_live_temporaries();

} // namespace fv
