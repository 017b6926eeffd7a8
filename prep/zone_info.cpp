#include "prep/zone_info.hpp"
#include "common/json.hpp"

#include "formats/zone_file_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <vector>

namespace fv {

namespace {

/// Counts of one zone, gathered for the table.
struct ZoneRow {
  const Zone* zone;
  std::size_t neighbours;
  idx_t sendCells;
  std::uint64_t bytes;
};

std::string human_bytes(std::uint64_t b) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", v, unit[u]);
  return buf;
}

/// Part counts of a zone file's partitionings, joined by `sep`.
std::string part_list(const ZoneFile& f, const char* sep) {
  std::string out;
  for (int n : f.partitionings())
    out += (out.empty() ? "" : sep) + std::to_string(n);
  return out;
}

/// The extrusion of a 2D mesh as a JSON object (thickness, direction), null for a 3D mesh.
std::string extrusion_json(const Extrusion& e) {
  if (!e.extruded()) return "null";
  std::ostringstream o;
  o.precision(17);
  o << "{\"thickness\": " << e.thickness << ", \"direction\": [" << e.direction[0] << ", "
    << e.direction[1] << ", " << e.direction[2] << "]}";
  return o.str();
}

} // namespace

void print_partitionings(std::ostream& os, const std::string& path) {
  const ZoneFile first = open_zone_file(path);
  os << path << ": mesh " << first.header().meshUuid << ", " << first.header().nGlobalCells
     << " cells\n  parts  max cells  min cells  imbalance  halo cells  command\n";
  for (int parts : first.partitionings()) {
    const ZoneFile f = open_zone_file(path, parts);
    idx_t maxCells = 0, minCells = std::numeric_limits<idx_t>::max();
    gidx_t halo = 0;
    for (int z = 0; z < f.nZones(); ++z) {
      const Zone zone = map_zone(f, z, MapOptions{false});
      maxCells = std::max(maxCells, zone.nCells);
      minCells = std::min(minCells, zone.nCells);
      halo += zone.nHaloCells;
    }
    const double mean = static_cast<double>(f.header().nGlobalCells) / parts;
    char imb[16];
    std::snprintf(imb, sizeof imb, "%.3f", mean > 0 ? maxCells / mean : 0.0);
    os << std::setw(7) << parts << std::setw(11) << maxCells << std::setw(11) << minCells
       << std::setw(11) << imb << std::setw(12) << halo << "  " << f.header().commandLine << "\n";
  }
}

void print_zone_info(const std::string& path, bool json, std::ostream* osp) {
  std::ostream& os = osp ? *osp : std::cout;
  const ZoneFile f = open_zone_file(path);
  const ZoneFileHeader& h = f.header();
  std::vector<Zone> zones;
  std::vector<ZoneRow> rows;
  std::vector<gidx_t> patchFaces(h.patches.size(), 0);
  gidx_t haloCells = 0;
  zones.reserve(static_cast<std::size_t>(h.nZones)); // rows point into zones
  for (int z = 0; z < h.nZones; ++z) {
    zones.push_back(map_zone(f, z, MapOptions{false}));
    std::uint64_t bytes = 0;
    for (const ZoneDatasetInfo& d : zone_dataset_info(f, z))
      bytes += d.bytes;
    const Zone& zone = zones.back();
    rows.push_back(
        {&zone, zone.cellExchange.neighbours.size(), zone.cellExchange.send.nnz(), bytes});
    haloCells += zone.nHaloCells;
    for (std::size_t p = 0; p < h.patches.size() && p + 1 < zone.patchFaceOffsets.size(); ++p)
      patchFaces[p] += zone.patchFaceOffsets[p + 1] - zone.patchFaceOffsets[p];
  }

  // the cells' wall distance (turbulence models need it: fvprep --walls)
  const bool wallDistance = !zones.empty() && !zones[0].cellWallDistance.empty();
  if (json) {
    os << "{\n  \"path\": " << json_quote(path) << ",\n  \"fileBytes\": " << f.fileBytes()
       << ",\n  \"formatVersion\": " << h.formatVersion
       << ",\n  \"creator\": " << json_quote(h.creator)
       << ",\n  \"commandLine\": " << json_quote(h.commandLine)
       << ",\n  \"options\": " << json_quote(h.options)
       << ",\n  \"meshUuid\": " << json_quote(h.meshUuid)
       << ",\n  \"sourceMesh\": " << json_quote(h.sourceMesh) << ",\n  \"nZones\": " << h.nZones
       << ",\n  \"partitionings\": [" << part_list(f, ", ") << "]"
       << ",\n  \"nGlobalCells\": " << h.nGlobalCells << ",\n  \"nGlobalFaces\": " << h.nGlobalFaces
       << ",\n  \"nGlobalNodes\": " << h.nGlobalNodes << ",\n  \"nHaloCells\": " << haloCells
       << ",\n  \"wallDistance\": " << (wallDistance ? "true" : "false")
       << ",\n  \"extrusion\": " << extrusion_json(h.extrusion) << ",\n  \"patches\": [";
    for (std::size_t p = 0; p < h.patches.size(); ++p)
      os << (p ? "," : "") << "\n    {\"name\": " << json_quote(h.patches[p].name)
         << ", \"bcType\": " << json_quote(h.patches[p].bcType) << ", \"faces\": " << patchFaces[p]
         << "}";
    os << (h.patches.empty() ? "" : "\n  ") << "],\n  \"zones\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Zone& z = *rows[i].zone;
      os << (i ? "," : "") << "\n    {\"zone\": " << z.zoneId << ", \"cells\": " << z.nCells
         << ", \"interiorCells\": " << z.nInteriorCells << ", \"haloCells\": " << z.nHaloCells
         << ", \"faces\": " << z.nFaces << ", \"boundaryFaces\": " << z.nBoundaryFaces
         << ", \"nodes\": " << z.nNodes << ", \"neighbours\": " << rows[i].neighbours
         << ", \"sendCells\": " << rows[i].sendCells << ", \"dataBytes\": " << rows[i].bytes
         << ", \"faceColours\": " << z.faceColours.rows()
         << ", \"cellColours\": " << z.cellColours.rows()
         << ", \"hyperplanes\": " << z.hyperplanes.rows() << "}";
    }
    os << "\n  ]\n}\n";
    return;
  }

  os << "zone file    " << path << " (" << human_bytes(f.fileBytes()) << ")\n"
     << "format       fvkit zone file, version " << h.formatVersion << "\n"
     << "creator      " << h.creator << "\n"
     << "command      " << h.commandLine << "\n"
     << "options      " << h.options << "\n"
     << "source mesh  " << h.sourceMesh << "\n"
     << "mesh UUID    " << h.meshUuid << "\n"
     << "mesh         " << h.nGlobalCells << " cells, " << h.nGlobalFaces << " faces, "
     << h.nGlobalNodes << " nodes in " << h.nZones << " zone" << (h.nZones == 1 ? "" : "s") << " ("
     << haloCells << " halo cells in total)\n"
     << "partitionings " << part_list(f, ", ") << " zones (the first one shown)\n"
     << "wall distance "
     << (wallDistance ? "stored (RANS can run)" : "none (fvprep --walls for RANS)") << "\n"
     << "extrusion    "
     << (h.extrusion.extruded() ? describe(h.extrusion) : std::string("none (a 3D mesh)")) << "\n"
     << "patches      " << h.patches.size() << "\n";
  std::size_t w = 4;
  for (const Patch& p : h.patches)
    w = std::max(w, p.name.size());
  for (std::size_t p = 0; p < h.patches.size(); ++p)
    os << "  " << std::setw(3) << p << "  " << std::left << std::setw(static_cast<int>(w))
       << h.patches[p].name << "  " << std::setw(18) << h.patches[p].bcType << std::right
       << std::setw(12) << patchFaces[p] << " faces\n";
  os << "\n  zone      cells   interior   halo      faces   boundary      nodes  nbrs  colours"
        "  planes        data\n";
  for (const ZoneRow& r : rows) {
    const Zone& z = *r.zone;
    os << std::setw(6) << z.zoneId << std::setw(11) << z.nCells << std::setw(11) << z.nInteriorCells
       << std::setw(7) << z.nHaloCells << std::setw(11) << z.nFaces << std::setw(11)
       << z.nBoundaryFaces << std::setw(11) << z.nNodes << std::setw(6) << r.neighbours
       << std::setw(5) << z.faceColours.rows() << "/" << std::left << std::setw(3)
       << z.cellColours.rows() << std::right << std::setw(8) << z.hyperplanes.rows()
       << std::setw(12) << human_bytes(r.bytes) << "\n";
  }
}

} // namespace fv
