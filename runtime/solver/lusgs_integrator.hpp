#pragma once
/// \file lusgs_integrator.hpp
/// fv::LusgsIntegrator: integrator = lusgs, one implicit LU-SGS iteration (V/dt + dR/dU) dU = -R
/// by the sweeps of fv::LusgsSolver (lusgs.hpp), U += dU. Across zones the halo cells' dU* of
/// the neighbours' forward sweeps feed the backward sweep (block Jacobi between zones).
#include "runtime/solver/integrator.hpp"
#include "runtime/solver/lusgs.hpp"

#include <memory>

namespace fv {

class LusgsIntegrator : public Integrator {
 public:
  /// The LU-SGS part of a case; the flux, the gas and the patches come from op.
  LusgsIntegrator(SpatialOperator& op, const LusgsConfig& cfg);
  StepOutcome advance(const StepInput& in) override;
  std::string name() const override { return enum_name(kTimeSchemeNames, TimeScheme::Lusgs); }
  const LusgsSolver& solver() const { return *lusgs_; }

 private:
  SpatialOperator& op_;
  kernels::PatchView patches_; ///< op's patch table, which the solver's boundary blocks read
  std::unique_ptr<LusgsSolver> lusgs_;
};

} // namespace fv
