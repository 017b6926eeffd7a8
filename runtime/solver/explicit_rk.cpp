#include "runtime/solver/explicit_rk.hpp"

#include "common/error.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/spatial_operator.hpp"

namespace fv {

ExplicitRk::ExplicitRk(SpatialOperator& op, TimeScheme scheme) : op_(op), scheme_(scheme) {
  FV_VERIFY(scheme == TimeScheme::Rk2 || scheme == TimeScheme::SspRk3 || scheme == TimeScheme::Rk4,
            "ExplicitRk: not an explicit scheme");
  if (scheme_ == TimeScheme::Rk4)
    acc_ = DeviceArray<real_t>(op.num_vars() * static_cast<std::size_t>(op.zone().nTotalCells()),
                               "rk4 accumulator");
}

std::string ExplicitRk::name() const {
  return enum_name(kTimeSchemeNames, scheme_);
}

StepOutcome ExplicitRk::advance(const StepInput& in) {
  visit_state_model(op_.flow(), [&](auto m) { advance_model<decltype(m)::kNumVars>(in); });
  return {};
}

template <int kNumVars>
void ExplicitRk::advance_model(const StepInput& in) {
  const ZoneView& z = op_.view();
  real_t* U = in.U;
  const real_t* U0 = in.U0;
  // the first stage's residual R(U0) is in the operator already
  // the first stage reads the start state from U0 (U's contents are undefined at entry:
  // overwrites_state()); a = 0 there, so the result equals that of U = U0
  // later stages: the residual of U and the update in one call (their flux sum and update
  // fused: SpatialOperator::evaluate_and_update)
  // every stage but the last stores the primitives of its result, which the next stage
  // evaluates right away (RkUpdate::storePrimitives: no primitives pass there)
  auto stage = [&](real_t a, real_t b, real_t beta, bool first, bool last) {
    if (first)
      op_.update(RkUpdate{a, b, beta, in.dt, in.dtGlobal, U0, U0, U, !last});
    else
      op_.evaluate_and_update(RkUpdate{a, b, beta, in.dt, in.dtGlobal, U0, U, U, !last});
  };
  switch (scheme_) {
  case TimeScheme::Rk2: // SSP RK2 (Heun)
    stage(0.0, 1.0, 1.0, true, false);
    stage(0.5, 0.5, 1.0, false, true);
    break;
  case TimeScheme::Rk4: { // classical: U = U0 + dt/6 (k1 + 2 k2 + 2 k3 + k4)
    const real_t c[4] = {0.5, 0.5, 1.0, 0.0};
    const real_t w[4] = {1.0 / 6.0, 2.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0};
    for (int s = 0; s < 4; ++s) {
      if (s > 0) op_.evaluate(U);
      kernels::accumulate<kNumVars>(z, s == 0 ? 0.0 : 1.0, w[s], op_.residual(), acc_.data());
      if (s < 3)
        kernels::rk_stage<kNumVars>(z, 0.0, 1.0, c[s], in.dt, in.dtGlobal, U0, U0, op_.residual(),
                                    U);
      else
        kernels::rk_stage<kNumVars>(z, 0.0, 1.0, 1.0, in.dt, in.dtGlobal, U0, U0, acc_.data(), U);
    }
    break;
  }
  default: // Shu-Osher SSP-RK3
    stage(0.0, 1.0, 1.0, true, false);
    stage(0.75, 0.25, 1.0, false, false);
    stage(1.0 / 3.0, 2.0 / 3.0, 1.0, false, true);
    break;
  }
}

} // namespace fv
