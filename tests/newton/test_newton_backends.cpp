// Newton-Krylov on the CUDA device against the CPU backend (skips without a GPU, i.e. in CI):
// the residual histories agree to 1e-10 relative over the first 50 iterations and the runs
// take the same number of iterations to 10 orders, on the transonic channel and on SU2's
// NACA 0012 (../shared/meshes), with the Navier-Stokes model on a channel with no-slip walls
// and SU2's laminar cylinder, and with RANS (Spalart-Allmaras) on the TMR flat plate; every
// equation's residual is compared. Both backends run the same kernels in the same order with the
// same deterministic reductions; they differ only by rounding.
#include "runtime/backend/select.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"
#include "tests/newton/newton_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

using fv::real_t;

namespace {

struct Result {
  fv::RunSummary sum;
  double seconds = 0;
};

Result run(const fv::Zone& zone, const fv::CaseConfig& cfg, fv::DeviceRequest dev) {
  fv::select_device(dev);
  Result r;
  {
    fv::EulerSolver solver(zone, cfg);
    solver.initialise();
    const auto t0 = std::chrono::steady_clock::now();
    r.sum = fv::run_case(solver);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  fv::select_device(fv::DeviceRequest::Cpu);
  return r;
}

void compare(const char* name, const fv::Zone& zone, const fv::CaseConfig& cfg) {
  const Result cpu = run(zone, cfg, fv::DeviceRequest::Cpu);
  const Result gpu = run(zone, cfg, fv::DeviceRequest::Cuda);
  EXPECT_EQ(cpu.sum.iterations, gpu.sum.iterations);
  EXPECT_TRUE(gpu.sum.converged);
  const std::size_t n = std::min<std::size_t>({cpu.sum.history.size(), gpu.sum.history.size(), 50});
  real_t worst = 0;
  const int nv = fv::StateModel::of(cfg.flow).nVars;
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < nv; ++k) {
      const real_t a = cpu.sum.history[i].stats.rms[k], b = gpu.sum.history[i].stats.rms[k];
      if (a == 0 && b == 0) continue; // an equation without residual (w of a 2D flow)
      worst = std::max(worst, std::fabs(a - b) / std::max(a, b));
    }
  const auto& c = cpu.sum.history.back().coeff;
  const auto& g = gpu.sum.history.back().coeff;
  std::printf("%s: %d / %d iterations (cpu / gpu), max rel. residual diff over the first %zu "
              "%.2e, CL %.8f / %.8f, cpu %.2f s, gpu %.2f s\n",
              name, cpu.sum.iterations, gpu.sum.iterations, n, worst, c.CL, g.CL, cpu.seconds,
              gpu.seconds);
  EXPECT_LT(worst, 1e-10);
  EXPECT_NEAR(c.CL, g.CL, 1e-9 * std::max<real_t>(1, std::fabs(c.CL)));
}

} // namespace

TEST(NewtonBackends, CudaMatchesCpu) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  {
    fv::GenOptions o;
    o.family = fv::MeshFamily::Channel;
    o.cells = fv::GenCells::Hex;
    o.n = {96, 32, 1};
    o.extent = {3, 1, 1.0 / 32};
    o.bumpHeight = 0.03;
    const fv::testing::TestZone tz = fv::testing::generated_zone(o);
    const std::string text = "[freestream]\nnondimensional = true\nmach = 0.8\nlift_axis = y\n"
                             "[time]\nconvergence = 10\niterations = 300\n" +
                             fv::testing::channel_patches();
    compare("transonic channel 96x32", tz.zone,
            fv::resolve_case(fv::IniFile::parse(text, "channel"), tz.patches));
  }
  const auto& pz = fv::testing::naca0012_zones(1);
  if (pz.zones.empty()) return;
  compare("NACA 0012", pz.zones[0],
          fv::resolve_case(fv::IniFile::parse(fv::testing::naca0012_case(
                                                  "[time]\nconvergence = 10\niterations = 300\n"),
                                              "naca"),
                           pz.header.patches));
}

TEST(NewtonBackends, ViscousCudaMatchesCpu) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  {
    const fv::testing::TestZone tz =
        fv::testing::generated_zone(fv::testing::transonic_channel_options());
    const std::string text =
        "[freestream]\nnondimensional = true\nmach = 0.3\nlift_axis = y\nreynolds = 500\n"
        "[physics]\nmodel = navier_stokes\n[time]\nconvergence = 8\niterations = 200\n"
        "[patch inlet]\ntype = farfield\n[patch outlet]\ntype = farfield\n"
        "[patch lower_wall]\ntype = no_slip_wall\n[patch upper_wall]\ntype = no_slip_wall\n"
        "temperature = 1.1\n[patch side1]\ntype = symmetry\n[patch side2]\ntype = symmetry\n";
    compare("viscous channel", tz.zone,
            fv::resolve_case(fv::IniFile::parse(text, "viscous channel"), tz.patches));
  }
  const auto& pz = fv::testing::shared_2d_zones("su2/cylinder_lam.su2", 1.0, 1);
  if (pz.zones.empty()) return;
  const std::string cylinder =
      "[freestream]\nmach = 0.1\ntemperature = 300\nreynolds = 40\nlift_axis = y\n"
      "[physics]\nmodel = navier_stokes\n[time]\nconvergence = 8\niterations = 150\n"
      "[patch cylinder]\ntype = no_slip_wall\n[patch farfield]\ntype = farfield\n"
      "[patch symmetry]\ntype = symmetry\n";
  compare("cylinder Re 40", pz.zones[0],
          fv::resolve_case(fv::IniFile::parse(cylinder, "cylinder"), pz.header.patches));
}

TEST(NewtonBackends, RansCudaMatchesCpu) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  const auto& pz = fv::testing::shared_2d_zones("su2/flatplate_turb_137x97.su2", 0.1, 1, {"wall"});
  if (pz.zones.empty()) GTEST_SKIP() << "../shared/meshes not available";
  const std::string plate =
      "[freestream]\nmach = 0.2\ntemperature = 300\nreynolds = 5e6\nlift_axis = y\n"
      "[physics]\nmodel = rans_sa\n[time]\nconvergence = 8\niterations = 150\n"
      "[patch inlet]\ntype = subsonic_inflow\n[patch outlet]\ntype = subsonic_outflow\n"
      "[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n"
      "[patch wall]\ntype = no_slip_wall\n[patch symmetry_extruded]\ntype = symmetry\n";
  compare("RANS flat plate", pz.zones[0],
          fv::resolve_case(fv::IniFile::parse(plate, "plate"), pz.header.patches));
}
