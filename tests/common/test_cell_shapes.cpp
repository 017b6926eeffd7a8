// Invariants of the one cell-shape table (common/cell_shapes.hpp): local faces form a closed,
// consistently and outward oriented surface of the reference element, the VTK node order is a
// permutation, the codes look up their shape, Polyhedron and unknown values are refused.
#include "common/cell_shapes.hpp"
#include "common/error.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

using fv::CellShape;
using fv::CellType;
using fv::LocalFace;

namespace {

using Vec = std::array<double, 3>;

constexpr CellType kStandard[] = {CellType::Tet, CellType::Pyramid, CellType::Prism, CellType::Hex};

// the table is usable in constant expressions (header-only, constexpr)
static_assert(fv::cell_node_count(CellType::Hex) == 8);
static_assert(fv::cell_face_count(CellType::Prism) == 5);
static_assert(fv::cell_face_count(CellType::Pyramid, 4) == 1);
static_assert(fv::cell_node_count(CellType::Polyhedron) == 0);
static_assert(fv::cell_face_count(CellType::Polyhedron) == 0);

/// Corners of the unit reference element of a standard shape, CGNS order.
std::vector<Vec> reference_corners(CellType t) {
  switch (t) {
  case CellType::Tet:
    return {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  case CellType::Pyramid:
    return {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1}};
  case CellType::Prism:
    return {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  case CellType::Hex:
    return {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  case CellType::Polyhedron:
    break;
  }
  return {};
}

double reference_volume(CellType t) {
  switch (t) {
  case CellType::Tet:
    return 1.0 / 6;
  case CellType::Pyramid:
    return 1.0 / 3;
  case CellType::Prism:
    return 0.5;
  case CellType::Hex:
    return 1;
  case CellType::Polyhedron:
    break;
  }
  return 0;
}

Vec sub(const Vec& a, const Vec& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Vec& a, const Vec& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// Newell area vector (twice the area, right-hand rule) of a loop of points.
Vec newell(const std::vector<Vec>& p) {
  Vec n{0, 0, 0};
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec& a = p[i];
    const Vec& b = p[(i + 1) % p.size()];
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  return n;
}

Vec centroid(const std::vector<Vec>& p) {
  Vec c{0, 0, 0};
  for (const Vec& x : p)
    for (int d = 0; d < 3; ++d)
      c[d] += x[d] / static_cast<double>(p.size());
  return c;
}

std::vector<Vec> face_points(CellType t, const LocalFace& f) {
  const std::vector<Vec> x = reference_corners(t);
  std::vector<Vec> p;
  for (int k = 0; k < f.n; ++k)
    p.push_back(x[static_cast<std::size_t>(f.v[k])]);
  return p;
}

} // namespace

TEST(CellShapes, FacesHaveDistinctCornersOfTheShape) {
  for (CellType t : kStandard) {
    const CellShape& s = fv::cell_shape(t);
    ASSERT_GT(s.nodeCount, 0) << s.name;
    ASSERT_LE(s.nodeCount, fv::kMaxCellNodes) << s.name;
    ASSERT_GT(s.faceCount, 0) << s.name;
    ASSERT_LE(s.faceCount, fv::kMaxCellFaces) << s.name;
    std::set<int> used;
    for (int f = 0; f < s.faceCount; ++f) {
      const LocalFace& lf = fv::cell_face(t, f);
      EXPECT_EQ(&lf, &s.faces[f]);
      ASSERT_TRUE(lf.n == 3 || lf.n == 4) << s.name << " face " << f;
      std::set<int> corners;
      for (int k = 0; k < lf.n; ++k) {
        EXPECT_GE(lf.v[k], 0) << s.name << " face " << f;
        EXPECT_LT(lf.v[k], s.nodeCount) << s.name << " face " << f;
        corners.insert(lf.v[k]);
        used.insert(lf.v[k]);
      }
      EXPECT_EQ(corners.size(), static_cast<std::size_t>(lf.n)) << s.name << " face " << f;
      for (int k = lf.n; k < fv::kMaxFaceNodes; ++k)
        EXPECT_EQ(lf.v[k], -1) << s.name << " face " << f;
    }
    EXPECT_EQ(used.size(), static_cast<std::size_t>(s.nodeCount)) << s.name;
    EXPECT_EQ(fv::cell_face_count(t, 3) + fv::cell_face_count(t, 4), s.faceCount) << s.name;
  }
}

TEST(CellShapes, EveryEdgeIsSharedByTwoFacesInOppositeDirections) {
  for (CellType t : kStandard) {
    const CellShape& s = fv::cell_shape(t);
    std::map<std::pair<int, int>, int> directed; // (from, to) -> count
    for (int f = 0; f < s.faceCount; ++f) {
      const LocalFace& lf = s.faces[f];
      for (int k = 0; k < lf.n; ++k)
        ++directed[{lf.v[k], lf.v[(k + 1) % lf.n]}];
    }
    for (const auto& [e, n] : directed) {
      EXPECT_EQ(n, 1) << s.name << ": edge " << e.first << "-" << e.second << " listed " << n
                      << " times in that direction";
      const auto back = directed.find({e.second, e.first});
      EXPECT_TRUE(back != directed.end() && back->second == 1)
          << s.name << ": edge " << e.first << "-" << e.second << " is not used backwards once";
    }
    // Euler: V - E + F = 2 for a closed surface of genus 0
    const int edges = static_cast<int>(directed.size()) / 2;
    EXPECT_EQ(s.nodeCount - edges + s.faceCount, 2) << s.name;
  }
}

TEST(CellShapes, FaceNormalsPointOutOfTheReferenceElement) {
  for (CellType t : kStandard) {
    const CellShape& s = fv::cell_shape(t);
    const std::vector<Vec> x = reference_corners(t);
    ASSERT_EQ(x.size(), static_cast<std::size_t>(s.nodeCount)) << s.name;
    const Vec cc = centroid(x);
    Vec sum{0, 0, 0};
    double volume = 0; // divergence theorem: V = 1/3 sum (x_f . S_f)
    for (int f = 0; f < s.faceCount; ++f) {
      const std::vector<Vec> p = face_points(t, s.faces[f]);
      const Vec n = newell(p); // 2 S_f
      const Vec fc = centroid(p);
      EXPECT_GT(dot(n, sub(fc, cc)), 0) << s.name << " face " << f << " points inward";
      for (int d = 0; d < 3; ++d)
        sum[d] += n[d];
      volume += dot(fc, n) / 6;
    }
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(sum[d], 0, 1e-14) << s.name << ": the faces do not close";
    EXPECT_NEAR(volume, reference_volume(t), 1e-14) << s.name;
  }
}

TEST(CellShapes, VtkOrderIsAPermutation) {
  for (CellType t : kStandard) {
    const CellShape& s = fv::cell_shape(t);
    std::set<int> seen;
    for (int k = 0; k < s.nodeCount; ++k) {
      const int c = fv::vtk_corner(t, k);
      EXPECT_EQ(c, s.vtkNode[k]);
      EXPECT_GE(c, 0) << s.name;
      EXPECT_LT(c, s.nodeCount) << s.name;
      seen.insert(c);
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(s.nodeCount)) << s.name;
    for (int k = s.nodeCount; k < fv::kMaxCellNodes; ++k)
      EXPECT_EQ(s.vtkNode[k], -1) << s.name;
  }
  // VTK's wedge: triangle (0,1,2) has its normal pointing away from (3,4,5)
  const std::vector<Vec> x = reference_corners(CellType::Prism);
  std::vector<Vec> vtk;
  for (int k = 0; k < 6; ++k)
    vtk.push_back(x[static_cast<std::size_t>(fv::vtk_corner(CellType::Prism, k))]);
  const Vec bottom = centroid({vtk[0], vtk[1], vtk[2]}), top = centroid({vtk[3], vtk[4], vtk[5]});
  EXPECT_LT(dot(newell({vtk[0], vtk[1], vtk[2]}), sub(top, bottom)), 0);
}

TEST(CellShapes, CodesLookUpTheirShape) {
  for (int i = 0; i < fv::kCellTypeCount; ++i) {
    const CellType t = static_cast<CellType>(i);
    const CellShape& s = fv::cell_shape(t);
    EXPECT_EQ(&s, &fv::kCellShapes[i]);
    for (int CellShape::*code : {&CellShape::vtkType, &CellShape::xdmfCode, &CellShape::gmshType}) {
      if (s.*code < 0) continue;
      CellType back = CellType::Tet;
      EXPECT_TRUE(fv::cell_type_of(code, s.*code, back)) << s.name;
      EXPECT_EQ(back, t) << s.name;
    }
  }
  CellType t = CellType::Tet;
  EXPECT_FALSE(fv::cell_type_of(&CellShape::vtkType, 11, t));  // VTK voxel: not a shape of ours
  EXPECT_FALSE(fv::cell_type_of(&CellShape::gmshType, -1, t)); // the Polyhedron's "none"
  EXPECT_TRUE(fv::cell_type_of(&CellShape::vtkType, 13, t));
  EXPECT_EQ(t, CellType::Prism);
  EXPECT_STREQ(fv::cell_type_name(CellType::Prism), "prism");
  EXPECT_STREQ(fv::cell_shape(CellType::Prism).xdmfName, "wedge");
}

TEST(CellShapes, PolyhedronAndUnknownValuesHaveNoTable) {
  EXPECT_FALSE(fv::is_standard_shape(CellType::Polyhedron));
  EXPECT_STREQ(fv::cell_type_name(CellType::Polyhedron), "polyhedron");
  EXPECT_EQ(fv::cell_shape(CellType::Polyhedron).xdmfCode, 16);
  EXPECT_THROW(fv::cell_face(CellType::Polyhedron, 0), fv::Error);
  EXPECT_THROW(fv::vtk_corner(CellType::Polyhedron, 0), fv::Error);

  const CellType bad = static_cast<CellType>(7); // a corrupt zone file's cells/type
  EXPECT_FALSE(fv::is_cell_type(7));
  EXPECT_FALSE(fv::is_cell_type(-1));
  EXPECT_FALSE(fv::is_standard_shape(bad));
  EXPECT_EQ(fv::cell_node_count(bad), 0);
  EXPECT_EQ(fv::cell_face_count(bad), 0);
  EXPECT_STREQ(fv::cell_type_name(bad), "unknown");
  EXPECT_EQ(fv::cell_shape(bad).vtkType, -1);
  EXPECT_THROW(fv::cell_face(bad, 0), fv::Error);
}
