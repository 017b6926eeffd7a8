#pragma once
/// \file mesh_writers.hpp
/// Tiny mesh-file writers for the reader tests: a box of unit hexahedra written as CGNS (in
/// every BC convention), SU2 and Gmsh (2.2/4.1, ASCII/binary), and 2D variants.
#include "formats/mesh.hpp"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace fv::testing {

/// A structured box of nx*ny*nz unit hexahedra starting at x = x0; nodes numbered from 1.
struct Box {
  int nx = 2, ny = 2, nz = 2;
  double x0 = 0;
  int node(int i, int j, int k) const { return 1 + i + (nx + 1) * (j + (ny + 1) * k); }
  int nNodes() const { return (nx + 1) * (ny + 1) * (nz + 1); }
  int nCells() const { return nx * ny * nz; }
  std::vector<double> coord(int d) const; ///< coordinate d of every node
  std::vector<int> hexes() const;         ///< 8 nodes per cell, CGNS order
  /// Quads of side s (0 xmin, 1 xmax, 2 ymin, 3 ymax, 4 zmin, 5 zmax), 4 nodes each.
  std::vector<int> side(int s) const;
  static const char* side_name(int s);
};

/// How BCs are written in a CGNS test file.
enum class BcStyle {
  PointListVertex, ///< node sets
  PointRangeFace,  ///< PointRange at FaceCenter over the side sections
  ElementList,     ///< ElementList (no GridLocation)
  FamilySpecified, ///< PointRange FaceCenter, BCType FamilySpecified via Family_t/FamilyBC_t
  None             ///< no ZoneBC: patches come from the section names
};

/// Writes one box as a CGNS file (volume section HEXA_8 or MIXED, 6 boundary QUAD_4 or MIXED
/// sections). adf: ADF container instead of HDF5. sideSections = false: no boundary elements
/// (only sensible with PointListVertex BCs).
void write_box_cgns(const std::string& path, const Box& box, BcStyle style, bool mixed = false,
                    bool adf = false, bool sideSections = true);

/// Writes two boxes (x in [0,2] and [2,4]) as two zones; interface sections named "iface" have
/// no BC. withConnectivity: a ZoneGridConnectivity with vertex PointList/PointListDonor.
void write_two_zone_cgns(const std::string& path, bool withConnectivity);

/// Writes the box as polyhedra (NGON_n + NFACE_n), BCs by FaceCenter PointList of NGON ids.
/// dropFaceOfCell1: leave one face out of the first polyhedron (an open cell).
void write_box_ngon_cgns(const std::string& path, const Box& box, bool dropFaceOfCell1 = false);

/// Writes an nx*ny quad mesh in a cell-dimension-2 base with BAR_2 boundary sections and BCs
/// at EdgeCenter.
void write_2d_cgns(const std::string& path, int nx, int ny);

/// Writes two structured 3x3x3-vertex blocks (x in [0,2] and [2,4]); the second is
/// left-handed and turned (i = -y, j = x, k = -z), glued by a GridConnectivity1to1_t with a
/// non-trivial transform, written from the first zone only or from both (bothSides). BCs:
/// "inlet" (x = 0, PointRange at vertices), "outlet" (x = 4, PointRange at JFaceCenter),
/// "floor" (z = 0, PointList at vertices in both zones); the other sides have none.
void write_structured_cgns(const std::string& path, bool bothSides);

/// Writes a 2D structured O-grid (ADF): an annulus of ni x nj vertices around the origin,
/// radii 1 .. nj, whose first and last i lines coincide and are glued by a 1-to-1
/// connectivity of the zone with itself; BCs "wall" (j = 1) and "farfield" (j = nj).
void write_structured_ring_cgns(const std::string& path, int ni, int nj);

/// Writes a hybrid file in the layout of the CGNS samples' bump_3df_hybrid.cgns: a structured
/// zone "block" (x in [0, 2], 3 x 3 x 3 vertices, BC "inlet" at x = 0) and an unstructured
/// HEXA_8 zone "unstructured" (x in [2, 4], boundary sections, its x = 2 section "iface"
/// without a BC), glued by a GridConnectivity_t of the structured zone (vertex PointRange,
/// PointListDonor of the unstructured node ids).
void write_hybrid_cgns(const std::string& path);

/// Deletes the ElementStartOffset node of every MIXED / NGON_n / NFACE_n section: the layout of
/// files written before CGNS 3.4 (the element counts inline, no offsets array).
void strip_element_start_offsets(const std::string& path);

/// SU2 text of the box (3D hexahedra, or 2D quads when twoD), with 6 (4) markers.
std::string su2_box(const Box& box, bool twoD = false);

/// Gmsh file of the box: version 2.2 or 4.1, ASCII or binary, physical names per side.
void write_box_gmsh(const std::string& path, const Box& box, double version, bool binary);

/// Each patch of a mesh: name -> (BC type, boundary faces).
std::map<std::string, std::pair<std::string, int>> patch_table(const Mesh& m);

/// Writes text to a file.
void write_text(const std::string& path, const std::string& text);

} // namespace fv::testing

namespace fv::testing {

/// Writes the box with HEXA_27-style higher-order cells (corner nodes first, the other 19
/// entries pointing at node 1), a BAR_2 section and a NODE section that must be ignored.
void write_box_higher_order_cgns(const std::string& path, const Box& box);

} // namespace fv::testing
