#pragma once
/// \file synthetic_zones.hpp
/// Hand-built zones for the zone-file tests (until build_zones is available): a strip of nx unit
/// hexahedra along x, cut into consecutive blocks, one zone per block, with every array of
/// fv::Zone filled consistently with the rules of common/zone.hpp (local numbering, exchange
/// lists, colourings, geometry).
#include "common/zone.hpp"

#include <vector>

namespace fv::testing {

/// Global view of the strip (for the mesh UUID computed from global arrays).
struct StripMesh {
  std::vector<real_t> xyz;
  std::vector<CellType> cellType;
  Csr cellNodes;
};

/// The global strip of nx hexes (nodes (i, j, k), id 4 i + 2 k + j; cell i spans x in [i, i+1]).
StripMesh strip_mesh(int nx);

/// The header matching strip_zones(nx, ...): patches inlet (x = 0), outlet (x = nx), wall.
ZoneFileHeader strip_header(int nx, int nZones);

/// Zones of the strip cut into blocks of the given cell counts (sum = nx, each >= 1).
std::vector<Zone> strip_zones(const std::vector<int>& blockSizes);

/// Blocks of nearly equal size for nx cells in n zones.
std::vector<int> even_blocks(int nx, int n);

} // namespace fv::testing
