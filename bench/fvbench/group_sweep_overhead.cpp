// Launch and barrier cost of fv::forall_groups sweeps with a trivial body.
#include "bench/fvbench/group_sweep_overhead.hpp"

#include "runtime/backend/kernel_sequence.hpp"
#include "runtime/backend/memory.hpp"

#include <chrono>

namespace fv::bench {

double group_sweep_ms(const GroupSchedule& s, GroupLaunch mode, bool graph, real_t* field,
                      int repeats) {
  FV_VERIFY(!graph || mode == GroupLaunch::PerGroup,
            "group_sweep_ms: graph replay needs per-group launches");
  KernelSequence seq("group sweep overhead",
                     graph ? KernelSequence::Mode::Graph : KernelSequence::Mode::Plain);
  const auto sweep = [&] {
    seq.run([&] {
      real_t* x = field;
      forall_groups(
          "group_sweep_overhead", s, [=] FV_HOST_DEVICE(idx_t i) { x[i] += 1.0; }, false, mode);
    });
  };
  for (int k = 0; k < 2; ++k)
    sweep();
  backend::synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < repeats; ++k)
    sweep();
  backend::synchronize();
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return 1e3 * sec / (repeats > 0 ? repeats : 1);
}

} // namespace fv::bench
