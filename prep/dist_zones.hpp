#pragma once
/// \file dist_zones.hpp
/// Zones of the distributed fvprep (prep/dist_mesh.hpp): zone z is built on one rank by the
/// serial zone builder (prep/zone_builder.hpp), run on the piece of the renumbered mesh the
/// zone's cells and their node neighbours need, fetched from the ranks holding them. The
/// piece is numbered in the global order, so the builder's every choice (RCM ties, halo and
/// exchange-list order, face order) is the serial one; global ids are mapped back after.
#include "common/zone.hpp"
#include "prep/dist_mesh.hpp"

#include <functional>
#include <vector>

namespace fv {

/// Which rank builds which zone: rounds of `perRank` zones per rank, zone z on rank
/// (z / perRank) mod size, in round z / (perRank * size). Rank 0 thus meets the zones of a
/// round in zone order, as the serial writer places them.
struct ZoneAssignment {
  int nZones = 1, nRanks = 1, perRank = 1;
  int rank_of(int z) const { return (z / perRank) % nRanks; }
  int round_of(int z) const { return z / (perRank * nRanks); }
  int rounds() const { return (nZones + perRank * nRanks - 1) / (perRank * nRanks); }
};

/// Builds the zones of this rank (partOf: part of every renumbered cell, on every rank) and
/// hands each round's zones (ascending ids; possibly none on this rank) to `sink`, which every
/// rank calls once per round (it may communicate). reportZones, when given, gets the
/// ZoneReport of every zone on rank 0. Reads g's materialized block (materialize_block()), not
/// the source mesh; g's block arrays are freed once the pieces are fetched, so that they and
/// the zones are never held together. COLLECTIVE.
void build_dist_zones(const dist::Comm& comm, DistGlobalMesh& g, const std::vector<idx_t>& partOf,
                      const ZoneAssignment& assign, const PrepOptions& opts,
                      const std::function<void(std::vector<Zone>&)>& sink,
                      std::vector<ZoneReport>* reportZones = nullptr);

} // namespace fv
