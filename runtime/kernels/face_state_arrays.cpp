#include "runtime/kernels/face_state_arrays.hpp"

namespace fv::kernels {

FaceStateArrays::FaceStateArrays(const Zone& zone, const ZoneView& view, int nVars)
    : values_(static_cast<std::size_t>(nVars) * static_cast<std::size_t>(zone.cellFaces.nnz()),
              "face states"),
      slots_(2 * static_cast<std::size_t>(zone.nFaces), "face state slots") {
  face_state_slots(view, slots_.data());
  view_ = {values_.data(), slots_.data(), zone.cellFaces.nnz()};
}

} // namespace fv::kernels
