// The timed choice among all six residual-assembly variants (bench/fvbench/operator_variants.hpp,
// fvrun's former [scheme] assembly = auto_any) on the CPU backend, with the code of fvrun's auto
// (choose_fastest_assembly): every variant is timed through SpatialOperator's whole evaluation
// (the benchmark-only ones through its interior-assembly extension point), the fastest is set
// and stored, and the next choice takes it from the cache.
#include "bench/fvbench/operator_variants.hpp"
#include "prep/colouring.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

using fv::real_t;

namespace {
const std::string kCase = std::string(R"(
[freestream]
mach = 0.7
aoa = 5
)") + fv::testing::kBoxWallZminPatches;

fv::CaseConfig config(const fv::Mesh& mesh) {
  return fv::resolve_case(fv::IniFile::parse(kCase, "assembly.ini"), mesh.patches);
}
} // namespace

TEST(AssemblyChoiceAny, TimesStoresAndReusesTheChoice) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 4, 3, {0, 0, 0}, {2, 1, 1}, false, 0.1);
  fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  // a face colouring, as fvprep's zones carry, for the colour variants
  zone.faceColours = fv::colour_faces(
      zone.nTotalCells(), std::vector<fv::idx_t>(zone.faceOwner.begin(), zone.faceOwner.end()),
      std::vector<fv::idx_t>(zone.faceNeighbour.begin(), zone.faceNeighbour.end()));
  const fv::bench::DeviceFaceColouring colours(zone);
  ASSERT_EQ(fv::bench::supported_variants(colours.view()), fv::bench::flux_sum_variants());
  const std::string dir = fv::testing::scratch_dir() + "/assembly_choice_any";
  std::filesystem::create_directories(dir);
  const std::string cache = dir + "/choice.tsv";
  fv::EulerSolver solver(zone, config(mesh));
  solver.initialise();
  fv::SpatialOperator op(zone, config(mesh));
  const std::vector<real_t> U = solver.conservative();
  const fv::DeviceArray<real_t> dU(U, "U");
  const fv::bench::VariantChoice first =
      fv::bench::choose_any_assembly(op, dU.data(), colours.view(), "uuid-any", cache);
  EXPECT_NE(first.note.find("stored in"), std::string::npos) << first.note;
  EXPECT_NE(first.note.find("gather"), std::string::npos) << "every candidate is timed";
  for (fv::bench::FluxSumVariant v : fv::bench::flux_sum_variants())
    EXPECT_TRUE(std::regex_search(
        first.note, std::regex(std::string("[ ,]") + fv::bench::to_string(v) + " [0-9.]+ ms")))
        << fv::bench::to_string(v) << " not timed: " << first.note;
  EXPECT_EQ(fv::bench::variant_of(op), first.variant);
  std::ifstream in(cache);
  EXPECT_TRUE(in.good());
  const fv::bench::VariantChoice again =
      fv::bench::choose_any_assembly(op, dU.data(), colours.view(), "uuid-any", cache);
  EXPECT_EQ(again.variant, first.variant);
  EXPECT_NE(again.note.find("cached in"), std::string::npos) << again.note;
  std::filesystem::remove_all(dir);
}
