// fvrun's residual-assembly choice ([scheme] assembly, solver/assembly_choice.hpp) on the CPU
// backend: auto keeps the gather there; a named assembly is applied and gives the residual the
// gather gives (smem: bitwise); the viscous model refuses a named non-gather assembly with a
// usage error and takes the gather for auto. (The timed choice among all of fvbench's variants,
// the former auto_any, is tests/bench/test_assembly_choice_any.cpp.)
#include "common/error.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

using fv::real_t;

namespace {
const std::string kCase = std::string(R"(
[freestream]
mach = 0.7
aoa = 5
)") + fv::testing::kBoxWallZminPatches;

fv::CaseConfig config(const fv::Mesh& mesh, const std::string& assembly,
                      const std::string& model = "euler") {
  fv::IniFile ini = fv::IniFile::parse(kCase, "assembly.ini");
  ini.set_override("scheme.assembly=" + assembly);
  ini.set_override("physics.model=" + model);
  if (model != "euler") ini.set_override("freestream.reynolds=1000");
  return fv::resolve_case(ini, mesh.patches);
}
} // namespace

TEST(AssemblyChoice, AutoIsGatherOnTheCpuAndNamedVariantsApply) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 4, 3, {0, 0, 0}, {2, 1, 1}, true, 0.1);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  std::vector<real_t> gatherR;
  for (const std::string a : {"auto", "gather", "smem"}) {
    SCOPED_TRACE(a);
    fv::EulerSolver solver(zone, config(mesh, a));
    solver.initialise();
    const fv::AssemblyChoice c = solver.choose_assembly("uuid-test");
    const auto expected =
        a == "smem" ? fv::kernels::ResidualAssembly::Smem : fv::kernels::ResidualAssembly::Gather;
    EXPECT_EQ(c.variant, expected);
    EXPECT_NE(c.note.find(a == "auto" ? "CPU" : "[scheme] assembly"), std::string::npos) << c.note;
    const std::vector<real_t> R = solver.residual();
    if (gatherR.empty())
      gatherR = R;
    else
      EXPECT_EQ(R, gatherR); // smem sums the same terms in the same order
  }
}

TEST(AssemblyChoice, ViscousModelsGather) {
  const fv::Mesh mesh = fv::testing::box_mesh(4, 3, 3, {0, 0, 0}, {2, 1, 1}, false, 0.0);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  {
    fv::EulerSolver solver(zone, config(mesh, "auto", "navier_stokes"));
    solver.initialise();
    const fv::AssemblyChoice c = solver.choose_assembly("uuid-ns");
    EXPECT_EQ(c.variant, fv::kernels::ResidualAssembly::Gather);
    EXPECT_NE(c.note.find("viscous"), std::string::npos) << c.note;
  }
  fv::EulerSolver solver(zone, config(mesh, "smem", "navier_stokes"));
  solver.initialise();
  try {
    (void)solver.choose_assembly("uuid-ns");
    ADD_FAILURE() << "smem accepted with the viscous model";
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Usage) << e.what();
  }
  // fvbench's benchmark variants are no [scheme] assembly: the case file refuses them
  for (const char* a : {"atomic", "auto_any"}) {
    try {
      (void)config(mesh, a, "navier_stokes");
      ADD_FAILURE() << "[scheme] assembly = " << a << " accepted";
    } catch (const fv::Error& e) {
      EXPECT_EQ(e.kind(), fv::ErrorKind::Usage) << e.what();
      EXPECT_NE(std::string(e.what()).find("(valid: auto, gather, smem)"), std::string::npos)
          << e.what();
    }
  }
}
