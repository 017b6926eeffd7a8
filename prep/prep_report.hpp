#pragma once
/// \file prep_report.hpp
/// What fvprep measured while preparing a mesh: phase timings, bandwidth before/after
/// renumbering, colourings and hyperplanes per zone; printed as a short summary.
#include "common/log.hpp"
#include "common/types.hpp"
#include "prep/colouring.hpp"
#include "prep/connectivity.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace fv {

/// Seconds one zone's build spent in each of its steps (wall clock of the thread that runs the
/// step; the loops of a one-zone build run on all threads inside it, and its colourings,
/// hyperplanes, exchange lists and bandwidth side by side). `fvprep -v` prints them summed
/// over the zones.
struct ZoneStepTimes {
  static constexpr int kSteps = 12;
  static constexpr const char* kNames[kSteps] = {"ordering",     "halo",           "cell data",
                                                 "nodes",        "faces",          "connectivity",
                                                 "node weights", "face colours",   "cell colours",
                                                 "hyperplanes",  "exchange lists", "bandwidth"};
  double seconds[kSteps] = {};
};

/// Summary of one zone.
struct ZoneReport {
  idx_t nCells = 0, nInteriorCells = 0, nHaloCells = 0, nFaces = 0, nBoundaryFaces = 0, nNodes = 0;
  int nCellNeighbours = 0, nNodeNeighbours = 0;
  Bandwidth bandwidth; ///< of the zone's owned-cell adjacency in its local order
  GroupStats faceColours, cellColours, hyperplanes;
  ZoneStepTimes steps;
};

/// Summary of a preparation run.
struct PrepReport {
  struct PhaseTime {
    std::string name;
    double seconds = 0.0;
  };
  std::vector<PhaseTime> phases;
  gidx_t nCells = 0, nFaces = 0, nBoundaryFaces = 0, nNodes = 0;
  std::string renumber;    ///< "rcm" or "none"
  Bandwidth before, after; ///< global cell adjacency, file order vs global (Morton) order
  double minVolume = 0, maxVolume = 0, maxClosure = 0;
  std::vector<ZoneReport> zones;

  void add_phase(const std::string& name, double seconds) { phases.push_back({name, seconds}); }
};

/// Runs `fn` as a logged phase (common/log.hpp: "• name (1.23 s)") and records its time in
/// `report` when given.
template <class Fn>
void run_phase(PrepReport* report, const char* name, Fn&& fn) {
  log::Phase p(name);
  fn();
  if (report) report->add_phase(name, p.seconds());
}

/// Human-readable summary (a few lines plus one line per zone up to `maxZoneLines`, then totals).
void print_prep_report(std::ostream& os, const PrepReport& r, int maxZoneLines = 16);

} // namespace fv
