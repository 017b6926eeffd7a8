#include "runtime/campaign/predictor.hpp"

#include "common/error.hpp"
#include "runtime/physics/euler/euler_state.hpp"

#include <cmath>

namespace fv::campaign {

std::optional<real_t> secant_step(const CampaignPoint& p, const CampaignPoint& j,
                                  const CampaignPoint& k) {
  int axis = -1;
  for (std::size_t a = 0; a < p.values.size(); ++a) {
    const bool pj = p.values[a] != j.values[a], kj = k.values[a] != j.values[a];
    if (pj || kj) {
      if (axis >= 0 && static_cast<std::size_t>(axis) != a) return std::nullopt;
      if (!(pj && kj)) return std::nullopt; // both must differ from j on the same axis
      axis = static_cast<int>(a);
    }
  }
  if (axis < 0) return std::nullopt;
  const real_t dp = p.values[axis] - j.values[axis], dk = j.values[axis] - k.values[axis];
  if (dp * dk <= 0) return std::nullopt; // k on p's side of j: an interpolation, not taken
  return dp / dk;
}

std::size_t extrapolate_state(std::vector<real_t>& Uj, const std::vector<real_t>& Uk, real_t t,
                              idx_t nt, const StateModel& sm, real_t gamma) {
  const int nv = sm.nVars;
  FV_VERIFY(Uj.size() == Uk.size() && Uj.size() == static_cast<std::size_t>(nv) * nt,
            "extrapolate_state: states of different sizes");
  std::size_t kept = 0;
  for (idx_t c = 0; c < nt; ++c) {
    real_t u[phys::kMaxVars] = {}; // zeroed: gcc 12 -Wmaybe-uninitialized (nv is a runtime bound)
    for (int v = 0; v < nv; ++v) {
      const std::size_t i = static_cast<std::size_t>(v) * nt + c;
      u[v] = Uj[i] + t * (Uj[i] - Uk[i]);
    }
    const real_t rho = u[phys::kDensity];
    real_t m2 = 0;
    for (int d = 0; d < 3; ++d)
      m2 += u[phys::kMomentum + d] * u[phys::kMomentum + d];
    const real_t p = rho > 0 ? (gamma - 1) * (u[phys::kEnergy] - 0.5 * m2 / rho) : -1;
    bool ok = rho > 0 && p > 0 && std::isfinite(p);
    for (int v = phys::kNumEq; v < nv; ++v) // turbulence variables stay >= 0
      ok = ok && u[v] >= 0;
    if (!ok) {
      ++kept;
      continue;
    }
    for (int v = 0; v < nv; ++v)
      Uj[static_cast<std::size_t>(v) * nt + c] = u[v];
  }
  return kept;
}

} // namespace fv::campaign
