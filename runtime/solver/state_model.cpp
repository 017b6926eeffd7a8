#include "runtime/solver/state_model.hpp"

namespace fv {

StateModel StateModel::of(const CaseConfig& cfg) {
  return visit_state_model(cfg, [](auto m) {
    using M = decltype(m);
    StateModel s;
    s.nVars = M::kNumVars;
    s.rans = phys::kHasScalars<M>;
    s.conservative.assign(std::begin(M::kConservative), std::end(M::kConservative));
    return s;
  });
}

std::vector<real_t> StateModel::freestream(const CaseConfig& cfg) const {
  std::vector<real_t> w(cfg.freestream.begin(), cfg.freestream.end());
  if (rans) w.push_back(cfg.nuTildeFreestream);
  return w;
}

std::vector<real_t> StateModel::residual_scales(const CaseConfig& cfg) const {
  const std::vector<real_t> w = freestream(cfg);
  std::vector<real_t> s(nVars);
  visit_state_model(cfg,
                    [&](auto m) { decltype(m)::residual_scales(w.data(), cfg.gamma, s.data()); });
  return s;
}

std::vector<real_t> StateModel::primitive_scales(const CaseConfig& cfg) const {
  const std::vector<real_t> w = freestream(cfg);
  std::vector<real_t> s(nVars);
  visit_state_model(cfg,
                    [&](auto m) { decltype(m)::primitive_scales(w.data(), cfg.gamma, s.data()); });
  return s;
}

void StateModel::to_primitive(const real_t* U, real_t* W, real_t gamma) const {
  if (rans)
    phys::SaModel::to_primitive(U, W, gamma);
  else
    phys::EulerModel::to_primitive(U, W, gamma);
}

void StateModel::to_conservative(const real_t* W, real_t* U, real_t gamma) const {
  if (rans)
    phys::SaModel::to_conservative(W, U, gamma);
  else
    phys::EulerModel::to_conservative(W, U, gamma);
}

} // namespace fv
