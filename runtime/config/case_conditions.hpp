#pragma once
/// \file case_conditions.hpp
/// The flow conditions of a resolved case, the part a live solver may change
/// (EulerSolver::set_conditions(): a campaign's next point, a fixed-lift angle of attack):
/// [freestream], the [patch NAME] values derived from it, and [sweep]. Every other key (gas,
/// model, scheme, time, monitor but output_dir, run, initial) is fixed for the solver's life.
///
///   const CaseConfig point = resolve_case_again(cfg, {"freestream.aoa=2.5"});
///   FV_VERIFY(non_flow_difference(cfg, point).empty(), ...);
#include "runtime/config/case_config.hpp"

#include <string>
#include <vector>

namespace fv {

/// `c` resolved again from its resolved text with `sets` ("section.key=value", as fvrun --set)
/// applied, against the same mesh patches: what resolve_case() gives for the case file with
/// those overrides (the resolved text reads back bitwise).
CaseConfig resolve_case_again(const CaseConfig& c, const std::vector<std::string>& sets);

/// The first key outside the flow conditions (see file comment) whose resolved value differs
/// between `a` and `b`, as "[section] key = B (was A)"; empty when they differ in the flow
/// conditions only.
std::string non_flow_difference(const CaseConfig& a, const CaseConfig& b);

} // namespace fv
