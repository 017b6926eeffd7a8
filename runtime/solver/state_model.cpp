#include "runtime/solver/state_model.hpp"

#include <cmath>

namespace fv {

StateModel StateModel::of(const FlowConfig& flow) {
  return visit_state_model(flow, [](auto m) {
    using M = decltype(m);
    StateModel s;
    s.nVars = M::kNumVars;
    s.rans = phys::kHasScalars<M>;
    s.conservative.assign(std::begin(M::kConservative), std::end(M::kConservative));
    return s;
  });
}

std::vector<int> StateModel::shown_residuals(const Extrusion& extrusion) const {
  int across = -1; // the momentum component along the extrusion axis
  for (int i = 0; i < 3 && extrusion.extruded(); ++i)
    if (std::fabs(extrusion.direction[static_cast<std::size_t>(i)]) == 1.0)
      across = phys::kMomentum + i;
  std::vector<int> v;
  for (int k = 0; k < nVars; ++k)
    if (k != across) v.push_back(k);
  return v;
}

std::vector<real_t> StateModel::freestream(const FlowConfig& flow) const {
  std::vector<real_t> w(flow.freestream.begin(), flow.freestream.end());
  if (rans) w.push_back(flow.nuTildeFreestream);
  return w;
}

std::vector<real_t> StateModel::residual_scales(const FlowConfig& flow) const {
  const std::vector<real_t> w = freestream(flow);
  std::vector<real_t> s(nVars);
  visit_state_model(flow,
                    [&](auto m) { decltype(m)::residual_scales(w.data(), flow.gamma, s.data()); });
  return s;
}

std::vector<real_t> StateModel::primitive_scales(const FlowConfig& flow) const {
  const std::vector<real_t> w = freestream(flow);
  std::vector<real_t> s(nVars);
  visit_state_model(flow,
                    [&](auto m) { decltype(m)::primitive_scales(w.data(), flow.gamma, s.data()); });
  return s;
}

void StateModel::to_primitive(const real_t* U, real_t* W, real_t gamma) const {
  if (rans)
    phys::SaModel::to_primitive(U, W, gamma);
  else
    phys::MeanFlowState::to_primitive(U, W, gamma);
}

void StateModel::to_conservative(const real_t* W, real_t* U, real_t gamma) const {
  if (rans)
    phys::SaModel::to_conservative(W, U, gamma);
  else
    phys::MeanFlowState::to_conservative(W, U, gamma);
}

} // namespace fv
