// Face fluxes (MUSCL reconstruction of primitives + Roe or Rusanov) on interior faces and on
// all boundary faces in one launch (each face's patch from the patch table), and their summation
// per cell by a gather over cellFaces with the owner/neighbour sign (hybrid MPI-CUDA paper eq. (9),
// without atomics).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/cell_update_k.hpp"
#include "runtime/kernels/face_flux.hpp"
#include "runtime/kernels/kernels.hpp"

#include <type_traits>

namespace fv::kernels {
using detail::reconstruct;
using detail::riemann;

template <class M, class G>
void interior_fluxes(const ZoneViewT<G>& z, const FluxSettings& s, const real_t* W,
                     const real_t* grad, const real_t* phi, real_t* flux, FaceSet which) {
  constexpr int N = M::kNumVars;
  const ZoneViewT<G> v = z;
  const FluxSettings st = s;
  const idx_t nb = z.nBoundaryFaces;
  const char* label = which == FaceSet::All         ? "interior_fluxes"
                      : which == FaceSet::OwnedOnly ? "interior_fluxes (owned)"
                                                    : "interior_fluxes (interface)";
  forall(label, z.nFaces - nb, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t f = nb + i;
    const idx_t n = v.nTotalCells;
    if (which != FaceSet::All &&
        (v.faceNeighbour[f] >= v.nCells) != (which == FaceSet::InterfaceOnly))
      return;
    real_t WL[N], WR[N], F[N];
    reconstruct<N>(W, grad, phi, n, v.faceOwner[f], v.faceOwnerDelta + 3 * f, st.secondOrder, WL);
    reconstruct<N>(W, grad, phi, n, v.faceNeighbour[f], v.faceNeighbourDelta + 3 * f,
                   st.secondOrder, WR);
    riemann<M>(st, WL, WR, v.faceArea + 3 * f, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] = F[k];
  });
}

template <class M, class G>
void boundary_fluxes(const ZoneViewT<G>& z, const PatchView& patches, const FluxSettings& s,
                     const real_t* W, const real_t* grad, const real_t* phi, real_t* flux) {
  constexpr int N = M::kNumVars;
  const ZoneViewT<G> v = z;
  const FluxSettings st = s;
  const PatchView pv = patches;
  forall("boundary_fluxes", z.nBoundaryFaces, [=] FV_HOST_DEVICE(idx_t f) {
    real_t WL[N], F[N]; // interior, flux
    reconstruct<N>(W, grad, phi, v.nTotalCells, v.faceOwner[f], v.faceOwnerDelta + 3 * f,
                   st.secondOrder, WL);
    detail::boundary_flux<M>(st, pv.params_of(f), v.faceArea + 3 * f, WL, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] = F[k];
  });
}

namespace {

/// interior_state_fluxes over all interior faces, or (Owned) those between two owned cells.
template <class M, bool Owned>
void interior_state_fluxes_of(const ZoneView& z, const FluxSettings& s,
                              const FaceStateStore& states, real_t* flux) {
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const FluxSettings st = s;
  const detail::FaceStates<N, const real_t> fs{states.values, states.nSlots};
  const idx_t* slots = states.faceSlots;
  const idx_t nb = z.nBoundaryFaces;
  forall(Owned ? "interior_state_fluxes (owned)" : "interior_state_fluxes", z.nFaces - nb,
         [=] FV_HOST_DEVICE(idx_t i) {
           const idx_t f = nb + i;
           if (Owned && v.faceNeighbour[f] >= v.nCells) return; // an interface face
           real_t WL[N], WR[N], F[N];
           fs.load(slots[2 * f], WL);
           fs.load(slots[2 * f + 1], WR);
           riemann<M>(st, WL, WR, v.faceArea + 3 * f, F);
           for (int k = 0; k < N; ++k)
             flux[k * v.nFaces + f] = F[k];
         });
}

} // namespace

template <class M>
void interior_state_fluxes(const ZoneView& z, const FluxSettings& s, const FaceStateStore& states,
                           real_t* flux, FaceSet which) {
  FV_VERIFY(which != FaceSet::InterfaceOnly,
            "interior_state_fluxes: interface faces have no stored halo side");
  if (which == FaceSet::OwnedOnly)
    interior_state_fluxes_of<M, true>(z, s, states, flux);
  else
    interior_state_fluxes_of<M, false>(z, s, states, flux);
}

template <class M, class G>
void interface_state_fluxes(const ZoneViewT<G>& z, const FluxSettings& s,
                            const FaceStateStore& states, const real_t* W, const real_t* grad,
                            const real_t* phi, real_t* flux) {
  constexpr int N = M::kNumVars;
  const ZoneViewT<G> v = z;
  const FluxSettings st = s;
  const detail::FaceStates<N, const real_t> fs{states.values, states.nSlots};
  const idx_t* slots = states.faceSlots;
  const idx_t nb = z.nBoundaryFaces;
  forall("interface_state_fluxes", z.nFaces - nb, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t f = nb + i;
    const idx_t h = v.faceNeighbour[f];
    if (h < v.nCells) return; // between owned cells: interior_state_fluxes
    real_t WL[N], WR[N], F[N];
    fs.load(slots[2 * f], WL);
    reconstruct<N>(W, grad, phi, v.nTotalCells, h, v.faceNeighbourDelta + 3 * f, st.secondOrder,
                   WR);
    riemann<M>(st, WL, WR, v.faceArea + 3 * f, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] = F[k];
  });
}

template <class M>
void boundary_state_fluxes(const ZoneView& z, const PatchView& patches, const FluxSettings& s,
                           const FaceStateStore& states, real_t* flux) {
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const FluxSettings st = s;
  const PatchView pv = patches;
  const detail::FaceStates<N, const real_t> fs{states.values, states.nSlots};
  const idx_t* slots = states.faceSlots;
  forall("boundary_state_fluxes", z.nBoundaryFaces, [=] FV_HOST_DEVICE(idx_t f) {
    real_t WL[N], F[N]; // interior, flux
    fs.load(slots[2 * f], WL);
    detail::boundary_flux<M>(st, pv.params_of(f), v.faceArea + 3 * f, WL, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] = F[k];
  });
}

namespace {

template <int N, class S>
void flux_sum_shaped(const ZoneView& z, const real_t* flux, real_t* R) {
  const ZoneView v = z;
  forall("flux_sum", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t r[N];
    detail::cell_flux_sum<N, S>(v, flux, c, r);
    for (int k = 0; k < N; ++k)
      R[k * v.nTotalCells + c] = r[k];
  });
}

/// M: void (the new state only) or the state model whose primitives of the new state are stored
/// in W too (flux_sum_rk_primitives).
template <int N, class S, class M>
void flux_sum_rk_stage_shaped(const ZoneView& z, const real_t* flux, real_t a, real_t b,
                              real_t beta, const real_t* dt, real_t dtGlobal, const real_t* U0,
                              const real_t* U, real_t* Unew, real_t gamma, real_t* W) {
  const ZoneView v = z;
  const char* label = std::is_void_v<M> ? "flux_sum_rk_stage" : "flux_sum_rk_primitives";
  forall(label, z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t r[N], u[N];
    detail::cell_flux_sum<N, S>(v, flux, c, r);
    const real_t h = detail::rk_step_factor(v, beta, dt, dtGlobal, c);
    for (int k = 0; k < N; ++k) {
      const idx_t i = k * v.nTotalCells + c;
      u[k] = detail::rk_value(a, b, h, U0[i], U[i], r[k]);
    }
    detail::store_stage<M>(v, c, u, Unew, gamma, W);
  });
}

} // namespace

template <int N>
void flux_sum(const ZoneView& z, const real_t* flux, real_t* R) {
  visit_cell_shape(z, [&](auto s) { flux_sum_shaped<N, decltype(s)>(z, flux, R); });
}

template <int N>
void flux_sum_rk_stage(const ZoneView& z, const real_t* flux, real_t a, real_t b, real_t beta,
                       const real_t* dt, real_t dtGlobal, const real_t* U0, const real_t* U,
                       real_t* Unew) {
  visit_cell_shape(z, [&](auto s) {
    flux_sum_rk_stage_shaped<N, decltype(s), void>(z, flux, a, b, beta, dt, dtGlobal, U0, U, Unew,
                                                   0.0, nullptr);
  });
}

template <class M>
void flux_sum_rk_primitives(const ZoneView& z, const real_t* flux, real_t a, real_t b, real_t beta,
                            const real_t* dt, real_t dtGlobal, const real_t* U0, const real_t* U,
                            real_t* Unew, real_t gamma, real_t* W) {
  visit_cell_shape(z, [&](auto s) {
    flux_sum_rk_stage_shaped<M::kNumVars, decltype(s), M>(z, flux, a, b, beta, dt, dtGlobal, U0, U,
                                                          Unew, gamma, W);
  });
}

#define FV_INSTANTIATE(N)                                                                          \
  template void flux_sum<N>(const ZoneView&, const real_t*, real_t*);                              \
  template void flux_sum_rk_stage<N>(const ZoneView&, const real_t*, real_t, real_t, real_t,       \
                                     const real_t*, real_t, const real_t*, const real_t*,          \
                                     real_t*);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE
#define FV_INSTANTIATE_G(M, G)                                                                     \
  template void interior_fluxes<M, G>(const ZoneViewT<G>&, const FluxSettings&, const real_t*,     \
                                      const real_t*, const real_t*, real_t*, FaceSet);             \
  template void interface_state_fluxes<M, G>(const ZoneViewT<G>&, const FluxSettings&,             \
                                             const FaceStateStore&, const real_t*, const real_t*,  \
                                             const real_t*, real_t*);                              \
  template void boundary_fluxes<M, G>(const ZoneViewT<G>&, const PatchView&, const FluxSettings&,  \
                                      const real_t*, const real_t*, const real_t*, real_t*);
#define FV_INSTANTIATE(M)                                                                          \
  FV_FOR_EACH_PRECISION(FV_INSTANTIATE_G, M)                                                       \
  template void interior_state_fluxes<M>(const ZoneView&, const FluxSettings&,                     \
                                         const FaceStateStore&, real_t*, FaceSet);                 \
  template void boundary_state_fluxes<M>(const ZoneView&, const PatchView&, const FluxSettings&,   \
                                         const FaceStateStore&, real_t*);                          \
  template void flux_sum_rk_primitives<M>(const ZoneView&, const real_t*, real_t, real_t, real_t,  \
                                          const real_t*, real_t, const real_t*, const real_t*,     \
                                          real_t*, real_t, real_t*);
FV_FOR_EACH_CONVECTIVE_MODEL(FV_INSTANTIATE)
#undef FV_INSTANTIATE
#undef FV_INSTANTIATE_G

} // namespace fv::kernels
