// Viscous face fluxes of the models with a viscous term (M::Viscous: physics/navier_stokes/
// viscous_term.hpp, physics/sa/sa_model.hpp), subtracted from the convective face fluxes already
// in `flux`, the walls' viscous data and the viscous part of the local time step.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {
using phys::kNumEq;

namespace {
/// The N primitives and 3N gradient components of cell c.
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void gather_cell(const real_t* W, const real_t* grad, idx_t n,
                                               idx_t c, real_t* w, real_t* g) {
  for (int k = 0; k < N; ++k)
    w[k] = W[k * n + c];
  for (int k = 0; k < 3 * N; ++k)
    g[k] = grad[k * n + c];
}
} // namespace

template <class M>
void viscous_interior_fluxes(const ZoneView& z, const phys::Transport& t, const real_t* W,
                             const real_t* grad, real_t* flux) {
  static_assert(M::kViscous, "viscous kernels are for models with a viscous term");
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const phys::Transport tr = t;
  const idx_t nb = z.nBoundaryFaces;
  forall("viscous_interior_fluxes", z.nFaces - nb, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t f = nb + i;
    const idx_t n = v.nTotalCells;
    real_t WL[N], WR[N], gL[3 * N], gR[3 * N], F[N];
    gather_cell<N>(W, grad, n, v.faceOwner[f], WL, gL);
    gather_cell<N>(W, grad, n, v.faceNeighbour[f], WR, gR);
    const real_t* dL = v.faceOwnerDelta + 3 * f;
    const real_t* dR = v.faceNeighbourDelta + 3 * f;
    const real_t l[3] = {dL[0] - dR[0], dL[1] - dR[1], dL[2] - dR[2]}; // x_R - x_L
    const real_t* S = v.faceArea + 3 * f;
    M::Viscous::interior_flux(WL, WR, gL, gR, l, S, tr, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] -= F[k];
  });
}

template <class M>
void viscous_boundary_fluxes(const ZoneView& z, const PatchView& patches, const phys::Transport& t,
                             const real_t* W, const real_t* grad, real_t* flux) {
  static_assert(M::kViscous, "viscous kernels are for models with a viscous term");
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const PatchView pv = patches;
  const phys::Transport tr = t;
  forall("viscous_boundary_fluxes", z.nBoundaryFaces, [=] FV_HOST_DEVICE(idx_t f) {
    const phys::BcParams& b = pv.params_of(f);
    real_t Wc[N], gc[3 * N], F[N];
    gather_cell<N>(W, grad, v.nTotalCells, v.faceOwner[f], Wc, gc);
    const real_t* d = v.faceOwnerDelta + 3 * f;
    const real_t* S = v.faceArea + 3 * f;
    M::Viscous::boundary_flux(Wc, gc, d, S, b, tr, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] -= F[k];
  });
}

void wall_viscous_data(const ZoneView& z, const PatchView& patches, const phys::Transport& t,
                       const real_t* W, const real_t* grad, real_t* out) {
  // the mean flow's components of any model (the eddy viscosity vanishes at walls)
  constexpr int N = kNumEq;
  const ZoneView v = z;
  const PatchView pv = patches;
  const phys::Transport tr = t;
  forall("wall_viscous_data", z.nBoundaryFaces, [=] FV_HOST_DEVICE(idx_t f) {
    const idx_t nb = v.nBoundaryFaces;
    real_t Wc[N], gc[3 * N], values[kWallViscousValues];
    gather_cell<N>(W, grad, v.nTotalCells, v.faceOwner[f], Wc, gc);
    phys::wall_values(Wc, gc, v.faceOwnerDelta + 3 * f, v.faceArea + 3 * f, pv.params_of(f), tr,
                      values);
    for (int k = 0; k < kWallViscousValues; ++k)
      out[k * nb + f] = values[k];
  });
}

template <class M>
void viscous_time_step(const ZoneView& z, const phys::Transport& t, real_t cfl, const real_t* W,
                       real_t* dt) {
  static_assert(M::kViscous, "viscous kernels are for models with a viscous term");
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const phys::Transport tr = t;
  forall("viscous_time_step", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t w[N];
    for (int k = 0; k < N; ++k)
      w[k] = W[k * n + c];
    const real_t a = phys::sound_speed(w, tr.gamma);
    const real_t mu = M::Viscous::viscosity(tr, w);
    const real_t V = v.cellVolume[c];
    real_t lc = 0.0, lv = 0.0;
    for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
      const real_t* S = v.faceArea + 3 * v.cellFaces[j];
      const real_t area2 = S[0] * S[0] + S[1] * S[1] + S[2] * S[2];
      lc += M::Convective::face_radius(w, a, S, std::sqrt(area2));
      lv += phys::viscous_spectral_radius(w[phys::kDensity], mu, tr, area2, V);
    }
    dt[c] = cfl * V / (lc + phys::kViscousTimeStepFactor * lv);
  });
}

#define FV_INSTANTIATE(M)                                                                          \
  template void viscous_interior_fluxes<M>(const ZoneView&, const phys::Transport&, const real_t*, \
                                           const real_t*, real_t*);                                \
  template void viscous_boundary_fluxes<M>(const ZoneView&, const PatchView&,                      \
                                           const phys::Transport&, const real_t*, const real_t*,   \
                                           real_t*);                                               \
  template void viscous_time_step<M>(const ZoneView&, const phys::Transport&, real_t,              \
                                     const real_t*, real_t*);
FV_FOR_EACH_VISCOUS_MODEL(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
