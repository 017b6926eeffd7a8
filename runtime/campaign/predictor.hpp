#pragma once
/// \file predictor.hpp
/// A warm start's first state from two finished points (continuation's secant predictor):
/// where point j lies between point k and the new point p on one axis, the state is
/// extrapolated along it, U = Uj + t (Uj - Uk), t = (x_p - x_j) / (x_j - x_k), so that what
/// varies smoothly with the swept value starts closer to p's solution than Uj alone. A cell
/// whose extrapolated state is not physical (density or pressure <= 0, a negative
/// rho nu-tilde) keeps Uj's.
#include "runtime/campaign/campaign_points.hpp"
#include "runtime/solver/state_model.hpp"

#include <optional>
#include <vector>

namespace fv::campaign {

/// t of the extrapolation from j (and k) to p, when p and j differ on exactly one axis and k
/// differs from j on that axis only, on the other side of j than p; none otherwise.
std::optional<real_t> secant_step(const CampaignPoint& p, const CampaignPoint& j,
                                  const CampaignPoint& k);

/// Uj + t (Uj - Uk), cell by cell (conservative variables, component-major: U[v * nt + c]),
/// Uj's cell where the extrapolation is not physical. Returns how many cells kept Uj's state.
std::size_t extrapolate_state(std::vector<real_t>& Uj, const std::vector<real_t>& Uk, real_t t,
                              idx_t nt, const StateModel& sm, real_t gamma);

} // namespace fv::campaign
