#include "runtime/kernels/face_state_arrays.hpp"

namespace fv::kernels {

FaceStateArrays::FaceStateArrays(const Zone& zone, const ZoneView& view, int nVars,
                                 const ZoneViewT<float>* single)
    : values_(static_cast<std::size_t>(nVars) * static_cast<std::size_t>(zone.cellFaces.nnz()),
              "face states"),
      slots_(2 * static_cast<std::size_t>(zone.nFaces), "face state slots") {
  face_state_slots(view, slots_.data());
  view_ = {values_.data(), slots_.data(), zone.cellFaces.nnz()};
  if (!stores_slot_geometry(view)) return;
  const std::size_t ns = static_cast<std::size_t>(view_.nSlots);
  slotNeighbour_ = DeviceArray<idx_t>(ns, "face state slot neighbours");
  view_.slotNeighbour = slotNeighbour_.data();
  if (single) {
    slotOffsetSingle_ = DeviceArray<float>(3 * ns, "face state slot offsets (FP32)");
    face_state_geometry(*single, view_.nSlots, slotOffsetSingle_.data(), slotNeighbour_.data());
    view_.slotOffsetSingle = slotOffsetSingle_.data();
  } else {
    slotOffset_ = DeviceArray<real_t>(3 * ns, "face state slot offsets");
    face_state_geometry(view, view_.nSlots, slotOffset_.data(), slotNeighbour_.data());
    view_.slotOffset = slotOffset_.data();
  }
}

} // namespace fv::kernels
