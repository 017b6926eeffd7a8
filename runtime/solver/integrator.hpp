#pragma once
/// \file integrator.hpp
/// fv::Integrator: one iteration of a time scheme on the device state U, behind one interface
/// (explicit Runge-Kutta: explicit_rk.hpp, LU-SGS: lusgs_integrator.hpp, Newton-Krylov:
/// newton_krylov.hpp). The solver (EulerSolver) owns the state, the time steps and the CFL law;
/// an integrator only advances. Every residual it needs comes from the one SpatialOperator.
#include "common/types.hpp"

#include <memory>
#include <string>

namespace fv {

class SpatialOperator;
struct CaseConfig;

/// What the solver hands an integrator for one iteration. When advance() is called the
/// operator holds the evaluation at U (residual, primitives, face fluxes).
struct StepInput {
  /// conservative state, nVars x nTotalCells (device), advanced in place; when the integrator
  /// overwrites_state(), its contents at entry are undefined (the start state is in U0)
  real_t* U = nullptr;
  const real_t* U0 = nullptr; ///< the state at the start of the iteration (device)
  const real_t* dt = nullptr; ///< local time step per cell (device), s
  real_t dtGlobal = -1;       ///< the global time step (>= 0: time accurate), s
};

/// How an iteration went (host values).
struct StepOutcome {
  bool ok = true;            ///< false: the update failed (reason says why); U is undefined
  std::string reason;        ///< why it failed
  real_t relaxation = 1;     ///< factor the update was scaled by (1: the full update)
  int linearIterations = 0;  ///< Krylov iterations (implicit integrators)
  real_t linearResidual = 0; ///< relative linear residual reached (0: no linear solve)
  /// True when the operator holds the evaluation at the new U when advance() returns (the
  /// solver then skips the next iteration's first evaluation).
  bool evaluatedNewState = false;
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  /// Advances in.U by one iteration (see StepInput).
  virtual StepOutcome advance(const StepInput& in) = 0;
  /// True when advance() writes every owned entry of U from U0 and the operator's evaluation
  /// before it reads U: the solver may then hand it a U that does not hold the start state and
  /// swaps the two arrays instead of copying U into U0 (explicit Runge-Kutta).
  virtual bool overwrites_state() const { return false; }
  /// Scheme name for logs ("ssprk3", "lusgs", "newton").
  virtual std::string name() const = 0;
};

/// The integrator of cfg.time.integrator with its part of the case (newton, lusgs), working
/// on `op` (which must outlive it).
std::unique_ptr<Integrator> make_integrator(SpatialOperator& op, const CaseConfig& cfg);

} // namespace fv
