#pragma once
/// \file generate_mesh.hpp
/// Scalable synthetic test meshes: a box, a channel with a bump on its lower wall and a
/// supersonic wedge, made of hexahedra, tetrahedra, prisms, pyramids or a conforming mix of
/// all four, at any size up to about 2^31 cells / connectivity entries, optionally perturbed
/// and with cells and nodes shuffled (real meshes are not in structured order).
///
/// Construction. Every family is a logically structured block of ni x nj x nk hexahedra
/// (i along x, j along y, k along z) mapped onto the domain; each hexahedron is then split
/// according to the cell kind. Local hexahedron corners follow CGNS HEXA_8 order
///   0:(i,j,k) 1:(i+1,j,k) 2:(i+1,j+1,k) 3:(i,j+1,k) 4..7: the same at k+1,
/// and every split below is written in CGNS node order (formats/mesh.hpp), positively oriented:
///   hex      1 HEXA_8 per block cell.
///   tet      6 TETRA_4 (Kuhn/Freudenthal split: the 6 monotone paths from corner 0 to corner
///            6). Every quadrilateral face is cut along the diagonal joining its lowest and
///            highest corner (in i+j+k), so neighbouring blocks' triangles match.
///   prism    2 PENTA_6 (0,1,2,4,5,6) and (0,2,3,4,6,7): k-faces cut along 0-2 / 4-6, the
///            i- and j-faces stay quadrilaterals.
///   pyramid  6 PYRA_5, one per hexahedron face, apex at an added node at the hexahedron's
///            centre (mean of its 8 corners); all faces stay quadrilaterals.
///   mixed    along i: hexahedra for i < ni/4, prisms for ni/4 <= i < ni/2, one transition
///            layer at i = ni/2 (a pyramid on the quadrilateral face towards the prisms plus
///            10 tetrahedra on the other five faces, cut as for tet, all with an apex at an
///            added centre node), then Kuhn tetrahedra. Conforming everywhere; needs ni >= 4.
/// Node numbering before shuffling: block node (i,j,k) is i + (ni+1)*(j + (nj+1)*k); added
/// centre nodes follow. Cells before shuffling are ordered by block row (k, j), then i, then
/// the sub-cells of one block cell.
///
/// Families (defaults of the extents (Lx, Ly, Lz) in brackets; patch: BC type):
///   box      [1, 1, 1] x,y,z in [0,L]; xmin,xmax,ymin,ymax,zmin,zmax: BCFarfield (a
///            free-stream preservation test case).
///   channel  [3, 1, 0.5] x in [0,Lx]; lower wall y = h sin^2(pi (x - x0)/lb) for x in
///            [x0, x0 + lb] (x0 = Lx/3, lb = Lx/3, h = bumpHeight * Ly), else 0; upper wall
///            y = Ly; z in [0,Lz] (the bump spans z). Nodes of a column are evenly spaced between
///            the walls. inlet: BCInflow, outlet: BCOutflow, lower_wall, upper_wall: BCWall,
///            side1 (z=0), side2 (z=Lz): BCSymmetryPlane. Volume Lz (Lx Ly - h lb / 2).
///   wedge    [1, 1, 0.25] x in [0,Lx]; lower wall flat up to x = rampStart * Lx, then a ramp
///            at wedgeAngleDeg (the ramp corner is always a grid line, so the discrete
///            geometry is exact); upper boundary y = Ly. inlet: BCInflow, outlet: BCOutflow,
///            lower_wall: BCWall, upper: BCFarfield, side1/side2: BCSymmetryPlane.
/// Patches are always 6, in the order xmin, xmax, ymin, ymax, zmin, zmax of the block.
/// Boundary faces are oriented outward, grouped by patch.
#include "common/types.hpp"
#include "formats/mesh.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace fv {

/// Geometry family of a generated mesh.
enum class MeshFamily { Box, Channel, Wedge };

/// Cell kinds a generated mesh is made of.
enum class GenCells { Hex, Tet, Prism, Pyramid, Mixed };

/// Options of generate_mesh(). Lengths in metres, angles in degrees.
struct GenOptions {
  MeshFamily family = MeshFamily::Box;
  GenCells cells = GenCells::Hex;
  /// Block cells per direction; all zero = derive from targetCells.
  std::array<std::int64_t, 3> n = {0, 0, 0};
  /// Approximate number of cells wanted when n is not given (block cells near-cubic).
  std::int64_t targetCells = 0;
  /// Domain extents (Lx, Ly, Lz); a zero entry takes the family default.
  std::array<real_t, 3> extent = {0, 0, 0};
  real_t bumpHeight = 0.1;     ///< channel: bump height as a fraction of Ly
  real_t wedgeAngleDeg = 15.0; ///< wedge: ramp angle
  real_t rampStart = 0.25;     ///< wedge: x of the ramp corner as a fraction of Lx
  /// Random displacement of interior nodes: each coordinate moves by up to +-perturb/2 times
  /// the node's smallest distance to a block neighbour. Must lie in [0, 0.3] (cells stay valid).
  real_t perturb = 0.0;
  bool shuffle = false;   ///< randomly renumber cells, nodes and each patch's faces
  std::uint64_t seed = 1; ///< seed of the perturbation and the shuffling
  /// Fill Mesh::cellFileId (c+1) and bfaceFileId (nCells+f+1), the element ids write_cgns
  /// gives them when it keeps the cell order; off saves 8 bytes per cell.
  bool fileIds = true;
};

/// Block size and extents that generate_mesh() uses for `o` (resolves targetCells and the
/// family defaults). Throws a usage error for invalid options.
struct GenGrid {
  std::array<std::int64_t, 3> n;
  std::array<real_t, 3> extent;
  std::int64_t cells;  ///< number of cells that will be generated
  std::int64_t nodes;  ///< number of nodes that will be generated
  std::int64_t bfaces; ///< number of boundary faces that will be generated
};
GenGrid resolve_grid(const GenOptions& o);

/// Generates the mesh described by `o` (see the file comment). Throws a usage error
/// (fv::ErrorKind::Usage) for invalid options, e.g. a mesh too large for 32-bit indices.
Mesh generate_mesh(const GenOptions& o);

/// Exact volume of the continuous domain of `o` (channel: with the analytic bump; the
/// discrete mesh differs by the discretisation of the curved wall).
real_t analytic_volume(const GenOptions& o);

/// Parsing and naming of the enums ("box", "channel", "wedge"; "hex", "tet", "prism",
/// "pyramid", "mixed"). Parsing throws a usage error naming the accepted values.
MeshFamily parse_mesh_family(const std::string& s);
GenCells parse_gen_cells(const std::string& s);
const char* to_string(MeshFamily f);
const char* to_string(GenCells c);

} // namespace fv
