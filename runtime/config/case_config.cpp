#include "runtime/config/case_config.hpp"
#include "runtime/physics/sa/spalart_allmaras.hpp"

#include "common/error.hpp"

#include <algorithm>
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
      {"freestream", "reynolds", "0",
       "navier_stokes: free-stream Reynolds number rho V L / mu on reynolds_length; the "
       "reference viscosity is scaled to give it (0: the viscosity law's own value at the "
       "free-stream temperature)"},
      {"freestream", "reynolds_length", "1", "navier_stokes: length L of the Reynolds number, m"},
      {"freestream", "nu_tilde_ratio", "3",
       "rans_sa: free-stream nu-tilde / nu, > 0 (the TMR's 3; also what enters at far-field and "
       "inflow patches)"},
      {"physics", "model", "euler",
       "equations: euler (inviscid) | navier_stokes (laminar, compressible, Stokes' hypothesis) "
       "| rans_sa (Reynolds-averaged, Spalart-Allmaras SA-neg, coupled; needs the wall distance "
       "of fvprep)"},
      {"physics", "viscosity", "sutherland",
       "navier_stokes: viscosity law sutherland (mu = viscosity_ref (T/sutherland_temperature)"
       "^1.5 (sutherland_temperature + sutherland_constant)/(T + sutherland_constant)) | "
       "constant (mu = viscosity_ref)"},
      {"physics", "viscosity_ref", "1.716e-5",
       "navier_stokes: viscosity at sutherland_temperature (or the constant viscosity), Pa s; "
       "scaled when [freestream] reynolds is given"},
      {"physics", "sutherland_temperature", "273.15",
       "navier_stokes: reference temperature of Sutherland's law, K (nondimensional cases: "
       "divided by [freestream] temperature)"},
      {"physics", "sutherland_constant", "110.4",
       "navier_stokes: Sutherland's constant S, K (air; nondimensional cases: divided by "
       "[freestream] temperature)"},
      {"physics", "prandtl", "0.72", "navier_stokes: laminar Prandtl number"},
      {"physics", "turbulent_prandtl", "0.9",
       "rans_sa: turbulent Prandtl number of the eddy "
       "heat flux"},
      {"scheme", "flux", "roe", "convective flux: roe | rusanov"},
      {"scheme", "entropy_fix", "0.1", "Harten entropy fix of the Roe flux, fraction of |Vn|+c"},
      {"scheme", "entropy_fix_waves", "=model",
       "waves of the Roe flux the entropy fix acts on: all (euler's default) | acoustic (the "
       "u +- c waves only, navier_stokes' default: on the entropy and shear waves the fix is a "
       "numerical viscosity of order entropy_fix c h, as large as the physical one in a "
       "boundary layer; it raised the flat plate's skin friction by 6 %)"},
      {"scheme", "order", "2",
       "spatial order: 1 (cell values) | 2 (MUSCL, node-averaged "
       "Green-Gauss gradients)"},
      {"scheme", "limiter", "venkat_wang",
       "slope limiter for order 2: venkat_wang (Venkatakrishnan with the global epsilon of "
       "Wang: eps = venkat_wang_k x the range of the variable over the whole mesh) | venkat "
       "(classical Venkatakrishnan, eps^2 = (K dx)^3 q_ref^2) | barth | none"},
      {"scheme", "assembly", "auto",
       "how the interior face fluxes are summed into the residual (one zone and the Euler model; "
       "several zones and the viscous models always gather): auto (the fastest of the variants "
       "whose residual equals gather's bitwise, gather and smem, timed once per mesh UUID and "
       "GPU and cached like fvbench --kernels auto; gather on the CPU) | auto_any (the fastest "
       "of all variants: colourings sum in another order, atomics differ run to run) | gather | "
       "smem | atomic | colour | fused-atomic | fused-colour"},
      {"scheme", "limiter_region", "=model",
       "where the limiter acts: supersonic (navier_stokes' and rans_sa's default: only cells "
       "whose gradient stencil, the cells sharing a node with them, holds supersonic flow; a "
       "steady shock needs supersonic flow ahead of it, and viscosity resolves every other "
       "layer, so boundary layers and smooth extrema keep second order, as the TMR reference "
       "codes run subsonic cases unlimited) | everywhere (euler's default: every cell; "
       "inviscid slip lines and vortex sheets are discontinuities at any Mach number)"},
      {"scheme", "venkat_k", "5",
       "venkat: constant K of eps^2 = (K dx)^3 q_ref^2, dx = V^(1/3) (or venkat_length), q_ref "
       "the free-stream rho, |u|+c or p"},
      {"scheme", "venkat_length", "0",
       "venkat: a global reference length L, m, replacing dx (eps^2 = (K L)^3 q_ref^2, so that "
       "epsilon does not vanish in fine cells); 0: the cell size dx"},
      {"scheme", "venkat_wang_k", "0.05",
       "venkat_wang: eps = venkat_wang_k (q_max - q_min), the range over all cells of every "
       "zone, refreshed once per iteration"},
      {"scheme", "limiter_freeze", "0",
       "freeze the limiter (keep phi) once the residual has dropped by this many orders (0: "
       "never)"},
      {"scheme", "limiter_freeze_stall", "0",
       "freeze the limiter after this many iterations without a new lowest residual (0: "
       "never)"},
      {"scheme", "node_weights", "linear",
       "cell-to-node weights of the gradient: linear (inverse distance corrected to be exact "
       "for linear fields, second order at boundaries) | inverse_distance (zone file as is)"},
      {"scheme", "precision", "double",
       "double (FP64 throughout) | mixed (the second-order reconstruction reads FP32 copies of "
       "the face-centroid offsets and node weights; face areas, state, gradients, limiter, "
       "fluxes, residual and all arithmetic stay FP64; residual assembly gather)"},
      {"scheme", "face_states", "on",
       "on: a second-order inviscid evaluation stores each face's reconstructed states (5 "
       "values per cell face and 2 indices per face of device memory) for the face loops to "
       "read instead of the cell gradients; with several zones the interface faces reconstruct "
       "their halo side (the same fluxes, bitwise; fewer bytes moved) | off: the face loops "
       "reconstruct from the stored gradients (less memory)"},
      {"time", "integrator", "=stepping",
       "time scheme: newton (implicit Newton-Krylov, the default for stepping = local) | "
       "ssprk3 (the default for stepping = global) | rk2 (2-stage SSP) | rk4 (classical) | "
       "lusgs (implicit, matrix-free LU-SGS)"},
      {"time", "stepping", "local", "local (steady, local time steps) | global (time accurate)"},
      {"time", "startup_orders", "=integrator",
       "order 2: start at first order (cell values) and switch to second order once the "
       "residual has dropped by this many orders (0: second order from the start). Default 2 "
       "for newton (a shorter transient, docs/numerics.md), 0 "
       "otherwise"},
      {"time", "cfl", "=integrator",
       "CFL number (dt = cfl V / sum_faces (|u.S| + c|S|)); the largest CFL of the ser and "
       "adaptive laws. Default 1, newton 1e8"},
      {"time", "cfl_start", "=integrator",
       "CFL at iteration 1 of the ramp, adaptive and ser laws. Default: cfl, newton 10"},
      {"time", "cfl_ramp_iterations", "0",
       "iterations over which the CFL ramps linearly from "
       "cfl_start to cfl (0: no ramp)"},
      {"time", "cfl_law", "=integrator",
       "ramp (linear from cfl_start to cfl over cfl_ramp_iterations; default) | adaptive "
       "(starts at cfl_start, times cfl_growth after an iteration that lowered the residual, "
       "times cfl_cut after one that raised it, kept within [cfl_start, cfl]) | ser (switched "
       "evolution relaxation with safeguards, newton's default: after a full update times "
       "max(cfl_growth, (r_previous/r)^cfl_exponent), at most 10; down after updates the "
       "solver scaled below half or a linear solve that stagnated; within [cfl_start/1000, "
       "cfl]; a failed iteration is retried from the last good state at cfl_cut times its CFL; "
       "docs/numerics.md)"},
      {"time", "cfl_growth", "=cfl_law",
       "adaptive: growth factor > 1 (default 1.1); ser: the least growth after a full update "
       "(default 2)"},
      {"time", "cfl_cut", "=cfl_law",
       "adaptive: cut factor in (0, 1) (default 0.5); ser: back-off factor after a failed "
       "iteration (default 0.1)"},
      {"time", "cfl_exponent", "1", "ser: exponent of the residual ratio"},
      {"time", "cfl_backoffs", "10",
       "ser: failed iterations in a row (non-physical state, NaN, residual blow-up) that are "
       "retried at a lower CFL before the run stops"},
      {"time", "iterations", "1000", "maximum number of iterations (time steps)"},
      {"time", "dt", "0", "global stepping: fixed time step, s (0: from cfl)"},
      {"time", "final_time", "0", "global stepping: stop at this physical time, s (0: none)"},
      {"time", "convergence", "8",
       "local stepping: stop when the density and energy RMS residuals dropped by this "
       "many orders (0: never)"},
      {"time", "lusgs_ordering", "hyperplane",
       "lusgs: sweep ordering hyperplane (reproduces the sequential sweep) | colour (cell "
       "colours, more parallel) | natural (the zone's sequential sweep order, one cell at a "
       "time, CPU only)"},
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
      {"time", "newton_matvec", "jfnk",
       "newton: Jacobian-vector products jfnk (Jacobian-free: finite difference of the "
       "residual itself, second order) | assembled (the first-order Jacobian of the "
       "preconditioner: a defect correction)"},
      {"time", "newton_preconditioner", "ilu",
       "newton: GMRES preconditioner on the assembled first-order Jacobian (5x5 blocks, 6x6 with "
       "rans_sa): ilu "
       "(block ILU(0) in the newton_ordering, diagonal form) | sgs (symmetric block "
       "Gauss-Seidel sweeps) | jacobi (block Jacobi sweeps) | none"},
      {"time", "newton_ordering", "=preconditioner",
       "newton: order of the ilu and sgs sweeps: blocks (ilu's default; ilu only: compact blocks "
       "of about "
       "newton_block_cells cells, each in the sequential hyperplane order, all blocks in "
       "parallel with no coupling between them) | colour (sgs's default; cell colours: few, "
       "large groups, weak at a large CFL) | hyperplane (the sequential order of the whole zone: "
       "strongest, "
       "as many groups as hyperplanes)"},
      {"time", "newton_block_cells", "2048", "newton: cells per block of newton_ordering = blocks"},
      {"time", "newton_sweeps", "1",
       "newton: preconditioner applications per GMRES iteration (ilu: Richardson iterations "
       "of the ILU solve; sgs: symmetric sweeps; jacobi: sweeps)"},
      {"time", "newton_krylov_dim", "50",
       "newton: GMRES restart length: Krylov vectors kept on the device, 40 bytes per cell "
       "each (48 with rans_sa; lower it for very large zones)"},
      {"time", "newton_linear_iterations", "50",
       "newton: most GMRES iterations per Newton iteration"},
      {"time", "newton_linear_tolerance", "0.05",
       "newton: GMRES stops when the linear residual has dropped by this factor"},
      {"time", "newton_max_change", "1",
       "newton: density and pressure change by at most the factor 1 + newton_max_change "
       "either way in any cell per iteration (the whole update is scaled down to it)"},
      {"time", "newton_jfnk_step", "1e-7",
       "newton, jfnk: relative finite-difference step eps (1 + |U|) / |v|"},
      {"time", "lusgs_launch", "persistent",
       "lusgs on the GPU: persistent (one cooperative kernel per sweep, grid-wide barrier "
       "between groups; the fastest on every mesh measured) | hybrid (persistent; runs of "
       "groups that fit one block swept by one block) | graph (one launch per group, captured "
       "once in a CUDA graph and replayed) | plain (one launch per group each time)"},
      {"initial", "type", "freestream", "initial state: freestream | split (two states)"},
      {"initial", "axis", "x", "split: normal axis of the split plane, x | y | z"},
      {"initial", "position", "0", "split: coordinate of the plane along axis"},
      {"initial", "left", "1, 0, 0, 0, 1",
       "split: primitive state (rho, u, v, w, p) below "
       "position"},
      {"initial", "right", "0.125, 0, 0, 0, 0.1", "split: primitive state above position"},
      {"monitor", "force_patches", "=walls",
       "comma-separated patches integrated for forces "
       "(default: every slip_wall and no_slip_wall patch)"},
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
      {"monitor", "solution_format", "xdmf",
       "volume solution: xdmf (solution.h5 + solution.xmf for ParaView) | cgns (solution.cgns: "
       "mesh, BCs and a FlowSolution at cell centres, for CGNS tools and other solvers) | both"},
      {"monitor", "profile", "false",
       "true | false: time every kernel over the run and print its share of the iteration "
       "(also <output_dir>/profile.csv; same as fvrun --profile)"},
      {"run", "device", "auto", "auto (GPU when present) | cpu | cuda"},
      {"run", "overlap", "true",
       "true | false: compute interior cells while halo messages are in flight (MPI runs)"},
      {"run", "transport", "auto",
       "auto | host_staged_mpi | cuda_aware_mpi | nccl | cuda_ipc: how halos and reductions "
       "travel between ranks (auto: the best available, printed at start-up; see README "
       "\"Transports\")"},
      {"run", "comm_timing", "false",
       "true | false: time the halo exchanges' pack, wait and unpack phases (MPI runs; "
       "synchronises the device around each exchange, so it slows the run a little)"},
  };
  return keys;
}

const std::vector<CaseKey>& patch_keys() {
  static const std::string types = [] {
    std::string t;
    for (const auto& b : bc_types())
      t += (t.empty() ? "" : " | ") + std::string(b.name);
    return t;
  }();
  static const std::vector<CaseKey> keys = {
      {"patch NAME", "type", "(required)", types.c_str()},
      {"patch NAME", "mach", "=freestream", "supersonic_inflow: Mach number"},
      {"patch NAME", "pressure", "=freestream",
       "supersonic_inflow: static pressure; subsonic_outflow: imposed static pressure, Pa"},
      {"patch NAME", "temperature", "=freestream",
       "supersonic_inflow: static temperature, K; no_slip_wall: wall temperature, K "
       "(nondimensional cases: relative to the free stream) of an isothermal wall (not given: "
       "adiabatic wall)"},
      {"patch NAME", "direction", "=freestream",
       "supersonic_inflow / subsonic_inflow: flow direction vector (subsonic_inflow default: "
       "along the inward normal)"},
      {"patch NAME", "total_pressure", "=freestream", "subsonic_inflow: total pressure p0, Pa"},
      {"patch NAME", "total_temperature", "=freestream",
       "subsonic_inflow: total temperature T0, K"},
      {"patch NAME", "velocity", "0, 0, 0", "no_slip_wall: velocity of the wall, m/s"},
  };
  return keys;
}

std::string case_keys_markdown() {
  std::ostringstream o;
  o << "| section | key | default | meaning |\n|---|---|---|---|\n";
  auto row = [&](const CaseKey& k) {
    std::string meaning = k.meaning;
    for (std::size_t i = 0; (i = meaning.find('|', i)) != std::string::npos; i += 2)
      meaning.replace(i, 1, "\\|");
    o << "| [" << k.section << "] | `" << k.key << "` | `" << k.defaultValue << "` | " << meaning
      << " |\n";
  };
  for (const auto& k : case_keys())
    row(k);
  for (const auto& k : patch_keys())
    row(k);
  return o.str();
}

const std::vector<BcTypeInfo>& bc_types() {
  using phys::BcType;
  static const std::vector<BcTypeInfo> t = {
      {BcType::Farfield, "farfield", {"type"}},
      {BcType::SlipWall, "slip_wall", {"type"}},
      {BcType::Symmetry, "symmetry", {"type"}},
      {BcType::SupersonicInflow,
       "supersonic_inflow",
       {"type", "mach", "pressure", "temperature", "direction"}},
      {BcType::SupersonicOutflow, "supersonic_outflow", {"type"}},
      {BcType::SubsonicOutflow, "subsonic_outflow", {"type", "pressure"}},
      {BcType::SubsonicInflow,
       "subsonic_inflow",
       {"type", "total_pressure", "total_temperature", "direction"}},
      {BcType::NoSlipWall, "no_slip_wall", {"type", "temperature", "velocity"}, true},
  };
  return t;
}

real_t CaseConfig::dynamic_pressure() const {
  const auto& w = freestream;
  return 0.5 * w[0] * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
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

/// [physics] and the viscosity of the free stream: the model, the transport properties in
/// solver units, the reference viscosity scaled to [freestream] reynolds when given.
void resolve_physics(const IniFile& ini, std::ostringstream& dump, real_t dimensionalTemperature,
                     CaseConfig& c) {
  SectionReader r(ini, "physics", dump);
  r.check_known(keys_of("physics"));
  c.model =
      static_cast<PhysicsModel>(r.choice("model", "euler", {"euler", "navier_stokes", "rans_sa"}));
  phys::Transport& t = c.transport;
  t.law = r.choice("viscosity", "sutherland", {"constant", "sutherland"}) == 0
              ? phys::ViscosityLaw::Constant
              : phys::ViscosityLaw::Sutherland;
  t.muRef = r.positive("viscosity_ref", 1.716e-5);
  const real_t scale = c.nondimensional ? dimensionalTemperature : 1.0;
  t.tRef = r.positive("sutherland_temperature", 273.15) / scale;
  t.sutherland = r.positive("sutherland_constant", 110.4) / scale;
  t.prandtl = r.positive("prandtl", 0.72);
  t.prandtlTurbulent = r.positive("turbulent_prandtl", 0.9);
  t.gamma = c.gamma;
  t.gasConstant = c.gasConstant;
  if (c.reynolds > 0) {
    const auto& w = c.freestream;
    const real_t speed = std::sqrt(w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
    FV_VERIFY_USAGE(speed > 0, ini.source() << ": [freestream] reynolds needs a free stream that "
                                               "moves (mach > 0)");
    const real_t muInf = w[0] * speed * c.reynoldsLength / c.reynolds;
    t.muRef *= muInf / phys::viscosity(t, c.temperature);
  }
  if (c.rans()) {
    const auto& w = c.freestream;
    c.nuTildeFreestream =
        phys::sa::freestream_nu_tilde(w[0], phys::viscosity(t, c.temperature), c.nuTildeRatio);
  }
}

} // namespace

CaseConfig resolve_case(const IniFile& ini, const std::vector<Patch>& zonePatches) {
  CaseConfig c;
  std::ostringstream dump;
  dump << "# fvrun resolved configuration (every key, defaults filled in)\n";

  // ---- sections must be known
  const std::vector<std::string> globals = {"gas",  "freestream", "physics", "scheme",
                                            "time", "initial",    "monitor", "run"};
  for (const auto& s : ini.sections()) {
    bool ok = s.rfind("patch ", 0) == 0;
    for (const auto& g : globals)
      ok = ok || s == g;
    FV_VERIFY_USAGE(ok, ini.source() << ": unknown section [" << s
                                     << "] (valid: [gas], [freestream], [physics], [scheme], "
                                        "[time], [initial], [monitor], [run], [patch NAME])");
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
    c.reynolds = r.number("reynolds", 0);
    FV_VERIFY_USAGE(c.reynolds >= 0, r.ctx("reynolds") << "reynolds must be >= 0");
    c.reynoldsLength = r.positive("reynolds_length", 1);
    c.nuTildeRatio = r.positive("nu_tilde_ratio", 3);
  }
  const real_t dimensionalTemperature = c.temperature; // Sutherland's constants in K
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
  resolve_physics(ini, dump, dimensionalTemperature, c);
  {
    SectionReader r(ini, "scheme", dump);
    r.check_known(keys_of("scheme"));
    c.flux = static_cast<FluxScheme>(r.choice("flux", "roe", {"roe", "rusanov"}));
    c.entropyFix = r.number("entropy_fix", 0.1);
    FV_VERIFY_USAGE(c.entropyFix >= 0, r.ctx("entropy_fix") << "entropy_fix must be >= 0");
    c.entropyFixAcousticOnly =
        r.choice("entropy_fix_waves", c.viscous() ? "acoustic" : "all", {"all", "acoustic"}) == 1;
    c.order = 1 + r.choice("order", "2", {"1", "2"});
    c.limiter = static_cast<LimiterKind>(
        r.choice("limiter", "venkat_wang", {"venkat", "barth", "none", "venkat_wang"}));
    {
      const std::vector<std::string> names = {"auto",   "auto_any", "gather",       "smem",
                                              "atomic", "colour",   "fused-atomic", "fused-colour"};
      c.assembly = names[static_cast<std::size_t>(r.choice("assembly", "auto", names))];
    }
    c.limiterRegion = static_cast<LimiterRegion>(r.choice(
        "limiter_region", c.viscous() ? "supersonic" : "everywhere", {"supersonic", "everywhere"}));
    c.venkatK = r.positive("venkat_k", 5.0);
    c.venkatLength = r.number("venkat_length", 0);
    FV_VERIFY_USAGE(c.venkatLength >= 0, r.ctx("venkat_length") << "venkat_length must be >= 0");
    c.venkatWangK = r.positive("venkat_wang_k", 0.05);
    c.limiterFreeze = r.number("limiter_freeze", 0);
    FV_VERIFY_USAGE(c.limiterFreeze >= 0, r.ctx("limiter_freeze")
                                              << "limiter_freeze must be >= 0 (orders)");
    c.limiterFreezeStall = r.integer("limiter_freeze_stall", 0, 0);
    c.nodeWeights = static_cast<NodeWeights>(
        r.choice("node_weights", "linear", {"linear", "inverse_distance"}));
    c.mixedPrecision = r.choice("precision", "double", {"double", "mixed"}) == 1;
    c.faceStates = r.choice("face_states", "on", {"on", "off"}) == 0;
    FV_VERIFY_USAGE(!c.mixedPrecision || c.assembly == "auto" || c.assembly == "auto_any" ||
                        c.assembly == "gather",
                    r.ctx("precision") << "precision = mixed sums the residual by gather; "
                                          "assembly = "
                                       << c.assembly << " reads FP64 geometry");
  }
  {
    SectionReader r(ini, "time", dump);
    r.check_known(keys_of("time"));
    c.localTimeStep = r.choice("stepping", "local", {"local", "global"}) == 0;
    // steady runs default to Newton-Krylov, time-accurate ones to SSP-RK3
    c.integrator =
        static_cast<TimeScheme>(r.choice("integrator", c.localTimeStep ? "newton" : "ssprk3",
                                         {"rk2", "ssprk3", "rk4", "lusgs", "newton"}));
    const bool newton = c.integrator == TimeScheme::Newton;
    FV_VERIFY_USAGE(!newton || c.localTimeStep,
                    r.ctx("integrator") << "integrator = newton is for steady runs (stepping = "
                                           "local); time-accurate runs use rk2, ssprk3 or rk4");
    FV_VERIFY_USAGE(c.integrator != TimeScheme::Lusgs || !c.rans(),
                    r.ctx("integrator") << "integrator = lusgs solves the mean flow only; "
                                           "model = rans_sa runs with newton (the default) or "
                                           "an explicit scheme");
    c.startupOrders = r.number("startup_orders", newton ? 2.0 : 0.0);
    FV_VERIFY_USAGE(c.startupOrders >= 0, r.ctx("startup_orders")
                                              << "startup_orders must be >= 0 (orders)");
    c.cfl = r.positive("cfl", newton ? 1e8 : 1.0);
    c.cflStart = r.positive("cfl_start", newton ? std::min<real_t>(10.0, c.cfl) : c.cfl);
    c.cflRampIterations = r.integer("cfl_ramp_iterations", 0, 0);
    c.cflLaw = static_cast<CflLaw>(
        r.choice("cfl_law", newton ? "ser" : "ramp", {"ramp", "adaptive", "ser"}));
    const bool ser = c.cflLaw == CflLaw::Ser;
    c.cflGrowth = r.number("cfl_growth", ser ? 2.0 : 1.1);
    FV_VERIFY_USAGE(c.cflGrowth > 1.0, r.ctx("cfl_growth")
                                           << "cfl_growth must be > 1 (got " << c.cflGrowth << ")");
    c.cflCut = r.number("cfl_cut", ser ? 0.1 : 0.5);
    FV_VERIFY_USAGE(c.cflCut > 0.0 && c.cflCut < 1.0,
                    r.ctx("cfl_cut") << "cfl_cut must be in (0, 1) (got " << c.cflCut << ")");
    FV_VERIFY_USAGE(c.cflLaw == CflLaw::Ramp || c.cflStart <= c.cfl,
                    r.ctx("cfl_start")
                        << "cfl_law = " << (ser ? "ser" : "adaptive")
                        << " needs cfl_start <= cfl (got " << c.cflStart << " > " << c.cfl << ")");
    c.cflExponent = r.positive("cfl_exponent", 1.0);
    c.cflBackoffs = r.integer("cfl_backoffs", 10, 0);
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
    c.newtonMatvec =
        static_cast<NewtonMatvec>(r.choice("newton_matvec", "jfnk", {"jfnk", "assembled"}));
    c.newtonPreconditioner = static_cast<NewtonPreconditioner>(
        r.choice("newton_preconditioner", "ilu", {"ilu", "sgs", "jacobi", "none"}));
    c.newtonOrdering = static_cast<SweepOrdering>(
        r.choice("newton_ordering",
                 c.newtonPreconditioner == NewtonPreconditioner::Sgs ? "colour" : "blocks",
                 {"blocks", "colour", "hyperplane"}));
    c.newtonBlockCells = r.integer("newton_block_cells", 2048, 1);
    FV_VERIFY_USAGE(c.newtonOrdering != SweepOrdering::Blocks ||
                        c.newtonPreconditioner == NewtonPreconditioner::Ilu ||
                        c.newtonPreconditioner == NewtonPreconditioner::Jacobi ||
                        c.newtonPreconditioner == NewtonPreconditioner::None,
                    r.ctx("newton_ordering") << "newton_ordering = blocks is for "
                                                "newton_preconditioner = ilu; sgs sweeps use "
                                                "colour or hyperplane");
    c.newtonSweeps = r.integer("newton_sweeps", 1, 1);
    c.krylovDim = r.integer("newton_krylov_dim", 50, 1);
    c.linearIterations = r.integer("newton_linear_iterations", 50, 1);
    c.linearTolerance = r.number("newton_linear_tolerance", 0.05);
    FV_VERIFY_USAGE(c.linearTolerance > 0 && c.linearTolerance < 1,
                    r.ctx("newton_linear_tolerance")
                        << "newton_linear_tolerance must be in (0, 1) (got " << c.linearTolerance
                        << ")");
    c.maxChange = r.positive("newton_max_change", 1.0);
    c.jfnkStep = r.positive("newton_jfnk_step", 1e-7);
    c.lusgsLaunch = static_cast<LusgsLaunch>(
        r.choice("lusgs_launch", "persistent", {"persistent", "hybrid", "graph", "plain"}));
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
  std::vector<std::string> validTypes;
  for (const auto& b : bc_types())
    validTypes.push_back(b.name);
  std::string typeList;
  for (const auto& n : validTypes)
    typeList += (typeList.empty() ? "" : " | ") + n;
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
                                        << "; add [patch NAME] with type = " << typeList);
  }
  const real_t g = c.gamma;
  const real_t T0inf = c.temperature * (1 + 0.5 * (g - 1) * c.mach * c.mach);
  const real_t p0inf = c.pressure * std::pow(T0inf / c.temperature, g / (g - 1));
  for (const auto& zp : zonePatches) {
    const std::string sec = "patch " + zp.name;
    SectionReader r(ini, sec, dump);
    PatchConfig pc;
    pc.name = zp.name;
    const BcTypeInfo& info = bc_types()[static_cast<std::size_t>(r.choice("type", "", validTypes))];
    pc.typeName = info.name;
    r.check_known(info.keys);
    FV_VERIFY_USAGE(!info.viscousOnly || c.viscous(),
                    r.ctx("type") << "type = " << info.name
                                  << " needs a viscous model: [physics] model = navier_stokes or "
                                     "rans_sa");
    phys::BcParams& b = pc.params;
    b.type = info.type;
    b.gamma = g;
    b.gasConstant = c.gasConstant;
    for (int k = 0; k < 5; ++k)
      b.ref[k] = c.freestream[k];
    b.nuTilde = c.nuTildeFreestream;
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
    } else if (b.type == phys::BcType::NoSlipWall) {
      if (r.raw("temperature", "adiabatic") == "adiabatic")
        r.record("temperature", "adiabatic");
      else
        b.wallTemperature = r.positive("temperature", 0);
      const auto u = r.vector("velocity", "0, 0, 0", 3);
      for (int k = 0; k < 3; ++k)
        b.wallVelocity[k] = u[k];
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
      if (p.params.type == phys::BcType::SlipWall || p.params.type == phys::BcType::NoSlipWall)
        def += (def.empty() ? "" : ", ") + p.name;
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
    c.solutionFormat =
        static_cast<SolutionFormat>(r.choice("solution_format", "xdmf", {"xdmf", "cgns", "both"}));
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
    c.haloTransport = r.text("transport", "auto");
    const char* kinds[] = {"auto", "host_staged_mpi", "cuda_aware_mpi", "nccl", "cuda_ipc"};
    FV_VERIFY_USAGE(std::find(std::begin(kinds), std::end(kinds), c.haloTransport) !=
                        std::end(kinds),
                    r.ctx("transport") << "transport = '" << c.haloTransport
                                       << "' is not valid (valid: auto, host_staged_mpi, "
                                          "cuda_aware_mpi, nccl, cuda_ipc)");
  }
  c.resolvedIni = dump.str();
  return c;
}

} // namespace fv
