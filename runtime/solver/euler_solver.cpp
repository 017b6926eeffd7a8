#include "runtime/solver/euler_solver.hpp"

#include "common/error.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/reductions.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/physics/euler_state.hpp"
#include "runtime/solver/lusgs.hpp"
#include "runtime/solver/node_weights.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

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

DeviceZone make_device_zone(const Zone& zone, const CaseConfig& cfg, MPI_Comm comm) {
  if (cfg.order == 2 && cfg.nodeWeights == NodeWeights::LinearExact) {
    NodeSum sum;
    if (comm != MPI_COMM_NULL)
      // the moments of all cells of a shared node: partial sums added over the zones (Sum mode)
      sum = [&zone, comm](std::vector<real_t>& field, int ncomp) {
        parallel::HaloExchange nodes(comm, zone.nodeExchange, zone.nNodes, ncomp,
                                     parallel::HaloMode::Sum, parallel::Transport::HostStaged,
                                     "node weights");
        DeviceArray<real_t> d(field, "node moments");
        nodes.exchange({parallel::FieldView::blocked(d.data(), ncomp, zone.nNodes)});
        field = d.to_host();
      };
    const std::vector<real_t> w = linear_exact_node_weights(zone, sum);
    return DeviceZone(zone, &w);
  }
  return DeviceZone(zone);
}
} // namespace

EulerSolver::EulerSolver(const Zone& zone, const CaseConfig& cfg, const ParallelSetup& par)
    : zone_(zone), cfg_(cfg), par_(par), dz_(make_device_zone(zone, cfg, par.comm)) {
  FV_VERIFY(static_cast<idx_t>(cfg_.patches.size()) == zone.nPatches(),
            "case has " << cfg_.patches.size() << " patches but the zone has " << zone.nPatches());
  globalCells_ = zone.nCells;
  if (par_.comm != MPI_COMM_NULL) {
    globalCells_ = parallel::sum_all<gidx_t>(par_.comm, zone.nCells);
    // one message per neighbour and exchange: at most grad (15) + phi (5) components
    cells_ = std::make_unique<parallel::HaloExchange>(
        par_.comm, zone.cellExchange, zone.nTotalCells(), 20, parallel::HaloMode::Copy,
        par_.transport, "cells");
    nodes_ =
        std::make_unique<parallel::HaloExchange>(par_.comm, zone.nodeExchange, zone.nNodes, 5,
                                                 parallel::HaloMode::Sum, par_.transport, "nodes");
    cells_->set_timing(par_.commTiming);
    nodes_->set_timing(par_.commTiming);
  }
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
  if (cfg_.integrator == TimeScheme::Lusgs)
    lusgs_ = std::make_unique<LusgsSolver>(zone, dz_.view(), lusgs_settings(cfg_));
}

EulerSolver::~EulerSolver() = default;

CommTimes EulerSolver::comm_times() const {
  CommTimes t;
  for (const auto* h : {cells_.get(), nodes_.get()})
    if (h) {
      t.pack += h->timings().pack;
      t.wait += h->timings().wait;
      t.unpack += h->timings().unpack;
      t.exchanges += h->timings().exchanges;
    }
  return t;
}

void EulerSolver::reset_comm_times() {
  for (auto* h : {cells_.get(), nodes_.get()})
    if (h) h->reset_timings();
}

void EulerSolver::halo_begin(parallel::HaloExchange* h, const std::vector<parallel::FieldView>& f) {
  if (!h) return;
  h->begin(f);
  if (!par_.overlap) h->finish();
}

void EulerSolver::halo_progress(parallel::HaloExchange* h) {
  // Open MPI moves large (rendezvous) messages only inside MPI calls
  if (h && h->in_flight()) h->progress();
}

void EulerSolver::halo_finish(parallel::HaloExchange* h) {
  if (h && h->in_flight()) h->finish();
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
  cflAdaptive_ = cfg_.cflStart;
  lastMeasure_ = -1;
}

void EulerSolver::exchange(const char* what, DeviceArray<real_t>& field, int ncomp) {
  if (exchange_) exchange_(what, field.data(), ncomp);
}

void EulerSolver::compute_residual(const real_t* U) {
  using parallel::FieldView;
  const ZoneView& z = dz_.view();
  const kernels::FluxSettings fs = flux_settings(cfg_);
  const idx_t nt = z.nTotalCells;
  const bool split = cells_ != nullptr; // interface faces after the halo values arrive
  auto boundary = [&] {
    for (idx_t p = 0; p < zone_.nPatches(); ++p)
      kernels::boundary_fluxes(z, zone_.patchFaceOffsets[p], zone_.patchFaceOffsets[p + 1],
                               cfg_.patches[p].params, fs, W_.data(), grad_.data(), phi_.data(),
                               flux_.data());
  };
  auto owned_faces = [&] {
    kernels::interior_fluxes(z, fs, W_.data(), grad_.data(), phi_.data(), flux_.data(),
                             split ? kernels::FaceSet::OwnedOnly : kernels::FaceSet::All);
  };
  auto interface_faces = [&] {
    if (split)
      kernels::interior_fluxes(z, fs, W_.data(), grad_.data(), phi_.data(), flux_.data(),
                               kernels::FaceSet::InterfaceOnly);
  };

  // 1. primitives of owned cells; halo cells' through the cell exchange
  kernels::primitives(z.nCells, nt, cfg_.gamma, U, W_.data());
  halo_begin(cells_.get(), {FieldView::blocked(W_.data(), 5, nt)});
  if (fs.secondOrder) {
    // 2. cell -> node interpolation: owned cells' contributions (needs no halo value), then
    //    the partial sums of the other zones sharing a node are added (node exchange, Sum)
    kernels::interpolate_to_nodes(z, W_.data(), Wn_.data());
    halo_progress(cells_.get());
    halo_finish(cells_.get());
    exchange("primitives", W_, 5);
    halo_begin(nodes_.get(), {FieldView::blocked(Wn_.data(), 5, z.nNodes)});
    // 3. local extrema over face neighbours (halo W is there) while node sums travel
    kernels::Limiter lim = kernels::Limiter::None;
    if (cfg_.limiter == LimiterKind::Venkat) lim = kernels::Limiter::Venkat;
    if (cfg_.limiter == LimiterKind::Barth) lim = kernels::Limiter::Barth;
    if (lim != kernels::Limiter::None)
      kernels::local_min_max(z, W_.data(), wmin_.data(), wmax_.data());
    halo_progress(nodes_.get());
    halo_finish(nodes_.get());
    // 4. node-averaged Green-Gauss gradients and the limiter of owned cells
    kernels::green_gauss_gradient(z, Wn_.data(), grad_.data());
    exchange("gradients", grad_, 15);
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
    // 5. gradients and limiters of halo cells in one message: interface faces then reconstruct
    //    from exactly the values the owning zone computed
    halo_begin(cells_.get(),
               {FieldView::blocked(grad_.data(), 15, nt), FieldView::blocked(phi_.data(), 5, nt)});
    boundary();
    halo_progress(cells_.get());
    owned_faces();
    halo_progress(cells_.get());
    halo_finish(cells_.get());
    interface_faces();
  } else {
    exchange("primitives", W_, 5); // the optional hook fills halo values before any face uses them
    boundary();
    halo_progress(cells_.get());
    owned_faces();
    halo_progress(cells_.get());
    halo_finish(cells_.get());
    interface_faces();
  }
  // 6. flux summation per cell (deterministic gather)
  kernels::flux_sum(z, flux_.data(), R_.data());
}

void EulerSolver::measure(IterationStats& st) {
  const ZoneView& z = dz_.view();
  real_t ss[5];
  kernels::residual_sum_squares(z, R_.data(), ss);
  if (par_.comm != MPI_COMM_NULL) {
    std::vector<real_t> v(ss, ss + 5);
    parallel::sum_all(par_.comm, v);
    for (int k = 0; k < 5; ++k)
      ss[k] = v[k];
  }
  for (int k = 0; k < 5; ++k)
    st.rms[k] = std::sqrt(ss[k] / static_cast<real_t>(globalCells_));
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
  if (par_.comm != MPI_COMM_NULL) {
    std::vector<real_t> v(st.forces.begin(), st.forces.end());
    parallel::sum_all(par_.comm, v);
    for (int k = 0; k < 6; ++k)
      st.forces[k] = v[k];
  }
  adapt_cfl(st); // cfl_law = adaptive: the next iteration's CFL from this residual
}

void EulerSolver::adapt_cfl(const IterationStats& st) {
  if (cfg_.cflLaw != CflLaw::Adaptive) return;
  if (lastMeasure_ < 0) { // first measured iteration: the reference
    for (int k = 0; k < 5; ++k)
      rms0_[k] = st.rms[k] > 1e-300 ? st.rms[k] : 1.0;
    if (!(cflAdaptive_ > 0)) cflAdaptive_ = cfg_.cflStart;
  }
  // the convergence measure of the run loop: worst of density and energy, relative
  const real_t r = std::max(st.rms[0] / rms0_[0], st.rms[4] / rms0_[4]);
  if (lastMeasure_ >= 0)
    cflAdaptive_ = std::clamp(cflAdaptive_ * (r <= lastMeasure_ ? cfg_.cflGrowth : cfg_.cflCut),
                              cfg_.cflStart, cfg_.cfl);
  lastMeasure_ = r;
}

std::vector<real_t> EulerSolver::residual() {
  compute_residual(U_.data());
  return R_.to_host();
}

real_t EulerSolver::current_cfl() const {
  if (cfg_.cflLaw == CflLaw::Adaptive) return cflAdaptive_ > 0 ? cflAdaptive_ : cfg_.cflStart;
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
  if (par_.comm != MPI_COMM_NULL) st.dt = parallel::min_all(par_.comm, st.dt);
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
  case TimeScheme::Lusgs: // implicit: (V/dt + dR/dU) dU = -R by LU-SGS sweeps, U += dU
    compute_residual(U);
    measure(st);
    if (cells_ && !exchange_) {
      // Multi-zone: the halo cells' dU* from the neighbours' forward sweeps feeds the backward
      // sweep (block Jacobi between zones, docs/numerics.md).
      const idx_t nt = z.nTotalCells;
      lusgs_->solve(W_.data(), R_.data(), dt_.data(), dtGlobal,
                    [this, nt](const char*, real_t* field, int ncomp) {
                      cells_->begin({parallel::FieldView::blocked(field, ncomp, nt)});
                      cells_->finish();
                    });
    } else {
      lusgs_->solve(W_.data(), R_.data(), dt_.data(), dtGlobal, exchange_);
    }
    lusgs_->apply(U);
    break;
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
    for (int s = 0; s < 4; ++s) {
      compute_residual(U);
      if (s == 0) measure(st); // residual of the state at the start of the step
      kernels::accumulate(z, s == 0 ? 0.0 : 1.0, w[s], R_.data(), acc_.data());
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
  // every rank learns whether any rank failed, so that all stop together with one message
  const bool anyBad = par_.comm != MPI_COMM_NULL
                          ? parallel::max_all<int>(par_.comm, bad != kNone ? 1 : 0) != 0
                          : bad != kNone;
  if (anyBad) {
    std::string msg;
    if (bad != kNone) {
      const std::vector<real_t> Ubad = U_.to_host();
      const idx_t n = zone_.nTotalCells();
      real_t u[5], w[5];
      for (int k = 0; k < 5; ++k)
        u[k] = Ubad[k * n + bad];
      phys::cons_to_prim(u, w, cfg_.gamma);
      const gidx_t gid = zone_.cellGlobalId.empty() ? bad : zone_.cellGlobalId[bad];
      std::ostringstream o;
      o << "non-physical state at iteration " << iteration_ << " in cell " << gid
        << " (global id; zone " << zone_.zoneId << ", x = " << zone_.cellCentroid[3 * bad] << ", "
        << zone_.cellCentroid[3 * bad + 1] << ", " << zone_.cellCentroid[3 * bad + 2]
        << "): density " << w[0] << ", pressure " << w[4] << "; try a lower CFL or first order";
      msg = o.str();
    }
    U_.assign(U0_); // back to the last good state
    --iteration_;
    if (!cfg_.localTimeStep) time_ -= dtGlobal;
    if (par_.comm != MPI_COMM_NULL) parallel::check_all(par_.comm, bad == kNone, msg);
    FV_THROW(msg);
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
