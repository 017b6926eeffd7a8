#include "runtime/solver/integrator.hpp"

#include "runtime/config/case_config.hpp"
#include "runtime/solver/explicit_rk.hpp"
#include "runtime/solver/lusgs_integrator.hpp"
#include "runtime/solver/newton_krylov.hpp"

namespace fv {

std::unique_ptr<Integrator> make_integrator(SpatialOperator& op, const CaseConfig& cfg) {
  switch (cfg.time.integrator) {
  case TimeScheme::Lusgs:
    return std::make_unique<LusgsIntegrator>(op, cfg.lusgs);
  case TimeScheme::Newton:
    return std::make_unique<NewtonKrylov>(op, cfg.newton);
  default:
    return std::make_unique<ExplicitRk>(op, cfg.time.integrator);
  }
}

} // namespace fv
