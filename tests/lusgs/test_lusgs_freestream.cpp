// LU-SGS preserves a uniform free stream to rounding on perturbed generated meshes with
// far-field, slip-wall and symmetry boundaries, at a large CFL, in every ordering.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using fv::real_t;

namespace {

struct FreeStreamCase {
  const char* name;
  fv::GenCells cells;
  const char* ordering;
};

} // namespace

class LusgsFreeStream : public ::testing::TestWithParam<FreeStreamCase> {};

TEST_P(LusgsFreeStream, StaysUniform) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Box;
  o.cells = GetParam().cells;
  o.n = {6, 5, 4};
  o.perturb = 0.25;
  o.shuffle = true;
  const fv::testing::TestZone tz = fv::testing::generated_zone(o);
  const std::string text = std::string(R"(
[freestream]
mach = 0.7
[time]
integrator = lusgs
cfl = 1000
lusgs_sweeps = 2
lusgs_ordering = )") + GetParam().ordering +
                           R"(
[patch xmin]
type = farfield
[patch xmax]
type = farfield
[patch ymin]
type = slip_wall
[patch ymax]
type = slip_wall
[patch zmin]
type = symmetry
[patch zmax]
type = farfield
)";
  const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, "case"), tz.patches);
  fv::EulerSolver solver(tz.zone, cfg);
  solver.initialise();
  for (int i = 0; i < 10; ++i)
    solver.step();
  const auto W = solver.primitive();
  const fv::idx_t n = tz.zone.nTotalCells();
  const real_t V = std::fabs(cfg.flow.freestream[1]);
  const real_t scale[5] = {cfg.flow.freestream[0], V, V, V, cfg.flow.freestream[4]};
  real_t dev = 0;
  for (int k = 0; k < 5; ++k)
    for (fv::idx_t c = 0; c < tz.zone.nCells; ++c)
      dev = std::max(dev, std::fabs(W[k * n + c] - cfg.flow.freestream[k]) / scale[k]);
  EXPECT_LT(dev, 1e-13) << GetParam().name << " " << GetParam().ordering;
}

INSTANTIATE_TEST_SUITE_P(Meshes, LusgsFreeStream,
                         ::testing::Values(FreeStreamCase{"hex", fv::GenCells::Hex, "hyperplane"},
                                           FreeStreamCase{"hex", fv::GenCells::Hex, "colour"},
                                           FreeStreamCase{"tet", fv::GenCells::Tet, "hyperplane"},
                                           FreeStreamCase{"mixed", fv::GenCells::Mixed, "colour"},
                                           FreeStreamCase{"prism", fv::GenCells::Prism, "natural"}),
                         [](const ::testing::TestParamInfo<FreeStreamCase>& i) {
                           return std::string(i.param.name) + "_" + i.param.ordering;
                         });
