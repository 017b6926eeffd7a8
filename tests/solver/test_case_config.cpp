// Case files: INI syntax, the key schema, defaults, overrides and the errors users see.
#include "common/error.hpp"
#include "runtime/config/case_config.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

using fv::real_t;

namespace {
const std::vector<fv::Patch> kPatches = {{"inlet", "BCInflow"},
                                         {"outlet", "BCOutflow"},
                                         {"wall", "BCWall"},
                                         {"side plane", "BCSymmetryPlane"}};

const char* kCase = R"(# a wedge-like case
[freestream]
mach = 2.0        ; supersonic
aoa = 2
[scheme]
flux = rusanov
limiter = barth
[time]
cfl = 1.5
iterations = 200
[patch inlet]
type = supersonic_inflow
[patch outlet]
type = subsonic_outflow
pressure = 90000
[patch wall]
type = slip_wall
[patch   side plane]
type = symmetry
)";

std::string usage_error(const std::string& text, const std::vector<fv::Patch>& patches = kPatches) {
  try {
    fv::resolve_case(fv::IniFile::parse(text, "case.ini"), patches);
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Usage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}
} // namespace

TEST(CaseConfig, ParsesValuesAndFillsDefaults) {
  const fv::CaseConfig c = fv::resolve_case(fv::IniFile::parse(kCase, "case.ini"), kPatches);
  EXPECT_DOUBLE_EQ(c.mach, 2.0);
  EXPECT_EQ(c.flux, fv::FluxScheme::Rusanov);
  EXPECT_EQ(c.limiter, fv::LimiterKind::Barth);
  EXPECT_EQ(c.order, 2);                           // default
  EXPECT_EQ(c.integrator, fv::TimeScheme::Newton); // default of steady (local) stepping
  EXPECT_EQ(c.cflLaw, fv::CflLaw::Ser);            // newton's default CFL law
  EXPECT_DOUBLE_EQ(c.cfl, 1.5);
  EXPECT_DOUBLE_EQ(c.cflStart, 1.5); // defaults to cfl
  EXPECT_EQ(c.iterations, 200);
  ASSERT_EQ(c.patches.size(), 4u);
  EXPECT_EQ(c.patches[0].params.type, fv::phys::BcType::SupersonicInflow);
  EXPECT_EQ(c.patches[1].params.type, fv::phys::BcType::SubsonicOutflow);
  EXPECT_DOUBLE_EQ(c.patches[1].params.pressure, 90000);
  EXPECT_EQ(c.patches[3].name, "side plane");
  EXPECT_EQ(c.patches[3].params.type, fv::phys::BcType::Symmetry);
  // only slip walls are force patches by default
  ASSERT_EQ(c.forcePatches.size(), 1u);
  EXPECT_EQ(c.forcePatches[0], "wall");
  // derived free stream: ideal gas, Mach 2 at 2 degrees in the x-z plane
  const real_t rho = 101325 / (287.05 * 288.15);
  EXPECT_NEAR(c.freestream[0], rho, 1e-12);
  const real_t V = std::hypot(c.freestream[1], c.freestream[3]);
  EXPECT_NEAR(V / std::sqrt(1.4 * 101325 / rho), 2.0, 1e-12);
  EXPECT_NEAR(std::atan2(c.freestream[3], c.freestream[1]) * 180 / std::acos(-1.0), 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(c.freestream[2], 0.0);
  // supersonic inflow defaults to the free stream
  for (int k = 0; k < 5; ++k)
    EXPECT_NEAR(c.patches[0].params.ref[k], c.freestream[k], 1e-9);
}

TEST(CaseConfig, ResolvedTextListsEveryKeyAndReparses) {
  const fv::CaseConfig c = fv::resolve_case(fv::IniFile::parse(kCase, "case.ini"), kPatches);
  for (const auto& k : fv::case_keys())
    EXPECT_NE(c.resolvedIni.find(std::string(k.key) + " = "), std::string::npos) << k.key;
  EXPECT_NE(c.resolvedIni.find("[patch side plane]"), std::string::npos);
  // the resolved text is itself a valid case file giving the same configuration
  const fv::CaseConfig again =
      fv::resolve_case(fv::IniFile::parse(c.resolvedIni, "resolved.ini"), kPatches);
  EXPECT_EQ(again.resolvedIni, c.resolvedIni);
  for (int k = 0; k < 5; ++k)
    EXPECT_DOUBLE_EQ(again.freestream[k], c.freestream[k]);
}

TEST(CaseConfig, OverridesFromTheCommandLine) {
  fv::IniFile ini = fv::IniFile::parse(kCase, "case.ini");
  ini.set_override("time.cfl=0.5");
  ini.set_override("patch side plane.type=slip_wall");
  ini.set_override("scheme.order=1");
  const fv::CaseConfig c = fv::resolve_case(ini, kPatches);
  EXPECT_DOUBLE_EQ(c.cfl, 0.5);
  EXPECT_EQ(c.order, 1);
  EXPECT_EQ(c.patches[3].params.type, fv::phys::BcType::SlipWall);
  EXPECT_EQ(c.forcePatches.size(), 2u);
  EXPECT_THROW(ini.set_override("nodot=1"), fv::Error);
}

TEST(CaseConfig, ErrorsNameTheProblemAndTheChoices) {
  const std::string base = kCase;
  std::string e = usage_error(base + "[scheme]\nfluxx = roe\n");
  EXPECT_NE(e.find("unknown key 'fluxx'"), std::string::npos) << e;
  EXPECT_NE(e.find("valid: flux, entropy_fix"), std::string::npos) << e;

  e = usage_error("[time]\nintegrator = euler\n" + base.substr(base.find("[patch")));
  EXPECT_NE(e.find("case.ini:2"), std::string::npos) << e;
  EXPECT_NE(e.find("rk2, ssprk3, rk4"), std::string::npos) << e;

  e = usage_error(base + "[solver]\nx = 1\n");
  EXPECT_NE(e.find("unknown section [solver]"), std::string::npos) << e;

  e = usage_error("[freestream]\nmach = 0.5\n[patch inlet]\ntype = farfield\n");
  EXPECT_NE(e.find("without a boundary condition: outlet, wall, side plane"), std::string::npos)
      << e;
  EXPECT_NE(e.find("slip_wall"), std::string::npos) << e;

  e = usage_error(base + "[patch nozzle]\ntype = farfield\n");
  EXPECT_NE(e.find("names no patch of the mesh"), std::string::npos) << e;

  std::string wrong = base;
  wrong.replace(wrong.find("supersonic_inflow"), 17, "wall");
  e = usage_error(wrong);
  EXPECT_NE(e.find("'wall' is not valid"), std::string::npos) << e;

  e = usage_error("[freestream]\nmach = fast\n");
  EXPECT_NE(e.find("is not a number"), std::string::npos) << e;

  e = usage_error("[freestream]\nmach = 1\nmach = 2\n");
  EXPECT_NE(e.find("already set on line 2"), std::string::npos) << e;

  e = usage_error("[freestream\nmach = 1\n");
  EXPECT_NE(e.find("closing ']'"), std::string::npos) << e;

  // a key that belongs to another boundary type
  e = usage_error(
      base.substr(0, base.find("[patch wall]")) +
      "[patch wall]\ntype = slip_wall\npressure = 1\n[patch side plane]\ntype = symmetry\n");
  EXPECT_NE(e.find("unknown key 'pressure'"), std::string::npos) << e;

  e = usage_error(base + "[monitor]\nforce_patches = wall, body\n");
  EXPECT_NE(e.find("'body' is no patch"), std::string::npos) << e;

  e = usage_error(base + "[time]\ndt = 0.1\n");
  EXPECT_NE(e.find("stepping = global"), std::string::npos) << e;
}

TEST(CaseConfig, NondimensionalFreeStream) {
  fv::IniFile ini = fv::IniFile::parse(kCase, "case.ini");
  ini.set_override("freestream.nondimensional=true");
  ini.set_override("freestream.aoa=0");
  const fv::CaseConfig c = fv::resolve_case(ini, kPatches);
  EXPECT_DOUBLE_EQ(c.freestream[0], 1.0);
  EXPECT_NEAR(c.freestream[1], 2.0, 1e-14); // Mach 2 with c = 1
  EXPECT_NEAR(c.freestream[4], 1.0 / 1.4, 1e-15);
}

TEST(CaseConfig, ReadmeListsEveryKeyAsTheSchemaSays) {
  // README.md's key table is `fvrun --keys`: the schema and the documentation cannot drift
  std::ifstream in(std::string(FV_SOURCE_DIR) + "/README.md");
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str();
  const std::string table = fv::case_keys_markdown();
  EXPECT_NE(readme.find(table), std::string::npos)
      << "README.md's key table differs from `fvrun --keys`; regenerate it";
}

// [scheme] limiter_region: every cell for the Euler model (inviscid slip lines are
// discontinuities at any Mach number), the supersonic cells for the viscous models (which
// resolve every other layer); either can be chosen, anything else is a usage error.
TEST(CaseConfig, LimiterRegionDefaultsByModel) {
  fv::IniFile euler = fv::IniFile::parse(kCase, "case.ini");
  EXPECT_EQ(fv::resolve_case(euler, kPatches).limiterRegion, fv::LimiterRegion::Everywhere);
  fv::IniFile ns = fv::IniFile::parse(kCase, "case.ini");
  ns.set_override("physics.model=navier_stokes");
  EXPECT_EQ(fv::resolve_case(ns, kPatches).limiterRegion, fv::LimiterRegion::Supersonic);
  ns.set_override("scheme.limiter_region=everywhere");
  EXPECT_EQ(fv::resolve_case(ns, kPatches).limiterRegion, fv::LimiterRegion::Everywhere);
  std::string text = kCase;
  text.replace(text.find("limiter = barth"), 15, "limiter = barth\nlimiter_region = subsonic");
  const std::string e = usage_error(text);
  EXPECT_NE(e.find("limiter_region"), std::string::npos) << e;
}
