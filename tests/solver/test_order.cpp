// Order of accuracy: the isentropic vortex (exact solution: the initial vortex carried by the
// free stream) on three refinements of hex and tet meshes, second order without limiter.
// Observed order of the density L1 error must be >= 1.8.
#include "runtime/config/case_config.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>

using fv::real_t;

namespace {
const real_t kPi = std::acos(-1.0);
constexpr real_t kGamma = 1.4, kStrength = 5.0, kHalf = 5.0; // domain [-5, 5]^2

/// Primitive state of the vortex centred at (xc, 0) in a unit free stream along x
/// (rho = 1, p = 1, u = 1; temperature p / rho).
void vortex(real_t x, real_t y, real_t xc, real_t* W) {
  const real_t dx = x - xc, r2 = dx * dx + y * y;
  const real_t e = std::exp(0.5 * (1 - r2));
  const real_t T = 1 - (kGamma - 1) * kStrength * kStrength / (8 * kGamma * kPi * kPi) * e * e;
  W[0] = std::pow(T, 1 / (kGamma - 1));
  W[1] = 1 - kStrength / (2 * kPi) * e * y;
  W[2] = kStrength / (2 * kPi) * e * dx;
  W[3] = 0;
  W[4] = W[0] * T;
}

/// L1 density error over |x|, |y| < 3 after advecting the vortex to t_end.
real_t vortex_error(int n, bool tets, real_t tEnd) {
  const real_t h = 2 * kHalf / n;
  const fv::Mesh mesh =
      fv::testing::box_mesh(n, n, 1, {-kHalf, -kHalf, 0}, {kHalf, kHalf, h}, tets);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  fv::IniFile ini = fv::IniFile::parse(R"(
[gas]
gas_constant = 1
[freestream]
pressure = 1
temperature = 1
lift_axis = y
[scheme]
limiter = none
[time]
stepping = global
integrator = ssprk3
cfl = 0.6
iterations = 100000
[monitor]
output_interval = 100000
[patch xmin]
type = farfield
[patch xmax]
type = farfield
[patch ymin]
type = farfield
[patch ymax]
type = farfield
[patch zmin]
type = symmetry
[patch zmax]
type = symmetry
)",
                                       "vortex.ini");
  ini.set("freestream", "mach", std::to_string(1 / std::sqrt(kGamma)));
  ini.set("time", "final_time", std::to_string(tEnd));
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  const fv::idx_t nt = zone.nTotalCells();
  std::vector<real_t> U(5 * static_cast<std::size_t>(nt));
  for (fv::idx_t c = 0; c < nt; ++c) {
    real_t W[5], u[5];
    vortex(zone.cellCentroid[3 * c], zone.cellCentroid[3 * c + 1], 0.0, W);
    fv::phys::prim_to_cons(W, u, kGamma);
    for (int k = 0; k < 5; ++k)
      U[k * nt + c] = u[k];
  }
  solver.set_conservative(U);
  fv::run_case(solver);
  EXPECT_NEAR(solver.time(), tEnd, 1e-12);
  const auto W = solver.primitive();
  real_t err = 0, vol = 0;
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    const real_t x = zone.cellCentroid[3 * c], y = zone.cellCentroid[3 * c + 1];
    if (std::fabs(x - tEnd) > 3 || std::fabs(y) > 3) continue;
    real_t We[5];
    vortex(x, y, tEnd, We);
    err += std::fabs(W[c] - We[0]) * zone.cellVolume[c];
    vol += zone.cellVolume[c];
  }
  return err / vol;
}

void check_order(bool tets, int n0) {
  const real_t tEnd = 1.0;
  real_t e[3];
  for (int i = 0; i < 3; ++i)
    e[i] = vortex_error(n0 << i, tets, tEnd);
  const real_t o1 = std::log2(e[0] / e[1]), o2 = std::log2(e[1] / e[2]);
  std::printf("vortex %s: L1(rho) n=%d %.4g, n=%d %.4g, n=%d %.4g; orders %.2f %.2f\n",
              tets ? "tets" : "hexes", n0, e[0], 2 * n0, e[1], 4 * n0, e[2], o1, o2);
  EXPECT_GE(o2, 1.8);
  EXPECT_GE(o1, 1.5);
}
} // namespace

TEST(Order, IsentropicVortexOnHexes) {
  check_order(false, 20);
}

TEST(Order, IsentropicVortexOnTets) {
  check_order(true, 16);
}
