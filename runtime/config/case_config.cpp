// resolve_case(): the schema's keys (case_schema.cpp) read section by section, each followed by
// its cross-checks and derivations (free stream, transport, flux settings, patch conditions).
#include "runtime/config/case_config.hpp"
#include "runtime/physics/sa/spalart_allmaras.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace fv {

std::string format_real(real_t v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

real_t FlowConfig::dynamic_pressure() const {
  const real_t* u = freestream.data() + phys::kVelocity;
  return 0.5 * freestream[phys::kDensity] * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
}

real_t FlowConfig::total_temperature() const {
  return temperature * (1 + 0.5 * (gamma - 1) * mach * mach);
}

real_t FlowConfig::total_pressure() const {
  return pressure * std::pow(total_temperature() / temperature, gamma / (gamma - 1));
}

real_t SweepAxis::spacing() const {
  if (values.size() < 2) return 1;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return (*hi - *lo) / static_cast<real_t>(values.size() - 1);
}

std::size_t SweepConfig::points() const {
  std::size_t n = 1;
  for (const SweepAxis& a : axes)
    n *= a.values.size();
  return n;
}

namespace {

/// A whole number of `s` (leading and trailing spaces allowed), or NaN.
real_t number(const std::string& s) {
  char* end = nullptr;
  const real_t x = std::strtod(s.c_str(), &end);
  while (end && *end == ' ')
    ++end;
  const bool blank = s.find_first_not_of(' ') == std::string::npos;
  return !blank && end && *end == '\0' && std::isfinite(x) ? x : std::nan("");
}

/// x rounded to 12 significant digits (a range's values: start + i step without the binary
/// representation's tail).
real_t twelve_digits(real_t x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", x);
  return std::strtod(buf, nullptr);
}

std::vector<real_t> sweep_range(const std::string& spec, const std::string& what) {
  std::vector<std::string> parts;
  std::string item;
  std::istringstream in(spec);
  while (std::getline(in, item, ':'))
    parts.push_back(item);
  FV_VERIFY_USAGE(parts.size() == 3 && spec.back() != ':',
                  what << "'" << spec << "' is not a range start:stop:step");
  const real_t a = number(parts[0]), b = number(parts[1]), step = number(parts[2]);
  FV_VERIFY_USAGE(!std::isnan(a) && !std::isnan(b) && !std::isnan(step),
                  what << "'" << spec << "': start, stop and step must be numbers");
  FV_VERIFY_USAGE(step != 0, what << "'" << spec << "': the step must not be 0");
  const real_t steps = (b - a) / step;
  FV_VERIFY_USAGE(steps >= 0,
                  what << "'" << spec << "': the step " << step << " points away from stop " << b);
  FV_VERIFY_USAGE(steps < static_cast<real_t>(kMaxSweepPoints),
                  what << "'" << spec << "' has more than " << kMaxSweepPoints << " values");
  const auto n = static_cast<std::size_t>(std::floor(steps + 1e-9)) + 1; // stop within rounding
  std::vector<real_t> v;
  for (std::size_t i = 0; i < n; ++i)
    v.push_back(twelve_digits(a + static_cast<real_t>(i) * step));
  return v;
}

} // namespace

std::vector<real_t> sweep_values(const std::string& spec, const std::string& what) {
  FV_VERIFY_USAGE(spec.find_first_not_of(' ') != std::string::npos, what << "is empty");
  if (spec.find(':') != std::string::npos) return sweep_range(spec, what);
  std::vector<real_t> v;
  std::string item;
  std::istringstream in(spec);
  while (std::getline(in, item, ',')) {
    const real_t x = number(item);
    FV_VERIFY_USAGE(!std::isnan(x), what << "'" << spec << "': '" << item << "' is not a number");
    FV_VERIFY_USAGE(std::find(v.begin(), v.end(), x) == v.end(),
                    what << "'" << spec << "': " << item << " is listed twice");
    v.push_back(x);
  }
  FV_VERIFY_USAGE(spec.back() != ',', what << "'" << spec << "' ends with an empty item");
  FV_VERIFY_USAGE(v.size() <= kMaxSweepPoints,
                  what << "'" << spec << "' has more than " << kMaxSweepPoints << " values");
  return v;
}

std::string AssemblyRequest::name() const {
  return mode == AssemblyMode::Variant ? kernels::to_string(variant)
                                       : enum_name(kAssemblyModeNames, mode);
}

namespace {

std::string where(const IniFile& ini, const std::string& section, const IniValue& v) {
  std::ostringstream s;
  if (v.line > 0)
    s << ini.source() << ":" << v.line << ": ";
  else
    s << "command line: ";
  s << "[" << section << "] ";
  return s.str();
}

std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const std::string& s : v)
    out += (out.empty() ? "" : sep) + s;
  return out;
}

/// Parses `s` as key k's type (k.key names it in messages, after `ctx`); checks the bounds.
KeyValue parse_value(const CaseKey& k, const std::string& s, const std::string& ctx) {
  KeyValue v;
  const char* key = k.key;
  if (k.keyword && s == k.keyword) {
    v.keyword = true;
    v.text = s;
    return v;
  }
  switch (k.type) {
  case KeyType::Real: {
    char* end = nullptr;
    v.real = std::strtod(s.c_str(), &end);
    FV_VERIFY_USAGE(!s.empty() && end && *end == '\0' && std::isfinite(v.real),
                    ctx << key << " = '" << s << "' is not a number");
    FV_VERIFY_USAGE(k.bounds.contains(v.real),
                    ctx << key << " must be " << k.bounds.text() << " (got " << v.real << ")");
    break;
  }
  case KeyType::Integer: {
    char* end = nullptr;
    v.integer = std::strtol(s.c_str(), &end, 10);
    FV_VERIFY_USAGE(!s.empty() && end && *end == '\0' &&
                        k.bounds.contains(static_cast<real_t>(v.integer)) &&
                        v.integer <= 2000000000,
                    ctx << key << " = '" << s << "' is not an integer " << k.bounds.text());
    break;
  }
  case KeyType::Boolean:
    if (s == "true" || s == "yes" || s == "on" || s == "1")
      v.boolean = true;
    else if (s == "false" || s == "no" || s == "off" || s == "0")
      v.boolean = false;
    else
      FV_VERIFY_USAGE(false,
                      ctx << key << " = '" << s << "' is not a boolean (valid: true, false)");
    break;
  case KeyType::Choice: {
    const auto it = std::find(k.choices.begin(), k.choices.end(), s);
    FV_VERIFY_USAGE(it != k.choices.end(), ctx << key << " = '" << s << "' is not valid (valid: "
                                               << joined(k.choices) << ")");
    v.choice = static_cast<int>(it - k.choices.begin());
    break;
  }
  case KeyType::Text:
    FV_VERIFY_USAGE(!s.empty(), ctx << key << " must not be empty");
    v.text = s;
    break;
  case KeyType::Reals: {
    std::string item;
    std::istringstream in(s);
    while (std::getline(in, item, ',')) {
      char* end = nullptr;
      const real_t x = std::strtod(item.c_str(), &end);
      while (end && *end == ' ')
        ++end;
      FV_VERIFY_USAGE(end && *end == '\0' && std::isfinite(x) &&
                          item.find_first_not_of(' ') != std::string::npos,
                      ctx << key << " = '" << s << "': '" << item << "' is not a number");
      v.reals.push_back(x);
    }
    FV_VERIFY_USAGE(v.reals.size() == static_cast<std::size_t>(k.count),
                    ctx << key << " = '" << s << "' needs " << k.count
                        << " comma-separated numbers");
    break;
  }
  case KeyType::Names: {
    std::string item;
    std::istringstream in(s);
    while (std::getline(in, item, ',')) {
      const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
      if (b != std::string::npos) v.names.push_back(item.substr(b, e - b + 1));
    }
    break;
  }
  case KeyType::Sweep:
    v.reals = sweep_values(s, ctx + key + " = ");
    for (real_t x : v.reals)
      FV_VERIFY_USAGE(k.bounds.contains(x), ctx << key << " = '" << s << "': every value must be "
                                                << k.bounds.text() << " (got " << x << ")");
    break;
  }
  return v;
}

/// The text of a parsed value in the resolved configuration.
std::string resolved_text(const CaseKey& k, const KeyValue& v) {
  if (v.keyword) return v.text;
  switch (k.type) {
  case KeyType::Real:
    return format_real(v.real);
  case KeyType::Integer:
    return std::to_string(v.integer);
  case KeyType::Boolean:
    return v.boolean ? "true" : "false";
  case KeyType::Choice:
    return k.choices[static_cast<std::size_t>(v.choice)];
  case KeyType::Text:
    return v.text;
  case KeyType::Reals: {
    std::vector<std::string> r;
    for (real_t x : v.reals)
      r.push_back(format_real(x));
    return joined(r);
  }
  case KeyType::Names:
    return joined(v.names);
  case KeyType::Sweep: { // the values themselves: a range and its list are the same campaign
    std::vector<std::string> r;
    for (real_t x : v.reals)
      r.push_back(format_real(x));
    return joined(r);
  }
  }
  return {};
}

/// Reads the keys of one section, recording the resolved text of every key.
class SectionReader {
 public:
  SectionReader(const IniFile& ini, std::string section, std::ostringstream& dump)
      : ini_(ini), sec_(std::move(section)), vals_(ini.section(sec_)), dump_(dump) {
    dump_ << "\n" << IniFile::section_header(sec_) << "\n";
  }
  /// "case.ini:12: [time] ", "command line: [time] " or "default [time] ": where key's value
  /// came from, to start a message.
  std::string ctx(const std::string& key) const {
    auto it = vals_.find(key);
    return it == vals_.end() ? "default [" + sec_ + "] " : where(ini_, sec_, it->second);
  }
  /// Key k's value: given, or its default (computed from the case resolved so far).
  KeyValue resolve(const CaseKey& k, const CaseConfig& c) {
    const auto it = vals_.find(k.key);
    const std::string text = it != vals_.end()    ? it->second.value
                             : k.dependentDefault ? k.dependentDefault(c)
                                                  : k.defaultValue;
    KeyValue v = parse_value(k, text, ctx(k.key));
    v.given = it != vals_.end();
    record(k.key, resolved_text(k, v));
    return v;
  }
  void record(const std::string& key, const std::string& v) {
    if (!recorded_.insert(key).second) return;
    dump_ << key << " = " << v << "\n";
  }
  /// Every given key must be known (in `known`).
  void check_known(const std::vector<std::string>& known) const {
    for (const auto& [k, v] : vals_)
      FV_VERIFY_USAGE(std::find(known.begin(), known.end(), k) != known.end(),
                      where(ini_, sec_, v)
                          << "unknown key '" << k << "' (valid: " << joined(known) << ")");
  }

 private:
  const IniFile& ini_;
  std::string sec_;
  const std::map<std::string, IniValue>& vals_;
  std::ostringstream& dump_;
  std::set<std::string> recorded_;
};

/// Resolves every key of a global section into c, in schema order.
SectionReader read_section(const IniFile& ini, const std::string& section, std::ostringstream& dump,
                           CaseConfig& c) {
  SectionReader r(ini, section, dump);
  std::vector<std::string> known;
  for (const CaseKey& k : case_keys())
    if (section == k.section) known.push_back(k.key);
  r.check_known(known);
  for (const CaseKey& k : case_keys())
    if (section == k.section) k.store(c, r.resolve(k, c));
  return r;
}

/// The global sections in schema order.
std::vector<std::string> global_sections() {
  std::vector<std::string> out;
  for (const CaseKey& k : case_keys())
    if (std::find(out.begin(), out.end(), k.section) == out.end()) out.push_back(k.section);
  return out;
}

void check_sections(const IniFile& ini) {
  const std::vector<std::string> globals = global_sections();
  for (const auto& s : ini.sections()) {
    const bool ok =
        s.rfind("patch ", 0) == 0 || std::find(globals.begin(), globals.end(), s) != globals.end();
    std::string valid;
    for (const auto& g : globals)
      valid += "[" + g + "], ";
    FV_VERIFY_USAGE(ok, ini.source() << ": unknown section [" << s << "] (valid: " << valid
                                     << "[patch NAME])");
  }
}

/// [freestream] nondimensional, the flow directions and the free-stream state; returns the
/// dimensional free-stream temperature (K), which scales Sutherland's constants.
real_t derive_free_stream(FlowConfig& f) {
  const real_t dimensionalTemperature = f.temperature;
  if (f.nondimensional) {
    f.gasConstant = 1.0 / f.gamma;
    f.pressure = 1.0 / f.gamma;
    f.temperature = 1.0;
  }
  const real_t pi = std::acos(-1.0);
  const real_t a = f.aoaDeg * pi / 180.0, b = f.sideslipDeg * pi / 180.0;
  const int up = f.liftAxis, side = up == 2 ? 1 : 2;
  std::array<real_t, 3> d{}, l{}, s{};
  d[0] = std::cos(a) * std::cos(b);
  d[side] = (up == 2 ? -1.0 : 1.0) * std::sin(b);
  d[up] = std::sin(a) * std::cos(b);
  l[0] = -std::sin(a);
  l[up] = std::cos(a);
  // side = lift x drag (right-handed drag, side, lift for lift along z)
  s[0] = l[1] * d[2] - l[2] * d[1];
  s[1] = l[2] * d[0] - l[0] * d[2];
  s[2] = l[0] * d[1] - l[1] * d[0];
  f.dragDir = d;
  f.liftDir = l;
  f.sideDir = s;
  const real_t rho = f.pressure / (f.gasConstant * f.temperature);
  const real_t a0 = std::sqrt(f.gamma * f.pressure / rho);
  const real_t V = f.mach * a0;
  f.freestream[phys::kDensity] = rho;
  for (int i = 0; i < 3; ++i)
    f.freestream[phys::kVelocity + i] = V * d[i];
  f.freestream[phys::kPressure] = f.pressure;
  return dimensionalTemperature;
}

/// How far (a cosine) from the plane of a 2D mesh the free stream and the lift may point: the
/// rounding of the extrusion direction, far below any angle of attack or sideslip meant.
constexpr real_t kPlaneTolerance = 1e-9;

/// [freestream] on an extruded 2D mesh: the lift axis, the free stream and the lift lie in the
/// mesh's plane (what is along the extrusion direction crosses its symmetry planes: a flow
/// tilted through them, a lift measured across them).
void check_plane(const SectionReader& r, const CaseConfig& c) {
  const Extrusion& e = c.mesh.extrusion;
  if (!e.extruded()) return;
  const FlowConfig& f = c.flow;
  const auto& d = e.direction;
  const auto across = [&d](const std::array<real_t, 3>& v) {
    return std::fabs(v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) > kPlaneTolerance;
  };
  const char* lift = enum_name(kLiftAxisNames, f.liftAxis);
  const std::size_t up = static_cast<std::size_t>(f.liftAxis), other = 3 - up; // y, z
  FV_VERIFY_USAGE(std::fabs(d[up]) <= std::fabs(d[other]),
                  r.ctx("lift_axis")
                      << "lift_axis = " << lift << " is along the extrusion of the " << describe(e)
                      << ": the lift and the angle of attack would point through "
                      << "its symmetry planes; leave lift_axis out (its default is in the plane)");
  FV_VERIFY_USAGE(f.sideslipDeg == 0 || !across(f.dragDir),
                  r.ctx("sideslip") << "sideslip = " << f.sideslipDeg
                                    << " tilts the free stream through the symmetry planes of the "
                                    << describe(e) << "; a 2D case has sideslip = 0");
  FV_VERIFY_USAGE(!across(f.dragDir) && !across(f.liftDir),
                  r.ctx("lift_axis") << "the free stream (in the x-" << lift
                                     << " plane) is not in the plane of the " << describe(e)
                                     << ": fvrun's 2D cases lie in the x-y or the x-z plane");
}

/// [physics]: the transport properties in solver units, the reference viscosity scaled to
/// [freestream] reynolds when given, nu-tilde of the free stream.
void derive_transport(const IniFile& ini, FlowConfig& f, real_t dimensionalTemperature) {
  phys::Transport& t = f.transport;
  const real_t scale = f.nondimensional ? dimensionalTemperature : 1.0;
  t.tRef /= scale;
  t.sutherland /= scale;
  t.gamma = f.gamma;
  t.gasConstant = f.gasConstant;
  const real_t rho = f.freestream[phys::kDensity];
  const real_t* u = f.freestream.data() + phys::kVelocity;
  if (f.reynolds > 0) {
    const real_t speed = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    FV_VERIFY_USAGE(speed > 0, ini.source() << ": [freestream] reynolds needs a free stream that "
                                               "moves (mach > 0)");
    const real_t muInf = rho * speed * f.reynoldsLength / f.reynolds;
    t.muRef *= muInf / phys::viscosity(t, f.temperature);
  }
  if (f.rans())
    f.nuTildeFreestream =
        phys::sa::freestream_nu_tilde(rho, phys::viscosity(t, f.temperature), f.nuTildeRatio);
}

/// [scheme]: the flux settings' gas and order; mixed precision gathers.
void finish_scheme(const SectionReader& r, CaseConfig& c) {
  SchemeConfig& s = c.scheme;
  s.flux.gamma = c.flow.gamma;
  s.flux.secondOrder = s.order == 2;
  FV_VERIFY_USAGE(!s.mixedPrecision || s.assembly.automatic() ||
                      s.assembly.variant == kernels::ResidualAssembly::Gather,
                  r.ctx("precision") << "precision = mixed sums the residual by gather; "
                                        "assembly = "
                                     << s.assembly.name() << " reads FP64 geometry");
}

/// [time]: the integrator against the stepping and the model, the CFL bounds, the Newton
/// preconditioner's ordering, LU-SGS's dissipation.
void check_time(const SectionReader& r, const CaseConfig& c) {
  const TimeConfig& t = c.time;
  FV_VERIFY_USAGE(t.integrator != TimeScheme::Newton || t.localTimeStep,
                  r.ctx("integrator") << "integrator = newton is for steady runs (stepping = "
                                         "local); time-accurate runs use rk2, ssprk3 or rk4");
  FV_VERIFY_USAGE(t.integrator != TimeScheme::Lusgs || !c.flow.rans(),
                  r.ctx("integrator") << "integrator = lusgs solves the mean flow only; "
                                         "model = rans_sa runs with newton (the default) or "
                                         "an explicit scheme");
  FV_VERIFY_USAGE(t.cflLaw == CflLaw::Ramp || t.cflStart <= t.cfl,
                  r.ctx("cfl_start")
                      << "cfl_law = " << enum_name(kCflLawNames, t.cflLaw)
                      << " needs cfl_start <= cfl (got " << t.cflStart << " > " << t.cfl << ")");
  FV_VERIFY_USAGE(!(t.localTimeStep && (t.dt > 0 || t.finalTime > 0)),
                  "[time] dt and final_time need stepping = global");
  const NewtonPreconditioner p = c.newton.preconditioner;
  FV_VERIFY_USAGE(c.newton.ordering != SweepOrdering::Blocks || p == NewtonPreconditioner::Ilu ||
                      p == NewtonPreconditioner::Jacobi || p == NewtonPreconditioner::None,
                  r.ctx("newton_ordering") << "newton_ordering = blocks is for "
                                              "newton_preconditioner = ilu; sgs sweeps use "
                                              "colour or hyperplane");
  FV_VERIFY_USAGE(!c.lusgs.roeDissipation || c.lusgs.boundaryJacobian,
                  r.ctx("lusgs_dissipation")
                      << "lusgs_dissipation = roe needs lusgs_boundary = jacobian");
}

void check_initial(const CaseConfig& c) {
  const InitialConfig& i = c.initial;
  if (i.kind == InitialKind::Split)
    FV_VERIFY_USAGE(phys::MeanFlowState::admissible(i.left.data()) &&
                        phys::MeanFlowState::admissible(i.right.data()),
                    "[initial] left and right need density > 0 and pressure > 0");
}

std::array<real_t, 3> normalised(const std::array<real_t, 3>& v, const std::string& what) {
  const real_t n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  FV_VERIFY_USAGE(n > 0, what << ": direction must not be the zero vector");
  return {v[0] / n, v[1] / n, v[2] / n};
}

/// The kernel parameters of a patch of the table row `row` from its keys: the free stream's
/// gas, state and pressures, then what the row derives from the keys (a given direction
/// normalised first).
phys::BcParams bc_params(const FlowConfig& f, const phys::BcRow& row, PatchKeys k,
                         const std::string& section) {
  phys::BcParams b;
  b.type = row.type;
  b.gamma = f.gamma;
  b.gasConstant = f.gasConstant;
  for (int i = 0; i < phys::kNumEq; ++i)
    b.ref[i] = f.freestream[i];
  b.nuTilde = f.nuTildeFreestream;
  b.pressure = f.pressure;
  b.totalPressure = f.total_pressure();
  b.totalTemperature = f.total_temperature();
  if (k.directionGiven) k.direction = normalised(k.direction, section);
  row.params(k, b);
  return b;
}

/// [patch NAME] sections: every one names a patch of the mesh, every patch has a type; each
/// patch's keys resolved and its kernel parameters derived, in zone patch order.
void resolve_patches(const IniFile& ini, const std::vector<Patch>& zonePatches,
                     std::ostringstream& dump, CaseConfig& c) {
  std::vector<std::string> meshPatches;
  for (const auto& p : zonePatches)
    meshPatches.push_back(p.name);
  for (const auto& s : ini.sections())
    FV_VERIFY_USAGE(s.rfind("patch ", 0) != 0 || std::find(meshPatches.begin(), meshPatches.end(),
                                                           s.substr(6)) != meshPatches.end(),
                    ini.source() << ": [" << s << "] names no patch of the mesh (patches: "
                                 << joined(meshPatches) << ")");
  std::vector<std::string> missing;
  for (const auto& name : meshPatches)
    if (!ini.section("patch " + name).count("type")) missing.push_back(name);
  FV_VERIFY_USAGE(missing.empty(),
                  ini.source() << ": patch(es) without a boundary condition: " << joined(missing)
                               << "; add [patch NAME] with "
                               << "type = " << join_enum_names(phys::kBcTypeNames, " | "));
  const CaseKey& typeKey = patch_keys().front();
  for (const auto& name : meshPatches) {
    const std::string sec = "patch " + name;
    SectionReader r(ini, sec, dump);
    const BcTypeInfo& info = bc_types()[static_cast<std::size_t>(r.resolve(typeKey, c).choice)];
    r.check_known(info.keys);
    FV_VERIFY_USAGE(!info.viscousOnly || c.flow.viscous(),
                    r.ctx("type") << "type = " << info.name
                                  << " needs a viscous model: [physics] model = navier_stokes or "
                                     "rans_sa");
    PatchKeys keys;
    for (const CaseKey& k : patch_keys())
      if (k.storePatch && k.bcType == info.type) k.storePatch(keys, r.resolve(k, c));
    c.patches.push_back({name, info.name, bc_params(c.flow, *info.row, keys, sec)});
  }
}

/// [monitor]: the force patches are patches of the mesh.
void check_monitor(const SectionReader& r, const CaseConfig& c,
                   const std::vector<Patch>& zonePatches) {
  for (const std::string& name : c.monitor.forcePatches)
    FV_VERIFY_USAGE(std::any_of(zonePatches.begin(), zonePatches.end(),
                                [&](const Patch& p) { return p.name == name; }),
                    r.ctx("force_patches")
                        << "force_patches: '" << name << "' is no patch of the mesh");
  // the coefficients divide by q A (and q A L): a tiny reference must not turn them into inf
  const real_t q = c.flow.dynamic_pressure();
  if (!(q > 0)) return; // a gas at rest has no coefficients (nan: run_loop.hpp)
  const real_t qa = q * c.monitor.refArea;
  FV_VERIFY_USAGE(std::isnormal(qa) && std::isfinite(1 / qa),
                  r.ctx("reference_area") << "reference_area = " << c.monitor.refArea
                                          << " times the dynamic pressure is no usable divisor");
  FV_VERIFY_USAGE(std::isnormal(qa * c.monitor.refLength) &&
                      std::isfinite(1 / (qa * c.monitor.refLength)),
                  r.ctx("reference_length") << "reference_length = " << c.monitor.refLength
                                            << " times reference_area and the dynamic "
                                               "pressure is no usable divisor");
}

/// [freestream] target_cl and [sweep]: what fixed lift and a campaign need of the case.
void check_campaign(const SectionReader& freestream, const SectionReader& sweep,
                    const CaseConfig& c) {
  const bool steady = c.time.localTimeStep && c.time.convergenceOrders > 0;
  if (c.lift.on) {
    FV_VERIFY_USAGE(c.flow.mach > 0, freestream.ctx("target_cl")
                                         << "target_cl needs a moving free stream (mach > 0): "
                                            "lift is undefined at rest");
    FV_VERIFY_USAGE(steady, freestream.ctx("target_cl")
                                << "target_cl needs a steady run that converges ([time] "
                                   "stepping = local, convergence > 0): the angle of attack "
                                   "is adjusted at residual levels");
    FV_VERIFY_USAGE(!c.monitor.forcePatches.empty(),
                    freestream.ctx("target_cl") << "target_cl needs [monitor] force_patches "
                                                   "(no wall patch gives a lift)");
  }
  for (const SweepAxis& a : c.sweep.axes) {
    FV_VERIFY_USAGE(!(a.key == "aoa" && c.lift.on),
                    sweep.ctx("aoa") << "aoa cannot be swept with [freestream] target_cl: fixed "
                                        "lift sets the angle of attack; sweep mach, reynolds or "
                                        "sideslip");
    FV_VERIFY_USAGE(a.key != "reynolds" || c.flow.viscous(),
                    sweep.ctx("reynolds") << "reynolds is swept but [physics] model = euler has "
                                             "no viscosity: use navier_stokes or rans_sa");
  }
  if (!c.sweep.active()) return;
  FV_VERIFY_USAGE(steady, sweep.ctx(c.sweep.axes.front().key)
                              << "a sweep needs a steady run that converges ([time] stepping = "
                                 "local, convergence > 0): its points start from each other's "
                                 "converged states");
  FV_VERIFY_USAGE(c.sweep.points() <= kMaxSweepPoints,
                  sweep.ctx(c.sweep.axes.front().key) << "the sweep has " << c.sweep.points()
                                                      << " points, more than " << kMaxSweepPoints);
}

} // namespace

CaseConfig resolve_case(const IniFile& ini, const MeshFacts& mesh) {
  const std::vector<Patch>& zonePatches = mesh.patches;
  check_sections(ini);
  CaseConfig c;
  c.mesh = mesh;
  std::ostringstream dump;
  dump << "# fvrun resolved configuration (every key, defaults filled in)\n";
  read_section(ini, "gas", dump, c);
  const SectionReader freestream = read_section(ini, "freestream", dump, c);
  const real_t dimensionalTemperature = derive_free_stream(c.flow);
  check_plane(freestream, c);
  read_section(ini, "physics", dump, c);
  derive_transport(ini, c.flow, dimensionalTemperature);
  finish_scheme(read_section(ini, "scheme", dump, c), c);
  check_time(read_section(ini, "time", dump, c), c);
  read_section(ini, "initial", dump, c);
  check_initial(c);
  resolve_patches(ini, zonePatches, dump, c); // the force patches' default: the walls
  check_monitor(read_section(ini, "monitor", dump, c), c, zonePatches);
  read_section(ini, "run", dump, c);
  check_campaign(freestream, read_section(ini, "sweep", dump, c), c);
  c.resolvedIni = dump.str();
  c.source = ini;
  return c;
}

CaseConfig resolve_case(const IniFile& ini, const ZoneFileHeader& header) {
  return resolve_case(ini, MeshFacts{header.patches, header.extrusion});
}

CaseConfig resolve_case(const IniFile& ini, const std::vector<Patch>& zonePatches) {
  return resolve_case(ini, MeshFacts{zonePatches, {}});
}

} // namespace fv
