#pragma once
/// \file fvrun_cli.hpp
/// fvrun's command line:
///   [mpirun -np N] fvrun mesh.zones.h5 -c case.ini [--set section.key=value]... [--iterations N]
///         [--cfl X] [--device auto|cpu|cuda] [--output-dir DIR] [--restart FILE]
///         [--no-overlap] [--comm-timing] [--cuda-aware-mpi] [--profile] [--quiet]
///         [--sweep KEY=SPEC]... [--sweep-groups G]
/// The shortcuts of case keys (--iterations ... --profile) are declared by the keys' schema
/// entries (CaseKey::cli): their text is the key's value, parsed and checked as a case file's
/// would be (case_file()); --set overrides come first, the shortcuts after them, then --sweep
/// (KEY one of kSweptKeys: [sweep] KEY = SPEC, parsed by the schema as the case file's).
#include "runtime/config/ini.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fv {

struct CaseKey;

/// What fvrun's command line asked for.
struct FvrunCommandLine {
  std::string zonePath;    ///< the zone file (fvprep)
  std::string casePath;    ///< -c: the case file
  std::string restartPath; ///< --restart: start from this restart file (empty: none)
  bool noChecksums = false;
  std::vector<std::string> sets; ///< --set section.key=value, in order
  /// The case keys' shortcuts given, with their value text (a flag's value), in schema order.
  std::vector<std::pair<const CaseKey*, std::string>> shortcuts;
  std::vector<std::string> sweeps; ///< --sweep KEY=SPEC, in order

  /// The case file with the overrides of the command line (--set, the shortcuts, --sweep).
  IniFile case_file() const;
};

/// Parses fvrun's command line into `cl` and sets the log level (--quiet, --verbose). Returns
/// the exit code when fvrun is to stop here (--help, --version, --keys: 0, after printing;
/// a command-line error: 2, after the message), nothing when it is to run.
std::optional<int> parse_fvrun_command_line(int argc, char** argv, FvrunCommandLine& cl);

} // namespace fv
