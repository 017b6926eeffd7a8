#include "runtime/solver/euler_solver.hpp"

#include "common/error.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/reductions.hpp"
#include "runtime/physics/euler_state.hpp"
#include "runtime/solver/node_weights.hpp"

#include <cmath>

namespace fv {
namespace {
kernels::FluxSettings flux_settings(const CaseConfig& c) {
  kernels::FluxSettings s;
  s.flux = c.flux == FluxScheme::Roe ? kernels::Flux::Roe : kernels::Flux::Rusanov;
  s.gamma = c.gamma;
  s.entropyFix = c.entropyFix;
  s.secondOrder = c.order == 2;
  return s;
}

DeviceZone make_device_zone(const Zone& zone, const CaseConfig& cfg) {
  if (cfg.order == 2 && cfg.nodeWeights == NodeWeights::LinearExact) {
    const std::vector<real_t> w = linear_exact_node_weights(zone);
    return DeviceZone(zone, &w);
  }
  return DeviceZone(zone);
}
} // namespace

EulerSolver::EulerSolver(const Zone& zone, const CaseConfig& cfg)
    : zone_(zone), cfg_(cfg), dz_(make_device_zone(zone, cfg)) {
  FV_VERIFY(static_cast<idx_t>(cfg_.patches.size()) == zone.nPatches(),
            "case has " << cfg_.patches.size() << " patches but the zone has " << zone.nPatches());
  const auto nt = static_cast<std::size_t>(zone.nTotalCells());
  U_ = DeviceArray<real_t>(5 * nt, "U");
  U0_ = DeviceArray<real_t>(5 * nt, "U0");
  if (cfg_.integrator == TimeScheme::Rk4) acc_ = DeviceArray<real_t>(5 * nt, "rk4 accumulator");
  W_ = DeviceArray<real_t>(5 * nt, "W");
  R_ = DeviceArray<real_t>(5 * nt, "R");
  dt_ = DeviceArray<real_t>(nt, "dt");
  flux_ = DeviceArray<real_t>(5 * static_cast<std::size_t>(zone.nFaces), "face flux");
  if (cfg_.order == 2) {
    Wn_ = DeviceArray<real_t>(5 * static_cast<std::size_t>(zone.nNodes), "node values");
    grad_ = DeviceArray<real_t>(15 * nt, "gradients");
    wmin_ = DeviceArray<real_t>(5 * nt, "local min");
    wmax_ = DeviceArray<real_t>(5 * nt, "local max");
    phi_ = DeviceArray<real_t>(5 * nt, "limiter");
  }
}

std::size_t EulerSolver::device_bytes() const {
  return backend::bytes_allocated();
}

void EulerSolver::initialise() {
  const idx_t n = zone_.nTotalCells();
  std::vector<real_t> U(5 * static_cast<std::size_t>(n));
  for (idx_t c = 0; c < n; ++c) {
    const real_t* W = cfg_.freestream.data();
    if (cfg_.initial == InitialKind::Split)
      W = zone_.cellCentroid[3 * c + cfg_.splitAxis] < cfg_.splitPosition ? cfg_.left.data()
                                                                          : cfg_.right.data();
    real_t u[5];
    phys::prim_to_cons(W, u, cfg_.gamma);
    for (int k = 0; k < 5; ++k)
      U[k * n + c] = u[k];
  }
  U_.assign(U.data());
  iteration_ = 0;
  time_ = 0;
}

void EulerSolver::exchange(const char* what, DeviceArray<real_t>& field, int ncomp) {
  if (exchange_) exchange_(what, field.data(), ncomp);
}

void EulerSolver::compute_residual(const real_t* U) {
  const ZoneView& z = dz_.view();
  const kernels::FluxSettings fs = flux_settings(cfg_);
  // 1. primitives of owned cells, then of halo cells through the exchange
  kernels::primitives(z.nCells, z.nTotalCells, cfg_.gamma, U, W_.data());
  exchange("primitives", W_, 5);
  if (fs.secondOrder) {
    // 2. cell -> node interpolation and node-averaged Green-Gauss gradients
    kernels::interpolate_to_nodes(z, W_.data(), Wn_.data());
    kernels::green_gauss_gradient(z, Wn_.data(), grad_.data());
    exchange("gradients", grad_, 15);
    // 3. limiter
    kernels::Limiter lim = kernels::Limiter::None;
    if (cfg_.limiter == LimiterKind::Venkat) lim = kernels::Limiter::Venkat;
    if (cfg_.limiter == LimiterKind::Barth) lim = kernels::Limiter::Barth;
    if (lim != kernels::Limiter::None)
      kernels::local_min_max(z, W_.data(), wmin_.data(), wmax_.data());
    kernels::LimiterScales scales;
    {
      const auto& f = cfg_.freestream;
      const real_t c = std::sqrt(cfg_.gamma * f[4] / f[0]);
      const real_t speed = std::sqrt(f[1] * f[1] + f[2] * f[2] + f[3] * f[3]) + c;
      const real_t s[5] = {f[0], speed, speed, speed, f[4]};
      for (int k = 0; k < 5; ++k)
        scales.s[k] = s[k];
    }
    kernels::limiter(z, lim, cfg_.venkatK, scales, W_.data(), grad_.data(), wmin_.data(),
                     wmax_.data(), phi_.data());
    exchange("limiter", phi_, 5);
  }
  // 4. face fluxes: interior faces, then each boundary patch with its ghost states
  kernels::interior_fluxes(z, fs, W_.data(), grad_.data(), phi_.data(), flux_.data());
  for (idx_t p = 0; p < zone_.nPatches(); ++p)
    kernels::boundary_fluxes(z, zone_.patchFaceOffsets[p], zone_.patchFaceOffsets[p + 1],
                             cfg_.patches[p].params, fs, W_.data(), grad_.data(), phi_.data(),
                             flux_.data());
  // 5. flux summation per cell (deterministic gather)
  kernels::flux_sum(z, flux_.data(), R_.data());
}

void EulerSolver::measure(IterationStats& st) {
  const ZoneView& z = dz_.view();
  real_t ss[5];
  kernels::residual_sum_squares(z, R_.data(), ss);
  for (int k = 0; k < 5; ++k)
    st.rms[k] = std::sqrt(ss[k] / zone_.nCells);
  st.forces = {0, 0, 0, 0, 0, 0};
  for (const auto& name : cfg_.forcePatches)
    for (idx_t p = 0; p < zone_.nPatches(); ++p) {
      if (cfg_.patches[p].name != name) continue;
      real_t part[6];
      kernels::wall_forces(z, zone_.patchFaceOffsets[p], zone_.patchFaceOffsets[p + 1],
                           cfg_.freestream[4], cfg_.momentOrigin.data(), flux_.data(), part);
      for (int k = 0; k < 6; ++k)
        st.forces[k] += part[k];
    }
}

std::vector<real_t> EulerSolver::residual() {
  compute_residual(U_.data());
  return R_.to_host();
}

real_t EulerSolver::current_cfl() const {
  if (cfg_.cflRampIterations <= 0) return cfg_.cfl;
  const real_t t = std::min<real_t>(1.0, static_cast<real_t>(iteration_) / cfg_.cflRampIterations);
  return cfg_.cflStart + (cfg_.cfl - cfg_.cflStart) * t;
}

IterationStats EulerSolver::step() {
  const ZoneView& z = dz_.view();
  IterationStats st;
  U0_.assign(U_);

  // time step from the state at the start of the step
  kernels::primitives(z.nCells, z.nTotalCells, cfg_.gamma, U_.data(), W_.data());
  kernels::local_time_step(z, cfg_.gamma, current_cfl(), W_.data(), dt_.data());
  real_t dtGlobal = -1.0;
  st.dt = kernels::min_value(z.nCells, dt_.data());
  if (!cfg_.localTimeStep) {
    dtGlobal = cfg_.dt > 0 ? cfg_.dt : st.dt;
    if (cfg_.finalTime > 0 && time_ + dtGlobal > cfg_.finalTime) dtGlobal = cfg_.finalTime - time_;
    st.dt = dtGlobal;
  }

  const real_t* U0 = U0_.data();
  real_t* U = U_.data();
  auto stage = [&](real_t a, real_t b, real_t beta, bool first) {
    compute_residual(U);
    if (first) measure(st);
    kernels::rk_stage(z, a, b, beta, dt_.data(), dtGlobal, U0, U, R_.data(), U);
  };

  switch (cfg_.integrator) {
  case TimeScheme::Rk2: // SSP RK2 (Heun): the papers' two-stage scheme
    stage(0.0, 1.0, 1.0, true);
    stage(0.5, 0.5, 1.0, false);
    break;
  case TimeScheme::SspRk3: // Shu-Osher
    stage(0.0, 1.0, 1.0, true);
    stage(0.75, 0.25, 1.0, false);
    stage(1.0 / 3.0, 2.0 / 3.0, 1.0, false);
    break;
  case TimeScheme::Rk4: { // classical: U = U0 + dt/6 (k1 + 2 k2 + 2 k3 + k4)
    const real_t c[4] = {0.5, 0.5, 1.0, 0.0};
    const real_t w[4] = {1.0 / 6.0, 2.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0};
    std::vector<real_t> zero(acc_.size(), 0.0);
    acc_.assign(zero.data());
    for (int s = 0; s < 4; ++s) {
      compute_residual(U);
      if (s == 0) measure(st); // residual of the state at the start of the step
      kernels::accumulate(z, w[s], R_.data(), acc_.data());
      if (s < 3)
        kernels::rk_stage(z, 0.0, 1.0, c[s], dt_.data(), dtGlobal, U0, U0, R_.data(), U);
      else
        kernels::rk_stage(z, 0.0, 1.0, 1.0, dt_.data(), dtGlobal, U0, U0, acc_.data(), U);
    }
    break;
  }
  }

  ++iteration_;
  if (!cfg_.localTimeStep) time_ += dtGlobal;
  st.iteration = iteration_;
  st.time = time_;

  const idx_t bad = kernels::first_unphysical_cell(z, cfg_.gamma, U_.data());
  if (bad != kNone) {
    const std::vector<real_t> Ubad = U_.to_host();
    U_.assign(U0_); // back to the last good state
    --iteration_;
    const idx_t n = zone_.nTotalCells();
    real_t u[5], w[5];
    for (int k = 0; k < 5; ++k)
      u[k] = Ubad[k * n + bad];
    phys::cons_to_prim(u, w, cfg_.gamma);
    const gidx_t gid = zone_.cellGlobalId.empty() ? bad : zone_.cellGlobalId[bad];
    FV_THROW("non-physical state at iteration "
             << iteration_ + 1 << " in cell " << gid << " (global id; x = "
             << zone_.cellCentroid[3 * bad] << ", " << zone_.cellCentroid[3 * bad + 1] << ", "
             << zone_.cellCentroid[3 * bad + 2] << "): density " << w[0] << ", pressure " << w[4]
             << "; try a lower CFL or first order");
  }
  return st;
}

std::vector<real_t> EulerSolver::conservative() const {
  return U_.to_host();
}

std::vector<real_t> EulerSolver::primitive() const {
  const std::vector<real_t> U = U_.to_host();
  const idx_t n = zone_.nTotalCells();
  std::vector<real_t> W(U.size());
  for (idx_t c = 0; c < n; ++c) {
    real_t u[5], w[5];
    for (int k = 0; k < 5; ++k)
      u[k] = U[k * n + c];
    phys::cons_to_prim(u, w, cfg_.gamma);
    for (int k = 0; k < 5; ++k)
      W[k * n + c] = w[k];
  }
  return W;
}

void EulerSolver::set_conservative(const std::vector<real_t>& U) {
  FV_VERIFY(U.size() == U_.size(),
            "set_conservative: " << U.size() << " values, expected " << U_.size());
  U_.assign(U.data());
}

} // namespace fv
