#pragma once
/// \file face_state_arrays.hpp
/// fv::kernels::FaceStateArrays: the device arrays behind a FaceStateStore (the face states of
/// gradient_limiter_states), allocated and given their slots in one place for the solver,
/// fvbench and the tests.
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {

/// Owns the stored face states of one zone: nVars values per cellFaces entry, the slots of
/// every face's two sides (face_state_slots(), run at construction) and, where
/// stores_slot_geometry() (zones of hexahedra), the slot-ordered face offsets and neighbours
/// that the gradient + limiter pass reads (face_state_geometry()); memory of the device active
/// at construction. About (8 nVars ncf + 8 nf) bytes, and 28 ncf more with the slot geometry
/// (16 ncf with FP32 offsets).
class FaceStateArrays {
 public:
  FaceStateArrays() = default;
  /// zone: the host zone; view: its DeviceZone view (cellFaces, signs on the device); single:
  /// the zone's FP32 view where the pass runs in precision = mixed (then the offsets are copied
  /// from it, in FP32), else null.
  FaceStateArrays(const Zone& zone, const ZoneView& view, int nVars,
                  const ZoneViewT<float>* single = nullptr);
  /// The store the kernels read and write (pointers into this object's arrays).
  const FaceStateStore& view() const { return view_; }
  bool empty() const { return values_.empty(); }

 private:
  DeviceArray<real_t> values_;
  DeviceArray<idx_t> slots_;
  DeviceArray<real_t> slotOffset_;
  DeviceArray<float> slotOffsetSingle_;
  DeviceArray<idx_t> slotNeighbour_;
  FaceStateStore view_;
};

} // namespace fv::kernels
