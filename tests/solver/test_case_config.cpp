// Case files: INI syntax, the key schema, defaults, overrides and the errors users see.
#include "common/error.hpp"
#include "runtime/config/case_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
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

/// The message of the usage error that resolving `text` (by `resolve`) throws.
template <class Resolve>
std::string usage_error_of(const std::string& text, Resolve resolve) {
  try {
    resolve(text);
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Usage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

std::string usage_error(const std::string& text, const std::vector<fv::Patch>& patches = kPatches) {
  return usage_error_of(text, [&](const std::string& t) {
    fv::resolve_case(fv::IniFile::parse(t, "case.ini"), patches);
  });
}
} // namespace

TEST(CaseConfig, ParsesValuesAndFillsDefaults) {
  const fv::CaseConfig c = fv::resolve_case(fv::IniFile::parse(kCase, "case.ini"), kPatches);
  EXPECT_DOUBLE_EQ(c.flow.mach, 2.0);
  EXPECT_EQ(c.scheme.flux.flux, fv::kernels::Flux::Rusanov);
  EXPECT_EQ(c.scheme.limiter, fv::kernels::Limiter::Barth);
  EXPECT_EQ(c.scheme.order, 2);                         // default
  EXPECT_EQ(c.time.integrator, fv::TimeScheme::Newton); // default of steady (local) stepping
  EXPECT_EQ(c.time.cflLaw, fv::CflLaw::Ser);            // newton's default CFL law
  EXPECT_DOUBLE_EQ(c.time.cfl, 1.5);
  EXPECT_DOUBLE_EQ(c.time.cflStart, 1.5); // defaults to cfl
  EXPECT_EQ(c.time.iterations, 200);
  ASSERT_EQ(c.patches.size(), 4u);
  EXPECT_EQ(c.patches[0].params.type, fv::phys::BcType::SupersonicInflow);
  EXPECT_EQ(c.patches[1].params.type, fv::phys::BcType::SubsonicOutflow);
  EXPECT_DOUBLE_EQ(c.patches[1].params.pressure, 90000);
  EXPECT_EQ(c.patches[3].name, "side plane");
  EXPECT_EQ(c.patches[3].params.type, fv::phys::BcType::Symmetry);
  // only slip walls are force patches by default
  ASSERT_EQ(c.monitor.forcePatches.size(), 1u);
  EXPECT_EQ(c.monitor.forcePatches[0], "wall");
  // derived free stream: ideal gas, Mach 2 at 2 degrees in the x-z plane
  const real_t rho = 101325 / (287.05 * 288.15);
  EXPECT_NEAR(c.flow.freestream[0], rho, 1e-12);
  const real_t V = std::hypot(c.flow.freestream[1], c.flow.freestream[3]);
  EXPECT_NEAR(V / std::sqrt(1.4 * 101325 / rho), 2.0, 1e-12);
  EXPECT_NEAR(std::atan2(c.flow.freestream[3], c.flow.freestream[1]) * 180 / std::acos(-1.0), 2.0,
              1e-12);
  EXPECT_DOUBLE_EQ(c.flow.freestream[2], 0.0);
  // supersonic inflow defaults to the free stream
  for (int k = 0; k < 5; ++k)
    EXPECT_NEAR(c.patches[0].params.ref[k], c.flow.freestream[k], 1e-9);
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
    EXPECT_DOUBLE_EQ(again.flow.freestream[k], c.flow.freestream[k]);
}

// Issue 50, item 14: patch names compared as the mesh writes them: runs of spaces kept, a
// quoted name verbatim (leading and trailing spaces, '#' and ';' inside), and the resolved case
// writes each name so that it reads back the same; a NUL byte is an error, not the end of a
// value.
TEST(CaseConfig, PatchNamesAsTheMeshWritesThem) {
  const std::vector<fv::Patch> patches = {{"Ilo_Seg   1", "BCWall"}, {" far #1 ", "BCFarfield"}};
  const std::string text = "[freestream]\nmach = 0.5\n[patch Ilo_Seg   1]\ntype = slip_wall\n"
                           "[patch \" far #1 \"]  # the far field\ntype = farfield\n";
  const fv::CaseConfig c = fv::resolve_case(fv::IniFile::parse(text, "case.ini"), patches);
  EXPECT_EQ(c.patches[0].params.type, fv::phys::BcType::SlipWall);
  EXPECT_EQ(c.patches[1].params.type, fv::phys::BcType::Farfield);
  EXPECT_NE(c.resolvedIni.find("[patch Ilo_Seg   1]"), std::string::npos) << c.resolvedIni;
  EXPECT_NE(c.resolvedIni.find("[patch \" far #1 \"]"), std::string::npos) << c.resolvedIni;
  const fv::CaseConfig again =
      fv::resolve_case(fv::IniFile::parse(c.resolvedIni, "case.resolved.ini"), patches);
  EXPECT_EQ(again.resolvedIni, c.resolvedIni);
  // the name with single spaces is another patch
  EXPECT_THROW(fv::resolve_case(fv::IniFile::parse("[patch Ilo_Seg 1]\ntype = slip_wall\n"
                                                   "[patch \" far #1 \"]\ntype = farfield\n",
                                                   "case.ini"),
                                patches),
               fv::Error);
  try {
    fv::IniFile::parse(std::string("[freestream]\nmach = 0.8\0junk\n", 29), "nul.ini");
    ADD_FAILURE() << "a NUL byte was accepted";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nul.ini:2: a NUL byte"), std::string::npos) << e.what();
  }
}

TEST(CaseConfig, OverridesFromTheCommandLine) {
  fv::IniFile ini = fv::IniFile::parse(kCase, "case.ini");
  ini.set_override("time.cfl=0.5");
  ini.set_override("patch side plane.type=slip_wall");
  ini.set_override("scheme.order=1");
  const fv::CaseConfig c = fv::resolve_case(ini, kPatches);
  EXPECT_DOUBLE_EQ(c.time.cfl, 0.5);
  EXPECT_EQ(c.scheme.order, 1);
  EXPECT_EQ(c.patches[3].params.type, fv::phys::BcType::SlipWall);
  EXPECT_EQ(c.monitor.forcePatches.size(), 2u);
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
  EXPECT_DOUBLE_EQ(c.flow.freestream[0], 1.0);
  EXPECT_NEAR(c.flow.freestream[1], 2.0, 1e-14); // Mach 2 with c = 1
  EXPECT_NEAR(c.flow.freestream[4], 1.0 / 1.4, 1e-15);
}

TEST(CaseConfig, DocsListEveryKeyAsTheSchemaSays) {
  // docs/case-keys.md's table is `fvrun --keys`: the schema and the documentation cannot drift
  std::ifstream in(std::string(FV_SOURCE_DIR) + "/docs/case-keys.md");
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str();
  const std::string table = fv::case_keys_markdown();
  EXPECT_NE(readme.find(table), std::string::npos)
      << "docs/case-keys.md's key table differs from `fvrun --keys`; regenerate it";
}

// [scheme] limiter_region: every cell for the Euler model (inviscid slip lines are
// discontinuities at any Mach number), the supersonic cells for the viscous models (which
// resolve every other layer); either can be chosen, anything else is a usage error.
TEST(CaseConfig, LimiterRegionDefaultsByModel) {
  fv::IniFile euler = fv::IniFile::parse(kCase, "case.ini");
  EXPECT_EQ(fv::resolve_case(euler, kPatches).scheme.limiterRegion, fv::LimiterRegion::Everywhere);
  fv::IniFile ns = fv::IniFile::parse(kCase, "case.ini");
  ns.set_override("physics.model=navier_stokes");
  EXPECT_EQ(fv::resolve_case(ns, kPatches).scheme.limiterRegion, fv::LimiterRegion::Supersonic);
  ns.set_override("scheme.limiter_region=everywhere");
  EXPECT_EQ(fv::resolve_case(ns, kPatches).scheme.limiterRegion, fv::LimiterRegion::Everywhere);
  std::string text = kCase;
  text.replace(text.find("limiter = barth"), 15, "limiter = barth\nlimiter_region = subsonic");
  const std::string e = usage_error(text);
  EXPECT_NE(e.find("limiter_region"), std::string::npos) << e;
}

// Every enumerated name is listed once, by the room that owns the enumeration: the schema's
// choices are those tables, so that a new flux, limiter, model, boundary type, transport or
// device gets its case-file name (and its place in every message and table) in one place.
TEST(CaseConfig, ChoicesAreTheOwnersNameTables) {
  const auto key = [](const char* section, const char* name) -> const fv::CaseKey& {
    for (const auto& k : fv::case_keys())
      if (std::string(k.section) == section && std::string(k.key) == name) return k;
    ADD_FAILURE() << section << "." << name << " is not in the schema";
    return fv::case_keys().front();
  };
  EXPECT_EQ(key("scheme", "flux").choices, fv::enum_names(fv::kernels::kFluxNames));
  EXPECT_EQ(key("scheme", "limiter").choices, fv::enum_names(fv::kernels::kLimiterNames));
  EXPECT_EQ(key("physics", "model").choices, fv::enum_names(fv::phys::kModelNames));
  EXPECT_EQ(key("run", "transport").choices, fv::enum_names(fv::backend::kTransportNames));
  EXPECT_EQ(key("run", "device").choices, fv::enum_names(fv::kDeviceRequestNames));
  EXPECT_EQ(fv::patch_keys().front().choices, fv::enum_names(fv::phys::kBcTypeNames));
  std::vector<std::string> assembly = fv::enum_names(fv::kAssemblyModeNames);
  for (const auto& v : fv::enum_names(fv::kernels::kResidualAssemblyNames))
    assembly.push_back(v);
  EXPECT_EQ(key("scheme", "assembly").choices, assembly);
  EXPECT_EQ(assembly, (std::vector<std::string>{"auto", "gather", "smem"}));
  for (const auto& k : fv::case_keys()) { // a literal default of a choice is one of its names
    if (k.type != fv::KeyType::Choice || k.dependentDefault) continue;
    EXPECT_NE(std::find(k.choices.begin(), k.choices.end(), k.defaultValue), k.choices.end())
        << k.key;
  }
  // the model names are the Model types' own
  EXPECT_STREQ(fv::enum_name(fv::phys::kModelNames, fv::phys::ModelKind::RansSa),
               fv::phys::SaModel::kName);
}

// [scheme] assembly takes the solver's own assemblies only: fvbench's benchmark variants and
// the timing among all of them (auto_any) are not the product's, and a case file naming them
// gets the usage error that lists the valid names.
TEST(CaseConfig, AssemblyIsAutoGatherOrSmem) {
  std::string base = kCase;
  base.replace(base.find("limiter = barth"), 15, "limiter = barth\nassembly = ");
  for (const char* a : {"auto", "gather", "smem"}) {
    std::string text = base;
    text.insert(text.find("assembly = ") + 11, a);
    EXPECT_EQ(
        fv::resolve_case(fv::IniFile::parse(text, "case.ini"), kPatches).scheme.assembly.name(), a);
  }
  for (const char* a : {"auto_any", "atomic", "colour", "fused-atomic", "fused-colour"}) {
    SCOPED_TRACE(a);
    std::string text = base;
    text.insert(text.find("assembly = ") + 11, a);
    const std::string e = usage_error(text);
    EXPECT_NE(e.find("assembly"), std::string::npos) << e;
    EXPECT_NE(e.find("(valid: auto, gather, smem)"), std::string::npos) << e;
  }
}

// The flux settings are built once, with the case: the face fluxes' entropy fix on the
// acoustic waves only for the viscous models (entropy_fix_waves), second order from `order`.
TEST(CaseConfig, FluxSettingsBuiltOnce) {
  fv::IniFile ini = fv::IniFile::parse(kCase, "case.ini");
  const fv::CaseConfig euler = fv::resolve_case(ini, kPatches);
  EXPECT_EQ(euler.scheme.flux.flux, fv::kernels::Flux::Rusanov);
  EXPECT_EQ(euler.scheme.flux.linearFix, -1.0);
  EXPECT_TRUE(euler.scheme.flux.secondOrder);
  EXPECT_EQ(euler.scheme.flux.gamma, euler.flow.gamma);
  ini.set_override("physics.model=navier_stokes");
  ini.set_override("scheme.order=1");
  const fv::CaseConfig ns = fv::resolve_case(ini, kPatches);
  EXPECT_EQ(ns.scheme.flux.linearFix, 0.0);
  EXPECT_FALSE(ns.scheme.flux.secondOrder);
  // the implicit operators' Jacobians fix every wave, at first order
  const fv::kernels::FluxSettings jac =
      ns.scheme.flux.first_order().with_entropy_fix_on_all_waves();
  EXPECT_EQ(jac.linearFix, -1.0);
  EXPECT_FALSE(jac.secondOrder);
  EXPECT_EQ(jac.entropyFix, ns.scheme.flux.entropyFix);
}

// A subsonic inflow's default direction ("normal") and an adiabatic wall are words the keys
// accept: the resolved text of such a case reads back as the same case.
TEST(CaseConfig, ResolvedTextOfKeywordsReparses) {
  std::string text = kCase;
  text.replace(text.find("supersonic_inflow"), 17, "subsonic_inflow");
  text += "[physics]\nmodel = navier_stokes\n";
  text.replace(text.find("type = slip_wall"), 16, "type = no_slip_wall");
  const fv::CaseConfig c = fv::resolve_case(fv::IniFile::parse(text, "case.ini"), kPatches);
  EXPECT_NE(c.resolvedIni.find("direction = normal"), std::string::npos) << c.resolvedIni;
  EXPECT_NE(c.resolvedIni.find("temperature = adiabatic"), std::string::npos) << c.resolvedIni;
  const fv::CaseConfig again =
      fv::resolve_case(fv::IniFile::parse(c.resolvedIni, "resolved.ini"), kPatches);
  EXPECT_EQ(again.resolvedIni, c.resolvedIni);
  EXPECT_EQ(again.patches[0].params.direction[0], 0.0);
  EXPECT_EQ(again.patches[2].params.wallTemperature, 0.0);
  std::string hot = text;
  hot.replace(hot.find("type = no_slip_wall"), 19, "type = no_slip_wall\ntemperature = 300");
  EXPECT_EQ(fv::resolve_case(fv::IniFile::parse(hot, "case.ini"), kPatches)
                .patches[2]
                .params.wallTemperature,
            300.0);
  hot.replace(hot.find("temperature = 300"), 17, "temperature = -1");
  EXPECT_NE(usage_error(hot).find("temperature must be > 0"), std::string::npos);
}

// Values given on the command line (fvrun's shortcut options set them like --set) are checked
// as the case file's, the message naming the command line, the section and the key.
TEST(CaseConfig, CommandLineValuesAreCheckedAsTheKeysType) {
  const auto error = [](const char* section, const char* key, const char* value) {
    fv::IniFile ini = fv::IniFile::parse(kCase, "case.ini");
    ini.set(section, key, value);
    try {
      fv::resolve_case(ini, kPatches);
    } catch (const fv::Error& e) {
      EXPECT_EQ(e.kind(), fv::ErrorKind::Usage);
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error("time", "cfl", "0").find("command line: [time] cfl must be > 0"),
            std::string::npos);
  EXPECT_NE(error("time", "iterations", "-1").find("command line: [time] iterations"),
            std::string::npos);
  EXPECT_NE(error("run", "device", "").find("command line: [run] device = '' is not valid"),
            std::string::npos);
  EXPECT_NE(error("monitor", "output_dir", "").find("output_dir must not be empty"),
            std::string::npos);
  fv::IniFile ini = fv::IniFile::parse(kCase, "case.ini");
  ini.set("time", "cfl", "1e-7");
  EXPECT_EQ(fv::resolve_case(ini, kPatches).time.cfl, 1e-7);
}

namespace {
/// The zone header of a 2D airfoil mesh with the patches kAirfoil, extruded by `thickness`
/// along `direction` (thickness 0: a 3D mesh, or a zone file written before the extrusion was
/// recorded).
fv::ZoneFileHeader airfoil_header(double thickness, std::array<double, 3> direction = {0, 0, 1}) {
  fv::ZoneFileHeader h;
  h.patches = {{"airfoil", "BCWall"}, {"farfield", "BCFarfield"}, {"symmetry", "BCSymmetryPlane"}};
  if (thickness > 0) h.extrusion = {thickness, direction};
  return h;
}
const std::string kAirfoil =
    "[freestream]\nmach = 0.8\naoa = 1.25\n"
    "[patch airfoil]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n"
    "[patch symmetry]\ntype = symmetry\n";

fv::CaseConfig resolve_airfoil(const std::string& text, const fv::ZoneFileHeader& h) {
  return fv::resolve_case(fv::IniFile::parse(text, "airfoil.ini"), h);
}

std::string airfoil_usage_error(const std::string& text, const fv::ZoneFileHeader& h) {
  return usage_error_of(text, [&](const std::string& t) { resolve_airfoil(t, h); });
}
} // namespace

// Issue 50, items 5 and 6: on a 2D mesh extruded by fvprep the reference area defaults to the
// chord (reference_length) times the thickness the zone file records, and the lift axis to the
// axis of the mesh's plane; a 3D mesh (or an older zone file) keeps 1 and z.
TEST(CaseConfig, TwoDimensionalMeshDefaultsFromTheExtrusion) {
  const fv::CaseConfig flat = resolve_airfoil(kAirfoil, airfoil_header(0.37));
  EXPECT_EQ(flat.monitor.refArea, 0.37); // chord 1 x thickness
  EXPECT_EQ(flat.flow.liftAxis, 1);      // y: the plane of an xy mesh
  EXPECT_NEAR(flat.flow.liftDir[1], std::cos(1.25 * std::acos(-1.0) / 180), 1e-15);
  EXPECT_EQ(flat.flow.liftDir[2], 0.0);
  EXPECT_EQ(flat.flow.dragDir[2], 0.0); // the flow stays in the plane
  EXPECT_NE(flat.resolvedIni.find("reference_area = 0.37\n"), std::string::npos);
  EXPECT_NE(flat.resolvedIni.find("lift_axis = y\n"), std::string::npos);
  // the resolved text reads back as the same case on the same mesh
  EXPECT_EQ(resolve_airfoil(flat.resolvedIni, airfoil_header(0.37)).resolvedIni, flat.resolvedIni);

  const fv::CaseConfig chord2 =
      resolve_airfoil(kAirfoil + "[monitor]\nreference_length = 2\n", airfoil_header(0.37));
  EXPECT_EQ(chord2.monitor.refArea, 2 * 0.37);
  const fv::CaseConfig given =
      resolve_airfoil(kAirfoil + "[monitor]\nreference_area = 3\n", airfoil_header(0.37));
  EXPECT_EQ(given.monitor.refArea, 3.0);
  // an xz mesh (extruded along y): lift along z
  EXPECT_EQ(resolve_airfoil(kAirfoil, airfoil_header(0.5, {0, 1, 0})).flow.liftAxis, 2);

  for (const fv::CaseConfig& solid :
       {resolve_airfoil(kAirfoil, airfoil_header(0)),
        fv::resolve_case(fv::IniFile::parse(kAirfoil, "airfoil.ini"), airfoil_header(0).patches)}) {
    EXPECT_EQ(solid.monitor.refArea, 1.0);
    EXPECT_EQ(solid.flow.liftAxis, 2);
  }
}

// Issue 50, item 6: a lift axis along the extrusion, or a sideslip, would tilt the flow through
// a 2D mesh's symmetry planes: usage errors naming the extrusion.
TEST(CaseConfig, TwoDimensionalMeshRefusesFlowThroughItsPlanes) {
  std::string e =
      airfoil_usage_error(kAirfoil + "[freestream]\nlift_axis = z\n", airfoil_header(0.01));
  EXPECT_NE(e.find("airfoil.ini:"), std::string::npos) << e;
  EXPECT_NE(e.find("lift_axis = z is along the extrusion of the 2D mesh extruded by 0.01 along "
                   "(0, 0, 1)"),
            std::string::npos)
      << e;
  e = airfoil_usage_error(kAirfoil + "[freestream]\nlift_axis = y\n", airfoil_header(1, {0, 1, 0}));
  EXPECT_NE(e.find("lift_axis = y is along the extrusion"), std::string::npos) << e;
  e = airfoil_usage_error(kAirfoil + "[freestream]\nsideslip = 2\n", airfoil_header(0.01));
  EXPECT_NE(e.find("sideslip = 2 tilts the free stream through the symmetry planes"),
            std::string::npos)
      << e;
  // a mesh in the y-z plane: the free stream (along x) crosses it whatever the lift axis
  e = airfoil_usage_error(kAirfoil, airfoil_header(0.01, {1, 0, 0}));
  EXPECT_NE(e.find("is not in the plane of the 2D mesh extruded by 0.01 along (1, 0, 0)"),
            std::string::npos)
      << e;
  // the same keys on a 3D mesh are fine
  EXPECT_EQ(
      resolve_airfoil(kAirfoil + "[freestream]\nlift_axis = z\nsideslip = 2\n", airfoil_header(0))
          .flow.liftAxis,
      2);
}

// Every bundled example resolves (against patches named as its [patch ...] sections name them):
// a key or value an example misspells fails here, not in a user's first run.
TEST(CaseConfig, EveryExampleResolves) {
  int examples = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(FV_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() != ".ini") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<fv::Patch> patches;
    for (std::size_t at = text.find("[patch "); at != std::string::npos;
         at = text.find("[patch ", at + 1)) {
      const std::size_t end = text.find(']', at);
      ASSERT_NE(end, std::string::npos) << entry.path();
      patches.push_back({text.substr(at + 7, end - at - 7), "UserDefined"});
    }
    EXPECT_FALSE(patches.empty()) << entry.path();
    EXPECT_NO_THROW(fv::resolve_case(fv::IniFile::parse(text, entry.path().string()), patches))
        << entry.path();
    ++examples;
  }
  EXPECT_GE(examples, 9);
}
