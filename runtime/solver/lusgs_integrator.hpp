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
  LusgsIntegrator(SpatialOperator& op, const CaseConfig& cfg);
  StepOutcome advance(const StepInput& in) override;
  std::string name() const override { return "lusgs"; }
  const LusgsSolver& solver() const { return *lusgs_; }

 private:
  SpatialOperator& op_;
  std::unique_ptr<LusgsSolver> lusgs_;
};

} // namespace fv
