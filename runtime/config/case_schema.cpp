// The case-file schema (case_config.hpp): every key once, as one entry, in documentation and
// resolution order (a dependent default reads only keys before it), and its Markdown table.
#include "runtime/backend/wait_watchdog.hpp"
#include "runtime/config/case_config.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <sstream>
#include <type_traits>

namespace fv {
namespace {

template <class T>
struct NonDeduced {
  using type = T;
};
/// Where a value of type T goes (a member of a part of the case, or a setter).
template <class T>
using Setter = std::function<void(CaseConfig&, typename NonDeduced<T>::type)>;

/// The member `member` of the part `part` of the case.
template <class Part, class T>
std::function<void(CaseConfig&, T)> to(Part CaseConfig::*part, T Part::*member) {
  return [=](CaseConfig& c, T v) { (c.*part).*member = v; };
}
/// The member `member` of the member `sub` of the part `part` (a member of Sub or of a base).
template <class Part, class Sub, class Base, class T>
std::function<void(CaseConfig&, T)> to(Part CaseConfig::*part, Sub Part::*sub, T Base::*member) {
  static_assert(std::is_base_of_v<Base, Sub>, "a member of the sub-part");
  return [=](CaseConfig& c, T v) { ((c.*part).*sub).*member = v; };
}

/// A key's default: a literal in the key's type, or computed from the keys resolved before it
/// (depends(): documented as "=what").
struct Default {
  std::string text;
  std::function<std::string(const CaseConfig&)> of;
  Default(const char* literal) : text(literal) {}
  Default(std::string doc, std::function<std::string(const CaseConfig&)> f)
      : text(std::move(doc)), of(std::move(f)) {}
};
Default depends(const char* doc, std::function<std::string(const CaseConfig&)> f) {
  return Default(doc, std::move(f));
}

KeyBounds above(real_t lo) {
  return {lo, false};
}
KeyBounds at_least(real_t lo) {
  return {lo, true};
}
KeyBounds inside(real_t lo, real_t hi) {
  return {lo, false, hi, false};
}
const KeyBounds kAny{};

CaseKey entry(const char* section, const char* key, KeyType type, const Default& def,
              const char* unit, const char* meaning, KeyOption cli) {
  CaseKey k;
  k.section = section;
  k.key = key;
  k.type = type;
  k.defaultValue = def.text;
  k.dependentDefault = def.of;
  k.unit = unit;
  k.meaning = meaning;
  k.cli = cli;
  return k;
}

CaseKey real(const char* section, const char* key, const Default& def, KeyBounds bounds,
             const char* unit, const char* meaning, Setter<real_t> set, KeyOption cli = {}) {
  CaseKey k = entry(section, key, KeyType::Real, def, unit, meaning, cli);
  k.bounds = bounds;
  k.store = [set](CaseConfig& c, const KeyValue& v) { set(c, v.real); };
  return k;
}

CaseKey integer(const char* section, const char* key, const Default& def, int lo, const char* unit,
                const char* meaning, Setter<int> set, KeyOption cli = {}) {
  CaseKey k = entry(section, key, KeyType::Integer, def, unit, meaning, cli);
  k.bounds = at_least(lo);
  k.store = [set](CaseConfig& c, const KeyValue& v) { set(c, static_cast<int>(v.integer)); };
  return k;
}

CaseKey boolean(const char* section, const char* key, const Default& def, const char* meaning,
                Setter<bool> set, KeyOption cli = {}) {
  CaseKey k = entry(section, key, KeyType::Boolean, def, "", meaning, cli);
  k.store = [set](CaseConfig& c, const KeyValue& v) { set(c, v.boolean); };
  return k;
}

/// A choice among the names of `names` (the table of the room that owns the enumeration).
template <class E, std::size_t N>
CaseKey choice(const char* section, const char* key, const Default& def,
               const EnumName<E> (&names)[N], const char* meaning, Setter<E> set,
               KeyOption cli = {}) {
  CaseKey k = entry(section, key, KeyType::Choice, def, "", meaning, cli);
  k.choices = enum_names(names);
  const EnumName<E>* table = names;
  k.store = [set, table](CaseConfig& c, const KeyValue& v) { set(c, table[v.choice].value); };
  return k;
}

CaseKey text(const char* section, const char* key, const Default& def, const char* meaning,
             Setter<std::string> set, KeyOption cli = {}) {
  CaseKey k = entry(section, key, KeyType::Text, def, "", meaning, cli);
  k.store = [set](CaseConfig& c, const KeyValue& v) { set(c, v.text); };
  return k;
}

/// n comma-separated reals into the first n entries of an array member.
template <std::size_t N>
CaseKey reals(const char* section, const char* key, const Default& def, const char* unit,
              const char* meaning, std::function<std::array<real_t, N>&(CaseConfig&)> member) {
  CaseKey k = entry(section, key, KeyType::Reals, def, unit, meaning, {});
  k.count = static_cast<int>(N);
  k.store = [member](CaseConfig& c, const KeyValue& v) {
    std::copy(v.reals.begin(), v.reals.end(), member(c).begin());
  };
  return k;
}

CaseKey names(const char* section, const char* key, const Default& def, const char* meaning,
              Setter<std::vector<std::string>> set) {
  CaseKey k = entry(section, key, KeyType::Names, def, "", meaning, {});
  k.store = [set](CaseConfig& c, const KeyValue& v) { set(c, v.names); };
  return k;
}

// the names of choices whose values only the configuration has
constexpr EnumName<int> kOrderNames[] = {{1, "1"}, {2, "2"}};
constexpr EnumName<int> kAxisNames[] = {{0, "x"}, {1, "y"}, {2, "z"}};
constexpr EnumName<bool> kSteppingNames[] = {{true, "local"}, {false, "global"}};
constexpr EnumName<bool> kPrecisionNames[] = {{false, "double"}, {true, "mixed"}};
constexpr EnumName<bool> kOnOffNames[] = {{true, "on"}, {false, "off"}};
constexpr EnumName<bool> kLusgsBoundaryNames[] = {{true, "jacobian"}, {false, "spectral"}};
constexpr EnumName<bool> kLusgsDissipationNames[] = {{false, "scalar"}, {true, "roe"}};

/// [scheme] assembly: the automatic mode, then the solver's residual assemblies (kernels').
CaseKey assembly_key(const char* meaning) {
  CaseKey k = entry("scheme", "assembly", KeyType::Choice, "auto", "", meaning, {});
  k.choices = enum_names(kAssemblyModeNames);
  for (const std::string& v : enum_names(kernels::kResidualAssemblyNames))
    k.choices.push_back(v);
  k.store = [](CaseConfig& c, const KeyValue& v) {
    constexpr int nModes = sizeof kAssemblyModeNames / sizeof kAssemblyModeNames[0];
    AssemblyRequest& a = c.scheme.assembly;
    a.mode = v.choice < nModes ? kAssemblyModeNames[v.choice].value : AssemblyMode::Variant;
    a.variant = v.choice < nModes ? kernels::ResidualAssembly::Gather
                                  : kernels::kResidualAssemblyNames[v.choice - nModes].value;
  };
  return k;
}

using kernels::FluxSettings;
using phys::Transport;

bool newton(const CaseConfig& c) {
  return c.time.integrator == TimeScheme::Newton;
}

/// [freestream] target_cl: a lift coefficient, or off.
CaseKey target_cl_key() {
  CaseKey k = entry("freestream", "target_cl", KeyType::Real, "off", "",
                    "fixed lift (as SU2's FIXED_CL_MODE): the angle of attack is adjusted during "
                    "the iterations until CL = target_cl, aoa being the first guess (secant "
                    "steps on dCL/dalpha, the first 2 pi per radian; alpha and dCL/dalpha in "
                    "the log, history.csv and polar.csv; docs/solver.md); off: aoa is fixed",
                    {});
  k.keyword = "off";
  k.store = [](CaseConfig& c, const KeyValue& v) {
    c.lift.on = !v.keyword;
    c.lift.target = v.keyword ? 0 : v.real;
  };
  return k;
}

/// [gas]: the gas
std::vector<CaseKey> gas_keys() {
  return {
      real("gas", "gamma", "1.4", above(1), "", "ratio of specific heats",
           to(&CaseConfig::flow, &FlowConfig::gamma)),
      real("gas", "gas_constant", "287.05", above(0), "J/(kg K)",
           "specific gas constant R (1/gamma when nondimensional)",
           to(&CaseConfig::flow, &FlowConfig::gasConstant)),
  };
}

/// [freestream] lift_axis's default: on an extruded 2D mesh the axis, y or z, nearer its plane
/// (y when extruded along z); z, the 3D convention, otherwise.
std::string in_plane_lift_axis(const CaseConfig& c) {
  const Extrusion& e = c.mesh.extrusion;
  if (!e.extruded()) return "z";
  return std::fabs(e.direction[1]) > std::fabs(e.direction[2]) ? "z" : "y";
}

/// [monitor] reference_area's default: on an extruded 2D mesh the chord (reference_length)
/// times the thickness, so that the coefficients are those per unit span whatever the
/// thickness; 1 otherwise.
std::string reference_area(const CaseConfig& c) {
  const Extrusion& e = c.mesh.extrusion;
  return e.extruded() ? format_real(c.monitor.refLength * e.thickness) : "1";
}

/// [freestream]: the free stream (and the Reynolds number of the viscous models)
std::vector<CaseKey> freestream_keys() {
  return {
      real("freestream", "mach", "0.5", at_least(0), "",
           "free-stream Mach number (its dynamic pressure normalises the coefficients: none, "
           "nan, at mach = 0)",
           to(&CaseConfig::flow, &FlowConfig::mach)),
      real("freestream", "aoa", "0", kAny, "degrees",
           "angle of attack (rotation towards lift_axis)",
           to(&CaseConfig::flow, &FlowConfig::aoaDeg)),
      real("freestream", "sideslip", "0", kAny, "degrees", "sideslip angle",
           to(&CaseConfig::flow, &FlowConfig::sideslipDeg)),
      target_cl_key(),
      real("freestream", "target_cl_tolerance", "1e-6", above(0), "",
           "target_cl: the lift counts as reached (and the run as converged, with the "
           "residual) when |CL - target_cl| is at most this",
           to(&CaseConfig::lift, &FixedLiftConfig::tolerance)),
      real("freestream", "pressure", "101325", above(0), "Pa", "free-stream static pressure",
           to(&CaseConfig::flow, &FlowConfig::pressure)),
      real("freestream", "temperature", "288.15", above(0), "K", "free-stream static temperature",
           to(&CaseConfig::flow, &FlowConfig::temperature)),
      boolean("freestream", "nondimensional", "false",
              "true: rho = 1, speed of sound = 1, p = 1/gamma, R = 1/gamma (pressure, "
              "temperature and gas_constant are ignored)",
              to(&CaseConfig::flow, &FlowConfig::nondimensional)),
      choice("freestream", "lift_axis", depends("=extrusion", in_plane_lift_axis), kLiftAxisNames,
             "axis of lift, towards which aoa turns the flow from x: z (the 3D convention, the "
             "default of a 3D mesh) | y. On a 2D mesh extruded by fvprep the default is the axis "
             "of its plane (y when extruded along z, z when along y); the extrusion direction "
             "is refused (it tilts the flow through the symmetry planes), as is a sideslip",
             to(&CaseConfig::flow, &FlowConfig::liftAxis)),
      real("freestream", "reynolds", "0", at_least(0), "",
           "navier_stokes: free-stream Reynolds number rho V L / mu on reynolds_length; the "
           "reference viscosity is scaled to give it (0: the viscosity law's own value at the "
           "free-stream temperature)",
           to(&CaseConfig::flow, &FlowConfig::reynolds)),
      real("freestream", "reynolds_length", "1", above(0), "m",
           "navier_stokes: length L of the Reynolds number",
           to(&CaseConfig::flow, &FlowConfig::reynoldsLength)),
      real("freestream", "nu_tilde_ratio", "3", above(0), "",
           "rans_sa: free-stream nu-tilde / nu (the TMR's 3; also what enters at far-field and "
           "inflow patches)",
           to(&CaseConfig::flow, &FlowConfig::nuTildeRatio)),
  };
}

/// [physics]: the equations and the transport properties
std::vector<CaseKey> physics_keys() {
  return {
      choice("physics", "model", "euler", phys::kModelNames,
             "equations: euler (inviscid) | navier_stokes (laminar, compressible, Stokes' "
             "hypothesis) | rans_sa (Reynolds-averaged, Spalart-Allmaras SA-neg, coupled; needs "
             "the wall distance of fvprep)",
             to(&CaseConfig::flow, &FlowConfig::model)),
      choice("physics", "viscosity", "sutherland", phys::kViscosityLawNames,
             "navier_stokes: viscosity law sutherland (mu = viscosity_ref "
             "(T/sutherland_temperature)^1.5 (sutherland_temperature + sutherland_constant)/(T + "
             "sutherland_constant)) | constant (mu = viscosity_ref)",
             to(&CaseConfig::flow, &FlowConfig::transport, &Transport::law)),
      real("physics", "viscosity_ref", "1.716e-5", above(0), "Pa s",
           "navier_stokes: viscosity at sutherland_temperature (or the constant viscosity); "
           "scaled when [freestream] reynolds is given",
           to(&CaseConfig::flow, &FlowConfig::transport, &Transport::muRef)),
      real("physics", "sutherland_temperature", "273.15", above(0), "K",
           "navier_stokes: reference temperature of Sutherland's law (nondimensional cases: "
           "divided by [freestream] temperature)",
           to(&CaseConfig::flow, &FlowConfig::transport, &Transport::tRef)),
      real("physics", "sutherland_constant", "110.4", above(0), "K",
           "navier_stokes: Sutherland's constant S (air; nondimensional cases: divided by "
           "[freestream] temperature)",
           to(&CaseConfig::flow, &FlowConfig::transport, &Transport::sutherland)),
      real("physics", "prandtl", "0.72", above(0), "", "navier_stokes: laminar Prandtl number",
           to(&CaseConfig::flow, &FlowConfig::transport, &Transport::prandtl)),
      real("physics", "turbulent_prandtl", "0.9", above(0), "",
           "rans_sa: turbulent Prandtl number of the eddy heat flux",
           to(&CaseConfig::flow, &FlowConfig::transport, &Transport::prandtlTurbulent)),
  };
}

/// [scheme]: the spatial discretisation
std::vector<CaseKey> scheme_keys() {
  return {
      choice("scheme", "flux", "roe", kernels::kFluxNames, "convective flux",
             to(&CaseConfig::scheme, &SchemeConfig::flux, &FluxSettings::flux)),
      real("scheme", "entropy_fix", "0.1", at_least(0), "fraction of |Vn|+c",
           "Harten entropy fix of the Roe flux",
           to(&CaseConfig::scheme, &SchemeConfig::flux, &FluxSettings::entropyFix)),
      choice("scheme", "entropy_fix_waves",
             depends("=model",
                     [](const CaseConfig& c) { return c.flow.viscous() ? "acoustic" : "all"; }),
             kernels::kEntropyFixWavesNames,
             "waves of the Roe flux the entropy fix acts on: all (euler's default) | acoustic "
             "(the u +- c waves only, the viscous models' default: on the entropy and shear "
             "waves the fix is a numerical viscosity of order entropy_fix c h, as large as the "
             "physical one in a boundary layer)",
             [](CaseConfig& c, kernels::EntropyFixWaves w) {
               c.scheme.flux.set_entropy_fix_waves(w);
             }),
      choice("scheme", "order", "2", kOrderNames,
             "spatial order: 1 (cell values) | 2 (MUSCL, node-averaged Green-Gauss gradients)",
             to(&CaseConfig::scheme, &SchemeConfig::order)),
      choice("scheme", "limiter", "venkat_wang", kernels::kLimiterNames,
             "slope limiter for order 2: venkat_wang (Venkatakrishnan with the global epsilon of "
             "Wang: eps = venkat_wang_k x the range of the variable over the whole mesh) | "
             "venkat (classical Venkatakrishnan, eps^2 = (K dx)^3 q_ref^2) | barth | none",
             to(&CaseConfig::scheme, &SchemeConfig::limiter)),
      assembly_key(
          "how the interior face fluxes are summed into the residual (one zone and the Euler "
          "model; several zones and the viscous models always gather): auto (the faster of "
          "gather and smem, whose residuals are bitwise equal, timed once per mesh UUID and GPU "
          "and cached like fvbench --kernels auto; gather on the CPU) | gather (cell loop over "
          "the stored face fluxes) | smem (the same sums staged in GPU shared memory)"),
      choice("scheme", "limiter_region",
             depends("=model",
                     [](const CaseConfig& c) {
                       return c.flow.viscous() ? "supersonic" : "everywhere";
                     }),
             kLimiterRegionNames,
             "where the limiter acts: supersonic (navier_stokes' and rans_sa's default: only "
             "cells whose gradient stencil, the cells sharing a node with them, holds supersonic "
             "flow; a steady shock needs supersonic flow ahead of it, and viscosity resolves "
             "every other layer, so boundary layers and smooth extrema keep second order, as "
             "the TMR reference codes run subsonic cases unlimited) | everywhere (euler's "
             "default: every cell; inviscid slip lines and vortex sheets are discontinuities at "
             "any Mach number)",
             to(&CaseConfig::scheme, &SchemeConfig::limiterRegion)),
      real("scheme", "venkat_k", "5", above(0), "",
           "venkat: constant K of eps^2 = (K dx)^3 q_ref^2, dx = V^(1/3) (or venkat_length), "
           "q_ref the free-stream rho, |u|+c or p",
           to(&CaseConfig::scheme, &SchemeConfig::venkatK)),
      real("scheme", "venkat_length", "0", at_least(0), "m",
           "venkat: a global reference length L replacing dx (eps^2 = (K L)^3 q_ref^2, so "
           "that epsilon does not vanish in fine cells); 0: the cell size dx",
           to(&CaseConfig::scheme, &SchemeConfig::venkatLength)),
      real("scheme", "venkat_wang_k", "0.05", above(0), "",
           "venkat_wang: eps = venkat_wang_k (q_max - q_min), the range over all cells of "
           "every zone, refreshed once per iteration",
           to(&CaseConfig::scheme, &SchemeConfig::venkatWangK)),
      real("scheme", "limiter_freeze", "0", at_least(0), "orders",
           "freeze the limiter (keep phi) once the residual has dropped by this many orders "
           "(0: never)",
           to(&CaseConfig::scheme, &SchemeConfig::limiterFreeze)),
      integer("scheme", "limiter_freeze_stall", "0", 0, "iterations",
              "freeze the limiter after this many iterations without a new lowest residual "
              "(0: never)",
              to(&CaseConfig::scheme, &SchemeConfig::limiterFreezeStall)),
      choice("scheme", "node_weights", "linear", kNodeWeightsNames,
             "cell-to-node weights of the gradient: linear (inverse distance corrected to be "
             "exact for linear fields, second order at boundaries; a 2D mesh's are the in-plane "
             "inverse distance, docs/solver.md) | inverse_distance (zone file as is)",
             to(&CaseConfig::scheme, &SchemeConfig::nodeWeights)),
      choice("scheme", "precision", "double", kPrecisionNames,
             "double (FP64 throughout) | mixed (the second-order reconstruction reads FP32 "
             "copies of the face-centroid offsets and node weights; face areas, state, "
             "gradients, limiter, fluxes, residual and all arithmetic stay FP64; residual "
             "assembly gather)",
             to(&CaseConfig::scheme, &SchemeConfig::mixedPrecision)),
      choice("scheme", "face_states", "on", kOnOffNames,
             "on: a second-order inviscid evaluation stores each face's reconstructed states (5 "
             "values per cell face and 2 indices per face of device memory) for the face loops "
             "to read instead of the cell gradients; with several zones the interface faces "
             "reconstruct their halo side (the same fluxes, bitwise; fewer bytes moved) | off: "
             "the face loops reconstruct from the stored gradients (less memory)",
             to(&CaseConfig::scheme, &SchemeConfig::faceStates)),
  };
}

/// [time]: the time scheme, the CFL law and when to stop
std::vector<CaseKey> time_keys() {
  return {
      choice("time", "stepping", "local", kSteppingNames,
             "local (steady, local time steps) | global (time accurate)",
             to(&CaseConfig::time, &TimeConfig::localTimeStep)),
      choice(
          "time", "integrator",
          depends("=stepping",
                  [](const CaseConfig& c) { return c.time.localTimeStep ? "newton" : "ssprk3"; }),
          kTimeSchemeNames,
          "time scheme: newton (implicit Newton-Krylov, the default for stepping = local) | "
          "ssprk3 (the default for stepping = global) | rk2 (2-stage SSP) | rk4 (classical) "
          "| lusgs (implicit, matrix-free LU-SGS)",
          to(&CaseConfig::time, &TimeConfig::integrator)),
      real("time", "startup_orders",
           depends("=integrator", [](const CaseConfig& c) { return newton(c) ? "2" : "0"; }),
           at_least(0), "orders",
           "order 2: start at first order (cell values) and switch to second order once the "
           "residual has dropped by this many orders (0: second order from the start). Default "
           "2 for newton (a shorter transient), 0 otherwise",
           to(&CaseConfig::time, &TimeConfig::startupOrders)),
      real("time", "cfl",
           depends("=integrator",
                   [](const CaseConfig& c) { return format_real(newton(c) ? 1e8 : 1.0); }),
           above(0), "",
           "CFL number (dt = cfl V / sum_faces (|u.S| + c|S|)); the largest CFL of the ser and "
           "adaptive laws. Default 1, newton 1e8",
           to(&CaseConfig::time, &TimeConfig::cfl), {"--cfl"}),
      real("time", "cfl_start",
           depends("=integrator",
                   [](const CaseConfig& c) {
                     return format_real(newton(c) ? std::min<real_t>(10.0, c.time.cfl)
                                                  : c.time.cfl);
                   }),
           above(0), "",
           "CFL at iteration 1 of the ramp, adaptive and ser laws. Default: cfl, "
           "newton the lesser of 10 and cfl",
           to(&CaseConfig::time, &TimeConfig::cflStart)),
      integer("time", "cfl_ramp_iterations", "0", 0, "iterations",
              "iterations over which the CFL ramps linearly from cfl_start to cfl (0: no ramp)",
              to(&CaseConfig::time, &TimeConfig::cflRampIterations)),
      choice("time", "cfl_law",
             depends("=integrator", [](const CaseConfig& c) { return newton(c) ? "ser" : "ramp"; }),
             kCflLawNames,
             "ramp (linear from cfl_start to cfl over cfl_ramp_iterations; default) | adaptive "
             "(starts at cfl_start, times cfl_growth after an iteration that lowered the "
             "residual, times cfl_cut after one that raised it, kept within [cfl_start, cfl]) | "
             "ser (switched evolution relaxation with safeguards, newton's default: after a full "
             "update times max(cfl_growth, (r_previous/r)^cfl_exponent), at most 10; down after "
             "updates the solver scaled below half or a linear solve that stagnated; within "
             "[cfl_start/1000, cfl]; a failed iteration is retried from the last good state at "
             "cfl_cut times its CFL; docs/numerics.md)",
             to(&CaseConfig::time, &TimeConfig::cflLaw)),
      real("time", "cfl_growth",
           depends("=cfl_law",
                   [](const CaseConfig& c) { return c.time.cflLaw == CflLaw::Ser ? "2" : "1.1"; }),
           above(1), "",
           "adaptive: growth factor (default 1.1); ser: the least growth after a full update "
           "(default 2)",
           to(&CaseConfig::time, &TimeConfig::cflGrowth)),
      real(
          "time", "cfl_cut",
          depends("=cfl_law",
                  [](const CaseConfig& c) { return c.time.cflLaw == CflLaw::Ser ? "0.1" : "0.5"; }),
          inside(0, 1), "",
          "adaptive: cut factor (default 0.5); ser: back-off factor after a failed iteration "
          "(default 0.1)",
          to(&CaseConfig::time, &TimeConfig::cflCut)),
      real("time", "cfl_exponent", "1", above(0), "", "ser: exponent of the residual ratio",
           to(&CaseConfig::time, &TimeConfig::cflExponent)),
      integer("time", "cfl_backoffs", "10", 0, "",
              "ser: failed iterations in a row (non-physical state, NaN, residual blow-up) that "
              "are retried at a lower CFL before the run stops",
              to(&CaseConfig::time, &TimeConfig::cflBackoffs)),
      integer("time", "iterations", "1000", 0, "",
              "the last iteration (time step), counted from the first run: a restart at "
              "iteration k runs iterations - k more",
              to(&CaseConfig::time, &TimeConfig::iterations), {"--iterations"}),
      integer("time", "more_iterations", "0", 0, "",
              "run this many iterations from wherever the run starts (a restart's iteration) "
              "instead of up to iterations (0: up to iterations)",
              to(&CaseConfig::time, &TimeConfig::moreIterations), {"--more"}),
      real("time", "dt", "0", at_least(0), "s", "global stepping: fixed time step (0: from cfl)",
           to(&CaseConfig::time, &TimeConfig::dt)),
      real("time", "final_time", "0", at_least(0), "s",
           "global stepping: stop at this physical time (0: none)",
           to(&CaseConfig::time, &TimeConfig::finalTime)),
      real("time", "convergence", "8", kAny, "orders",
           "local stepping: stop when the density and energy RMS residuals dropped by this many "
           "orders (0: never)",
           to(&CaseConfig::time, &TimeConfig::convergenceOrders)),
  };
}

/// [time] lusgs_* and newton_*: the implicit schemes (in the order of the resolved text)
std::vector<CaseKey> implicit_keys() {
  return {
      choice("time", "lusgs_ordering", "hyperplane", kLusgsOrderingNames,
             "lusgs: sweep ordering hyperplane (reproduces the sequential sweep) | colour (cell "
             "colours, more parallel) | natural (the zone's sequential sweep order, one cell at "
             "a time, CPU only)",
             to(&CaseConfig::lusgs, &LusgsConfig::ordering)),
      integer("time", "lusgs_sweeps", "1", 1, "",
              "lusgs: symmetric Gauss-Seidel sweeps per iteration",
              to(&CaseConfig::lusgs, &LusgsConfig::sweeps)),
      real("time", "lusgs_omega", "1", at_least(1), "",
           "lusgs: over-relaxation omega of the spectral radius (diagonal and off-diagonal)",
           to(&CaseConfig::lusgs, &LusgsConfig::omega)),
      choice("time", "newton_matvec", "jfnk", kNewtonMatvecNames,
             "newton: Jacobian-vector products jfnk (Jacobian-free: finite difference of the "
             "residual itself, second order) | assembled (the first-order Jacobian of the "
             "preconditioner: a defect correction)",
             to(&CaseConfig::newton, &NewtonConfig::matvec)),
      choice("time", "newton_preconditioner", "ilu", kNewtonPreconditionerNames,
             "newton: GMRES preconditioner on the assembled first-order Jacobian (5x5 blocks, "
             "6x6 with rans_sa): ilu (block ILU(0) in the newton_ordering, diagonal form) | sgs "
             "(symmetric block Gauss-Seidel sweeps) | jacobi (block Jacobi sweeps) | none",
             to(&CaseConfig::newton, &NewtonConfig::preconditioner)),
      choice("time", "newton_ordering",
             depends("=preconditioner",
                     [](const CaseConfig& c) {
                       return c.newton.preconditioner == NewtonPreconditioner::Sgs ? "colour"
                                                                                   : "blocks";
                     }),
             kSweepOrderingNames,
             "newton: order of the ilu and sgs sweeps: blocks (ilu's default; ilu only: compact "
             "blocks of about newton_block_cells cells, each in the sequential hyperplane order, "
             "all blocks in parallel with no coupling between them) | colour (sgs's default; "
             "cell colours: few, large groups, weak at a large CFL) | hyperplane (the "
             "sequential order of the whole zone: strongest, as many groups as hyperplanes)",
             to(&CaseConfig::newton, &NewtonConfig::ordering)),
      integer("time", "newton_block_cells", "2048", 1, "cells",
              "newton: cells per block of newton_ordering = blocks",
              to(&CaseConfig::newton, &NewtonConfig::blockCells)),
      integer("time", "newton_sweeps", "1", 1, "",
              "newton: preconditioner applications per GMRES iteration (ilu: Richardson "
              "iterations of the ILU solve; sgs: symmetric sweeps; jacobi: sweeps)",
              to(&CaseConfig::newton, &NewtonConfig::sweeps)),
      integer("time", "newton_krylov_dim", "50", 1, "",
              "newton: GMRES restart length: Krylov vectors kept on the device, 40 bytes per "
              "cell each (48 with rans_sa; lower it for very large zones)",
              to(&CaseConfig::newton, &NewtonConfig::krylovDim)),
      integer("time", "newton_linear_iterations", "50", 1, "",
              "newton: most GMRES iterations per Newton iteration",
              to(&CaseConfig::newton, &NewtonConfig::linearIterations)),
      real("time", "newton_linear_tolerance", "0.05", inside(0, 1), "",
           "newton: GMRES stops when the linear residual has dropped by this factor",
           to(&CaseConfig::newton, &NewtonConfig::linearTolerance)),
      real("time", "newton_max_change", "1", above(0), "",
           "newton: density and pressure change by at most the factor 1 + newton_max_change "
           "either way in any cell per iteration (the whole update is scaled down to it)",
           to(&CaseConfig::newton, &NewtonConfig::maxChange)),
      real("time", "newton_jfnk_step", "1e-7", above(0), "",
           "newton, jfnk: relative finite-difference step eps (1 + |U|) / |v|",
           to(&CaseConfig::newton, &NewtonConfig::jfnkStep)),
      choice("time", "lusgs_launch", "persistent", kLusgsLaunchNames,
             "lusgs on the GPU: persistent (one cooperative kernel per sweep, grid-wide barrier "
             "between groups) | hybrid (persistent; runs of groups that fit one block swept by "
             "one block) | graph (one launch per group, captured once in a CUDA graph and "
             "replayed) | plain (one launch per group each time)",
             to(&CaseConfig::lusgs, &LusgsConfig::launch)),
      choice("time", "lusgs_boundary", "jacobian", kLusgsBoundaryNames,
             "lusgs: boundary faces in the diagonal: jacobian (exact first-order Jacobian of the "
             "boundary flux, 5x5 block on boundary cells) | spectral (omega/2 (|u.S| + c|S|), "
             "the textbook scalar; slower: a wall or symmetry face then damps every equation)",
             to(&CaseConfig::lusgs, &LusgsConfig::boundaryJacobian)),
      choice("time", "lusgs_dissipation", "scalar", kLusgsDissipationNames,
             "lusgs: dissipation of the implicit operator: scalar (omega (|u.S| + c|S|), "
             "Jameson-Yoon) | roe (omega times the Roe matrix of each face: every cell gets a "
             "5x5 block; needs lusgs_boundary = jacobian)",
             to(&CaseConfig::lusgs, &LusgsConfig::roeDissipation)),
  };
}

/// [initial]: the initial state
std::vector<CaseKey> initial_keys() {
  return {
      choice("initial", "type", "freestream", kInitialKindNames,
             "initial state: freestream | split (two states)",
             to(&CaseConfig::initial, &InitialConfig::kind)),
      choice("initial", "axis", "x", kAxisNames, "split: normal axis of the split plane",
             to(&CaseConfig::initial, &InitialConfig::splitAxis)),
      real("initial", "position", "0", kAny, "m", "split: coordinate of the plane along axis",
           to(&CaseConfig::initial, &InitialConfig::splitPosition)),
      reals<phys::kNumEq>(
          "initial", "left", "1, 0, 0, 0, 1", "",
          "split: primitive state (rho, u, v, w, p) below position",
          [](CaseConfig & c) -> auto& { return c.initial.left; }),
      reals<phys::kNumEq>(
          "initial", "right", "0.125, 0, 0, 0, 0.1", "", "split: primitive state above position",
          [](CaseConfig & c) -> auto& { return c.initial.right; }),
  };
}

/// [monitor]: forces and outputs
std::vector<CaseKey> monitor_keys() {
  return {
      names("monitor", "force_patches",
            depends("=walls",
                    [](const CaseConfig& c) {
                      std::string walls;
                      for (const PatchConfig& p : c.patches)
                        if (phys::bc_traits(p.params.type).wall)
                          walls += (walls.empty() ? "" : ", ") + p.name;
                      return walls;
                    }),
            "comma-separated patches integrated for forces (default: every slip_wall and "
            "no_slip_wall patch)",
            to(&CaseConfig::monitor, &MonitorConfig::forcePatches)),
      real("monitor", "reference_length", "1", above(0), "m",
           "reference length of the moment coefficients; on a 2D mesh the chord of the default "
           "reference_area",
           to(&CaseConfig::monitor, &MonitorConfig::refLength)),
      real("monitor", "reference_area", depends("=extrusion", reference_area), above(0), "m^2",
           "reference area of the force and moment coefficients: 1 on a 3D mesh; on a 2D mesh "
           "extruded by fvprep reference_length x the thickness (fvprep info), which makes the "
           "coefficients those per unit span whatever the thickness",
           to(&CaseConfig::monitor, &MonitorConfig::refArea)),
      reals<3>(
          "monitor", "moment_origin", "0, 0, 0", "m", "moment reference point",
          [](CaseConfig & c) -> auto& { return c.monitor.momentOrigin; }),
      integer("monitor", "output_interval", "10", 1, "iterations",
              "iterations between progress lines and history file updates",
              to(&CaseConfig::monitor, &MonitorConfig::outputInterval)),
      integer("monitor", "checkpoint_interval", "0", 0, "iterations",
              "write the restart every this many iterations (0: by checkpoint_minutes alone); "
              "a stop signal (SIGINT, SIGTERM, SIGUSR1) writes it too, after the iteration",
              to(&CaseConfig::monitor, &MonitorConfig::checkpointInterval)),
      real("monitor", "checkpoint_minutes", "30", at_least(0), "min",
           "write the restart when this much wall-clock time passed since the last one (0: "
           "never by time)",
           to(&CaseConfig::monitor, &MonitorConfig::checkpointMinutes)),
      text("monitor", "output_dir", "fvrun_out", "directory for history.csv and other outputs",
           to(&CaseConfig::monitor, &MonitorConfig::outputDir), {"--output-dir"}),
      boolean("monitor", "write_solution", "true",
              "write solution.h5, surface CSVs and restart.h5 at the end (false for benchmarks; "
              "the last good state of a failing run, checkpoints and a stopped run's restart "
              "are written either way)",
              to(&CaseConfig::monitor, &MonitorConfig::writeSolution)),
      choice("monitor", "solution_format", "xdmf", kSolutionFormatNames,
             "volume solution: xdmf (solution.h5 + solution.xmf for ParaView) | cgns "
             "(solution.cgns: mesh, BCs and a FlowSolution at cell centres, for CGNS tools and "
             "other solvers) | both",
             to(&CaseConfig::monitor, &MonitorConfig::solutionFormat)),
      boolean("monitor", "profile", "false",
              "time every kernel over the run and print its share of the iteration (also "
              "<output_dir>/profile.csv)",
              to(&CaseConfig::monitor, &MonitorConfig::profile),
              {"--profile", "true",
               "time every kernel and print its share of the iteration at the end, also as "
               "<output_dir>/profile.csv"}),
  };
}

/// [run]: the device and the ranks' transport
std::vector<CaseKey> run_keys() {
  return {
      choice("run", "device", "auto", kDeviceRequestNames,
             "where the run computes: auto (the GPU when there is one) | cpu | cuda",
             to(&CaseConfig::run, &RunConfig::device), {"--device"}),
      boolean("run", "overlap", "true",
              "compute interior cells while halo messages are in flight (MPI runs)",
              to(&CaseConfig::run, &RunConfig::overlap),
              {"--no-overlap", "false",
               "wait for each halo exchange right after posting it (no compute/communication "
               "overlap)"}),
      boolean("run", "comm_timing", "false",
              "time the halo exchanges' pack, wait and unpack phases (MPI runs; synchronises the "
              "device around each exchange, so it slows the run a little)",
              to(&CaseConfig::run, &RunConfig::commTiming),
              {"--comm-timing", "true",
               "time the halo exchanges (pack, wait, unpack) and print the split; adds device "
               "synchronisation"}),
      choice("run", "transport", "auto", backend::kTransportNames,
             "how halos and reductions travel between ranks (auto: the best available, printed "
             "at start-up; see README \"Transports\")",
             to(&CaseConfig::run, &RunConfig::transport),
             {"--cuda-aware-mpi", "cuda_aware_mpi",
              "let MPI read and write device buffers (needs an MPI library with CUDA support)"}),
      real("run", "wait_limit",
           std::to_string(static_cast<int>(backend::kDefaultWaitLimit)).c_str(), at_least(0), "s",
           "the longest a rank waits for the others in one collective or message before every "
           "rank is ended with a message (a rank stopped, hung or died; MPI runs; 0: no limit)",
           to(&CaseConfig::run, &RunConfig::waitLimit)),
  };
}

/// A swept key of [sweep]: the values of the [freestream] key of the same name, with its
/// bounds, or none.
CaseKey sweep_key(const char* key, const char* unit) {
  CaseKey k = entry("sweep", key, KeyType::Sweep, "none", unit, "", {});
  static std::deque<std::string> meanings; // the keys keep pointers to their text
  meanings.push_back(std::string("campaign: the values of [freestream] ") + key +
                     ", a list v1, v2, ... or a range start:stop:step (stop included); every "
                     "point is run on the same mesh in one fvrun (README \"Campaigns\"); "
                     "none: not swept (fvrun `--sweep " +
                     key + "=SPEC`)");
  k.meaning = meanings.back().c_str();
  for (const CaseKey& f : freestream_keys())
    if (std::string(f.key) == key) k.bounds = f.bounds;
  k.keyword = "none";
  k.store = [key](CaseConfig& c, const KeyValue& v) {
    if (!v.keyword) c.sweep.axes.push_back({key, v.reals});
  };
  return k;
}

/// [sweep]: a campaign of points on one mesh; the swept keys in the product's order (the first
/// outermost: one lift curve per Mach number)
std::vector<CaseKey> sweep_keys() {
  std::vector<CaseKey> keys;
  for (const char* key : kSweptKeys)
    keys.push_back(sweep_key(
        key, key == std::string("aoa") || key == std::string("sideslip") ? "degrees" : ""));
  keys.push_back(real("sweep", "warm_cfl_factor", "1", above(0), "",
                      "campaign: a point that starts from another point's converged state "
                      "starts its CFL law at this factor times the CFL that point ended with",
                      to(&CaseConfig::sweep, &SweepConfig::warmCflFactor)));
  keys.push_back(boolean("sweep", "extrapolate", "false",
                         "campaign: a warm start between two finished points on one axis starts "
                         "from their states extrapolated to its value (a secant predictor; "
                         "docs/solver.md) instead of the nearest point's state",
                         to(&CaseConfig::sweep, &SweepConfig::extrapolate)));
  keys.push_back(integer("sweep", "groups", "1", 1, "",
                         "campaign: the MPI ranks split into this many equal groups, each "
                         "running a contiguous share of the points (must divide the rank count; "
                         "the zone file needs a partitioning into ranks/groups parts)",
                         to(&CaseConfig::sweep, &SweepConfig::groups), {"--sweep-groups"}));
  return keys;
}

/// Every global key: the sections in documentation and resolution order.
std::vector<CaseKey> make_case_keys() {
  std::vector<CaseKey> keys;
  for (auto section : {gas_keys, freestream_keys, physics_keys, scheme_keys, time_keys,
                       implicit_keys, initial_keys, monitor_keys, run_keys, sweep_keys})
    for (CaseKey& k : section())
      keys.push_back(std::move(k));
  return keys;
}

// ---- [patch NAME] keys: "type", then each boundary type's own keys

CaseKey patch_key(phys::BcType type, const char* key, KeyType t, const Default& def,
                  const char* unit, const char* meaning,
                  std::function<void(PatchKeys&, const KeyValue&)> store) {
  CaseKey k = entry("patch NAME", key, t, def, unit, meaning, {});
  k.bcType = type;
  k.storePatch = std::move(store);
  return k;
}

/// A real, or the word `keyword` for none (the member keeps 0).
CaseKey patch_real(phys::BcType type, const char* key, const Default& def, KeyBounds bounds,
                   const char* unit, const char* meaning, real_t PatchKeys::*member,
                   const char* keyword = nullptr) {
  CaseKey k = patch_key(type, key, KeyType::Real, def, unit, meaning,
                        [member](PatchKeys& p, const KeyValue& v) {
                          if (!v.keyword) p.*member = v.real;
                        });
  k.bounds = bounds;
  k.keyword = keyword;
  return k;
}

/// Three reals.
CaseKey patch_vector(phys::BcType type, const char* key, const Default& def, const char* unit,
                     const char* meaning, std::array<real_t, 3> PatchKeys::*member) {
  CaseKey k = patch_key(type, key, KeyType::Reals, def, unit, meaning,
                        [member](PatchKeys& p, const KeyValue& v) {
                          std::copy(v.reals.begin(), v.reals.end(), (p.*member).begin());
                        });
  k.count = 3;
  return k;
}

/// A direction vector (normalised when given).
CaseKey patch_direction(phys::BcType type, const Default& def, const char* keyword,
                        const char* meaning) {
  CaseKey k = patch_key(type, "direction", KeyType::Reals, def, "", meaning,
                        [](PatchKeys& p, const KeyValue& v) {
                          if (v.keyword) return;
                          std::copy(v.reals.begin(), v.reals.end(), p.direction.begin());
                          p.directionGiven = v.given;
                        });
  k.count = 3;
  k.keyword = keyword;
  return k;
}

Default freestream(real_t (*of)(const FlowConfig&)) {
  return depends("=freestream", [of](const CaseConfig& c) { return format_real(of(c.flow)); });
}

std::vector<CaseKey> make_patch_keys() {
  using phys::BcType;
  CaseKey type = entry("patch NAME", "type", KeyType::Choice, "(required)", "",
                       "the patch's boundary condition", {});
  type.choices = enum_names(phys::kBcTypeNames);
  return {
      type,
      patch_real(BcType::SupersonicInflow, "mach",
                 freestream([](const FlowConfig& f) { return f.mach; }), kAny, "", "Mach number",
                 &PatchKeys::mach),
      patch_real(BcType::SupersonicInflow, "pressure",
                 freestream([](const FlowConfig& f) { return f.pressure; }), above(0), "Pa",
                 "static pressure", &PatchKeys::pressure),
      patch_real(BcType::SupersonicInflow, "temperature",
                 freestream([](const FlowConfig& f) { return f.temperature; }), above(0), "K",
                 "static temperature", &PatchKeys::temperature),
      patch_direction(BcType::SupersonicInflow,
                      depends("=freestream",
                              [](const CaseConfig& c) {
                                const auto& d = c.flow.dragDir;
                                return format_real(d[0]) + ", " + format_real(d[1]) + ", " +
                                       format_real(d[2]);
                              }),
                      nullptr, "flow direction vector"),
      patch_real(BcType::SubsonicOutflow, "pressure",
                 freestream([](const FlowConfig& f) { return f.pressure; }), above(0), "Pa",
                 "imposed static pressure", &PatchKeys::pressure),
      patch_real(BcType::SubsonicInflow, "total_pressure",
                 freestream([](const FlowConfig& f) { return f.total_pressure(); }), above(0), "Pa",
                 "total pressure p0", &PatchKeys::totalPressure),
      patch_real(BcType::SubsonicInflow, "total_temperature",
                 freestream([](const FlowConfig& f) { return f.total_temperature(); }), above(0),
                 "K", "total temperature T0", &PatchKeys::totalTemperature),
      patch_direction(BcType::SubsonicInflow, "normal", "normal",
                      "flow direction vector, or normal: along the inward normal"),
      patch_real(BcType::NoSlipWall, "temperature", "adiabatic", above(0), "K",
                 "temperature of an isothermal wall (nondimensional cases: relative to the free "
                 "stream), or adiabatic",
                 &PatchKeys::wallTemperature, "adiabatic"),
      patch_vector(BcType::NoSlipWall, "velocity", "0, 0, 0", "m/s", "velocity of the wall",
                   &PatchKeys::wallVelocity),
  };
}

std::string escape_bars(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2)
    s.replace(i, 1, "\\|");
  return s;
}

} // namespace

const std::vector<CaseKey>& case_keys() {
  static const std::vector<CaseKey> keys = make_case_keys();
  return keys;
}

const std::vector<CaseKey>& patch_keys() {
  static const std::vector<CaseKey> keys = make_patch_keys();
  return keys;
}

const std::vector<BcTypeInfo>& bc_types() {
  static const std::vector<BcTypeInfo> t = [] {
    std::vector<BcTypeInfo> out;
    for (const phys::BcRow& row : phys::kBcTable) {
      BcTypeInfo info{row.type, row.name, {"type"}, row.traits.needsViscous, &row};
      for (const CaseKey& k : patch_keys())
        if (k.storePatch && k.bcType == row.type) info.keys.push_back(k.key);
      out.push_back(info);
    }
    return out;
  }();
  return t;
}

bool KeyBounds::contains(real_t v) const {
  return (loClosed ? v >= lo : v > lo) && (hiClosed ? v <= hi : v < hi);
}

std::string KeyBounds::text() const {
  std::ostringstream o;
  const bool hasLo = lo > -std::numeric_limits<real_t>::infinity();
  const bool hasHi = hi < std::numeric_limits<real_t>::infinity();
  if (hasLo && hasHi)
    o << "in " << (loClosed ? "[" : "(") << lo << ", " << hi << (hiClosed ? "]" : ")");
  else if (hasLo)
    o << (loClosed ? ">= " : "> ") << lo;
  else if (hasHi)
    o << (hiClosed ? "<= " : "< ") << hi;
  return o.str();
}

std::string CaseKey::type_text() const {
  std::string t;
  switch (type) {
  case KeyType::Real:
    t = "real";
    break;
  case KeyType::Integer:
    t = "integer";
    break;
  case KeyType::Boolean:
    return "true | false";
  case KeyType::Choice: {
    for (const std::string& c : choices)
      t += (t.empty() ? "" : " | ") + c;
    return t;
  }
  case KeyType::Text:
    return "text";
  case KeyType::Reals:
    t = std::to_string(count) + " reals";
    break;
  case KeyType::Names:
    return "names";
  case KeyType::Sweep:
    t = "reals v1, v2, ... or start:stop:step";
    break;
  }
  const std::string b = bounds.text();
  if (!b.empty()) t += " " + b;
  if (keyword) t += std::string(" | ") + keyword;
  return t;
}

std::string case_keys_markdown() {
  std::ostringstream o;
  o << "| section | key | type | unit | default | meaning |\n|---|---|---|---|---|---|\n";
  auto row = [&](const CaseKey& k) {
    std::string section = std::string("[") + k.section + "]";
    if (k.storePatch) section += " " + std::string(enum_name(phys::kBcTypeNames, k.bcType));
    std::string meaning = k.meaning;
    if (k.cli.name)
      meaning += std::string(" (fvrun `") + k.cli.name +
                 (k.cli.flagValue ? std::string("`: ") + k.cli.flagValue : std::string("`")) + ")";
    o << "| " << section << " | `" << k.key << "` | " << escape_bars(k.type_text()) << " | "
      << escape_bars(k.unit) << " | `" << k.defaultValue << "` | " << escape_bars(meaning)
      << " |\n";
  };
  for (const auto& k : case_keys())
    row(k);
  for (const auto& k : patch_keys())
    row(k);
  return o.str();
}

} // namespace fv
