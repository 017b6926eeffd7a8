#include "prep/zones.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "prep/mesh_ids.hpp"
#include "prep/zone_builder.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <exception>
#include <string>

namespace fv {

void build_zones_each(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                      const PrepOptions& opts, const std::function<void(Zone&&)>& sink,
                      PrepReport* report) {
  log::Phase phase("building zones");
  const idx_t nc = g.nCells();
  FV_VERIFY(nParts >= 1, "build_zones: " << nParts << " parts requested");
  FV_VERIFY(static_cast<idx_t>(cellPart.size()) == nc, "build_zones: part vector has "
                                                           << cellPart.size() << " entries for "
                                                           << nc << " cells");

  // Part of every renumbered cell, and the cells of each part (ascending global ids).
  std::vector<idx_t> partOf(static_cast<std::size_t>(nc));
  std::vector<idx_t> partCount(static_cast<std::size_t>(nParts) + 1, 0);
  for (idx_t c = 0; c < nc; ++c) {
    const idx_t p = cellPart[g.cellMesh[c]];
    FV_VERIFY(p >= 0 && p < nParts, "build_zones: cell " << g.cellMesh[c] << " is in part " << p
                                                         << ", outside [0, " << nParts << ")");
    partOf[c] = p;
    ++partCount[p + 1];
  }
  for (int p = 0; p < nParts; ++p)
    FV_VERIFY(partCount[p + 1] > 0, "build_zones: part "
                                        << p << " of " << nParts
                                        << " has no cells (fewer cells than parts?)");
  for (int p = 0; p < nParts; ++p)
    partCount[p + 1] += partCount[p];
  std::vector<idx_t> partCells(static_cast<std::size_t>(nc));
  {
    std::vector<idx_t> fill(partCount.begin(), partCount.end() - 1);
    for (idx_t c = 0; c < nc; ++c)
      partCells[fill[partOf[c]]++] = c;
  }

  // Zones are built in batches of one per thread and handed to the sink in zone order, so at
  // most nThreads zones are in memory at once.
  int nThreads = 1;
#if defined(_OPENMP)
  nThreads = omp_get_max_threads();
#endif
  const int batch = std::max(1, std::min(nThreads, nParts));
  std::vector<ZoneScratch> scratch(static_cast<std::size_t>(batch));
  std::vector<ZoneReport> reports(static_cast<std::size_t>(nParts));
  std::vector<Zone> zones(static_cast<std::size_t>(batch));
  for (int first = 0; first < nParts; first += batch) {
    const int last = std::min(nParts, first + batch);
    std::string firstError;
    int firstErrorZone = nParts;
#pragma omp parallel for schedule(dynamic, 1) num_threads(batch)
    for (int p = first; p < last; ++p) {
      ZoneScratch& s = scratch[static_cast<std::size_t>(p - first)];
      try {
        if (s.cellLocal.empty()) {
          s.cellLocal.assign(static_cast<std::size_t>(nc), kNone);
          s.nodeLocal.assign(static_cast<std::size_t>(g.nNodes()), kNone);
        }
        zones[static_cast<std::size_t>(p - first)] =
            build_one_zone(g, partOf, partCells.data() + partCount[p],
                           partCount[p + 1] - partCount[p], p, opts, s, reports[p]);
      } catch (const std::exception& e) {
#pragma omp critical(fv_zones_error)
        if (p < firstErrorZone) {
          firstErrorZone = p;
          firstError = e.what();
        }
      }
    }
    FV_VERIFY(firstError.empty(), firstError);
    for (int p = first; p < last; ++p) {
      sink(std::move(zones[static_cast<std::size_t>(p - first)]));
      zones[static_cast<std::size_t>(p - first)] = Zone();
    }
  }
  if (report) {
    report->zones = std::move(reports);
    report->add_phase("building zones", phase.seconds());
  }
}

std::vector<Zone> build_zones(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report) {
  std::vector<Zone> zones;
  zones.reserve(static_cast<std::size_t>(std::max(nParts, 0)));
  build_zones_each(
      g, cellPart, nParts, opts, [&](Zone&& z) { zones.push_back(std::move(z)); }, report);
  return zones;
}

std::vector<idx_t> parts_in_mesh_order(const GlobalMesh& g, const std::vector<idx_t>& partGlobal) {
  FV_VERIFY(static_cast<idx_t>(partGlobal.size()) == g.nCells(),
            "parts_in_mesh_order: " << partGlobal.size() << " parts for " << g.nCells()
                                    << " cells");
  std::vector<idx_t> part(partGlobal.size());
  for (idx_t c = 0; c < g.nCells(); ++c)
    part[g.cellMesh[c]] = partGlobal[c];
  return part;
}

std::vector<Zone> build_zones(const Mesh& mesh, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report) {
  const GlobalMesh g = build_global_mesh(mesh, opts, report);
  return build_zones(g, cellPart, nParts, opts, report);
}

} // namespace fv
