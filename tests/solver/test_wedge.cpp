// Supersonic flow over a wedge (generated 3D mesh, one cell layer between symmetry planes):
// shock angle within 0.5 degree of oblique-shock theory and post-shock pressure within 1 %.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>

using fv::real_t;

namespace {
const real_t kPi = std::acos(-1.0);

/// Weak oblique-shock angle (radians) for Mach M and deflection theta (theta-beta-M relation).
real_t shock_angle(real_t M, real_t theta, real_t g) {
  auto f = [&](real_t b) {
    return 2.0 / std::tan(b) * (M * M * std::sin(b) * std::sin(b) - 1) /
               (M * M * (g + std::cos(2 * b)) + 2) -
           std::tan(theta);
  };
  real_t lo = std::asin(1 / M) + 1e-9, hi = lo;
  // the weak solution lies between the Mach angle and the angle of maximum deflection
  real_t best = lo, fbest = -1e300;
  for (int i = 0; i <= 2000; ++i) {
    const real_t b = lo + (kPi / 2 - lo) * i / 2000.0;
    if (f(b) > fbest) {
      fbest = f(b);
      best = b;
    }
  }
  hi = best;
  for (int it = 0; it < 200; ++it) {
    const real_t mid = 0.5 * (lo + hi);
    (f(mid) > 0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

struct WedgeResult {
  real_t betaDeg, pressureRatio;
  real_t overshoot; ///< largest p / p2 - 1 and p1 / p - 1 over the cells away from the boundaries
  int iterations;
};

/// The explicit scheme of the original test (SSP-RK3, CFL ramp to 1.5, Venkatakrishnan K = 5).
const char* kExplicit = R"(
[scheme]
limiter = venkat
venkat_k = 5
[time]
integrator = ssprk3
cfl = 1.5
cfl_start = 0.5
cfl_ramp_iterations = 100
iterations = 3000
convergence = 4
)";

/// `settings`: the [scheme] and [time] sections (kExplicit, or fvrun's defaults plus keys).
WedgeResult run_wedge(int nx, int ny, real_t mach, real_t thetaDeg, bool tets,
                      const std::string& settings = kExplicit) {
  const real_t theta = thetaDeg * kPi / 180, x0 = 0.4, L = 1.4;
  auto wall = [&](real_t x) { return x > x0 ? (x - x0) * std::tan(theta) : 0.0; };
  const fv::Mesh mesh = fv::testing::box_mesh(
      nx, ny, 1, {0, 0, 0}, {L, 1, 1.0 / ny}, tets, 0.0, [&](real_t x, real_t y, real_t z) {
        const real_t yb = wall(x);
        return std::array<real_t, 3>{x, yb + y * (1 - yb), z};
      });
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  fv::IniFile ini = fv::IniFile::parse(settings + R"(
[freestream]
nondimensional = true
lift_axis = y
[monitor]
output_interval = 500
[patch xmin]
type = supersonic_inflow
[patch xmax]
type = supersonic_outflow
[patch ymin]
type = slip_wall
[patch ymax]
type = farfield
[patch zmin]
type = symmetry
[patch zmax]
type = symmetry
)",
                                       "wedge.ini");
  ini.set("freestream", "mach", std::to_string(mach));
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const fv::RunSummary sum = fv::run_case(solver);
  EXPECT_TRUE(sum.converged) << "wedge did not converge 4 orders in " << sum.iterations;
  const auto W = solver.primitive();
  const fv::idx_t n = zone.nTotalCells();
  const real_t p1 = cfg.flow.freestream[4];
  const real_t g = cfg.flow.gamma;
  const real_t beta = shock_angle(mach, theta, g);
  const real_t mn = mach * std::sin(beta);
  const real_t p2 = p1 * (1 + 2 * g / (g + 1) * (mn * mn - 1));
  const real_t pmid = 0.5 * (p1 + p2);

  // shock points: where p crosses pmid on the segment between the centroids of the two cells
  // of an interior face (away from the wall, the apex and the top); then a least-squares line
  // x = a + b y, which makes the angle atan(1 / b) with the free stream
  std::vector<real_t> xs, ys;
  for (fv::idx_t f = zone.nBoundaryFaces; f < zone.nFaces; ++f) {
    const fv::idx_t o = zone.faceOwner[f], nb = zone.faceNeighbour[f];
    const real_t po = W[4 * n + o], pn = W[4 * n + nb];
    if ((po - pmid) * (pn - pmid) >= 0) continue;
    const real_t t = (pmid - po) / (pn - po);
    const real_t x =
        zone.cellCentroid[3 * o] + t * (zone.cellCentroid[3 * nb] - zone.cellCentroid[3 * o]);
    const real_t y = zone.cellCentroid[3 * o + 1] +
                     t * (zone.cellCentroid[3 * nb + 1] - zone.cellCentroid[3 * o + 1]);
    if (y < 0.15 || y > 0.65 || x > L - 0.05) continue;
    xs.push_back(x);
    ys.push_back(y);
  }
  EXPECT_GT(xs.size(), 20u);
  real_t sy = 0, sx = 0, syy = 0, sxy = 0;
  const real_t m = static_cast<real_t>(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    sy += ys[i];
    sx += xs[i];
    syy += ys[i] * ys[i];
    sxy += xs[i] * ys[i];
  }
  const real_t b = (m * sxy - sx * sy) / (m * syy - sy * sy);
  const real_t betaNum = std::atan(1 / b);
  // post-shock pressure: cells on the ramp between the shock and the wall, away from both
  real_t ps = 0, vs = 0;
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    const real_t x = zone.cellCentroid[3 * c], y = zone.cellCentroid[3 * c + 1];
    const real_t yb = wall(x), yShock = (x - x0) * std::tan(beta);
    if (x > x0 + 0.3 && x < L - 0.1 && y > yb + 0.03 && y < yShock - 0.08) {
      ps += W[4 * n + c] * zone.cellVolume[c];
      vs += zone.cellVolume[c];
    }
  }
  EXPECT_GT(vs, 0.0);
  // monotone shock: no pressure above p2 or below p1 beyond rounding of the discrete shock
  // (away from the ramp corner, the outflow and the top, where the scheme is not 1D)
  real_t over = 0;
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    const real_t x = zone.cellCentroid[3 * c], y = zone.cellCentroid[3 * c + 1];
    if (x < x0 + 0.1 || x > L - 0.1 || y > 0.8 || y < wall(x) + 0.02) continue;
    const real_t o = std::max(W[4 * n + c] / p2 - 1, p1 / W[4 * n + c] - 1);
    over = std::max(over, o);
  }
  std::printf("wedge M=%.2f theta=%.1f: beta %.3f deg (theory %.3f), p2/p1 %.4f (theory %.4f)\n",
              mach, thetaDeg, betaNum * 180 / kPi, beta * 180 / kPi, ps / vs / p1, p2 / p1);
  std::printf("  overshoot %.4f, %d iterations\n", over, sum.iterations);
  return {betaNum * 180 / kPi - beta * 180 / kPi, (ps / vs) / p2 - 1, over, sum.iterations};
}
} // namespace

TEST(Wedge, ObliqueShockOnHexes) {
  const WedgeResult r = run_wedge(84, 60, 2.5, 10.0, false);
  EXPECT_LT(std::fabs(r.betaDeg), 0.5);
  EXPECT_LT(std::fabs(r.pressureRatio), 0.01);
}

TEST(Wedge, ObliqueShockOnTets) {
  const WedgeResult r = run_wedge(42, 30, 2.0, 10.0, true);
  EXPECT_LT(std::fabs(r.betaDeg), 0.5);
  EXPECT_LT(std::fabs(r.pressureRatio), 0.01);
}

// fvrun's defaults for steady runs (Newton-Krylov, Venkatakrishnan-Wang limiter) converge the
// supersonic wedge to 10 orders in a few tens of iterations (SSP-RK3: 470 and 941 iterations for
// 4 orders) and keep the shock as monotone as the classical limiter did with SSP-RK3. Measured:
// largest over/undershoot 2.3 % (hexes) and 4.8 % (tets, a dip ahead of the shock), 19 and 25
// iterations; the classical Venkatakrishnan K = 5 with SSP-RK3: 2.8 % and 5.4 %.
TEST(Wedge, NewtonWithDefaultsIsMonotone) {
  for (bool tets : {false, true}) {
    SCOPED_TRACE(tets ? "tets" : "hexes");
    const WedgeResult r = tets ? run_wedge(42, 30, 2.0, 10.0, true, "[time]\nconvergence = 10\n")
                               : run_wedge(84, 60, 2.5, 10.0, false, "[time]\nconvergence = 10\n");
    EXPECT_LT(std::fabs(r.betaDeg), 0.5);
    EXPECT_LT(std::fabs(r.pressureRatio), 0.01);
    EXPECT_LT(r.overshoot, 0.06);
    EXPECT_LE(r.iterations, 60);
  }
}

// A smaller limiter epsilon (venkat_wang_k = 0.02) keeps the pre-shock undershoot on
// tetrahedra near 1.5 % instead of 5 %, but the limiter then keeps switching and the residual
// stalls; freezing the limiter after 30 iterations without a new lowest residual
// (limiter_freeze_stall) lets it converge.
TEST(Wedge, LimiterFreezingConvergesAStalledCase) {
  const WedgeResult r = run_wedge(42, 30, 2.0, 10.0, true,
                                  "[time]\nconvergence = 10\niterations = 300\n"
                                  "[scheme]\nvenkat_wang_k = 0.02\nlimiter_freeze_stall = 30\n");
  EXPECT_LT(std::fabs(r.betaDeg), 0.5);
  EXPECT_LT(std::fabs(r.pressureRatio), 0.01);
  EXPECT_LT(r.overshoot, 0.03);
  EXPECT_LT(r.iterations, 300);
}
