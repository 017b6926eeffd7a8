#include "prep/cell_faces.hpp"

#include "common/error.hpp"

namespace fv {
namespace {

constexpr LocalFace kTet[4] = {
    {3, {0, 2, 1, -1}}, {3, {0, 1, 3, -1}}, {3, {1, 2, 3, -1}}, {3, {2, 0, 3, -1}}};
constexpr LocalFace kPyra[5] = {{4, {0, 3, 2, 1}},
                                {3, {0, 1, 4, -1}},
                                {3, {1, 2, 4, -1}},
                                {3, {2, 3, 4, -1}},
                                {3, {3, 0, 4, -1}}};
constexpr LocalFace kPenta[5] = {{4, {0, 1, 4, 3}},
                                 {4, {1, 2, 5, 4}},
                                 {4, {2, 0, 3, 5}},
                                 {3, {0, 2, 1, -1}},
                                 {3, {3, 4, 5, -1}}};
constexpr LocalFace kHexa[6] = {{4, {0, 3, 2, 1}}, {4, {0, 1, 5, 4}}, {4, {1, 2, 6, 5}},
                                {4, {2, 3, 7, 6}}, {4, {0, 4, 7, 3}}, {4, {4, 5, 6, 7}}};

} // namespace

int cell_face_count(CellType t) {
  switch (t) {
  case CellType::Tet:
    return 4;
  case CellType::Pyramid:
    return 5;
  case CellType::Prism:
    return 5;
  case CellType::Hex:
    return 6;
  case CellType::Polyhedron:
    return 0;
  }
  return 0;
}

const LocalFace& cell_face(CellType t, int f) {
  FV_ASSERT(f >= 0 && f < cell_face_count(t), "face " << f << " of " << cell_type_name(t));
  switch (t) {
  case CellType::Tet:
    return kTet[f];
  case CellType::Pyramid:
    return kPyra[f];
  case CellType::Prism:
    return kPenta[f];
  case CellType::Hex:
    return kHexa[f];
  case CellType::Polyhedron:
    break;
  }
  FV_THROW("cell_face: polyhedra have no local face table");
}

const char* cell_type_name(CellType t) {
  switch (t) {
  case CellType::Tet:
    return "tetrahedron";
  case CellType::Pyramid:
    return "pyramid";
  case CellType::Prism:
    return "prism";
  case CellType::Hex:
    return "hexahedron";
  case CellType::Polyhedron:
    return "polyhedron";
  }
  return "unknown";
}

} // namespace fv
