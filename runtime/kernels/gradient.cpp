// Cell -> node interpolation and node-averaged Green-Gauss gradients (mesh-loop-modes paper
// §2.1 eqs. (6)-(7); hybrid MPI-CUDA paper eq. (6)), as gather loops without atomics, for a
// field of any width N (the model's variable count). The node loop reads the node -> cell
// relation in SELL-32 slices (ZoneView::node_entry): with the CSR relation, each thread walked
// its own ~23 entries (tetrahedra) and the index and weight loads of a warp were scattered;
// sliced, they are coalesced (measured faster: bench/results/issue19_h200_20261125.md). The
// gradient and limiter pass comes in two forms: storing grad and phi, or storing the faces'
// reconstructed states (gradient_limiter_states, with the slots of face_state_slots).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/cell_field.hpp"
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/face_state_k.hpp"
#include "runtime/kernels/gradient_limiter_k.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/node_sum_k.hpp"

#include <type_traits>

namespace fv::kernels {

template <int N, class G>
void interpolate_to_nodes(const ZoneViewT<G>& z, const real_t* W, real_t* Wn, ComponentMapping m) {
  const ZoneViewT<G> v = z;
  const ConstCellField<N> w{W, z.nTotalCells};
  const CellField<N> wn{Wn, z.nNodes};
  const idx_t nt = z.nTotalCells, nn = z.nNodes;
  // Split: a warp per slice and component, blocks of two slices' N warps (320 threads for 5
  // components). PerEntity (one thread per node): 256-thread blocks. Each the fastest size
  // measured (bench/results/issue19_20261128c/).
  forall_components<N, 64 * N, 256>(
      "interpolate_to_nodes", z.nNodes,
      [=] FV_HOST_DEVICE(idx_t n, int k) {
        real_t q[1];
        const real_t* wk = W + static_cast<std::size_t>(k) * nt;
        const auto load = [&](idx_t c, real_t(&wc)[1]) { wc[0] = wk[c]; };
        detail::node_sum<1>(v, n, load, q);
        Wn[static_cast<std::size_t>(k) * nn + n] = q[0];
      },
      [=] FV_HOST_DEVICE(idx_t n) {
        real_t q[N];
        const auto load = [&](idx_t c, real_t(&wc)[N]) { w.load(c, wc); };
        detail::node_sum<N>(v, n, load, q);
        wn.store(n, q);
      },
      m);
}

namespace {

template <int N, class S, class G>
void green_gauss_gradient_shaped(const ZoneViewT<G>& z, const real_t* Wn, real_t* grad) {
  const ZoneViewT<G> v = z;
  const CellField<3 * N> gr{grad, z.nTotalCells};
  forall("green_gauss_gradient", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t g[3 * N];
    detail::cell_gradient<N, S>(v, Wn, c, g);
    gr.store(c, g);
  });
}

template <int N, class S, class G>
void gradient_and_limiter_shaped(const ZoneViewT<G>& z, const real_t* Wn, Limiter kind,
                                 real_t venkatK, const LimiterScales& scales, const real_t* W,
                                 const real_t* supersonicNodes, real_t* grad, real_t* phi) {
  const ZoneViewT<G> v = z;
  const LimiterScales sc = scales;
  const CellField<3 * N> gr{grad, z.nTotalCells};
  const CellField<N> ph{phi, z.nTotalCells};
  forall("gradient_and_limiter", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t g[3 * N], p[N];
    detail::cell_gradient<N, S, kFusedGradientBySlots<S>>(v, Wn, c, g);
    detail::cell_limiter<N, S>(v, kind, venkatK, sc, W, supersonicNodes, c, g, p);
    // both stores after the limiter: no store between the two loops over the cell's faces, so
    // that their cellFaces and sign loads may be shared
    gr.store(c, g);
    ph.store(c, p);
  });
}

template <int N, class S, class Geo, class G>
void gradient_limiter_states_shaped(const ZoneViewT<G>& z, const Geo& geometry, const real_t* Wn,
                                    Limiter kind, real_t venkatK, const LimiterScales& scales,
                                    const real_t* W, const real_t* supersonicNodes,
                                    const StoredCellValues& keep, const FaceStateStore& states) {
  const Geo geo = geometry;
  const ZoneViewT<G> v = z;
  const LimiterScales sc = scales;
  const CellField<3 * N> gr{keep.grad, z.nTotalCells};
  const CellField<N> ph{keep.phi, z.nTotalCells};
  const bool allPhi = keep.allPhi;
  const idx_t firstShared = keep.firstShared;
  const detail::FaceStates<N> fs{states.values, states.nSlots};
  forall("gradient_limiter_states", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t g[3 * N], p[N];
    detail::cell_gradient<N, S, kFusedGradientBySlots<S>>(v, Wn, c, g);
    detail::cell_limiter<N, S>(v, geo, kind, venkatK, sc, W, supersonicNodes, c, g, p);
    detail::store_face_states<N, S>(v, geo, W, c, g, p, fs);
    if (allPhi || c >= firstShared) ph.store(c, p);
    if (c >= firstShared) gr.store(c, g);
  });
}

template <class S, class G>
void face_state_geometry_shaped(const ZoneViewT<G>& z, idx_t nSlots, G* offset, idx_t* neighbour) {
  const ZoneViewT<G> v = z;
  const std::size_t n = static_cast<std::size_t>(nSlots);
  forall("face_state_geometry", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (idx_t e = S::faces_begin(v, c); e < S::faces_end(v, c); ++e) {
      const idx_t f = v.cellFaces[e];
      const bool owner = v.cellFaceSign[e] > 0;
      const G* d = owner ? v.faceOwnerDelta + 3 * f : v.faceNeighbourDelta + 3 * f;
      const std::size_t i = static_cast<std::size_t>(detail::face_state_slot<S>(v, c, e));
      for (int k = 0; k < 3; ++k)
        offset[k * n + i] = d[k];
      // kNone on boundary faces, where the cell is the owner
      neighbour[i] = owner ? v.faceNeighbour[f] : v.faceOwner[f];
    }
  });
}

/// The slot-ordered offsets of precision G in a store (null where it has none).
template <class G>
const G* slot_offsets(const FaceStateStore& s) {
  if constexpr (std::is_same_v<G, float>)
    return s.slotOffsetSingle;
  else
    return s.slotOffset;
}

template <class S>
void face_state_slots_shaped(const ZoneView& z, idx_t* faceSlots) {
  const ZoneView v = z;
  forall("face_state_slots", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
      const idx_t f = v.cellFaces[j];
      faceSlots[2 * f + (v.cellFaceSign[j] > 0 ? 0 : 1)] = detail::face_state_slot<S>(v, c, j);
      if (f < v.nBoundaryFaces) faceSlots[2 * f + 1] = -1;
    }
  });
}

} // namespace

bool has_slot_geometry(const ZoneViewCommon& z) {
  bool uniform = false;
  visit_cell_shape(z, [&](auto s) { uniform = decltype(s)::kCellFaces > 0; });
  return uniform;
}

bool stores_slot_geometry(const ZoneViewCommon& z) {
  bool stores = false;
  visit_cell_shape(z, [&](auto s) { stores = kSlotGeometry<decltype(s)>; });
  return stores;
}

template <class G>
void face_state_geometry(const ZoneViewT<G>& z, idx_t nSlots, G* offset, idx_t* neighbour) {
  FV_VERIFY(offset && neighbour && nSlots >= z.nCells,
            "face_state_geometry: no array for " << nSlots << " slots");
  visit_cell_shape(z, [&](auto s) {
    using S = decltype(s);
    if constexpr (S::kCellFaces > 0)
      face_state_geometry_shaped<S>(z, nSlots, offset, neighbour);
    else
      FV_THROW("face_state_geometry: the zone's cells have different face counts");
  });
}
template void face_state_geometry<real_t>(const ZoneViewT<real_t>&, idx_t, real_t*, idx_t*);
template void face_state_geometry<float>(const ZoneViewT<float>&, idx_t, float*, idx_t*);

void face_state_slots(const ZoneView& z, idx_t* faceSlots) {
  visit_cell_shape(z, [&](auto s) { face_state_slots_shaped<decltype(s)>(z, faceSlots); });
}

template <int N, class G>
void gradient_limiter_states(const ZoneViewT<G>& z, const real_t* Wn, Limiter kind, real_t venkatK,
                             const LimiterScales& scales, const real_t* W,
                             const real_t* supersonicNodes, const StoredCellValues& keep,
                             const FaceStateStore& states) {
  FV_VERIFY(keep.firstShared >= 0 && keep.firstShared <= z.nCells,
            "gradient_limiter_states: first shared cell " << keep.firstShared << " of "
                                                          << z.nCells);
  FV_VERIFY((keep.phi || (!keep.allPhi && keep.firstShared == z.nCells)) &&
                (keep.grad || keep.firstShared == z.nCells),
            "gradient_limiter_states: no array for the stored gradient or limiter");
  visit_cell_shape(z, [&](auto s) {
    using S = decltype(s);
    if constexpr (S::kCellFaces > 0) {
      const G* offsets = slot_offsets<G>(states);
      if (offsets && states.slotNeighbour) {
        const detail::ThroughSlots<G> geo{offsets, states.slotNeighbour, states.nSlots};
        gradient_limiter_states_shaped<N, S>(z, geo, Wn, kind, venkatK, scales, W, supersonicNodes,
                                             keep, states);
        return;
      }
    }
    gradient_limiter_states_shaped<N, S>(z, detail::ThroughFaces{}, Wn, kind, venkatK, scales, W,
                                         supersonicNodes, keep, states);
  });
}

template <int N, class G>
void green_gauss_gradient(const ZoneViewT<G>& z, const real_t* Wn, real_t* grad) {
  visit_cell_shape(z, [&](auto s) { green_gauss_gradient_shaped<N, decltype(s)>(z, Wn, grad); });
}

template <int N, class G>
void gradient_and_limiter(const ZoneViewT<G>& z, const real_t* Wn, Limiter kind, real_t venkatK,
                          const LimiterScales& scales, const real_t* W,
                          const real_t* supersonicNodes, real_t* grad, real_t* phi) {
  visit_cell_shape(z, [&](auto s) {
    gradient_and_limiter_shaped<N, decltype(s)>(z, Wn, kind, venkatK, scales, W, supersonicNodes,
                                                grad, phi);
  });
}

#define FV_INSTANTIATE_G(N, G)                                                                     \
  template void interpolate_to_nodes<N, G>(const ZoneViewT<G>&, const real_t*, real_t*,            \
                                           ComponentMapping);                                      \
  template void green_gauss_gradient<N, G>(const ZoneViewT<G>&, const real_t*, real_t*);           \
  template void gradient_and_limiter<N, G>(const ZoneViewT<G>&, const real_t*, Limiter, real_t,    \
                                           const LimiterScales&, const real_t*, const real_t*,     \
                                           real_t*, real_t*);                                      \
  template void gradient_limiter_states<N, G>(const ZoneViewT<G>&, const real_t*, Limiter, real_t, \
                                              const LimiterScales&, const real_t*, const real_t*,  \
                                              const StoredCellValues&, const FaceStateStore&);
#define FV_INSTANTIATE(N) FV_FOR_EACH_PRECISION(FV_INSTANTIATE_G, N)
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE
#undef FV_INSTANTIATE_G

} // namespace fv::kernels
