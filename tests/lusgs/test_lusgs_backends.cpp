// LU-SGS on the CUDA device against the CPU: every ordering that runs on the GPU (hyperplane,
// colour; hyperplane also with lusgs_dissipation = roe) with every launch mode (persistent,
// hybrid, graph, plain) agrees with the CPU to rounding after 30 iterations; every mode is
// bitwise equal to plain launches; graph replay captures each sweep direction once, the
// persistent modes capture nothing;
// natural ordering on the GPU is a usage error. Skips without a GPU (CI); run it on a GPU machine
// with a CUDA build (FV_ENABLE_CUDA=ON).
#include "runtime/backend/select.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/lusgs.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

using fv::real_t;

namespace {

const std::string kCase = std::string(R"(
[freestream]
nondimensional = true
mach = 0.6
lift_axis = y
[time]
integrator = lusgs
cfl_start = 5
cfl = 100
cfl_ramp_iterations = 10
lusgs_sweeps = 2
)") + fv::testing::channel_patches();

struct Result {
  std::vector<real_t> U;
  double seconds;
};

Result run(const fv::testing::TestZone& tz, const std::string& keys, fv::DeviceRequest dev,
           int iterations) {
  fv::select_device(dev);
  fv::IniFile ini = fv::IniFile::parse(kCase, "lusgs_backends.ini");
  std::string item;
  std::istringstream in(keys);
  while (std::getline(in, item, ';'))
    if (!item.empty()) ini.set_override(item);
  const fv::CaseConfig cfg = fv::resolve_case(ini, tz.patches);
  fv::EulerSolver solver(tz.zone, cfg);
  solver.initialise();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i)
    solver.step();
  Result r{solver.conservative(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
  fv::select_device(fv::DeviceRequest::Cpu);
  return r;
}

} // namespace

TEST(LusgsBackends, CudaMatchesCpu) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  fv::GenOptions o;
  o.family = fv::MeshFamily::Channel;
  o.cells = fv::GenCells::Mixed;
  o.n = {48, 16, 4};
  o.perturb = 0.1;
  o.shuffle = true;
  const fv::testing::TestZone tz = fv::testing::generated_zone(o);
  const int iterations = 30;
  // the orderings with the default (scalar) implicit dissipation, and hyperplanes with the Roe
  // matrix (every cell a 5x5 block)
  for (const char* variant : {"hyperplane", "colour", "hyperplane;time.lusgs_dissipation=roe"}) {
    const char* ordering = variant;
    const std::string base = std::string("time.lusgs_ordering=") + variant;
    const Result cpu = run(tz, base, fv::DeviceRequest::Cpu, iterations);
    const Result plain =
        run(tz, base + ";time.lusgs_launch=plain", fv::DeviceRequest::Cuda, iterations);
    const double d = fv::testing::max_relative_difference(tz.zone, cpu.U, plain.U);
    std::printf("%s (%d cells): |gpu - cpu| / |U| = %.2e; cpu %.3f s, gpu plain %.3f s for %d "
                "iterations\n",
                ordering, tz.zone.nCells, d, cpu.seconds, plain.seconds, iterations);
    EXPECT_LT(d, 1e-11) << ordering;
    for (const char* mode : {"graph", "persistent", "hybrid"}) {
      const Result r =
          run(tz, base + ";time.lusgs_launch=" + mode, fv::DeviceRequest::Cuda, iterations);
      std::printf("  %-10s %.3f s, bitwise equal to plain: %s\n", mode, r.seconds,
                  r.U == plain.U ? "yes" : "no");
      EXPECT_TRUE(r.U == plain.U) << ordering << ", " << mode; // same per-cell operations
    }
  }
}

TEST(LusgsBackends, GraphIsCapturedOnceAndNaturalIsRefused) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  fv::GenOptions o;
  o.family = fv::MeshFamily::Channel;
  o.n = {16, 6, 2};
  const fv::testing::TestZone tz = fv::testing::generated_zone(o);
  fv::select_device(fv::DeviceRequest::Cuda);
  {
    const fv::CaseConfig cfg =
        fv::resolve_case(fv::IniFile::parse(kCase, "lusgs_backends.ini"), tz.patches);
    fv::DeviceZone dz(tz.zone);
    fv::LusgsSettings s = fv::lusgs_settings(cfg);
    s.launch = fv::LusgsLaunch::Graph;
    fv::LusgsSolver l(tz.zone, dz.view(), s);
    const std::size_t nt = static_cast<std::size_t>(tz.zone.nTotalCells());
    std::vector<real_t> W(5 * nt, 1.0), R(5 * nt, 1e-3);
    for (std::size_t c = 0; c < nt; ++c)
      W[4 * nt + c] = 1.0 / 1.4;
    fv::DeviceArray<real_t> Wd(W, "W"), Rd(R, "R"), dt(nt, "dt");
    for (int i = 0; i < 3; ++i)
      l.solve(Wd.data(), Rd.data(), dt.data(), 0.1);
    EXPECT_EQ(l.graph_captures(), 1);
    s.launch = fv::LusgsLaunch::Persistent;
    fv::LusgsSolver p(tz.zone, dz.view(), s);
    for (int i = 0; i < 2; ++i)
      p.solve(Wd.data(), Rd.data(), dt.data(), 0.1);
    EXPECT_EQ(p.graph_captures(), 0);
    EXPECT_EQ(p.delta().to_host(), l.delta().to_host());
    s.ordering = fv::LusgsOrdering::Natural;
    try {
      fv::LusgsSolver bad(tz.zone, dz.view(), s);
      ADD_FAILURE() << "natural ordering accepted on the GPU";
    } catch (const fv::Error& e) {
      EXPECT_EQ(e.kind(), fv::ErrorKind::Usage);
    }
  }
  fv::select_device(fv::DeviceRequest::Cpu);
}
