#pragma once
/// \file explicit_rk.hpp
/// fv::ExplicitRk: the explicit Runge-Kutta schemes (integrator = rk2 | ssprk3 | rk4) on the
/// SpatialOperator: SSP-RK2 (Heun, the papers' two-stage scheme), SSP-RK3 (Shu-Osher) and the
/// classical RK4, with local or global time steps.
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/integrator.hpp"

namespace fv {

class ExplicitRk : public Integrator {
 public:
  ExplicitRk(SpatialOperator& op, TimeScheme scheme);
  StepOutcome advance(const StepInput& in) override;
  /// Every scheme's first stage writes U from U0 and R(U0).
  bool overwrites_state() const override { return true; }
  std::string name() const override;

 private:
  template <int kNumVars>
  void advance_model(const StepInput& in);
  SpatialOperator& op_;
  TimeScheme scheme_;
  DeviceArray<real_t> acc_; ///< rk4: the weighted sum of the stage residuals
};

} // namespace fv
