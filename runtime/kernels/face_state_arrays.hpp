#pragma once
/// \file face_state_arrays.hpp
/// fv::kernels::FaceStateArrays: the device arrays behind a FaceStateStore (the face states of
/// gradient_limiter_states), allocated and given their slots in one place for the solver,
/// fvbench and the tests.
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {

/// Owns the stored face states of one zone: nVars values per cellFaces entry and the slots of
/// every face's two sides (face_state_slots(), run at construction); memory of the device
/// active at construction. About (8 nVars ncf + 8 nf) bytes.
class FaceStateArrays {
 public:
  FaceStateArrays() = default;
  /// zone: the host zone; view: its DeviceZone view (cellFaces, signs on the device).
  FaceStateArrays(const Zone& zone, const ZoneView& view, int nVars);
  /// The store the kernels read and write (pointers into this object's arrays).
  const FaceStateStore& view() const { return view_; }
  bool empty() const { return values_.empty(); }

 private:
  DeviceArray<real_t> values_;
  DeviceArray<idx_t> slots_;
  FaceStateStore view_;
};

} // namespace fv::kernels
