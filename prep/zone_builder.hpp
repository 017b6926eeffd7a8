#pragma once
/// \file zone_builder.hpp
/// Builds one fv::Zone from the renumbered global mesh (used by build_zones()).
#include "common/zone.hpp"
#include "prep/global_mesh.hpp"
#include "prep/local_ids.hpp"
#include "prep/prep_options.hpp"
#include "prep/prep_report.hpp"

#include <vector>

namespace fv {

/// Lookup tables one thread reuses across the zones it builds (sized to a zone, reset by
/// build_one_zone()).
struct ZoneScratch {
  LocalIds cellLocal; ///< global cell -> local id in the current zone (owned and halo)
  LocalIds nodeLocal; ///< global node -> local id in the current zone
};

/// Zone `part` of g. partOf: part of every global (renumbered) cell; owned: the zone's cells,
/// ascending global ids.
Zone build_one_zone(const GlobalMesh& g, const std::vector<idx_t>& partOf, const idx_t* owned,
                    idx_t nOwned, int part, const PrepOptions& opts, ZoneScratch& scratch,
                    ZoneReport& report);

} // namespace fv
