#pragma once
/// \file zone_checks.hpp
/// Property checks (gtest assertions) on zones built by fvprep, shared by the zone tests on
/// generated and on real meshes.
#include "common/zone.hpp"

#include <vector>

namespace fv::testing {

/// Invariants of one zone in isolation (numbering, CSR transposes, orientation, closure,
/// colourings, hyperplanes, exchange list shapes).
void check_zone(const Zone& z);

/// Invariants across zones: owned cells partition the mesh, halos equal their owners' data,
/// send/recv lists pair up, node weights sum to 1, shared faces agree. nGlobalCells/Nodes are
/// the global counts.
void check_zone_set(const std::vector<Zone>& zones, gidx_t nGlobalCells, gidx_t nGlobalNodes);

} // namespace fv::testing
