#pragma once
/// \file stop_request.hpp
/// A long run stopped on request keeps its work: SIGINT (Ctrl-C), SIGTERM, SIGUSR1 (what batch
/// systems send before the time limit) and SIGHUP set a flag that the iteration loop reads
/// after each iteration (fvrun: it then writes its restart and solution, says where, and
/// exits 128 + the signal). A second stop signal while the first is being honoured ends the
/// process at once, the live temporaries of AtomicFile removed (the previous good files
/// stay). A signal the process ignores (nohup) stays ignored.
namespace fv {

/// Installs the handlers (once; before the first AtomicFile, whose own handlers then stay
/// away: atomic_file.hpp).
void install_stop_request();
/// The signal that asked the run to stop, 0 while none did.
int stop_signal();
/// "SIGTERM", ... for a signal number.
const char* signal_name(int sig);

} // namespace fv
