#include "runtime/solver/newton_krylov.hpp"
#include "runtime/physics/model.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "runtime/kernels/krylov.hpp"
#include "runtime/kernels/reductions.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <algorithm>
#include <cmath>

namespace fv {
using phys::kNumEq;
kernels::VectorWeights NewtonKrylov::weights(const FlowConfig& flow) {
  const real_t rho = flow.freestream[phys::kDensity], p = flow.freestream[phys::kPressure];
  const real_t* u = flow.freestream.data() + phys::kVelocity;
  const real_t c = std::sqrt(flow.gamma * p / rho);
  const real_t speed = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  const real_t m = rho * (speed + c);
  const real_t e = p / (flow.gamma - 1.0) + 0.5 * rho * speed * speed;
  real_t s[kNumEq];
  s[phys::kDensity] = rho;
  for (int d = 0; d < 3; ++d)
    s[phys::kMomentum + d] = m;
  s[phys::kEnergy] = e;
  kernels::VectorWeights w;
  for (int k = 0; k < kNumEq; ++k)
    w.w[k] = 1.0 / (s[k] * s[k]);
  if (flow.rans()) { // rho nu-tilde: the free stream's until prepare() sees the solution's
    const real_t r = rho * flow.nuTildeFreestream;
    w.w[phys::SaModel::kNuTilde] = 1.0 / (r * r);
  }
  return w;
}

void NewtonKrylov::update_weights() {
  const FlowConfig& flow = op_.flow(); // the free stream of the current conditions
  kernels::VectorWeights w = weights(flow);
  if (flow.rans()) {
    // rho nu-tilde weighs as its largest value: nu-tilde grows from the free stream's by
    // orders of magnitude in boundary layers and wakes, and a free-stream weight would let its
    // equation dominate the Krylov norms
    constexpr int N = phys::SaModel::kNumVars, q = phys::SaModel::kNuTilde;
    real_t lo[N], hi[N];
    kernels::primitive_range<N>(op_.view(), op_.W(), lo, hi);
    real_t top = hi[q];
    if (op_.comm()) top = parallel::max_all(*op_.comm(), top);
    const real_t r = flow.freestream[phys::kDensity] * std::max(top, flow.nuTildeFreestream);
    w.w[q] = 1.0 / (r * r);
  }
  gmres_->set_weights(w);
}

NewtonKrylov::NewtonKrylov(SpatialOperator& op, const NewtonConfig& cfg)
    : op_(op), matvec_(cfg.matvec), linearIterations_(cfg.linearIterations),
      linearTolerance_(cfg.linearTolerance), maxChange_(cfg.maxChange), jfnkStep_(cfg.jfnkStep) {
  pre_ = std::make_unique<BlockPreconditioner>(op, cfg, matvec_ == NewtonMatvec::Assembled);
  gmres_ = std::make_unique<Gmres>(op.view(), op.num_vars(), op.comm(), cfg.krylovDim,
                                   weights(op.flow()));
  const auto nvec = op.num_vars() * static_cast<std::size_t>(op.zone().nTotalCells());
  R0_ = DeviceArray<real_t>(nvec, "newton R(U)");
  rhs_ = DeviceArray<real_t>(nvec, "newton rhs");
  dU_ = DeviceArray<real_t>(nvec, "newton dU");
  if (matvec_ == NewtonMatvec::Jfnk) Up_ = DeviceArray<real_t>(nvec, "newton U + eps v");
  FV_LOG_INFO("  Newton-Krylov: GMRES("
              << cfg.krylovDim << "), at most " << linearIterations_ << " iterations to "
              << linearTolerance_ << ", "
              << (matvec_ == NewtonMatvec::Jfnk ? "Jacobian-free" : "assembled first-order")
              << " products, preconditioner " << pre_->description());
}

NewtonKrylov::~NewtonKrylov() = default;

void NewtonKrylov::prepare(const StepInput& in) {
  in_ = in;
  const ZoneView& z = op_.view();
  const int nv = op_.num_vars();
  update_weights();
  kernels::vec_axpby(z, nv, 1.0, op_.residual(), 0.0, R0_.data()); // R(U), kept for the products
  kernels::vec_axpby(z, nv, -1.0, op_.residual(), 0.0, rhs_.data());
  pre_->assemble(op_.W(), in.dt, in.dtGlobal);
  unorm_ = gmres_->norm(in.U);
}

void NewtonKrylov::multiply(const real_t* x, real_t* y) {
  if (matvec_ == NewtonMatvec::Assembled) {
    pre_->multiply(x, y);
    return;
  }
  const ZoneView& z = op_.view();
  const int nv = op_.num_vars();
  const real_t xn = gmres_->norm(x);
  if (!(xn > 0.0)) {
    kernels::vec_axpby(z, nv, 0.0, x, 0.0, y);
    return;
  }
  const real_t eps = jfnkStep_ * (1.0 + unorm_) / xn;
  kernels::vec_axpby(z, nv, 1.0, in_.U, 0.0, Up_.data());
  kernels::vec_axpby(z, nv, eps, x, 1.0, Up_.data());
  op_.evaluate(Up_.data());
  kernels::jfnk_combine(z, nv, in_.dt, in_.dtGlobal, eps, x, op_.residual(), R0_.data(), y);
}

StepOutcome NewtonKrylov::advance(const StepInput& in) {
  const ZoneView& z = op_.view();
  prepare(in);
  const Gmres::Result r =
      gmres_->solve([this](const real_t* x, real_t* y) { multiply(x, y); },
                    [this](const real_t* x, real_t* y) { pre_->apply(x, y); }, rhs_.data(),
                    dU_.data(), linearIterations_, linearTolerance_);
  StepOutcome out;
  out.linearIterations = r.iterations;
  out.linearResidual = r.relative;
  if (!r.finite) {
    out.ok = false;
    out.reason = "the linear solve produced NaN or Inf";
    return out;
  }
  // scale the update so that rho and p change by at most the factor 1 + maxChange anywhere
  out.relaxation = kernels::update_relaxation(z, op_.flow().gamma, maxChange_, in.U, dU_.data());
  if (op_.comm()) out.relaxation = parallel::min_all(*op_.comm(), out.relaxation);
  if (!(out.relaxation > 0.0)) {
    out.ok = false;
    out.reason = "the Newton update is NaN";
    return out;
  }
  kernels::vec_axpby(z, op_.num_vars(), out.relaxation, dU_.data(), 1.0, in.U);
  op_.evaluate(in.U, true); // the next iteration starts from R of the new state
  out.evaluatedNewState = true;
  return out;
}

} // namespace fv
