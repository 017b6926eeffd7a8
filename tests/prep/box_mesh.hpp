#pragma once
/// \file box_mesh.hpp
/// Minimal generated meshes for prep tests: an nx x ny x nz box [0,lx]x[0,ly]x[0,lz] of hexes,
/// tetrahedra (6 per hex) or prisms (2 per hex), with the six sides as patches
/// xmin, xmax, ymin, ymax, zmin, zmax, optionally with jittered interior nodes (warped faces)
/// and randomly shuffled cell, node and boundary-face numbering.
#include "formats/mesh.hpp"

#include <cstdint>

namespace fv::testing {

/// Hex, Tet (6 per hex), Prism (2 per hex) or Mixed: hexes, hexes split into 6 pyramids about
/// an added centre node, and hexes stored as polyhedra (faces shared between polyhedra are
/// listed once, reversed (~f) for the second cell): pyramids where (i+j+k) % 3 == 1, the other
/// hexes of even j as polyhedra.
enum class BoxCells { Hex, Tet, Prism, Mixed };

struct BoxSpec {
  BoxCells cells = BoxCells::Hex;
  int nx = 4, ny = 3, nz = 2;
  double lx = 1.0, ly = 1.0, lz = 1.0;
  double origin[3] = {0, 0, 0};
  double jitter = 0.0;    ///< interior nodes moved by up to jitter * spacing in each direction
  bool shuffle = false;   ///< shuffle cell, node and boundary face numbering
  std::uint64_t seed = 1; ///< seed of jitter and shuffle
};

/// Builds the box mesh (cell file ids 1..n, boundary face file ids n+1..).
Mesh make_box_mesh(const BoxSpec& spec);

} // namespace fv::testing
