// Free-stream preservation: a uniform flow stays uniform to rounding on distorted hex and tet
// meshes, with every boundary type around it and both flux functions and limiters.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>

using fv::real_t;

namespace {

real_t max_deviation(fv::EulerSolver& s, const fv::CaseConfig& c) {
  const auto W = s.primitive();
  const fv::idx_t n = s.zone().nTotalCells();
  const real_t V = std::sqrt(c.flow.freestream[1] * c.flow.freestream[1] +
                             c.flow.freestream[2] * c.flow.freestream[2] +
                             c.flow.freestream[3] * c.flow.freestream[3]);
  const real_t scale[5] = {c.flow.freestream[0], V, V, V, c.flow.freestream[4]};
  real_t dev = 0;
  for (int k = 0; k < 5; ++k)
    for (fv::idx_t i = 0; i < n; ++i)
      dev = std::max(dev, std::fabs(W[k * n + i] - c.flow.freestream[k]) / scale[k]);
  if (c.flow.rans()) // nu-tilde, relative to its free-stream value
    for (fv::idx_t i = 0; i < s.zone().nCells; ++i)
      dev = std::max(dev, std::fabs(W[5 * n + i] / c.flow.nuTildeFreestream - 1));
  return dev;
}

struct FreeStreamCase {
  const char* name;
  bool tets;
  const char* text;
};

} // namespace

class FreeStream : public ::testing::TestWithParam<FreeStreamCase> {};

TEST_P(FreeStream, StaysUniform) {
  const FreeStreamCase& s = GetParam();
  const fv::Mesh mesh = fv::testing::box_mesh(6, 5, 4, {0, 0, 0}, {1.2, 1, 0.8}, s.tets, 0.25);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(s.text, s.name), mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  fv::IterationStats st;
  for (int i = 0; i < 20; ++i)
    st = solver.step();
  EXPECT_LT(max_deviation(solver, cfg), 1e-13) << s.name;
  // the residual itself is rounding noise relative to the flux scale rho V^2 / h
  EXPECT_LT(st.rms[0], 1e-10 * cfg.flow.freestream[0] * 300 * 10);
}

// Subsonic flow along x at angle 0 (walls are tangent), with all subsonic boundary types.
const char* kSubsonic = R"(
[freestream]
mach = 0.5
[scheme]
limiter = venkat
[time]
cfl = 1.5
[patch xmin]
type = subsonic_inflow
[patch xmax]
type = subsonic_outflow
[patch ymin]
type = slip_wall
[patch ymax]
type = symmetry
[patch zmin]
type = farfield
[patch zmax]
type = farfield
)";

// Supersonic flow along x with supersonic in/outflow, Barth-Jespersen and Rusanov.
const char* kSupersonic = R"(
[freestream]
mach = 2.5
[scheme]
limiter = barth
flux = rusanov
[patch xmin]
type = supersonic_inflow
[patch xmax]
type = supersonic_outflow
[patch ymin]
type = symmetry
[patch ymax]
type = farfield
[patch zmin]
type = slip_wall
[patch zmax]
type = farfield
)";

// Far field everywhere with an oblique flow (angle of attack and sideslip), RK4.
const char* kOblique = R"(
[freestream]
mach = 0.8
aoa = 12
sideslip = -7
[time]
integrator = rk4
[patch xmin]
type = farfield
[patch xmax]
type = farfield
[patch ymin]
type = farfield
[patch ymax]
type = farfield
[patch zmin]
type = farfield
[patch zmax]
type = farfield
)";

INSTANTIATE_TEST_SUITE_P(Solver, FreeStream,
                         ::testing::Values(FreeStreamCase{"subsonic_hex", false, kSubsonic},
                                           FreeStreamCase{"subsonic_tet", true, kSubsonic},
                                           FreeStreamCase{"supersonic_hex", false, kSupersonic},
                                           FreeStreamCase{"supersonic_tet", true, kSupersonic},
                                           FreeStreamCase{"oblique_hex", false, kOblique},
                                           FreeStreamCase{"oblique_tet", true, kOblique}),
                         [](const auto& p) { return std::string(p.param.name); });

// The same test code for every model (phys::EulerModel, phys::NavierStokesModel,
// phys::SaModel): a uniform stream stays uniform on a distorted mesh with every subsonic
// boundary type, the model chosen by its [physics] name (a uniform flow has no viscous stress or
// heat flux; RANS: no production without vorticity, and walls a million metres away leave the
// destruction of nu-tilde at 1e-13 of its convection).
template <class M>
class FreeStreamModel : public ::testing::Test {};
using Models =
    ::testing::Types<fv::phys::EulerModel, fv::phys::NavierStokesModel, fv::phys::SaModel>;
TYPED_TEST_SUITE(FreeStreamModel, Models);

TYPED_TEST(FreeStreamModel, StaysUniform) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 5, 4, {0, 0, 0}, {1.2, 1, 0.8}, true, 0.25);
  fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  if (TypeParam::kNumVars > fv::phys::kNumEq)
    zone.cellWallDistance = fv::Array<real_t>(static_cast<std::size_t>(zone.nTotalCells()), 1e6);
  const std::string text = std::string("[physics]\nmodel = ") + TypeParam::kName +
                           "\n[freestream]\nmach = 0.5\nreynolds = 1000\n" +
                           std::string(kSubsonic).substr(std::string(kSubsonic).find("[scheme]"));
  const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, "model.ini"), mesh.patches);
  ASSERT_EQ(cfg.flow.viscous(), TypeParam::kViscous);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  for (int i = 0; i < 20; ++i)
    solver.step();
  EXPECT_LT(max_deviation(solver, cfg), 1e-13) << TypeParam::kName;
  EXPECT_EQ(solver.conservative().size(),
            static_cast<std::size_t>(TypeParam::kNumVars) * zone.nTotalCells());
}
