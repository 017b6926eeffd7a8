#include "prep/prep_report.hpp"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <ostream>

namespace fv {

namespace {

void stats(std::ostream& os, const char* what, const GroupStats& s) {
  os << what << " " << s.count << " (size " << s.minSize << "/" << std::fixed
     << std::setprecision(1) << s.meanSize << "/" << s.maxSize << ")";
  os.unsetf(std::ios::floatfield);
}

} // namespace

void print_prep_report(std::ostream& os, const PrepReport& r, int maxZoneLines) {
  os << "mesh: " << r.nCells << " cells, " << r.nFaces << " faces (" << r.nBoundaryFaces
     << " boundary), " << r.nNodes << " nodes\n";
  if (!r.renumber.empty()) { // a prepare from a mesh (not `partition add`)
    os << "cell volume: min " << std::setprecision(4) << r.minVolume << ", max " << r.maxVolume
       << "; max closure " << r.maxClosure << "\n";
    os << "cell order (" << (r.renumber == "rcm" ? "morton; zones by rcm" : r.renumber)
       << "): global bandwidth " << r.before.bandwidth << " -> " << r.after.bandwidth
       << ", profile " << r.before.profile << " -> " << r.after.profile << "\n";
  }
  os << "zones: " << r.zones.size() << "\n";
  const int shown = std::min<int>(static_cast<int>(r.zones.size()), maxZoneLines);
  for (int z = 0; z < shown; ++z) {
    const ZoneReport& zr = r.zones[static_cast<std::size_t>(z)];
    os << "  zone " << z << ": " << zr.nCells << " cells (" << zr.nInteriorCells << " interior, "
       << zr.nHaloCells << " halo), " << zr.nFaces << " faces, " << zr.nNodes << " nodes, "
       << zr.nCellNeighbours << " neighbours; bandwidth " << zr.bandwidth.bandwidth << "; ";
    stats(os, "face colours", zr.faceColours);
    os << ", ";
    stats(os, "cell colours", zr.cellColours);
    os << ", ";
    stats(os, "hyperplanes", zr.hyperplanes);
    os << "\n";
  }
  if (static_cast<int>(r.zones.size()) > shown)
    os << "  ... " << r.zones.size() - static_cast<std::size_t>(shown) << " more zones\n";
  if (!r.zones.empty()) {
    idx_t fcMax = 0, ccMax = 0, hpMax = 0, hpMin = std::numeric_limits<idx_t>::max();
    gidx_t halo = 0;
    for (const ZoneReport& zr : r.zones) {
      fcMax = std::max(fcMax, zr.faceColours.count);
      ccMax = std::max(ccMax, zr.cellColours.count);
      hpMax = std::max(hpMax, zr.hyperplanes.count);
      hpMin = std::min(hpMin, zr.hyperplanes.count);
      halo += zr.nHaloCells;
    }
    os << "all zones: " << halo << " halo cells, at most " << fcMax << " face colours, " << ccMax
       << " cell colours, " << hpMin << "-" << hpMax << " hyperplanes\n";
  }
  os << "timings:";
  double total = 0;
  for (const auto& p : r.phases) {
    os << " " << p.name << " " << std::fixed << std::setprecision(2) << p.seconds << " s;";
    total += p.seconds;
  }
  os << " total " << total << " s\n";
  os.unsetf(std::ios::floatfield);
}

} // namespace fv
