#pragma once
/// \file restart_file.hpp
/// Restart files: the conservative state of every cell in GLOBAL cell order, so that a run on
/// N ranks can restart on M ranks (the ranks scatter by zone.cellGlobalId). One HDF5 file,
/// written with fv::AtomicFile (temporary + rename): a crash while writing leaves the previous
/// restart intact.
///
/// HDF5 layout:
///   /state             nCells x nVars float64 (rho, rho*u, rho*v, rho*w, rho*E for Euler)
///   root attributes    format="fvkit-restart", formatVersion, nVars, iteration, time,
///                      meshUuid, config, variables (comma-separated names), creator
#include "formats/solution_file.hpp"

#include <string>
#include <vector>

namespace fv {

/// Restart format version written by this build; read_restart() accepts only this version.
inline constexpr int kRestartFormatVersion = 1;
/// The largest iteration a restart may hold (a run continues from it with int counters).
inline constexpr std::int64_t kMaxRestartIteration = 1000000000;

/// A restart in memory (rank 0 holds the global state). Owns its data. SI units.
struct RestartData {
  SolutionInfo info; ///< iteration, time, mesh UUID, configuration text
  int nVars = 5;     ///< conservative variables per cell
  std::vector<std::string> variables = {"rho", "rhoU", "rhoV", "rhoW", "rhoE"};
  std::vector<real_t> state; ///< nCells * nVars, interleaved per cell, global cell order
  gidx_t nCells() const { return nVars > 0 ? static_cast<gidx_t>(state.size() / nVars) : 0; }
};

/// Writes `path` atomically. Throws fv::Error on inconsistent sizes or I/O failure.
void write_restart(const std::string& path, const RestartData& data);

/// Reads `path`, refusing (fv::Error with both values in the message) a file of another format
/// version, of another mesh (meshUuid != expected_uuid), or with a cell count other than
/// expected_cells (when >= 0).
RestartData read_restart(const std::string& path, const std::string& expected_uuid,
                         gidx_t expected_cells = -1);

} // namespace fv
