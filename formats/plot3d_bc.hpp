#pragma once
/// \file plot3d_bc.hpp
/// The boundary-condition side file of a Plot3D grid (Plot3D itself has no BCs). A text file,
/// one face range per line, `#` starts a comment:
///
///     # patch    bc_type          block  side  irange  jrange  [krange]
///     airfoil    BCWall           1      jmin  49:177  *
///     farfield   BCFarfield       1      jmax  *       *
///
/// block: 1-based; side: imin imax jmin jmax kmin kmax; ranges: vertex indices `A:B` (1-based,
/// inclusive, either order), one index `N`, or `*` (the whole direction); krange only in 3D.
/// The side fixes its own direction's plane, whose range must be `*` or contain it. A face
/// belongs to the line when all its corners lie in the ranges; a later line overrides an
/// earlier one. bc_type is kept as the patch's BC type (CGNS names: BCWall, BCFarfield,
/// BCSymmetryPlane, BCInflow, BCOutflow, ...).
#include "formats/structured_block.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fv {

/// One line of a Plot3D BC file.
struct Plot3dBc {
  std::string name, type; ///< patch name and BC type
  int block = 1;          ///< 1-based
  int side = 0;           ///< 0 imin, 1 imax, 2 jmin, 3 jmax, 4 kmin, 5 kmax
  std::array<std::int64_t, 3> lo{1, 1, 1}, hi{1, 1, 1}; ///< vertex ranges; 0 = the whole range
  std::string where;                                    ///< "FILE:LINE" for messages
};

/// Parses a BC file for a grid of index dimension dim (2 or 3). Throws fv::Error naming the
/// file and line on a malformed line.
std::vector<Plot3dBc> read_plot3d_bc_file(const std::string& path, int dim);

/// Which of a block's boundary faces (block_boundary_faces() order) the BC names (1) or not
/// (0). Throws fv::Error naming bc.where when a range lies outside the block.
std::vector<char> plot3d_bc_faces(const Plot3dBc& bc, const StructuredBlock& b,
                                  const std::vector<BlockFace>& faces);

/// The side's name ("imin", ..., "kmax").
const char* block_side_name(int side);

} // namespace fv
