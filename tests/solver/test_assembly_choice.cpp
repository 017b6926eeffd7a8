// fvrun's residual-assembly choice ([scheme] assembly, solver/assembly_choice.hpp) on the CPU
// backend: auto keeps the gather there; a named variant is applied and gives the residual the
// gather gives (smem: bitwise); auto_any times every variant the zone supports, stores the
// fastest and takes it from the cache the next time; the viscous model refuses a named
// non-gather variant with a usage error and takes the gather for auto.
#include "common/error.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
        a == "smem" ? fv::kernels::FluxSumVariant::Smem : fv::kernels::FluxSumVariant::Gather;
    EXPECT_EQ(c.variant, expected);
    EXPECT_NE(c.note.find(a == "auto" ? "CPU" : "[scheme] assembly"), std::string::npos) << c.note;
    const std::vector<real_t> R = solver.residual();
    if (gatherR.empty())
      gatherR = R;
    else
      EXPECT_EQ(R, gatherR); // smem sums the same terms in the same order
  }
}

TEST(AssemblyChoice, AutoAnyTimesStoresAndReusesTheChoice) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 4, 3, {0, 0, 0}, {2, 1, 1}, false, 0.1);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  const std::string dir = fv::testing::scratch_dir() + "/assembly_choice";
  std::filesystem::create_directories(dir);
  const std::string cache = dir + "/choice.tsv";
  fv::EulerSolver solver(zone, config(mesh, "auto_any"));
  solver.initialise();
  fv::SpatialOperator op(zone, config(mesh, "auto_any"));
  const std::vector<real_t> U = solver.conservative();
  const fv::DeviceArray<real_t> dU(U, "U");
  const fv::AssemblyChoice first = fv::choose_assembly(op, dU.data(), "uuid-any", cache);
  EXPECT_NE(first.note.find("stored in"), std::string::npos) << first.note;
  EXPECT_NE(first.note.find("gather"), std::string::npos) << "every candidate is timed";
  EXPECT_EQ(op.assembly(), first.variant);
  std::ifstream in(cache);
  EXPECT_TRUE(in.good());
  const fv::AssemblyChoice again = fv::choose_assembly(op, dU.data(), "uuid-any", cache);
  EXPECT_EQ(again.variant, first.variant);
  EXPECT_NE(again.note.find("cached in"), std::string::npos) << again.note;
  std::filesystem::remove_all(dir);
}

TEST(AssemblyChoice, ViscousModelsGather) {
  const fv::Mesh mesh = fv::testing::box_mesh(4, 3, 3, {0, 0, 0}, {2, 1, 1}, false, 0.0);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  {
    fv::EulerSolver solver(zone, config(mesh, "auto", "navier_stokes"));
    solver.initialise();
    const fv::AssemblyChoice c = solver.choose_assembly("uuid-ns");
    EXPECT_EQ(c.variant, fv::kernels::FluxSumVariant::Gather);
    EXPECT_NE(c.note.find("viscous"), std::string::npos) << c.note;
  }
  fv::EulerSolver solver(zone, config(mesh, "atomic", "navier_stokes"));
  solver.initialise();
  EXPECT_THROW((void)solver.choose_assembly("uuid-ns"), fv::Error);
}
