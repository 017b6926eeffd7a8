// The [time] lusgs_* keys of case files: defaults, parsing, and usage errors naming the key.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/lusgs.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

const std::vector<fv::Patch> kPatches = {{"wall", "BCWall"}};

fv::CaseConfig resolve(const std::string& time) {
  const std::string text = "[time]\n" + time + "\n[patch wall]\ntype = slip_wall\n";
  return fv::resolve_case(fv::IniFile::parse(text, "case.ini"), kPatches);
}

std::string usage_error(const std::string& time) {
  try {
    resolve(time);
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Usage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for: " << time;
  return {};
}

} // namespace

TEST(LusgsConfig, DefaultsAndResolvedText) {
  const fv::CaseConfig c = resolve("integrator = lusgs");
  EXPECT_EQ(c.time.integrator, fv::TimeScheme::Lusgs);
  EXPECT_EQ(c.lusgs.ordering, fv::LusgsOrdering::Hyperplane);
  EXPECT_EQ(c.lusgs.sweeps, 1);
  EXPECT_DOUBLE_EQ(c.lusgs.omega, 1.0);
  // default: persistent, the fastest on an H200 on every mesh measured since the sweep loads its
  // values before the loop (bench/results/lusgs_launch_modes_h200_20261125.txt)
  EXPECT_EQ(c.lusgs.launch, fv::LusgsLaunch::Persistent);
  EXPECT_TRUE(c.lusgs.boundaryJacobian);
  EXPECT_FALSE(c.lusgs.roeDissipation);
  EXPECT_NE(c.resolvedIni.find("lusgs_dissipation = scalar"), std::string::npos);
  EXPECT_NE(c.resolvedIni.find("lusgs_ordering = hyperplane"), std::string::npos);
  EXPECT_NE(c.resolvedIni.find("lusgs_boundary = jacobian"), std::string::npos);
  EXPECT_NE(c.resolvedIni.find("lusgs_launch = persistent"), std::string::npos);
  const fv::LusgsSettings s = fv::lusgs_settings(c);
  EXPECT_EQ(s.ordering, fv::LusgsOrdering::Hyperplane);
  EXPECT_TRUE(s.boundaryJacobian);
  ASSERT_EQ(s.patches.size(), 1u); // the boundary Jacobian needs every patch's condition
  EXPECT_EQ(s.patches[0].type, fv::phys::BcType::SlipWall);
  EXPECT_STREQ(fv::to_string(s.ordering), "hyperplane");
}

TEST(LusgsConfig, ParsesEveryKey) {
  const fv::CaseConfig c = resolve("integrator = lusgs\nlusgs_ordering = colour\nlusgs_sweeps = 3\n"
                                   "lusgs_omega = 1.5\nlusgs_launch = plain\n"
                                   "lusgs_boundary = spectral");
  EXPECT_EQ(c.lusgs.ordering, fv::LusgsOrdering::Colour);
  EXPECT_EQ(c.lusgs.sweeps, 3);
  EXPECT_DOUBLE_EQ(c.lusgs.omega, 1.5);
  EXPECT_EQ(c.lusgs.launch, fv::LusgsLaunch::Plain);
  for (const char* m : {"persistent", "hybrid", "graph", "plain"}) {
    const fv::CaseConfig cm = resolve(std::string("lusgs_launch = ") + m);
    EXPECT_STREQ(fv::to_string(fv::lusgs_settings(cm).launch), m);
  }
  EXPECT_FALSE(c.lusgs.boundaryJacobian);
  EXPECT_FALSE(fv::lusgs_settings(c).boundaryJacobian);
  EXPECT_EQ(resolve("lusgs_ordering = natural").lusgs.ordering, fv::LusgsOrdering::Natural);
}

TEST(LusgsConfig, UsageErrorsNameTheKey) {
  EXPECT_NE(usage_error("lusgs_ordering = diagonal").find("lusgs_ordering"), std::string::npos);
  EXPECT_NE(usage_error("lusgs_sweeps = 0").find("lusgs_sweeps"), std::string::npos);
  EXPECT_NE(usage_error("lusgs_omega = 0.5").find("lusgs_omega must be >= 1"), std::string::npos);
  EXPECT_NE(usage_error("lusgs_launch = fast").find("valid: persistent, hybrid, graph, plain"),
            std::string::npos);
  EXPECT_TRUE(fv::lusgs_settings(resolve("lusgs_dissipation = roe")).roeDissipation);
  EXPECT_NE(usage_error("lusgs_dissipation = matrix").find("valid: scalar, roe"),
            std::string::npos);
  EXPECT_NE(usage_error("lusgs_dissipation = roe\nlusgs_boundary = spectral")
                .find("needs lusgs_boundary = jacobian"),
            std::string::npos);
  EXPECT_NE(usage_error("lusgs_boundary = exact").find("valid: jacobian, spectral"),
            std::string::npos);
  EXPECT_NE(usage_error("integrator = lu-sgs").find("lusgs"), std::string::npos);
}

TEST(LusgsConfig, AdaptiveCflKeys) {
  const fv::CaseConfig d = resolve("integrator = lusgs");
  EXPECT_EQ(d.time.cflLaw, fv::CflLaw::Ramp);
  EXPECT_NE(d.resolvedIni.find("cfl_law = ramp"), std::string::npos);
  EXPECT_NE(d.resolvedIni.find("cfl_growth = 1.1"), std::string::npos);
  EXPECT_NE(d.resolvedIni.find("cfl_cut = 0.5"), std::string::npos);
  const fv::CaseConfig c =
      resolve("cfl_law = adaptive\ncfl_start = 5\ncfl = 500\ncfl_growth = 1.2\ncfl_cut = 0.25");
  EXPECT_EQ(c.time.cflLaw, fv::CflLaw::Adaptive);
  EXPECT_DOUBLE_EQ(c.time.cflGrowth, 1.2);
  EXPECT_DOUBLE_EQ(c.time.cflCut, 0.25);
  EXPECT_NE(usage_error("cfl_law = exponential").find("valid: ramp, adaptive, ser"),
            std::string::npos);
  EXPECT_NE(usage_error("cfl_growth = 1").find("cfl_growth must be > 1"), std::string::npos);
  EXPECT_NE(usage_error("cfl_cut = 1").find("cfl_cut must be in (0, 1)"), std::string::npos);
  EXPECT_NE(usage_error("cfl_cut = x").find("cfl_cut"), std::string::npos);
  EXPECT_NE(usage_error("cfl_law = adaptive\ncfl_start = 10\ncfl = 5").find("cfl_start <= cfl"),
            std::string::npos);
}
