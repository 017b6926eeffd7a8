#pragma once
/// \file newton_krylov.hpp
/// fv::NewtonKrylov (integrator = newton): one pseudo-transient Newton iteration of the steady
/// residual,
///
///   (V/dt + dR/dU) dU = -R(U),   U <- U + alpha dU,
///
/// dt the local time step of the CFL the controller chose (cfl_controller.hpp: it grows as the
/// residual falls, so the iteration turns into Newton's method). The linear system is solved by
/// restarted GMRES (gmres.hpp) to newton_linear_tolerance, preconditioned by sweeps on the
/// assembled first-order Jacobian (block_preconditioner.hpp). Its products with dR/dU are
///   jfnk       Jacobian-free: (R(U + eps v) - R(U)) / eps with the second-order residual of the
///              SpatialOperator, eps = newton_jfnk_step (1 + |U|) / |v| (weighted norms); the
///              limiter is recomputed at U + eps v with the scales of the iteration;
///   assembled  the first-order Jacobian itself (a defect correction: cheaper products, but the
///              Newton convergence of the second-order residual is lost).
/// alpha <= 1 scales the update so that density and pressure change by at most
/// newton_max_change (relative) in any cell. After the update the residual of the new state is
/// evaluated (the next iteration starts from it). Every vector stays on the device; across
/// zones the products exchange halo cells through the SpatialOperator and the inner products
/// are global.
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/block_preconditioner.hpp"
#include "runtime/solver/gmres.hpp"
#include "runtime/solver/integrator.hpp"

#include <memory>

namespace fv {

class NewtonKrylov : public Integrator {
 public:
  /// The Newton part of a case; the flow, the scheme and the patches come from op.
  NewtonKrylov(SpatialOperator& op, const NewtonConfig& cfg);
  ~NewtonKrylov() override;
  StepOutcome advance(const StepInput& in) override;
  std::string name() const override { return enum_name(kTimeSchemeNames, TimeScheme::Newton); }

  /// Weights of the inner products: 1 / s_k^2 with the free-stream rho, rho (|u| + c) and
  /// rho E (krylov.hpp).
  static kernels::VectorWeights weights(const FlowConfig& flow);
  const Gmres& gmres() const { return *gmres_; }
  BlockPreconditioner& preconditioner() { return *pre_; }
  /// The linear operator of the iteration set up by prepare(): y = (V/dt + dR/dU) x (Jacobian-
  /// free or assembled, as configured). Device vectors.
  void multiply(const real_t* x, real_t* y);
  /// Sets up the operator of an iteration at the state U whose evaluation the SpatialOperator
  /// holds: keeps R(U), assembles the preconditioner. Called by advance(); public for tests.
  void prepare(const StepInput& in);

 private:
  /// The Krylov weights of the operator's current free stream (its conditions may change
  /// between iterations: SpatialOperator::set_conditions); RANS: rho nu-tilde's from the
  /// largest nu-tilde of the current state.
  void update_weights();
  SpatialOperator& op_;
  NewtonMatvec matvec_;
  int linearIterations_;
  real_t linearTolerance_, maxChange_, jfnkStep_;
  std::unique_ptr<BlockPreconditioner> pre_;
  std::unique_ptr<Gmres> gmres_;
  DeviceArray<real_t> R0_, rhs_, dU_, Up_;
  StepInput in_;     ///< the iteration being solved
  real_t unorm_ = 0; ///< weighted norm of U
};

} // namespace fv
