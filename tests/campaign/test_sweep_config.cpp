// Campaigns in the case file (issue 49): [sweep] values (lists and ranges), --sweep, fixed
// lift's keys and their checks, the points of a sweep and their folders, a point's case
// resolved again with other flow conditions, and polar.csv's text, resume and refusal.
#include "common/error.hpp"
#include "runtime/campaign/campaign_points.hpp"
#include "runtime/campaign/polar_file.hpp"
#include "runtime/campaign/predictor.hpp"
#include "runtime/config/case_conditions.hpp"
#include "runtime/config/case_config.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <cmath>

using fv::real_t;
using fv::testing::error_of;

namespace {

const std::vector<fv::Patch> kPatches = {{"airfoil", "BCWall"}, {"farfield", "BCFarfield"}};

const std::string kCase = R"([freestream]
mach = 0.8
aoa = 1.25
lift_axis = y
[time]
convergence = 10
[patch airfoil]
type = slip_wall
[patch farfield]
type = farfield
)";

fv::CaseConfig resolve(const std::string& extra, const std::vector<std::string>& sets = {}) {
  fv::IniFile ini = fv::IniFile::parse(kCase + extra, "case.ini");
  for (const std::string& s : sets)
    ini.set_override(s);
  return fv::resolve_case(ini, kPatches);
}

std::vector<real_t> values(const std::string& spec) {
  return fv::sweep_values(spec, "test: ");
}

/// The usage error of resolving the case with `extra`, or "".
std::string usage_error(const std::string& extra, const std::vector<std::string>& sets = {}) {
  try {
    resolve(extra, sets);
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Usage) << e.what();
    return e.what();
  }
  return "";
}

} // namespace

// A list keeps its order; a range includes stop within rounding and its values carry no
// binary tail (0.3, not 0.30000000000000004), so that folder names and --set values agree.
TEST(SweepValues, ListsAndRanges) {
  EXPECT_EQ(values("1.25"), (std::vector<real_t>{1.25}));
  EXPECT_EQ(values("2, -1 ,0.5"), (std::vector<real_t>{2, -1, 0.5}));
  EXPECT_EQ(values("-2:4:0.5").size(), 13u);
  EXPECT_EQ(values("-2:4:0.5").back(), 4.0);
  EXPECT_EQ(values("0:1:0.1")[3], 0.3);
  EXPECT_EQ(values("0:1:0.1").size(), 11u);
  EXPECT_EQ(values("4:-2:-2"), (std::vector<real_t>{4, 2, 0, -2}));
  EXPECT_EQ(values("0:1:0.3"), (std::vector<real_t>{0, 0.3, 0.6, 0.9})); // stop not reached
}

TEST(SweepValues, BadSpecificationsAreUsageErrors) {
  for (const char* bad : {"", " ", "1,,2", "1,2,", "a", "1,x", "1:2", "1:2:", "1:2:0", "2:1:0.5",
                          "1:b:1", "1,1", "0:2000:1", "1:2:3:4"}) {
    const std::string e = error_of([&] { values(bad); });
    EXPECT_NE(e, "") << "'" << bad << "'";
    EXPECT_EQ(e.find('\n'), std::string::npos) << e; // one line
  }
}

// [sweep] keys take the bounds of their [freestream] key; the axes come in kSweptKeys' order
// whatever the file's; fixed lift and the sweep check what they need of the case.
TEST(SweepConfig, KeysBoundsAndChecks) {
  const fv::CaseConfig c = resolve("[sweep]\naoa = 0:2:1\nmach = 0.5, 0.6\n");
  ASSERT_EQ(c.sweep.axes.size(), 2u);
  EXPECT_EQ(c.sweep.axes[0].key, "mach");
  EXPECT_EQ(c.sweep.axes[1].key, "aoa");
  EXPECT_EQ(c.sweep.points(), 6u);
  EXPECT_DOUBLE_EQ(c.sweep.axes[1].spacing(), 1.0);
  EXPECT_DOUBLE_EQ(c.sweep.warmCflFactor, 1.0);
  EXPECT_FALSE(resolve("").sweep.active());

  EXPECT_NE(usage_error("[sweep]\nmach = 0.5, -1\n").find("mach"), std::string::npos);
  EXPECT_NE(usage_error("[sweep]\nreynolds = 1e6\n").find("euler"), std::string::npos);
  EXPECT_NE(usage_error("[sweep]\naoa = 1, 2\n", {"freestream.target_cl=0.3"}).find("target_cl"),
            std::string::npos);
  EXPECT_NE(usage_error("[sweep]\naoa = 1, 2\n", {"time.convergence=0"}).find("steady"),
            std::string::npos);
  EXPECT_NE(usage_error("", {"freestream.target_cl=0.3", "freestream.mach=0"}).find("mach > 0"),
            std::string::npos);

  const fv::CaseConfig lift = resolve("", {"freestream.target_cl=0.3"});
  EXPECT_TRUE(lift.lift.on);
  EXPECT_EQ(lift.lift.target, 0.3);
  EXPECT_EQ(lift.lift.tolerance, 1e-6);
  EXPECT_FALSE(resolve("").lift.on);
}

// The product, the first axis outermost; folders named from the values; distances in units
// of each axis' spacing; a point's case is the single case at its values.
TEST(CampaignPoints, ProductFoldersDistancesAndCases) {
  const fv::CaseConfig c = resolve("[sweep]\naoa = -2, 0.5\nmach = 0.7:0.8:0.1\n");
  const auto points = fv::campaign::campaign_points(c.sweep);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].folder, "mach_0.7_aoa_-2");
  EXPECT_EQ(points[1].folder, "mach_0.7_aoa_0.5");
  EXPECT_EQ(points[3].folder, "mach_0.8_aoa_0.5");
  EXPECT_DOUBLE_EQ(fv::campaign::point_distance(c.sweep, points[0], points[1]), 1.0);
  EXPECT_DOUBLE_EQ(fv::campaign::point_distance(c.sweep, points[0], points[3]), std::sqrt(2.0));

  const fv::CaseConfig p =
      fv::resolve_case_again(c, fv::campaign::point_overrides(c.sweep, points[1], "out"));
  EXPECT_FALSE(p.sweep.active());
  EXPECT_EQ(p.flow.aoaDeg, 0.5);
  EXPECT_EQ(p.flow.mach, 0.7);
  EXPECT_EQ(p.monitor.outputDir, "out/mach_0.7_aoa_0.5");
  EXPECT_EQ(fv::non_flow_difference(c, p), "");
  // the single run at the same values is the same case
  const fv::CaseConfig single = resolve(
      "", {"freestream.aoa=0.5", "freestream.mach=0.7", "monitor.output_dir=out/mach_0.7_aoa_0.5"});
  EXPECT_EQ(single.resolvedIni, p.resolvedIni);
}

// Defaults derived from the free stream follow it when the case is resolved again (a supersonic
// inlet's Mach number and direction), given values stay.
TEST(CaseConditions, DerivedDefaultsFollowTheFreeStream) {
  const std::vector<fv::Patch> patches = {{"inlet", "BCInflow"}, {"wall", "BCWall"}};
  const std::string text = "[freestream]\nmach = 2\n[patch inlet]\ntype = supersonic_inflow\n"
                           "[patch wall]\ntype = slip_wall\n";
  const fv::CaseConfig c = fv::resolve_case(fv::IniFile::parse(text, "case.ini"), patches);
  const fv::CaseConfig again =
      fv::resolve_case_again(c, {"freestream.mach=2.5", "freestream.aoa=3"});
  fv::IniFile ini = fv::IniFile::parse(text, "case.ini");
  ini.set_override("freestream.mach=2.5");
  ini.set_override("freestream.aoa=3");
  const fv::CaseConfig direct = fv::resolve_case(ini, patches);
  EXPECT_EQ(again.resolvedIni, direct.resolvedIni);
  EXPECT_NE(again.resolvedIni.find("[patch inlet]\ntype = supersonic_inflow\nmach = 2.5\n"),
            std::string::npos)
      << again.resolvedIni;
}

// What a live solver may not change: anything outside the flow conditions.
TEST(CaseConditions, NonFlowDifferencesAreNamed) {
  const fv::CaseConfig c = resolve("");
  EXPECT_EQ(fv::non_flow_difference(c, fv::resolve_case_again(c, {"freestream.aoa=3"})), "");
  EXPECT_EQ(fv::non_flow_difference(c, fv::resolve_case_again(c, {"freestream.mach=0.5"})), "");
  const std::string d = fv::non_flow_difference(c, fv::resolve_case_again(c, {"time.cfl=500"}));
  EXPECT_NE(d.find("[time] cfl = 500"), std::string::npos) << d;
  EXPECT_NE(fv::non_flow_difference(c, fv::resolve_case_again(c, {"gas.gamma=1.3"})), "");
}

// polar.csv: the header names the campaign; rows read back as written; a file of another
// campaign is refused in one line naming the difference.
TEST(PolarFile, TextLoadAndRefusal) {
  const fv::CaseConfig c = resolve("[sweep]\naoa = 0, 1, 2\n");
  fv::campaign::PolarFile polar(c, "uuid-1", "out");
  fv::campaign::PolarRow r;
  r.point = 1;
  r.CL = 0.1 + 0.2;
  r.CD = 1.0 / 3;
  r.alpha = 1;
  r.dclDalpha = std::nan("");
  r.iterations = 12;
  r.orders = 10.5;
  r.status = fv::campaign::PointStatus::Retried;
  r.warmSource = "cold";
  r.finalCfl = 1e8;
  r.seconds = 1.5;
  polar.set(r);
  const std::string text = polar.text();
  EXPECT_NE(text.find("# mesh_uuid = uuid-1\n"), std::string::npos);
  EXPECT_EQ(text.find("output_dir"), std::string::npos); // a moved folder resumes
  EXPECT_NE(text.find("\naoa,CL,CD,"), std::string::npos);
  EXPECT_NE(text.find("\n1,0.30000000000000004,"), std::string::npos);
  EXPECT_NE(text.find(",12,10.5,yes,retried,cold,100000000,1.500,aoa_1\n"), std::string::npos)
      << text;

  fv::campaign::PolarFile again(c, "uuid-1", "elsewhere");
  again.load(text);
  ASSERT_EQ(again.rows().size(), 1u);
  const fv::campaign::PolarRow& b = again.rows().at(1);
  EXPECT_EQ(b.CL, r.CL);
  EXPECT_EQ(b.CD, r.CD);
  EXPECT_TRUE(std::isnan(b.dclDalpha));
  EXPECT_EQ(b.status, fv::campaign::PointStatus::Retried);
  EXPECT_EQ(b.finalCfl, 1e8);
  EXPECT_EQ(again.text(), text);

  for (const auto& other :
       {fv::campaign::PolarFile(c, "uuid-2", "out"),
        fv::campaign::PolarFile(resolve("[sweep]\naoa = 0, 1\n"), "uuid-1", "out"),
        fv::campaign::PolarFile(resolve("[sweep]\naoa = 0, 1, 2\n", {"time.cfl=500"}), "uuid-1",
                                "out")}) {
    fv::campaign::PolarFile o = other;
    const std::string e = error_of([&] { o.load(text); });
    EXPECT_NE(e.find("another campaign"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

// The secant predictor ([sweep] extrapolate): which pairs of finished points extrapolate to a
// new one, and the extrapolated state, cell by cell, with the source's state kept where the
// extrapolation is not physical.
TEST(CampaignPredictor, SecantStepAndExtrapolatedState) {
  using fv::campaign::CampaignPoint;
  const CampaignPoint p{{0.8, 2.0}, ""}, j{{0.8, 1.5}, ""}, k{{0.8, 1.0}, ""},
      beyond{{0.8, 2.5}, ""}, other{{0.7, 1.0}, ""};
  EXPECT_EQ(fv::campaign::secant_step(p, j, k), std::optional<fv::real_t>(1.0));
  EXPECT_FALSE(fv::campaign::secant_step(p, j, beyond)); // k on p's side: no extrapolation
  EXPECT_FALSE(fv::campaign::secant_step(p, j, other));  // k off p's axis
  EXPECT_EQ(fv::campaign::secant_step(CampaignPoint{{0.8, 2.5}, ""}, j, k),
            std::optional<fv::real_t>(2.0));

  fv::StateModel sm; // Euler: rho, rhoU, rhoV, rhoW, rhoE of 2 cells, component-major
  std::vector<fv::real_t> Uj = {1.0, 1.0, 0.5, 0.5, 0, 0, 0, 0, 2.5, 2.5};
  const std::vector<fv::real_t> Uk = {0.9, 2.5, 0.4, 0.5, 0, 0, 0, 0, 2.4, 2.5};
  EXPECT_EQ(fv::campaign::extrapolate_state(Uj, Uk, 1.0, 2, sm, 1.4), 1u);
  // cell 0 extrapolated: Uj + (Uj - Uk)
  EXPECT_DOUBLE_EQ(Uj[0], 1.1);
  EXPECT_DOUBLE_EQ(Uj[2], 0.6);
  EXPECT_DOUBLE_EQ(Uj[8], 2.6);
  // cell 1 keeps Uj's state: its extrapolated density 1 + (1 - 2.5) < 0
  EXPECT_DOUBLE_EQ(Uj[1], 1.0);
  EXPECT_DOUBLE_EQ(Uj[3], 0.5);
  EXPECT_DOUBLE_EQ(Uj[9], 2.5);
  std::vector<fv::real_t> shorter(4);
  EXPECT_THROW(fv::campaign::extrapolate_state(shorter, Uk, 1.0, 2, sm, 1.4), fv::Error);
}
