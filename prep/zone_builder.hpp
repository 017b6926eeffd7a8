#pragma once
/// \file zone_builder.hpp
/// Builds one fv::Zone from the renumbered global mesh (used by build_zones()).
#include "common/zone.hpp"
#include "prep/global_mesh.hpp"
#include "prep/prep_options.hpp"
#include "prep/prep_report.hpp"

#include <vector>

namespace fv {

/// Global-size lookup tables reused across the zones one thread builds (entries are reset to
/// kNone after each zone, so the cost per zone is proportional to the zone).
struct ZoneScratch {
  std::vector<idx_t> cellLocal; ///< global cell -> local id in the current zone, or kNone
  std::vector<idx_t> nodeLocal; ///< global node -> local id in the current zone, or kNone
};

/// Zone `part` of g. partOf: part of every global (renumbered) cell; owned: the zone's cells,
/// ascending global ids.
Zone build_one_zone(const GlobalMesh& g, const std::vector<idx_t>& partOf, const idx_t* owned,
                    idx_t nOwned, int part, const PrepOptions& opts, ZoneScratch& scratch,
                    ZoneReport& report);

} // namespace fv
