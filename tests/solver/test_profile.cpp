// fvrun --profile (monitor.profile): per-kernel times change nothing in the results, list the
// solver's kernels and account for the iteration; the profiler's nesting rules.
#include "runtime/backend/forall.hpp"
#include "runtime/backend/kernel_sequence.hpp"
#include "runtime/backend/profiler.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/output/run_record.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using fv::real_t;

namespace {
const std::string kCase = std::string(R"(
[freestream]
mach = 0.7
aoa = 5
[time]
iterations = 12
[monitor]
output_interval = 4
)") + fv::testing::kBoxWallZminPatches;

fv::RunSummary run(const fv::Zone& zone, const fv::Mesh& mesh, const std::string& integrator,
                   bool profile, const std::string& dir = {}) {
  fv::IniFile ini = fv::IniFile::parse(kCase, "profile.ini");
  ini.set_override("time.integrator=" + integrator);
  if (integrator == "lusgs")
    ini.set_override("time.lusgs_ordering=natural"); // test zones: no hyperplanes
  ini.set_override(std::string("monitor.profile=") + (profile ? "true" : "false"));
  if (!dir.empty()) ini.set_override("monitor.output_dir=" + dir);
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  if (dir.empty()) return fv::run_case(solver);
  fv::output::RunRecord record(cfg);
  return fv::run_case(solver, record);
}
} // namespace

TEST(Profile, SameHistoryAndSharesOfTheIteration) {
  const fv::Mesh mesh = fv::testing::box_mesh(8, 4, 4, {0, 0, 0}, {2, 1, 1}, true, 0.1);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  for (const std::string integrator : {"ssprk3", "lusgs"}) {
    SCOPED_TRACE(integrator);
    const fv::RunSummary off = run(zone, mesh, integrator, false);
    const std::string dir = fv::testing::scratch_dir() + "/profile_" + integrator;
    const fv::RunSummary on = run(zone, mesh, integrator, true, dir);
    EXPECT_TRUE(off.profile.empty());
    EXPECT_FALSE(fv::backend::profiling_on());
    // profiling changes nothing in the results: identical history, bit for bit
    ASSERT_EQ(on.history.size(), off.history.size());
    for (std::size_t i = 0; i < on.history.size(); ++i) {
      for (int k = 0; k < 5; ++k)
        ASSERT_EQ(on.history[i].stats.rms[k], off.history[i].stats.rms[k]) << "row " << i;
      ASSERT_EQ(on.history[i].coeff.CL, off.history[i].coeff.CL) << "row " << i;
    }
    // every kernel is listed with calls and time; shares add up to 100 % of the loop
    ASSERT_GE(on.profile.size(), 4u);
    EXPECT_EQ(on.profile.back().label, "(outside kernels)");
    std::set<std::string> labels;
    double percent = 0, kernelPercent = 0;
    for (const auto& s : on.profile) {
      labels.insert(s.label);
      percent += s.percent;
      EXPECT_GE(s.ms, 0.0) << s.label;
      if (s.label == "(outside kernels)") continue;
      kernelPercent += s.percent;
      EXPECT_GT(s.calls, 0) << s.label;
      EXPECT_NEAR(s.nsPerCellIteration, 1e6 * s.ms / (zone.nCells * on.iterations),
                  1e-9 * (1 + s.nsPerCellIteration));
    }
    EXPECT_NEAR(percent, 100.0, 0.01);
    EXPECT_GT(kernelPercent, 0.0);
    EXPECT_LE(kernelPercent, 100.0 + 1e-6);
    // a second-order Euler run on one zone: the face loops read stored face states
    EXPECT_TRUE(labels.count("gradient_limiter_states")) << "kernels missing from the profile";
    EXPECT_TRUE(labels.count("boundary_state_fluxes")) << "kernels missing from the profile";
    if (integrator == "ssprk3") {
      EXPECT_TRUE(labels.count("interior_state_fluxes"));
      EXPECT_TRUE(labels.count("rk_stage_primitives"));
      EXPECT_TRUE(labels.count("flux_sum_rk_primitives"));
      EXPECT_TRUE(labels.count("flux_sum_rk_stage"));
      EXPECT_FALSE(labels.count("rk_stage"));
      // three stages per iteration: the first updates from the stored residual of the start
      // state, the later two sum their fluxes and update in one kernel; the first two store
      // the primitives of their result, which the next stage evaluates, so that only the start
      // state's evaluation has a primitives pass
      for (const auto& s : on.profile) {
        if (s.label == "rk_stage_primitives" || s.label == "flux_sum_rk_primitives" ||
            s.label == "flux_sum_rk_stage" || s.label == "primitives") {
          EXPECT_EQ(s.calls, on.iterations) << s.label;
        }
      }
    }
    // profile.csv holds the same rows
    std::ifstream f(dir + "/profile.csv");
    ASSERT_TRUE(f.good());
    std::string line;
    std::getline(f, line);
    EXPECT_EQ(line, "label,calls,total_ms,percent_of_iteration,ns_per_cell_iteration");
    std::size_t rows = 0;
    while (std::getline(f, line))
      if (!line.empty()) ++rows;
    EXPECT_EQ(rows, on.profile.size());
  }
}

namespace {
void nested_launches_count_once(fv::KernelSequence::Mode mode) {
  fv::backend::profiling_start();
  fv::DeviceArray<real_t> a(100, "a");
  real_t* p = a.data();
  fv::forall("outer_a", 100, [=] FV_HOST_DEVICE(fv::idx_t i) { p[i] = i; });
  fv::forall("outer_a", 100, [=] FV_HOST_DEVICE(fv::idx_t i) { p[i] += 1; });
  fv::KernelSequence seq("sequence_b", mode);
  for (int rep = 0; rep < 2; ++rep) // graph mode: captured, then replayed
    seq.run([&] {
      for (int g = 0; g < 3; ++g)
        fv::forall("inner", 50, [=] FV_HOST_DEVICE(fv::idx_t i) { p[i] *= 2; });
    });
  fv::forall("empty", 0, [=] FV_HOST_DEVICE(fv::idx_t) {});
  const auto rows = fv::backend::profiling_stop();
  EXPECT_FALSE(fv::backend::profiling_on());
  std::set<std::string> labels;
  for (const auto& r : rows) {
    labels.insert(r.label);
    if (r.label == "outer_a") {
      EXPECT_EQ(r.calls, 2);
    }
    if (r.label == "sequence_b") {
      EXPECT_EQ(r.calls, 2);
    }
    EXPECT_GE(r.ms, 0.0);
  }
  EXPECT_EQ(labels, (std::set<std::string>{"outer_a", "sequence_b"}));
  // the kernels ran as without profiling
  std::vector<real_t> h(100);
  a.copy_to(h.data());
  EXPECT_EQ(h[7], 8.0 * 64);
  EXPECT_EQ(h[70], 71.0);
  // off again: nothing recorded
  fv::forall("after", 10, [=] FV_HOST_DEVICE(fv::idx_t i) { p[i] = 0; });
  fv::backend::profiling_start();
  EXPECT_TRUE(fv::backend::profiling_stop().empty());
}
} // namespace

TEST(Profile, NestedLaunchesCountOnceUnderTheOuterLabel) {
  nested_launches_count_once(fv::KernelSequence::Mode::Plain);
}

// On a GPU (skipped elsewhere): CUDA events per launch, a CUDA graph replay timed as one kernel.
TEST(Profile, GpuEventsAndGraphReplays) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (CPU-only build or no GPU)";
  fv::select_device(fv::DeviceRequest::Cuda);
  nested_launches_count_once(fv::KernelSequence::Mode::Graph);
  nested_launches_count_once(fv::KernelSequence::Mode::Plain);
  fv::select_device(fv::DeviceRequest::Cpu);
}
