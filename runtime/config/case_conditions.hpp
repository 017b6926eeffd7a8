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

/// `c` resolved again from its source (the case file with its overrides) with `sets`
/// ("section.key=value", as fvrun --set) applied after them, against the same mesh (c.mesh:
/// patches and extrusion): what resolve_case() gives for the case file with those overrides.
/// Defaults derived from the free stream (a patch's mach or direction not given) follow the
/// new free stream.
CaseConfig resolve_case_again(const CaseConfig& c, const std::vector<std::string>& sets);

/// The first key outside the flow conditions (see file comment) whose resolved value differs
/// between `a` and `b`, as "[section] key = B (was A)"; empty when they differ in the flow
/// conditions only.
std::string non_flow_difference(const CaseConfig& a, const CaseConfig& b);

} // namespace fv
