// The node slots of zones of tetrahedra and hexahedra (ZoneViewCommon::cellLocalNodes,
// cellFaceNodeSlots), built on the active device from the zone's cellFaces and faceNodes when
// DeviceZone uploads a zone: one thread per owned cell.
#include "runtime/backend/forall.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {

namespace {

/// Slots of owned cell c of shape S (F faces of K nodes): its U = kSlotNodes<S> distinct nodes
/// in the order its faces and their nodes first meet them, and per face the slot of each node,
/// 4 bits each from the lowest. False when the cell has other than U distinct nodes.
template <class S>
FV_HOST_DEVICE FV_FORCEINLINE bool cell_slots(const ZoneViewCommon& v, idx_t c, idx_t* nodes,
                                              std::uint16_t* slots) {
  constexpr int F = S::kCellFaces, K = S::kFaceNodes, U = kSlotNodes<S>;
  int used = 0;
  for (int j = 0; j < F; ++j) {
    const idx_t* fn = v.faceNodes + K * v.cellFaces[F * c + j];
    unsigned code = 0;
    for (int m = 0; m < K; ++m) {
      int u = 0;
      while (u < used && nodes[u] != fn[m])
        ++u;
      if (u == used) {
        if (used == U) return false;
        nodes[used++] = fn[m];
      }
      code |= static_cast<unsigned>(u) << (4 * m);
    }
    slots[j] = static_cast<std::uint16_t>(code);
  }
  return used == U;
}

template <class S>
bool zone_slots(const ZoneViewCommon& z, idx_t* nodes, std::uint16_t* slots) {
  constexpr int U = kSlotNodes<S>;
  const ZoneViewCommon v = z;
  forall("node_slots", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    if (!cell_slots<S>(v, c, nodes + U * c, slots + S::kCellFaces * c)) nodes[U * c] = kNone;
  });
  real_t bad[1];
  reduce<1>(
      "node_slots_check", z.nCells, ReduceOp::Max,
      [=] FV_HOST_DEVICE(idx_t c, real_t * acc) {
        if (nodes[U * c] == kNone) acc[0] = 1.0;
      },
      bad);
  return !(bad[0] > 0.0);
}

} // namespace

bool node_slots(const ZoneViewCommon& z, idx_t* nodes, std::uint16_t* slots) {
  bool built = false;
  visit_cell_shape(z, [&](auto shape) {
    using S = decltype(shape);
    if constexpr (kSlotNodes < S >> 0) built = zone_slots<S>(z, nodes, slots);
  });
  return built;
}

} // namespace fv::kernels
