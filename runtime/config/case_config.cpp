#include "runtime/config/case_config.hpp"

#include "common/error.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace fv {

const std::vector<CaseKey>& case_keys() {
  static const std::vector<CaseKey> keys = {
      {"gas", "gamma", "1.4", "ratio of specific heats"},
      {"gas", "gas_constant", "287.05",
       "specific gas constant R, J/(kg K) (1/gamma when "
       "nondimensional)"},
      {"freestream", "mach", "0.5", "free-stream Mach number"},
      {"freestream", "aoa", "0", "angle of attack, degrees (rotation towards lift_axis)"},
      {"freestream", "sideslip", "0", "sideslip angle, degrees"},
      {"freestream", "pressure", "101325", "free-stream static pressure, Pa"},
      {"freestream", "temperature", "288.15", "free-stream static temperature, K"},
      {"freestream", "nondimensional", "false",
       "true: rho = 1, speed of sound = 1, p = 1/gamma, R = 1/gamma (pressure, temperature and "
       "gas_constant are ignored)"},
      {"freestream", "lift_axis", "z", "axis of lift: z (3D convention) or y (2D/extruded)"},
      {"scheme", "flux", "roe", "convective flux: roe | rusanov"},
      {"scheme", "entropy_fix", "0.1", "Harten entropy fix of the Roe flux, fraction of |Vn|+c"},
      {"scheme", "order", "2",
       "spatial order: 1 (cell values) | 2 (MUSCL, node-averaged "
       "Green-Gauss gradients)"},
      {"scheme", "limiter", "venkat", "slope limiter for order 2: venkat | barth | none"},
      {"scheme", "venkat_k", "5",
       "Venkatakrishnan constant K: eps^2 = (K dx)^3 q_ref^2, dx = V^(1/3), q_ref the "
       "free-stream rho, |u|+c or p"},
      {"scheme", "node_weights", "linear",
       "cell-to-node weights of the gradient: linear (inverse distance corrected to be exact "
       "for linear fields, second order at boundaries) | inverse_distance (zone file as is)"},
      {"time", "integrator", "ssprk3",
       "time scheme: rk2 (2-stage SSP) | ssprk3 | rk4 (classical) | lusgs (implicit, "
       "matrix-free LU-SGS)"},
      {"time", "stepping", "local", "local (steady, local time steps) | global (time accurate)"},
      {"time", "cfl", "1.0", "CFL number (dt = cfl V / sum_faces (|u.S| + c|S|))"},
      {"time", "cfl_start", "=cfl", "CFL at iteration 1 when ramping (default: cfl)"},
      {"time", "cfl_ramp_iterations", "0",
       "iterations over which the CFL ramps linearly from "
       "cfl_start to cfl (0: no ramp)"},
      {"time", "cfl_law", "ramp",
       "ramp (linear from cfl_start to cfl over cfl_ramp_iterations) | adaptive (starts at "
       "cfl_start, times cfl_growth after an iteration that lowered the residual, times "
       "cfl_cut after one that raised it, kept within [cfl_start, cfl])"},
      {"time", "cfl_growth", "1.1", "cfl_law = adaptive: growth factor > 1"},
      {"time", "cfl_cut", "0.5", "cfl_law = adaptive: cut factor in (0, 1)"},
      {"time", "iterations", "1000", "maximum number of iterations (time steps)"},
      {"time", "dt", "0", "global stepping: fixed time step, s (0: from cfl)"},
      {"time", "final_time", "0", "global stepping: stop at this physical time, s (0: none)"},
      {"time", "convergence", "8",
       "local stepping: stop when the density and energy RMS residuals dropped by this "
       "many orders (0: never)"},
      {"time", "lusgs_ordering", "hyperplane",
       "lusgs: sweep ordering hyperplane (reproduces the sequential sweep) | colour (cell "
       "colours, more parallel) | natural (sequential cell order, CPU only)"},
      {"time", "lusgs_sweeps", "1", "lusgs: symmetric Gauss-Seidel sweeps per iteration"},
      {"time", "lusgs_omega", "1",
       "lusgs: over-relaxation omega >= 1 of the spectral radius (diagonal and off-diagonal)"},
      {"time", "lusgs_boundary", "jacobian",
       "lusgs: boundary faces in the diagonal: jacobian (exact first-order Jacobian of the "
       "boundary flux, 5x5 block on boundary cells) | spectral (omega/2 (|u.S| + c|S|), the "
       "textbook scalar; slower: a wall or symmetry face then damps every equation)"},
      {"time", "lusgs_dissipation", "scalar",
       "lusgs: dissipation of the implicit operator: scalar (omega (|u.S| + c|S|), Jameson-Yoon) "
       "| roe (omega times the Roe matrix of each face: every cell gets a 5x5 block; needs "
       "lusgs_boundary = jacobian)"},
      {"time", "lusgs_launch", "graph",
       "lusgs on the GPU: persistent (one cooperative kernel per sweep, grid-wide barrier "
       "between groups) | hybrid (persistent; runs of groups that fit one block swept by one "
       "block) | graph (one launch per group, captured once in a CUDA graph and replayed) | "
       "plain (one launch per group each time)"},
      {"initial", "type", "freestream", "initial state: freestream | split (two states)"},
      {"initial", "axis", "x", "split: normal axis of the split plane, x | y | z"},
      {"initial", "position", "0", "split: coordinate of the plane along axis"},
      {"initial", "left", "1, 0, 0, 0, 1",
       "split: primitive state (rho, u, v, w, p) below "
       "position"},
      {"initial", "right", "0.125, 0, 0, 0, 0.1", "split: primitive state above position"},
      {"monitor", "force_patches", "=walls",
       "comma-separated patches integrated for forces "
       "(default: every slip_wall patch)"},
      {"monitor", "reference_area", "1", "reference area for force coefficients, m^2"},
      {"monitor", "reference_length", "1", "reference length for moment coefficients, m"},
      {"monitor", "moment_origin", "0, 0, 0", "moment reference point, m"},
      {"monitor", "output_interval", "10",
       "iterations between progress lines and history "
       "file updates"},
      {"monitor", "output_dir", "fvrun_out", "directory for history.csv and other outputs"},
      {"monitor", "write_solution", "true",
       "true | false: write solution.h5, surface CSVs and restart.h5 at the end (false for "
       "benchmarks; the last good state of a failing run is written either way)"},
      {"monitor", "profile", "false",
       "true | false: time every kernel over the run and print its share of the iteration "
       "(also <output_dir>/profile.csv; same as fvrun --profile)"},
      {"run", "device", "auto", "auto (GPU when present) | cpu | cuda"},
      {"run", "overlap", "true",
       "true | false: compute interior cells while halo messages are in flight (MPI runs)"},
      {"run", "comm_timing", "false",
       "true | false: time the halo exchanges' pack, wait and unpack phases (MPI runs; "
       "synchronises the device around each exchange, so it slows the run a little)"},
  };
  return keys;
}

const std::vector<CaseKey>& patch_keys() {
  static const std::vector<CaseKey> keys = {
      {"patch NAME", "type", "(required)",
       "farfield | slip_wall | symmetry | supersonic_inflow | supersonic_outflow | "
       "subsonic_outflow | subsonic_inflow"},
      {"patch NAME", "mach", "=freestream", "supersonic_inflow: Mach number"},
      {"patch NAME", "pressure", "=freestream",
       "supersonic_inflow: static pressure; subsonic_outflow: imposed static pressure, Pa"},
      {"patch NAME", "temperature", "=freestream", "supersonic_inflow: static temperature, K"},
      {"patch NAME", "direction", "=freestream",
       "supersonic_inflow / subsonic_inflow: flow direction vector (subsonic_inflow default: "
       "along the inward normal)"},
      {"patch NAME", "total_pressure", "=freestream", "subsonic_inflow: total pressure p0, Pa"},
      {"patch NAME", "total_temperature", "=freestream",
       "subsonic_inflow: total temperature T0, K"},
  };
  return keys;
}

real_t CaseConfig::dynamic_pressure() const {
  const auto& w = freestream;
  return 0.5 * w[0] * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
}

namespace {

const char* kBcNames[] = {"farfield",          "slip_wall",          "symmetry",
                          "supersonic_inflow", "supersonic_outflow", "subsonic_outflow",
                          "subsonic_inflow"};

std::string where(const IniFile& ini, const std::string& section, const IniValue& v) {
  std::ostringstream s;
  if (v.line > 0)
    s << ini.source() << ":" << v.line << ": ";
  else
    s << "command line: ";
  s << "[" << section << "] ";
  return s.str();
}

/// Reads typed values of one section, recording the resolved text of every key.
class SectionReader {
 public:
  SectionReader(const IniFile& ini, std::string section, std::ostringstream& dump)
      : ini_(ini), sec_(std::move(section)), vals_(ini.section(sec_)), dump_(dump) {
    dump_ << "\n[" << sec_ << "]\n";
  }
  bool given(const std::string& key) const { return vals_.count(key) != 0; }
  std::string raw(const std::string& key, const std::string& def) const {
    auto it = vals_.find(key);
    return it == vals_.end() ? def : it->second.value;
  }
  std::string ctx(const std::string& key) const {
    auto it = vals_.find(key);
    return it == vals_.end() ? "default [" + sec_ + "] " : where(ini_, sec_, it->second);
  }
  real_t number(const std::string& key, real_t def) {
    real_t v = def;
    if (given(key)) {
      const std::string s = raw(key, "");
      char* end = nullptr;
      v = std::strtod(s.c_str(), &end);
      FV_VERIFY_USAGE(!s.empty() && end && *end == '\0' && std::isfinite(v),
                      ctx(key) << key << " = '" << s << "' is not a number");
    }
    record(key, fmt(v));
    return v;
  }
  real_t positive(const std::string& key, real_t def) {
    const real_t v = number(key, def);
    FV_VERIFY_USAGE(v > 0, ctx(key) << key << " must be > 0 (got " << v << ")");
    return v;
  }
  int integer(const std::string& key, int def, int lo) {
    int v = def;
    if (given(key)) {
      const std::string s = raw(key, "");
      char* end = nullptr;
      const long l = std::strtol(s.c_str(), &end, 10);
      FV_VERIFY_USAGE(!s.empty() && end && *end == '\0' && l >= lo && l <= 2000000000,
                      ctx(key) << key << " = '" << s << "' is not an integer >= " << lo);
      v = static_cast<int>(l);
    }
    record(key, std::to_string(v));
    return v;
  }
  bool boolean(const std::string& key, bool def) {
    bool v = def;
    if (given(key)) {
      const std::string s = raw(key, "");
      if (s == "true" || s == "yes" || s == "on" || s == "1")
        v = true;
      else if (s == "false" || s == "no" || s == "off" || s == "0")
        v = false;
      else
        FV_VERIFY_USAGE(false, ctx(key) << key << " = '" << s
                                        << "' is not a boolean (valid: true, false)");
    }
    record(key, v ? "true" : "false");
    return v;
  }
  int choice(const std::string& key, const std::string& def,
             const std::vector<std::string>& valid) {
    const std::string s = raw(key, def);
    for (std::size_t i = 0; i < valid.size(); ++i)
      if (valid[i] == s) {
        record(key, s);
        return static_cast<int>(i);
      }
    std::ostringstream list;
    for (std::size_t i = 0; i < valid.size(); ++i)
      list << (i ? ", " : "") << valid[i];
    FV_VERIFY_USAGE(false, ctx(key) << key << " = '" << s << "' is not valid (valid: " << list.str()
                                    << ")");
    return 0;
  }
  std::vector<real_t> vector(const std::string& key, const std::string& def, std::size_t n) {
    const std::string s = raw(key, def);
    std::vector<real_t> out;
    std::string item;
    std::istringstream in(s);
    while (std::getline(in, item, ',')) {
      char* end = nullptr;
      const real_t v = std::strtod(item.c_str(), &end);
      while (end && *end == ' ')
        ++end;
      FV_VERIFY_USAGE(end && *end == '\0' && std::isfinite(v) &&
                          item.find_first_not_of(' ') != std::string::npos,
                      ctx(key) << key << " = '" << s << "': '" << item << "' is not a number");
      out.push_back(v);
    }
    FV_VERIFY_USAGE(out.size() == n, ctx(key) << key << " = '" << s << "' needs " << n
                                              << " comma-separated numbers");
    std::ostringstream r;
    for (std::size_t i = 0; i < n; ++i)
      r << (i ? ", " : "") << fmt(out[i]);
    record(key, r.str());
    return out;
  }
  std::string text(const std::string& key, const std::string& def) {
    const std::string s = raw(key, def);
    record(key, s);
    return s;
  }
  void record(const std::string& key, const std::string& v) {
    if (!recorded_.insert(key).second) return;
    dump_ << key << " = " << v << "\n";
  }
  /// Every given key must be known (in `known`).
  void check_known(const std::vector<std::string>& known) const {
    for (const auto& [k, v] : vals_) {
      bool ok = false;
      for (const auto& kk : known)
        ok = ok || kk == k;
      if (ok) continue;
      std::ostringstream list;
      for (std::size_t i = 0; i < known.size(); ++i)
        list << (i ? ", " : "") << known[i];
      FV_VERIFY_USAGE(false, where(ini_, sec_, v)
                                 << "unknown key '" << k << "' (valid: " << list.str() << ")");
    }
  }
  static std::string fmt(real_t v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
  }

 private:
  const IniFile& ini_;
  std::string sec_;
  const std::map<std::string, IniValue>& vals_;
  std::ostringstream& dump_;
  std::set<std::string> recorded_;
};

std::vector<std::string> keys_of(const std::string& section) {
  std::vector<std::string> out;
  for (const auto& k : case_keys())
    if (section == k.section) out.push_back(k.key);
  return out;
}

std::array<real_t, 3> normalised(const std::vector<real_t>& v, const std::string& what) {
  const real_t n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  FV_VERIFY_USAGE(n > 0, what << ": direction must not be the zero vector");
  return {v[0] / n, v[1] / n, v[2] / n};
}

} // namespace

CaseConfig resolve_case(const IniFile& ini, const std::vector<Patch>& zonePatches) {
  CaseConfig c;
  std::ostringstream dump;
  dump << "# fvrun resolved configuration (every key, defaults filled in)\n";

  // ---- sections must be known
  const std::vector<std::string> globals = {"gas",     "freestream", "scheme", "time",
                                            "initial", "monitor",    "run"};
  for (const auto& s : ini.sections()) {
    bool ok = s.rfind("patch ", 0) == 0;
    for (const auto& g : globals)
      ok = ok || s == g;
    FV_VERIFY_USAGE(ok, ini.source() << ": unknown section [" << s
                                     << "] (valid: [gas], [freestream], [scheme], [time], "
                                        "[initial], [monitor], [run], [patch NAME])");
  }

  {
    SectionReader r(ini, "gas", dump);
    r.check_known(keys_of("gas"));
    c.gamma = r.number("gamma", 1.4);
    FV_VERIFY_USAGE(c.gamma > 1.0, r.ctx("gamma") << "gamma must be > 1 (got " << c.gamma << ")");
    c.gasConstant = r.positive("gas_constant", 287.05);
  }
  {
    SectionReader r(ini, "freestream", dump);
    r.check_known(keys_of("freestream"));
    c.mach = r.number("mach", 0.5);
    FV_VERIFY_USAGE(c.mach >= 0, r.ctx("mach") << "mach must be >= 0");
    c.aoaDeg = r.number("aoa", 0);
    c.sideslipDeg = r.number("sideslip", 0);
    c.pressure = r.positive("pressure", 101325);
    c.temperature = r.positive("temperature", 288.15);
    c.nondimensional = r.boolean("nondimensional", false);
    c.liftAxis = 1 + r.choice("lift_axis", "z", {"y", "z"});
  }
  if (c.nondimensional) {
    c.gasConstant = 1.0 / c.gamma;
    c.pressure = 1.0 / c.gamma;
    c.temperature = 1.0;
  }
  {
    const real_t pi = std::acos(-1.0);
    const real_t a = c.aoaDeg * pi / 180.0, b = c.sideslipDeg * pi / 180.0;
    const int up = c.liftAxis, side = up == 2 ? 1 : 2;
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
    c.dragDir = d;
    c.liftDir = l;
    c.sideDir = s;
    const real_t rho = c.pressure / (c.gasConstant * c.temperature);
    const real_t a0 = std::sqrt(c.gamma * c.pressure / rho);
    const real_t V = c.mach * a0;
    c.freestream = {rho, V * d[0], V * d[1], V * d[2], c.pressure};
  }
  {
    SectionReader r(ini, "scheme", dump);
    r.check_known(keys_of("scheme"));
    c.flux = static_cast<FluxScheme>(r.choice("flux", "roe", {"roe", "rusanov"}));
    c.entropyFix = r.number("entropy_fix", 0.1);
    FV_VERIFY_USAGE(c.entropyFix >= 0, r.ctx("entropy_fix") << "entropy_fix must be >= 0");
    c.order = 1 + r.choice("order", "2", {"1", "2"});
    c.limiter =
        static_cast<LimiterKind>(r.choice("limiter", "venkat", {"venkat", "barth", "none"}));
    c.venkatK = r.positive("venkat_k", 5.0);
    c.nodeWeights = static_cast<NodeWeights>(
        r.choice("node_weights", "linear", {"linear", "inverse_distance"}));
  }
  {
    SectionReader r(ini, "time", dump);
    r.check_known(keys_of("time"));
    c.integrator = static_cast<TimeScheme>(
        r.choice("integrator", "ssprk3", {"rk2", "ssprk3", "rk4", "lusgs"}));
    c.localTimeStep = r.choice("stepping", "local", {"local", "global"}) == 0;
    c.cfl = r.positive("cfl", 1.0);
    c.cflStart = r.positive("cfl_start", c.cfl);
    c.cflRampIterations = r.integer("cfl_ramp_iterations", 0, 0);
    c.cflLaw = static_cast<CflLaw>(r.choice("cfl_law", "ramp", {"ramp", "adaptive"}));
    c.cflGrowth = r.number("cfl_growth", 1.1);
    FV_VERIFY_USAGE(c.cflGrowth > 1.0, r.ctx("cfl_growth")
                                           << "cfl_growth must be > 1 (got " << c.cflGrowth << ")");
    c.cflCut = r.number("cfl_cut", 0.5);
    FV_VERIFY_USAGE(c.cflCut > 0.0 && c.cflCut < 1.0,
                    r.ctx("cfl_cut") << "cfl_cut must be in (0, 1) (got " << c.cflCut << ")");
    FV_VERIFY_USAGE(c.cflLaw != CflLaw::Adaptive || c.cflStart <= c.cfl,
                    r.ctx("cfl_start") << "cfl_law = adaptive needs cfl_start <= cfl (got "
                                       << c.cflStart << " > " << c.cfl << ")");
    c.iterations = r.integer("iterations", 1000, 0);
    c.dt = r.number("dt", 0);
    FV_VERIFY_USAGE(c.dt >= 0, r.ctx("dt") << "dt must be >= 0");
    c.finalTime = r.number("final_time", 0);
    FV_VERIFY_USAGE(c.finalTime >= 0, r.ctx("final_time") << "final_time must be >= 0");
    FV_VERIFY_USAGE(!(c.localTimeStep && (c.dt > 0 || c.finalTime > 0)),
                    "[time] dt and final_time need stepping = global");
    c.convergenceOrders = r.number("convergence", 8);
    c.lusgsOrdering = static_cast<LusgsOrdering>(
        r.choice("lusgs_ordering", "hyperplane", {"hyperplane", "colour", "natural"}));
    c.lusgsSweeps = r.integer("lusgs_sweeps", 1, 1);
    c.lusgsOmega = r.number("lusgs_omega", 1.0);
    FV_VERIFY_USAGE(c.lusgsOmega >= 1.0, r.ctx("lusgs_omega") << "lusgs_omega must be >= 1 (got "
                                                              << c.lusgsOmega << ")");
    c.lusgsLaunch = static_cast<LusgsLaunch>(
        r.choice("lusgs_launch", "graph", {"persistent", "hybrid", "graph", "plain"}));
    c.lusgsBoundaryJacobian = r.choice("lusgs_boundary", "jacobian", {"jacobian", "spectral"}) == 0;
    c.lusgsRoeDissipation = r.choice("lusgs_dissipation", "scalar", {"scalar", "roe"}) == 1;
    FV_VERIFY_USAGE(!c.lusgsRoeDissipation || c.lusgsBoundaryJacobian,
                    r.ctx("lusgs_dissipation")
                        << "lusgs_dissipation = roe needs lusgs_boundary = jacobian");
  }
  {
    SectionReader r(ini, "initial", dump);
    r.check_known(keys_of("initial"));
    c.initial = static_cast<InitialKind>(r.choice("type", "freestream", {"freestream", "split"}));
    c.splitAxis = r.choice("axis", "x", {"x", "y", "z"});
    c.splitPosition = r.number("position", 0);
    const auto l = r.vector("left", "1, 0, 0, 0, 1", 5);
    const auto rr = r.vector("right", "0.125, 0, 0, 0, 0.1", 5);
    for (int k = 0; k < 5; ++k) {
      c.left[k] = l[k];
      c.right[k] = rr[k];
    }
    if (c.initial == InitialKind::Split)
      FV_VERIFY_USAGE(c.left[0] > 0 && c.left[4] > 0 && c.right[0] > 0 && c.right[4] > 0,
                      "[initial] left and right need density > 0 and pressure > 0");
  }

  // ---- patches
  std::map<std::string, const Patch*> byName;
  for (const auto& p : zonePatches)
    byName[p.name] = &p;
  std::vector<std::string> validTypes(std::begin(kBcNames), std::end(kBcNames));
  for (const auto& s : ini.sections()) {
    if (s.rfind("patch ", 0) != 0) continue;
    const std::string name = s.substr(6);
    if (byName.count(name)) continue;
    std::ostringstream list;
    for (std::size_t i = 0; i < zonePatches.size(); ++i)
      list << (i ? ", " : "") << zonePatches[i].name;
    FV_VERIFY_USAGE(false, ini.source() << ": [" << s << "] names no patch of the mesh (patches: "
                                        << list.str() << ")");
  }
  std::vector<std::string> missing;
  for (const auto& zp : zonePatches)
    if (!ini.section("patch " + zp.name).count("type")) missing.push_back(zp.name);
  if (!missing.empty()) {
    std::ostringstream m;
    for (std::size_t i = 0; i < missing.size(); ++i)
      m << (i ? ", " : "") << missing[i];
    FV_VERIFY_USAGE(false, ini.source() << ": patch(es) without a boundary condition: " << m.str()
                                        << "; add [patch NAME] with type = farfield | slip_wall "
                                           "| symmetry | supersonic_inflow | supersonic_outflow "
                                           "| subsonic_outflow | subsonic_inflow");
  }
  const std::map<std::string, std::vector<std::string>> keysByType = {
      {"farfield", {"type"}},
      {"slip_wall", {"type"}},
      {"symmetry", {"type"}},
      {"supersonic_inflow", {"type", "mach", "pressure", "temperature", "direction"}},
      {"supersonic_outflow", {"type"}},
      {"subsonic_outflow", {"type", "pressure"}},
      {"subsonic_inflow", {"type", "total_pressure", "total_temperature", "direction"}}};
  const real_t g = c.gamma;
  const real_t T0inf = c.temperature * (1 + 0.5 * (g - 1) * c.mach * c.mach);
  const real_t p0inf = c.pressure * std::pow(T0inf / c.temperature, g / (g - 1));
  for (const auto& zp : zonePatches) {
    const std::string sec = "patch " + zp.name;
    SectionReader r(ini, sec, dump);
    PatchConfig pc;
    pc.name = zp.name;
    const int t = r.choice("type", "", validTypes);
    pc.typeName = validTypes[t];
    r.check_known(keysByType.at(pc.typeName));
    phys::BcParams& b = pc.params;
    b.type = static_cast<phys::BcType>(t);
    b.gamma = g;
    b.gasConstant = c.gasConstant;
    for (int k = 0; k < 5; ++k)
      b.ref[k] = c.freestream[k];
    b.pressure = c.pressure;
    b.totalPressure = p0inf;
    b.totalTemperature = T0inf;
    if (b.type == phys::BcType::SupersonicInflow) {
      const real_t m = r.number("mach", c.mach);
      const real_t p = r.positive("pressure", c.pressure);
      const real_t T = r.positive("temperature", c.temperature);
      std::array<real_t, 3> d = c.dragDir;
      if (r.given("direction"))
        d = normalised(r.vector("direction", "", 3), sec);
      else
        r.record("direction", SectionReader::fmt(d[0]) + ", " + SectionReader::fmt(d[1]) + ", " +
                                  SectionReader::fmt(d[2]));
      const real_t rho = p / (c.gasConstant * T);
      const real_t V = m * std::sqrt(g * p / rho);
      b.ref[0] = rho;
      for (int k = 0; k < 3; ++k)
        b.ref[1 + k] = V * d[k];
      b.ref[4] = p;
    } else if (b.type == phys::BcType::SubsonicOutflow) {
      b.pressure = r.positive("pressure", c.pressure);
    } else if (b.type == phys::BcType::SubsonicInflow) {
      b.totalPressure = r.positive("total_pressure", p0inf);
      b.totalTemperature = r.positive("total_temperature", T0inf);
      if (r.given("direction")) {
        const auto d = normalised(r.vector("direction", "", 3), sec);
        for (int k = 0; k < 3; ++k)
          b.direction[k] = d[k];
      } else {
        r.record("direction", "normal");
      }
    }
    c.patches.push_back(pc);
  }

  {
    SectionReader r(ini, "monitor", dump);
    r.check_known(keys_of("monitor"));
    std::string def;
    for (const auto& p : c.patches)
      if (p.params.type == phys::BcType::SlipWall) def += (def.empty() ? "" : ", ") + p.name;
    const std::string list = r.raw("force_patches", def);
    std::istringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
      const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
      if (b == std::string::npos) continue;
      const std::string name = item.substr(b, e - b + 1);
      FV_VERIFY_USAGE(byName.count(name), r.ctx("force_patches") << "force_patches: '" << name
                                                                 << "' is no patch of the mesh");
      c.forcePatches.push_back(name);
    }
    r.record("force_patches", list);
    c.refArea = r.positive("reference_area", 1);
    c.refLength = r.positive("reference_length", 1);
    const auto o = r.vector("moment_origin", "0, 0, 0", 3);
    c.momentOrigin = {o[0], o[1], o[2]};
    c.outputInterval = r.integer("output_interval", 10, 1);
    c.outputDir = r.text("output_dir", "fvrun_out");
    c.writeSolution = r.boolean("write_solution", true);
    c.profile = r.boolean("profile", false);
  }
  {
    SectionReader r(ini, "run", dump);
    r.check_known(keys_of("run"));
    c.device = r.text("device", "auto");
    FV_VERIFY_USAGE(c.device == "auto" || c.device == "cpu" || c.device == "cuda",
                    r.ctx("device")
                        << "device = '" << c.device << "' is not valid (valid: auto, cpu, cuda)");
    const std::string ov = r.text("overlap", "true");
    FV_VERIFY_USAGE(ov == "true" || ov == "false",
                    r.ctx("overlap") << "overlap = '" << ov << "' is not valid (true or false)");
    c.overlap = ov == "true";
    const std::string ct = r.text("comm_timing", "false");
    FV_VERIFY_USAGE(ct == "true" || ct == "false", r.ctx("comm_timing") << "comm_timing = '" << ct
                                                                        << "' is not valid (true "
                                                                           "or false)");
    c.commTiming = ct == "true";
  }
  c.resolvedIni = dump.str();
  return c;
}

} // namespace fv
