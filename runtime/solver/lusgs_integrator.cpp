#include "runtime/solver/lusgs_integrator.hpp"

#include "common/error.hpp"

#include "runtime/solver/spatial_operator.hpp"

namespace fv {

LusgsIntegrator::LusgsIntegrator(SpatialOperator& op, const LusgsConfig& cfg)
    : op_(op), patches_(op.patches()),
      lusgs_(std::make_unique<LusgsSolver>(
          op.zone(), op.view(), lusgs_settings(cfg, op.flow(), op.scheme(), op.patch_configs()),
          nullptr, &patches_)) {
  FV_VERIFY(op.num_vars() == phys::kNumEq, "LU-SGS solves the mean flow's "
                                               << phys::kNumEq << " equations, not the "
                                               << op.num_vars() << " of this model");
}

StepOutcome LusgsIntegrator::advance(const StepInput& in) {
  CellExchange exchange;
  if (op_.multi_zone() || op_.exchange_hook())
    exchange = [this](const char* what, real_t* field, int ncomp) {
      op_.exchange_cells(what, field, ncomp);
    };
  lusgs_->set_transport(op_.flow().transport); // the operator's current conditions
  lusgs_->solve(op_.W(), op_.residual(), in.dt, in.dtGlobal, exchange);
  lusgs_->apply(in.U);
  return {};
}

} // namespace fv
