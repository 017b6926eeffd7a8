#pragma once
/// \file test_meshes.hpp
/// Meshes and single zones built in-process for the solver tests: structured boxes of hexes or
/// tetrahedra (6 per hex) with an optional node mapping, and a small single-zone builder
/// (faces, geometry, connectivity, inverse-distance node weights) following the numbering
/// rules of common/zone.hpp. It stands in for prep's build_zones so that the solver is tested
/// independently of it; tests that use the real pipeline are in test_solver_pipeline.cpp.
#include "common/zone.hpp"
#include "formats/mesh.hpp"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace fv {
struct CaseConfig;
}

namespace fv::testing {

/// Maps logical coordinates (in the box [lo, hi]) to physical ones.
using NodeMap = std::function<std::array<real_t, 3>(real_t x, real_t y, real_t z)>;

/// nx x ny x nz box [lo, hi] of hexes (or 6 tets per hex) with patches xmin, xmax, ymin, ymax,
/// zmin, zmax (in that order). `jitter` in [0, 0.3) displaces interior nodes randomly (fixed
/// seed) by that fraction of the spacing; `map` is applied last.
Mesh box_mesh(int nx, int ny, int nz, std::array<real_t, 3> lo, std::array<real_t, 3> hi, bool tets,
              real_t jitter = 0.0, const NodeMap& map = {});

/// Case-file [patch] sections for a box_mesh() with a wall at zmin and the far field on every
/// other side (external flow over the zmin wall); append them to the other sections.
inline constexpr const char* kBoxWallZminPatches = R"(
[patch xmin]
type = farfield
[patch xmax]
type = farfield
[patch ymin]
type = farfield
[patch ymax]
type = farfield
[patch zmin]
type = slip_wall
[patch zmax]
type = farfield
)";

/// The single zone of a mesh (no halo), built directly.
Zone zone_from_mesh(const Mesh& mesh);

/// zone_from_mesh() of a box_mesh() with a wall at zmin (kBoxWallZminPatches), with each
/// cell's wall distance: its centroid's z (what rans_sa reads).
Zone zone_with_zmin_wall(const Mesh& mesh);

/// A conservative state (nVars x nTotalCells, every cell) of the case's model: its free stream
/// with density scaled by s = 1 + amp sin(3x) cos(2y + z), the x velocity by 2 - s and the
/// pressure by s^2 (amp 0.2 at Mach 0.9 makes supersonic pockets).
std::vector<real_t> smooth_state(const Zone& zone, const CaseConfig& cfg, real_t amp);

/// Sum over owned cells of |a - b| * V / sum V (L1 norm of a cell field difference).
real_t l1_difference(const Zone& z, const std::vector<real_t>& a, const std::vector<real_t>& b);

} // namespace fv::testing
