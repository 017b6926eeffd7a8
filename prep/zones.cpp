#include "prep/zones.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "prep/mesh_ids.hpp"
#include "prep/zone_builder.hpp"

#include <exception>
#include <string>

namespace fv {

std::vector<Zone> build_zones(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report) {
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

  std::vector<Zone> zones(static_cast<std::size_t>(nParts));
  std::vector<ZoneReport> reports(static_cast<std::size_t>(nParts));
  std::string firstError;
  int firstErrorZone = nParts;
#pragma omp parallel
  {
    ZoneScratch scratch;
    scratch.cellLocal.assign(static_cast<std::size_t>(nc), kNone);
    scratch.nodeLocal.assign(static_cast<std::size_t>(g.nNodes()), kNone);
#pragma omp for schedule(dynamic, 1)
    for (int p = 0; p < nParts; ++p) {
      try {
        zones[p] = build_one_zone(g, partOf, partCells.data() + partCount[p],
                                  partCount[p + 1] - partCount[p], p, opts, scratch, reports[p]);
      } catch (const std::exception& e) {
#pragma omp critical(fv_zones_error)
        if (p < firstErrorZone) {
          firstErrorZone = p;
          firstError = e.what();
        }
      }
    }
  }
  FV_VERIFY(firstError.empty(), firstError);
  if (report) {
    report->zones = std::move(reports);
    report->add_phase("building zones", phase.seconds());
  }
  return zones;
}

std::vector<Zone> build_zones(const Mesh& mesh, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report) {
  const GlobalMesh g = build_global_mesh(mesh, opts, report);
  return build_zones(g, cellPart, nParts, opts, report);
}

} // namespace fv
