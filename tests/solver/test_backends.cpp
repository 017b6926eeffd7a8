// The same kernels on the CUDA device and on the CPU: residual histories, forces and states
// agree to rounding (deterministic reductions, no atomics). Skips without a GPU (CI); run it
// on a GPU machine with a CUDA build (FV_ENABLE_CUDA=ON).
#include "prep/generate_mesh.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>

using fv::real_t;

namespace {
const char* kCase = R"(
[freestream]
mach = 0.8
aoa = 3
[time]
integrator = ssprk3
iterations = 50
cfl = 1.5
[monitor]
output_interval = 25
[patch xmin]
type = farfield
[patch xmax]
type = subsonic_outflow
[patch ymin]
type = symmetry
[patch ymax]
type = farfield
[patch zmin]
type = slip_wall
[patch zmax]
type = farfield
)";

struct Result {
  std::vector<real_t> U;
  std::vector<fv::HistoryRow> history;
  double seconds;
};

Result run(const fv::Zone& zone, const fv::CaseConfig& cfg, fv::DeviceRequest dev) {
  fv::select_device(dev);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const auto t0 = std::chrono::steady_clock::now();
  const fv::RunSummary s = fv::run_case(solver);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Result r{solver.conservative(), s.history, sec};
  fv::select_device(fv::DeviceRequest::Cpu);
  return r;
}

/// Runs the case on both backends and expects the same residual history, state and lift.
void expect_backends_agree(const fv::Zone& zone, const fv::CaseConfig& cfg, const char* what) {
  const Result cpu = run(zone, cfg, fv::DeviceRequest::Cpu);
  const Result gpu = run(zone, cfg, fv::DeviceRequest::Cuda);
  ASSERT_EQ(cpu.history.size(), gpu.history.size());
  real_t maxRes = 0, maxU = 0;
  for (std::size_t i = 0; i < cpu.history.size(); ++i)
    for (int k = 0; k < 5; ++k) {
      const real_t a = cpu.history[i].stats.rms[k], b = gpu.history[i].stats.rms[k];
      if (a > 1e-300) maxRes = std::max(maxRes, std::fabs(a - b) / a);
    }
  const fv::idx_t n = zone.nTotalCells();
  for (int k = 0; k < 5; ++k) {
    real_t scale = 0;
    for (fv::idx_t c = 0; c < n; ++c)
      scale = std::max(scale, std::fabs(cpu.U[k * n + c]));
    for (fv::idx_t c = 0; c < n; ++c)
      maxU = std::max(maxU, std::fabs(cpu.U[k * n + c] - gpu.U[k * n + c]) / scale);
  }
  const real_t dCL = std::fabs(cpu.history.back().coeff.CL - gpu.history.back().coeff.CL);
  std::printf("%s: max rel. residual diff %.2e, max rel. state diff %.2e, |dCL| %.2e; "
              "cpu %.3f s, gpu %.3f s\n",
              what, maxRes, maxU, dCL, cpu.seconds, gpu.seconds);
  EXPECT_LT(maxRes, 1e-10);
  EXPECT_LT(maxU, 1e-12);
  EXPECT_LT(dCL, 1e-12);
}
} // namespace

TEST(Backends, CudaMatchesCpu) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  for (bool tets : {false, true}) {
    SCOPED_TRACE(tets ? "tets" : "hexes");
    const fv::Mesh mesh = fv::testing::box_mesh(
        24, 12, 12, {0, 0, 0}, {2, 1, 1}, tets, 0.15, [](real_t x, real_t y, real_t z) {
          const real_t b = 0.08 * std::exp(-20 * (x - 1) * (x - 1));
          return std::array<real_t, 3>{x, y, z + b * (1 - z)};
        });
    const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
    for (const char* variant :
         {"scheme.limiter=venkat", "scheme.limiter=barth", "scheme.flux=rusanov",
          "time.integrator=rk4", "scheme.precision=mixed"}) {
      SCOPED_TRACE(variant);
      fv::IniFile ini = fv::IniFile::parse(kCase, "backends.ini");
      ini.set_override(variant);
      const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
      const std::string what = std::string(tets ? "tets " : "hexes ") + variant;
      expect_backends_agree(zone, cfg, what.c_str());
    }
  }
}

// Cells of several shapes in one zone (hexahedra, prisms, a pyramid/tetrahedron transition
// layer, tetrahedra: fvgen's "mixed"): the kernels' general path (CellShape<0, 0>), which
// uniform zones never take. A supersonic wedge, so that the limiter acts.
TEST(Backends, CudaMatchesCpuOnMixedCells) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  fv::GenOptions o;
  o.family = fv::MeshFamily::Wedge;
  o.cells = fv::GenCells::Mixed;
  o.n = {24, 12, 3};
  o.perturb = 0.15;
  o.shuffle = true;
  const fv::Mesh mesh = fv::generate_mesh(o);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  for (const char* variant : {"scheme.limiter=venkat", "scheme.precision=mixed"}) {
    SCOPED_TRACE(variant);
    fv::IniFile ini = fv::IniFile::parse(R"(
[freestream]
mach = 2.5
[time]
integrator = ssprk3
iterations = 50
cfl = 1.2
[monitor]
output_interval = 25
)" + std::string(fv::testing::kSupersonicWedgePatches),
                                         "mixed.ini");
    ini.set_override(variant);
    const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
    const std::string what = std::string("mixed cells ") + variant;
    expect_backends_agree(zone, cfg, what.c_str());
  }
}

TEST(Backends, Throughput) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  const char* env = std::getenv("FV_THROUGHPUT_N");
  const int n = env ? std::atoi(env) : 64;
  for (bool tets : {false, true}) {
    const fv::Mesh mesh =
        fv::testing::box_mesh(n, n, tets ? n / 2 : n, {0, 0, 0}, {2, 1, 1}, tets, 0.1);
    const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
    fv::IniFile ini = fv::IniFile::parse(kCase, "throughput.ini");
    ini.set_override("time.iterations=20");
    ini.set_override("monitor.output_interval=10");
    const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
    fv::select_device(fv::DeviceRequest::Cuda);
    {
      fv::EulerSolver solver(zone, cfg);
      solver.initialise();
      solver.step(); // warm-up
      const auto t0 = std::chrono::steady_clock::now();
      const int iters = 20;
      for (int i = 0; i < iters; ++i)
        solver.step();
      const double sec =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("throughput %s: %d cells, SSP-RK3 2nd order Roe+Venkat: %.3f ms/iteration, "
                  "%.2f ns per cell per iteration (%.2f per stage), %.1f MiB on the GPU\n",
                  tets ? "tets" : "hexes", zone.nCells, 1e3 * sec / iters,
                  1e9 * sec / iters / zone.nCells, 1e9 * sec / iters / zone.nCells / 3,
                  solver.device_bytes() / 1048576.0);
      EXPECT_GT(sec, 0.0);
    }
    fv::select_device(fv::DeviceRequest::Cpu);
  }
}
