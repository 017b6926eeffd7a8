// The node slots of zones of tetrahedra and hexahedra (ZoneViewCommon::cellLocalNodes,
// cellFaceNodeSlots), built on the active device from the zone's cellFaces and faceNodes when
// DeviceZone uploads a zone: one thread per owned cell.
#include "runtime/backend/forall.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {

namespace {

/// Slots of owned cell c (F faces of K nodes): its distinct nodes in the order its faces and
/// their nodes first meet them (U = F K / 3 of them), and per face the slot of each node, 4
/// bits each from the lowest. False when the cell has other than U distinct nodes.
template <int F, int K>
FV_HOST_DEVICE FV_FORCEINLINE bool cell_slots(const ZoneViewCommon& v, idx_t c, idx_t* nodes,
                                              std::uint16_t* slots) {
  constexpr int U = F * K / 3;
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

template <int F, int K>
bool zone_slots(const ZoneViewCommon& z, idx_t* nodes, std::uint16_t* slots) {
  constexpr int U = F * K / 3;
  const ZoneViewCommon v = z;
  forall("node_slots", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    if (!cell_slots<F, K>(v, c, nodes + U * c, slots + F * c)) nodes[U * c] = kNone;
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
  if (z.cellFaceCount == 4 && z.faceNodeCount == 3) return zone_slots<4, 3>(z, nodes, slots);
  if (z.cellFaceCount == 6 && z.faceNodeCount == 4) return zone_slots<6, 4>(z, nodes, slots);
  return false;
}

} // namespace fv::kernels
