#include "common/cell_shapes.hpp"

#include "common/error.hpp"

namespace fv {

const LocalFace& cell_face(CellType t, int f) {
  FV_ASSERT(f >= 0 && f < cell_face_count(t), "face " << f << " of " << cell_type_name(t));
  if (!is_standard_shape(t)) FV_THROW("cell_face: polyhedra have no local face table");
  return cell_shape(t).faces[f];
}

int vtk_corner(CellType t, int k) {
  FV_ASSERT(k >= 0 && k < cell_node_count(t), "corner " << k << " of " << cell_type_name(t));
  if (!is_standard_shape(t)) FV_THROW("vtk_corner: polyhedra have no fixed node order");
  return cell_shape(t).vtkNode[k];
}

} // namespace fv
