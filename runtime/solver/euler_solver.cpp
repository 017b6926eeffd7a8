#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/state_model.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "runtime/config/case_conditions.hpp"
#include "runtime/kernels/reductions.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/solver/integrator.hpp"
#include "runtime/solver/monitor.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace fv {
namespace {
/// A residual this many times the one of the iteration's start state counts as a blow-up (an
/// iteration that evaluated its new state: newton).
constexpr real_t kBlowUp = 1e3;

} // namespace

EulerSolver::EulerSolver(const Zone& zone, const CaseConfig& cfg, const ParallelSetup& par)
    : zone_(zone), cfg_(cfg), op_(std::make_unique<SpatialOperator>(zone, cfg, par)),
      cfl_(cfg.time, cfg.flow) {
  const auto nt = static_cast<std::size_t>(zone.nTotalCells());
  const auto nv = static_cast<std::size_t>(op_->num_vars());
  U_ = DeviceArray<real_t>(nv * nt, "U");
  U0_ = DeviceArray<real_t>(nv * nt, "U0");
  dt_ = DeviceArray<real_t>(nt, "dt");
  integrator_ = make_integrator(*op_, cfg_);
  monitor_ = std::make_unique<Monitor>(*op_, cfg_.monitor);
  // the statistics of the start state can wait until after the update unless it uses them:
  // a global time step (dt), limiter freezing (the residual decides it before the update), an
  // implicit integrator (its CFL law and blow-up test, and a residual of the new state)
  readStatsFirst_ =
      !cfg_.time.localTimeStep || cfg_.scheme.freezes() || !integrator_->overwrites_state();
}

EulerSolver::~EulerSolver() = default;

std::size_t EulerSolver::device_bytes() const {
  return backend::bytes_allocated();
}

void EulerSolver::initialise() {
  const idx_t n = zone_.nTotalCells();
  const StateModel& sm = op_->state();
  const int nv = sm.nVars;
  // the primitive states of the free stream and of the split's two sides (the model's scalars
  // from the free stream)
  const InitialConfig& init = cfg_.initial;
  std::vector<real_t> inf = sm.freestream(cfg_.flow), left = inf, right = inf;
  std::copy(init.left.begin(), init.left.end(), left.begin());
  std::copy(init.right.begin(), init.right.end(), right.begin());
  std::vector<real_t> U(nv * static_cast<std::size_t>(n));
  for (idx_t c = 0; c < n; ++c) {
    const real_t* W = inf.data();
    if (init.kind == InitialKind::Split)
      W = zone_.cellCentroid[3 * c + init.splitAxis] < init.splitPosition ? left.data()
                                                                          : right.data();
    real_t u[phys::kMaxVars];
    sm.to_conservative(W, u, cfg_.flow.gamma);
    for (int k = 0; k < nv; ++k)
      U[k * n + c] = u[k];
  }
  U_.assign(U.data());
  set_progress(0, 0);
}

AssemblyChoice EulerSolver::choose_assembly(const std::string& meshUuid) {
  AssemblyChoice c = fv::choose_assembly(*op_, U_.data(), meshUuid);
  c.nodeLoop = fv::choose_node_loop(*op_, U_.data());
  evaluated_ = haveRms_ = false; // the timing evaluations left nothing the next step may reuse
  return c;
}

void EulerSolver::set_progress(int iteration, real_t time) {
  iteration_ = iteration;
  time_ = time;
  // a first-order start from the initial state (not after a restart)
  op_->set_first_order(iteration == 0 && cfg_.time.startupOrders > 0);
  cfl_.reset(iteration);
  evaluated_ = haveRms_ = false;
  bestMeasure_ = 1e300;
  sinceBest_ = 0;
}

void EulerSolver::set_conditions(const CaseConfig& cfg) {
  const std::string diff = non_flow_difference(cfg_, cfg);
  FV_VERIFY(diff.empty(), "set_conditions: " << diff
                                             << "; only the flow conditions ([freestream], the "
                                                "patches' values) of a live solver may change");
  op_->set_conditions(cfg.flow, cfg.patches);
  cfl_.set_flow(cfg.flow);
  cfl_.conditions_changed();
  cfg_ = cfg;
  evaluated_ = haveRms_ = false; // R(U) under the former conditions
}

StateArray EulerSolver::cold_reference() {
  initialise();
  op_->evaluate(U_.data(), true);
  const StateArray rms = monitor_->residual_rms();
  evaluated_ = haveRms_ = false;
  return residual_reference(cfg_.flow, rms);
}

void EulerSolver::warm_start(real_t cfl, const StateArray& reference) {
  set_progress(0, 0);
  op_->set_first_order(false); // a converged neighbour needs no first-order start
  cfl_.resume(cfl, reference);
}

std::vector<real_t> EulerSolver::residual() {
  op_->evaluate(U_.data(), true);
  evaluated_ = true;
  haveRms_ = false;
  return op_->residual_array().to_host();
}

std::vector<real_t> EulerSolver::wall_viscous_data() const {
  op_->evaluate(U_.data(), false); // R of U: what a later step() would compute too
  return monitor_->wall_viscous_data();
}

void EulerSolver::observe(IterationStats& st, const Monitor::Pending& pending) {
  st.rms = haveRms_ ? rms_ : monitor_->residual_rms(pending);
  haveRms_ = false;
  st.forces = monitor_->forces(pending);
  st.viscousForce = monitor_->viscous_force();
  cfl_.observe(st.rms);
  // limiter freezing: by orders of residual drop or by a stall of the residual
  const SchemeConfig& scheme = cfg_.scheme;
  if (op_->limiter_frozen() || !scheme.limited()) return;
  const real_t r = cfl_.measure();
  const bool dropped = scheme.limiterFreeze > 0 && r <= std::pow(10.0, -scheme.limiterFreeze);
  if (r < bestMeasure_) {
    bestMeasure_ = r;
    sinceBest_ = 0;
  } else {
    ++sinceBest_;
  }
  const bool stalled = scheme.limiterFreezeStall > 0 && sinceBest_ >= scheme.limiterFreezeStall;
  if (dropped || stalled) {
    op_->freeze_limiter(true);
    FV_LOG_INFO("iteration " << iteration_ + 1 << ": limiter frozen ("
                             << (dropped ? "residual dropped by limiter_freeze orders"
                                         : "no new lowest residual for limiter_freeze_stall "
                                           "iterations")
                             << ")");
  }
}

std::string EulerSolver::unphysical_message(idx_t bad) const {
  if (bad == kNone) return {};
  const std::vector<real_t> Ubad = U_.to_host();
  const idx_t n = zone_.nTotalCells();
  real_t u[phys::kNumEq], w[phys::kNumEq];
  for (int k = 0; k < phys::kNumEq; ++k)
    u[k] = Ubad[k * n + bad];
  phys::cons_to_prim(u, w, cfg_.flow.gamma);
  const gidx_t gid = zone_.cellGlobalId.empty() ? bad : zone_.cellGlobalId[bad];
  std::ostringstream o;
  o << "non-physical state at iteration " << iteration_ + 1 << " in cell " << gid
    << " (global id; zone " << zone_.zoneId << ", x = " << zone_.cellCentroid[3 * bad] << ", "
    << zone_.cellCentroid[3 * bad + 1] << ", " << zone_.cellCentroid[3 * bad + 2] << "): density "
    << w[phys::kDensity] << ", pressure " << w[phys::kPressure]
    << "; try a lower CFL or first order";
  return o.str();
}

IterationStats EulerSolver::step() {
  const ZoneView& z = op_->view();
  backend::Communicator* comm = op_->comm();
  // U0 = the start state: the arrays swapped when the integrator rewrites U from U0 anyway
  if (integrator_->overwrites_state())
    std::swap(U_, U0_);
  else
    U0_.assign(U_);
  IterationStats st;
  int backoffs = 0;
  const TimeConfig& stepping = cfg_.time;
  if (op_->first_order() && cfg_.scheme.order == 2 && cfl_.measure() >= 0 &&
      cfl_.measure() <= std::pow(10.0, -stepping.startupOrders)) {
    op_->set_first_order(false); // the first-order start has done its work
    evaluated_ = haveRms_ = false;
    FV_LOG_INFO("iteration " << iteration_ + 1 << ": second order (the first-order start dropped "
                             << stepping.startupOrders << " orders)");
  }
  while (true) {
    // R(U) of the start state: kept from the last iteration when it evaluated it
    if (!evaluated_) {
      op_->evaluate(U0_.data(), true);
      haveRms_ = false;
    }
    evaluated_ = false;
    st = IterationStats{};
    st.cfl = cfl_.cfl();
    // the start state's minimum time step, residual RMS and forces: queued on the device now,
    // read before the update when it needs them (a global time step, limiter freezing, an
    // implicit integrator), else with the health check after it, so that the device waits for
    // the host once per iteration instead of four times
    const PendingReduce dtMin = op_->local_time_step_async(st.cfl, dt_.data(), dtSlot_);
    const Monitor::Pending monitored = monitor_->start(!haveRms_);
    const bool deferred = !readStatsFirst_;
    real_t dtGlobal = -1.0;
    auto read_stats = [&] {
      st.dt = op_->min_time_step(dtMin);
      if (!stepping.localTimeStep) {
        dtGlobal = stepping.dt > 0 ? stepping.dt : st.dt;
        if (stepping.finalTime > 0 && time_ + dtGlobal > stepping.finalTime)
          dtGlobal = stepping.finalTime - time_;
        st.dt = dtGlobal;
      }
      observe(st, monitored);
    };
    if (!deferred) read_stats();

    const StepOutcome out = integrator_->advance({U_.data(), U0_.data(), dt_.data(), dtGlobal});
    st.linearIterations = out.linearIterations;
    st.linearResidual = out.linearResidual;
    st.relaxation = out.relaxation;

    // failed? every rank learns whether any rank failed, so that all act together
    std::string why =
        out.ok ? std::string() : "iteration " + std::to_string(iteration_ + 1) + ": " + out.reason;
    idx_t bad = kNone;
    if (out.ok) bad = kernels::first_unphysical_cell(z, cfg_.flow.gamma, U_.data());
    if (deferred) read_stats(); // queued before the update: ready when the health check is
    bool failed = !out.ok || bad != kNone;
    if (comm) failed = parallel::max_all<int>(*comm, failed ? 1 : 0) != 0;
    if (!failed && out.evaluatedNewState) {
      // the new state's residual is known: a blow-up fails the iteration, else it is kept for
      // the next one
      rms_ = monitor_->residual_rms();
      haveRms_ = evaluated_ = true;
      const real_t grow = residual_measure(cfg_.flow, rms_, residual_reference(cfg_.flow, st.rms));
      if (!(grow <= kBlowUp)) {
        failed = true;
        std::ostringstream o;
        o << "residual blow-up at iteration " << iteration_ + 1 << " (x" << grow << ")";
        why = o.str();
      }
    }
    if (!failed) {
      cfl_.accepted(out.relaxation, out.linearResidual);
      st.backoffs = backoffs;
      break;
    }
    if (why.empty()) why = unphysical_message(bad);
    U_.assign(U0_); // back to the last good state
    evaluated_ = haveRms_ = false;
    if (cfl_.back_off()) {
      ++backoffs;
      FV_LOG_WARN((why.empty() ? std::string("another zone failed") : why)
                  << "; retrying from the last good state at CFL " << cfl_.cfl());
      continue;
    }
    if (backoffs > 0 && !why.empty()) {
      std::ostringstream o;
      o << why << " (after " << backoffs << " CFL back-offs, CFL " << st.cfl << ")";
      why = o.str();
    }
    if (comm) parallel::check_all(*comm, why.empty(), why);
    FV_THROW(why);
  }

  ++iteration_;
  FV_LOG_DEBUG("iteration " << iteration_ << ": CFL " << st.cfl << ", residual " << cfl_.measure()
                            << ", " << st.linearIterations << " linear iterations to "
                            << st.linearResidual << ", relaxation " << st.relaxation
                            << (st.backoffs ? ", back-offs " + std::to_string(st.backoffs) : ""));
  if (!stepping.localTimeStep) time_ += st.dt;
  st.iteration = iteration_;
  st.time = time_;
  return st;
}

std::vector<real_t> EulerSolver::conservative() const {
  return U_.to_host();
}

std::vector<real_t> EulerSolver::primitive() const {
  const std::vector<real_t> U = U_.to_host();
  const idx_t n = zone_.nTotalCells();
  std::vector<real_t> W(U.size());
  const StateModel& sm = op_->state();
  for (idx_t c = 0; c < n; ++c) {
    real_t u[phys::kMaxVars], w[phys::kMaxVars];
    for (int k = 0; k < sm.nVars; ++k)
      u[k] = U[k * n + c];
    sm.to_primitive(u, w, cfg_.flow.gamma);
    for (int k = 0; k < sm.nVars; ++k)
      W[k * n + c] = w[k];
  }
  return W;
}

void EulerSolver::set_conservative(const std::vector<real_t>& U) {
  FV_VERIFY(U.size() == U_.size(),
            "set_conservative: " << U.size() << " values, expected " << U_.size());
  U_.assign(U.data());
  evaluated_ = haveRms_ = false;
}

} // namespace fv
