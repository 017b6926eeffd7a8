// Newton-Krylov across MPI zones (run under mpiexec -n 2 and -n 4: one zone per rank). The
// Jacobian-free products exchange halo cells through the SpatialOperator, GMRES's inner products
// are global and the preconditioner is block Jacobi between zones, so the run converges like
// one zone: the transonic channel to 10 orders in nearly the same iterations, and SU2's
// NACA 0012 (../shared/meshes) to 10 orders with SU2's lift and drag.
#include "prep/generate_mesh.hpp"
#include "prep/prepare.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"
#include "tests/newton/newton_cases.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>

namespace {

int rank_and_size(int& size) {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return r;
}

/// Host MPI over MPI_COMM_WORLD.
fv::backend::Communicator* world() {
  static const auto c = fv::backend::make_mpi_communicator(MPI_COMM_WORLD);
  return c.get();
}

fv::RunSummary run(const fv::Zone& zone, const std::vector<fv::Patch>& patches,
                   const std::string& text, fv::backend::Communicator* comm) {
  const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, "zones.ini"), patches);
  fv::ParallelSetup par;
  par.comm = comm;
  fv::EulerSolver solver(zone, cfg, par);
  solver.initialise();
  return fv::run_case(solver);
}

/// The transonic channel of test_newton_runs prepared in `parts` zones (METIS).
fv::PreparedZones channel_zones(int parts) {
  const fv::Mesh mesh = fv::generate_mesh(fv::testing::transonic_channel_options());
  fv::PrepareOptions po;
  po.parts = parts;
  return fv::prepare_zones(mesh, fv::build_faces(mesh, po.prep.faces), po);
}

double orders(const fv::RunSummary& s) {
  const auto& r = s.history.back().logResidual;
  return -std::max(r[0], r[4]);
}

} // namespace

// The transonic channel of test_newton_runs cut by METIS into one zone per rank, against the
// same mesh as one zone (run on every rank without communication), within the 1.2x of the
// issue. Measured: 20 iterations on 1 zone, 23 on 2 (the cut runs through the shock of this
// 768-cell mesh, where the block-Jacobi coupling of the preconditioner between zones costs most;
// 27 before the first-order start) and 20 on 4; the 730k-cell wing takes 69 / 61 / 57 on
// 1 / 2 / 4 zones (bench/newton_bench.sh).
TEST(NewtonZones, TransonicChannelLikeOneZone) {
  int size = 1;
  const int rank = rank_and_size(size);
  const fv::PreparedZones pz = channel_zones(size), one = channel_zones(1);
  const std::string text = "[freestream]\nnondimensional = true\nmach = 0.8\nlift_axis = y\n"
                           "[time]\nconvergence = 10\niterations = 200\n" +
                           fv::testing::channel_patches();
  const fv::RunSummary single = run(one.zones[0], one.header.patches, text, nullptr);
  const fv::RunSummary zones = run(pz.zones[rank], pz.header.patches, text, world());
  EXPECT_TRUE(zones.converged);
  EXPECT_GE(orders(zones), 10.0);
  EXPECT_LE(zones.iterations, (6 * single.iterations + 4) / 5)
      << "single zone: " << single.iterations;
  EXPECT_NEAR(zones.history.back().coeff.CL, single.history.back().coeff.CL, 1e-8);
}

TEST(NewtonZones, Naca0012LikeSu2) {
  int size = 1;
  const int rank = rank_and_size(size);
  const auto& pz = fv::testing::naca0012_zones(size);
  if (pz.zones.empty()) GTEST_SKIP() << "../shared/meshes not available";
  const fv::RunSummary s =
      run(pz.zones[rank], pz.header.patches,
          fv::testing::naca0012_case("[time]\nconvergence = 10\niterations = 300\n"), world());
  EXPECT_TRUE(s.converged);
  EXPECT_GE(orders(s), 10.0);
  EXPECT_LE(s.iterations, 100); // measured 40 on 2 zones, 43 on 4
  const auto& c = s.history.back().coeff;
  EXPECT_NEAR(c.CL, fv::testing::kNacaCL, 0.02 * fv::testing::kNacaCL);
  EXPECT_NEAR(c.CD, fv::testing::kNacaCD, 0.01 * fv::testing::kNacaCD);
}

// The Navier-Stokes model across zones: the viscous face fluxes need the halo cells'
// gradients, which the SpatialOperator exchanges with the limiter. A subsonic channel with
// no-slip walls (Re 500 on the channel length), 30 explicit SSP-RK3 iterations on one zone per
// rank give the forces of the same mesh as one zone (to the summation order of the
// reductions), and Newton converges it to 8 orders.
TEST(NewtonZones, ViscousChannelLikeOneZone) {
  int size = 1;
  const int rank = rank_and_size(size);
  const fv::PreparedZones pz = channel_zones(size), one = channel_zones(1);
  const std::string physics =
      "[freestream]\nnondimensional = true\nmach = 0.3\nlift_axis = y\nreynolds = 500\n"
      "[physics]\nmodel = navier_stokes\n"
      "[patch inlet]\ntype = farfield\n[patch outlet]\ntype = farfield\n"
      "[patch lower_wall]\ntype = no_slip_wall\n[patch upper_wall]\ntype = no_slip_wall\n"
      "temperature = 1.1\n[patch side1]\ntype = symmetry\n[patch side2]\ntype = symmetry\n";
  const std::string explicitRun =
      physics + "[time]\nintegrator = ssprk3\ncfl = 0.8\niterations = 30\nconvergence = 0\n";
  const fv::RunSummary single = run(one.zones[0], one.header.patches, explicitRun, nullptr);
  const fv::RunSummary zones = run(pz.zones[rank], pz.header.patches, explicitRun, world());
  ASSERT_EQ(zones.iterations, 30);
  const auto& a = zones.history.back().coeff;
  const auto& b = single.history.back().coeff;
  EXPECT_GT(std::fabs(b.CDv), 1e-4); // the walls carry shear
  EXPECT_NEAR(a.CD, b.CD, 1e-11 * std::fabs(b.CD));
  EXPECT_NEAR(a.CDv, b.CDv, 1e-11 * std::fabs(b.CDv));
  EXPECT_NEAR(a.CL, b.CL, 1e-11 * (std::fabs(b.CL) + std::fabs(b.CD)));
  const fv::RunSummary newton =
      run(pz.zones[rank], pz.header.patches,
          physics + "[time]\nconvergence = 8\niterations = 150\n", world());
  EXPECT_TRUE(newton.converged) << newton.stopReason;
}

// RANS (Spalart-Allmaras) across zones: rho nu-tilde travels with the mean flow through the
// same halo exchanges, the wall distance is prepared per zone. The TMR flat plate
// (../shared/meshes) cut into one zone per rank: 30 explicit SSP-RK3 iterations give the
// residual history and the drag of the same mesh as one zone to 1e-12 (the summation order of
// the reductions).
TEST(NewtonZones, RansFlatPlateLikeOneZone) {
  int size = 1;
  const int rank = rank_and_size(size);
  const auto& pz =
      fv::testing::shared_2d_zones("su2/flatplate_turb_137x97.su2", 0.1, size, {"wall"});
  const auto& one = fv::testing::shared_2d_zones("su2/flatplate_turb_137x97.su2", 0.1, 1, {"wall"});
  if (pz.zones.empty()) GTEST_SKIP() << "../shared/meshes not available";
  const std::string text =
      "[freestream]\nmach = 0.2\ntemperature = 300\nreynolds = 5e6\nlift_axis = y\n"
      "[physics]\nmodel = rans_sa\n[time]\nintegrator = ssprk3\ncfl = 0.8\niterations = 30\n"
      "convergence = 0\n[patch inlet]\ntype = subsonic_inflow\n[patch outlet]\n"
      "type = subsonic_outflow\n[patch farfield]\ntype = farfield\n[patch symmetry]\n"
      "type = symmetry\n[patch wall]\ntype = no_slip_wall\n[patch symmetry_extruded]\n"
      "type = symmetry\n";
  const fv::RunSummary single = run(one.zones[0], one.header.patches, text, nullptr);
  const fv::RunSummary zones = run(pz.zones[rank], pz.header.patches, text, world());
  ASSERT_EQ(zones.iterations, 30);
  ASSERT_EQ(single.iterations, 30);
  // every equation but w-momentum (a 2D flow: rounding noise), from iteration 2 on (the
  // uniform start's residual is rounding noise too, divided by the wall cells' 1e-10 m^3)
  for (int it = 1; it < 30; ++it)
    for (int k : {0, 1, 2, 4, 5}) {
      const fv::real_t a = zones.history[it].stats.rms[k], b = single.history[it].stats.rms[k];
      EXPECT_NEAR(a, b, 1e-12 * std::fabs(b)) << "iteration " << it + 1 << ", equation " << k;
    }
  const auto& a = zones.history.back().coeff;
  const auto& b = single.history.back().coeff;
  EXPECT_GT(std::fabs(b.CDv), 1e-5); // the plate carries shear
  EXPECT_NEAR(a.CD, b.CD, 1e-12 * std::fabs(b.CD));
  EXPECT_NEAR(a.CDv, b.CDv, 1e-12 * std::fabs(b.CDv));
}
