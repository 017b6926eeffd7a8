#pragma once
/// \file group_sweep_overhead.hpp
/// The cost of sweeping a group schedule with (almost) no work per index, for comparing the
/// launch modes of fv::forall_groups (and CUDA-graph replay of per-group launches): what every
/// group costs in launches and barriers alone, before any LU-SGS arithmetic. Used by the
/// LU-SGS launch benchmark (tests/lusgs/lusgs_bench --launch-modes).
#include "runtime/backend/forall.hpp"

namespace fv::bench {

/// Milliseconds per sweep over all groups of `s` (forward), each index doing field[i] += 1
/// (field: device memory of at least s.hostOffsets[s.nGroups] values), mean over
/// `repeats` sweeps after 2 warm-up sweeps, synchronised. graph: per-group launches captured
/// once into a CUDA graph and replayed (mode must be PerGroup).
double group_sweep_ms(const GroupSchedule& s, GroupLaunch mode, bool graph, real_t* field,
                      int repeats);

} // namespace fv::bench
