#pragma once
/// \file campaign_points.hpp
/// The points of a campaign ([sweep], fvrun --sweep): the product of the swept keys' values,
/// the first axis of SweepConfig::axes outermost (kSweptKeys' order: one lift curve per Mach
/// number), each with the folder its outputs go to, named from its values ("aoa_1.25",
/// "mach_0.8_aoa_-2"), and the distance between two points that picks a warm start's source.
#include "runtime/config/case_config.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace fv::campaign {

/// One point of the product.
struct CampaignPoint {
  std::vector<real_t> values; ///< one per axis, in SweepConfig::axes order
  std::string folder;         ///< "KEY_VALUE" per axis joined by '_'
};

/// A swept value as folder names and polar.csv write it (12 significant digits, the values'
/// own precision: sweep_values()).
std::string format_value(real_t v);

/// Every point of `sweep`, the last axis varying fastest.
std::vector<CampaignPoint> campaign_points(const SweepConfig& sweep);

/// The distance between two points in units of each axis' spacing() (Euclidean over the axes).
real_t point_distance(const SweepConfig& sweep, const CampaignPoint& a, const CampaignPoint& b);

/// The "section.key=value" overrides that make the campaign's case the case of point `p`: the
/// swept [freestream] keys set to its values, [sweep] emptied (groups 1), output_dir =
/// `dir`/folder.
std::vector<std::string> point_overrides(const SweepConfig& sweep, const CampaignPoint& p,
                                         const std::string& dir);

} // namespace fv::campaign
