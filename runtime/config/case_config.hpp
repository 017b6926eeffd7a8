#pragma once
/// \file case_config.hpp
/// The typed, fully resolved configuration of an fvrun case, read from an INI case file
/// (runtime/config/ini.hpp) plus command-line overrides, in one part per consumer (FlowConfig,
/// SchemeConfig, TimeConfig, NewtonConfig, LusgsConfig, InitialConfig, MonitorConfig,
/// RunConfig; CaseConfig aggregates them with the patches).
///
/// Every key is one entry of the schema (case_keys(), runtime/config/case_schema.cpp): its
/// section, type, default (a literal, or computed from keys resolved before it), allowed values,
/// bounds, unit, one-line meaning, fvrun's command-line option if it has one, and the member of
/// the part it sets. resolve_case(), `fvrun --keys` (case_keys_markdown(), README's key table),
/// the resolved text written into every output and fvrun's command-line options all come from
/// it. Unknown sections/keys, bad values and unassigned patches are usage errors (exit 2) that
/// list the valid choices.
#include "common/enum_names.hpp"
#include "common/types.hpp"
#include "common/zone.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/config/ini.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/residual_assembly.hpp"
#include "runtime/physics/boundary_conditions.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/physics/navier_stokes/transport.hpp"

#include <array>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace fv {

// ---- the enumerations the configuration owns (the others belong to the rooms that use them:
// phys::Flux, kernels::Limiter, kernels::ResidualAssembly, phys::ModelKind, phys::BcType,
// phys::ViscosityLaw, DeviceRequest, backend::TransportKind), each with its case-file names

/// Where the limiter acts: cells whose gradient stencil holds supersonic flow, or every cell.
enum class LimiterRegion { Supersonic, Everywhere };
inline constexpr EnumName<LimiterRegion> kLimiterRegionNames[] = {
    {LimiterRegion::Supersonic, "supersonic"}, {LimiterRegion::Everywhere, "everywhere"}};

/// Cell-to-node weights of the gradient.
enum class NodeWeights { LinearExact, InverseDistance };
inline constexpr EnumName<NodeWeights> kNodeWeightsNames[] = {
    {NodeWeights::LinearExact, "linear"}, {NodeWeights::InverseDistance, "inverse_distance"}};

/// [scheme] assembly: one of the solver's residual assemblies (gather, smem), or the faster of
/// the two timed at the start (auto; their residuals are bitwise equal).
enum class AssemblyMode { Auto, Variant };
inline constexpr EnumName<AssemblyMode> kAssemblyModeNames[] = {{AssemblyMode::Auto, "auto"}};
struct AssemblyRequest {
  AssemblyMode mode{};
  kernels::ResidualAssembly variant{}; ///< mode Variant
  bool automatic() const { return mode != AssemblyMode::Variant; }
  /// The case-file name: "auto" or the assembly's name.
  std::string name() const;
};

enum class TimeScheme { Rk2, SspRk3, Rk4, Lusgs, Newton };
inline constexpr EnumName<TimeScheme> kTimeSchemeNames[] = {{TimeScheme::Rk2, "rk2"},
                                                            {TimeScheme::SspRk3, "ssprk3"},
                                                            {TimeScheme::Rk4, "rk4"},
                                                            {TimeScheme::Lusgs, "lusgs"},
                                                            {TimeScheme::Newton, "newton"}};

/// How the CFL number evolves over the iterations (runtime/solver/cfl_controller.hpp).
enum class CflLaw { Ramp, Adaptive, Ser };
inline constexpr EnumName<CflLaw> kCflLawNames[] = {
    {CflLaw::Ramp, "ramp"}, {CflLaw::Adaptive, "adaptive"}, {CflLaw::Ser, "ser"}};

/// Jacobian-vector products of the Newton-Krylov integrator: Jacobian-free (Frechet derivative
/// of the residual by a finite difference) or the assembled first-order Jacobian.
enum class NewtonMatvec { Jfnk, Assembled };
inline constexpr EnumName<NewtonMatvec> kNewtonMatvecNames[] = {
    {NewtonMatvec::Jfnk, "jfnk"}, {NewtonMatvec::Assembled, "assembled"}};

/// Preconditioner of Newton's GMRES on the assembled first-order Jacobian: block ILU, block
/// Gauss-Seidel or block Jacobi sweeps, or none.
enum class NewtonPreconditioner { Ilu, Sgs, Jacobi, None };
inline constexpr EnumName<NewtonPreconditioner> kNewtonPreconditionerNames[] = {
    {NewtonPreconditioner::Ilu, "ilu"},
    {NewtonPreconditioner::Sgs, "sgs"},
    {NewtonPreconditioner::Jacobi, "jacobi"},
    {NewtonPreconditioner::None, "none"}};

/// Order of the preconditioner's sweeps: compact blocks of cells each in its sequential
/// (hyperplane) order, all blocks at once (ilu only); the cell colours; the hyperplanes.
enum class SweepOrdering { Blocks, Colour, Hyperplane };
inline constexpr EnumName<SweepOrdering> kSweepOrderingNames[] = {
    {SweepOrdering::Blocks, "blocks"},
    {SweepOrdering::Colour, "colour"},
    {SweepOrdering::Hyperplane, "hyperplane"}};

/// Sweep ordering of the implicit LU-SGS scheme (runtime/solver/lusgs.hpp).
enum class LusgsOrdering { Hyperplane, Colour, Natural };
inline constexpr EnumName<LusgsOrdering> kLusgsOrderingNames[] = {
    {LusgsOrdering::Hyperplane, "hyperplane"},
    {LusgsOrdering::Colour, "colour"},
    {LusgsOrdering::Natural, "natural"}};

/// How the LU-SGS sweeps launch their groups on the GPU (key [time] lusgs_launch; the CPU
/// backend runs every mode the same way): one cooperative kernel per sweep with grid.sync()
/// between groups, the same plus single-block runs of small groups, per-group launches
/// captured once in a CUDA graph, or plain per-group launches.
enum class LusgsLaunch { Persistent, Hybrid, Graph, Plain };
inline constexpr EnumName<LusgsLaunch> kLusgsLaunchNames[] = {
    {LusgsLaunch::Persistent, "persistent"},
    {LusgsLaunch::Hybrid, "hybrid"},
    {LusgsLaunch::Graph, "graph"},
    {LusgsLaunch::Plain, "plain"}};

enum class InitialKind { Freestream, Split };
inline constexpr EnumName<InitialKind> kInitialKindNames[] = {
    {InitialKind::Freestream, "freestream"}, {InitialKind::Split, "split"}};

/// Volume solution files ([monitor] solution_format).
enum class SolutionFormat { Xdmf, Cgns, Both };
inline constexpr EnumName<SolutionFormat> kSolutionFormatNames[] = {
    {SolutionFormat::Xdmf, "xdmf"}, {SolutionFormat::Cgns, "cgns"}, {SolutionFormat::Both, "both"}};

// ---- the parts of a case, one per consumer. Every member is set by resolve_case() from the
// schema, which holds the defaults: a default-constructed part is zeroed, not a default case.

/// [freestream] lift_axis: FlowConfig::liftAxis, the index of the axis.
inline constexpr EnumName<int> kLiftAxisNames[] = {{1, "y"}, {2, "z"}};

/// [gas], [freestream] and [physics]: the gas, the free stream (derived quantities in solver
/// units) and the equations solved with their transport properties.
struct FlowConfig {
  real_t gamma{};
  real_t gasConstant{}; ///< J/(kg K) (1/gamma when nondimensional)
  real_t mach{}, aoaDeg{}, sideslipDeg{};
  real_t pressure{}, temperature{}; ///< Pa, K (1/gamma and 1 when nondimensional)
  bool nondimensional{};
  int liftAxis{}; ///< 1 = y, 2 = z: direction of lift (and of the aoa rotation)
  std::array<real_t, phys::kNumEq> freestream{};         ///< primitive rho, u, v, w, p (derived)
  std::array<real_t, 3> dragDir{}, liftDir{}, sideDir{}; ///< unit vectors (derived)
  real_t reynolds{};       ///< free-stream Reynolds number (0: from the viscosity law)
  real_t reynoldsLength{}; ///< length of the Reynolds number, m
  phys::ModelKind model{};
  /// Viscosity law, Prandtl number and gas of the Navier-Stokes model, in solver units (the
  /// reference viscosity scaled to [freestream] reynolds when given).
  phys::Transport transport;
  real_t nuTildeRatio{};      ///< [freestream] nu_tilde_ratio: free-stream nu-tilde / nu
  real_t nuTildeFreestream{}; ///< free-stream nu-tilde, m^2/s (derived; 0 unless rans)

  bool viscous() const { return model != phys::ModelKind::Euler; }
  /// Reynolds-averaged with Spalart-Allmaras (the state has rho nu-tilde as a sixth variable).
  bool rans() const { return model == phys::ModelKind::RansSa; }
  /// Dynamic pressure of the free stream, 0.5 rho |u|^2.
  real_t dynamic_pressure() const;
  /// Total temperature and pressure of the free stream (the subsonic inflow's defaults).
  real_t total_temperature() const;
  real_t total_pressure() const;
};

/// [scheme]: the spatial discretisation.
struct SchemeConfig {
  /// The face fluxes' settings: flux, entropy_fix and entropy_fix_waves, with the gas's gamma
  /// and secondOrder = (order == 2). Built once here; the implicit operators derive theirs
  /// from it (first_order(), with_entropy_fix_on_all_waves()).
  kernels::FluxSettings flux;
  int order{};
  kernels::Limiter limiter{};
  LimiterRegion limiterRegion{};
  AssemblyRequest assembly; ///< applied by EulerSolver::choose_assembly()
  real_t venkatK{};
  real_t venkatLength{};    ///< venkat: global length L of eps^2 = (K L)^3 q^2 (0: cell size)
  real_t venkatWangK{};     ///< venkat_wang: eps = K * global range of the variable
  real_t limiterFreeze{};   ///< freeze phi once the residual dropped this many orders (0: never)
  int limiterFreezeStall{}; ///< ... or after this many iterations without a new minimum
  NodeWeights nodeWeights{};
  /// precision = mixed: the reconstruction kernels read FP32 copies of the geometry
  /// (ZoneViewT<float>, kernels::FV_FOR_EACH_PRECISION); false: FP64 throughout
  bool mixedPrecision{};
  /// face_states: second-order inviscid evaluations on one zone store the faces'
  /// reconstructed states (SpatialOperator::stores_face_states) rather than reconstructing in
  /// the face loops
  bool faceStates{};
  /// The limiter acts (second order with a limiter).
  bool limited() const { return order == 2 && limiter != kernels::Limiter::None; }
  /// The limiter can be frozen (limiter_freeze or limiter_freeze_stall).
  bool freezes() const { return limiterFreeze > 0 || limiterFreezeStall > 0; }
};

/// [time]: the time scheme, the CFL law and when to stop.
struct TimeConfig {
  TimeScheme integrator{};
  bool localTimeStep{};   ///< stepping = local
  real_t startupOrders{}; ///< order 2: first order until the residual dropped this much
  real_t cfl{}, cflStart{};
  int cflRampIterations{};
  CflLaw cflLaw{};
  real_t cflGrowth{};   ///< adaptive: factor after an iteration that lowered the residual;
                        ///< ser: the least factor after a full update
  real_t cflCut{};      ///< adaptive: factor after an iteration that raised it; ser: factor
                        ///< of a back-off after a failed iteration
  real_t cflExponent{}; ///< ser: CFL grows as (r_previous / r)^cfl_exponent
  int cflBackoffs{};    ///< ser: back-offs in a row before a failing run stops
  int iterations{};     ///< the last iteration, counted from the first run
  int moreIterations{}; ///< > 0: this many from the start instead (fvrun --more)
  real_t dt{}, finalTime{};
  real_t convergenceOrders{};
};

/// [time] newton_*: the Newton-Krylov integrator (integrator = newton),
/// runtime/solver/newton_krylov.hpp.
struct NewtonConfig {
  NewtonMatvec matvec{};
  NewtonPreconditioner preconditioner{};
  SweepOrdering ordering{}; ///< sweep order of the preconditioner
  int blockCells{};         ///< cells per block of the blocks ordering
  int sweeps{};             ///< ILU solves, symmetric Gauss-Seidel or Jacobi sweeps per application
  int krylovDim{};          ///< GMRES restart length
  int linearIterations{};   ///< most GMRES iterations per Newton iteration
  real_t linearTolerance{}; ///< GMRES stops at this relative residual
  real_t maxChange{};       ///< rho and p change by at most the factor 1 + maxChange
  real_t jfnkStep{};        ///< relative finite-difference step of the Jacobian-vector product
};

/// [time] lusgs_*: the implicit LU-SGS scheme (integrator = lusgs), runtime/solver/lusgs.hpp.
struct LusgsConfig {
  LusgsOrdering ordering{};
  int sweeps{};            ///< symmetric (forward + backward) sweeps per iteration
  real_t omega{};          ///< over-relaxation of the spectral radius in D and the off-diagonals
  LusgsLaunch launch{};    ///< GPU launch strategy of the sweeps
  bool boundaryJacobian{}; ///< boundary fluxes' exact Jacobian in block diagonals
  bool roeDissipation{};   ///< Roe matrix instead of the spectral radius (implicit)
};

/// [initial]: the initial state.
struct InitialConfig {
  InitialKind kind{};
  int splitAxis{};
  real_t splitPosition{};
  std::array<real_t, phys::kNumEq> left{}, right{}; ///< primitive states either side of the split
};

/// [monitor]: forces, outputs and their cadence.
struct MonitorConfig {
  std::vector<std::string> forcePatches; ///< wall patches integrated for forces
  real_t refArea{}, refLength{};
  std::array<real_t, 3> momentOrigin{};
  int outputInterval{};
  int checkpointInterval{};   ///< iterations between restart checkpoints (0: by time alone)
  real_t checkpointMinutes{}; ///< wall-clock minutes between restart checkpoints (0: never)
  std::string outputDir;
  bool profile{};       ///< per-kernel time table and profile.csv
  bool writeSolution{}; ///< final solution/surfaces/restart
  SolutionFormat solutionFormat{};
};

/// [freestream] target_cl: fixed lift (solver/fixed_lift.hpp), the angle of attack adjusted
/// during the iterations until the lift coefficient is the target.
struct FixedLiftConfig {
  bool on{};          ///< target_cl given (not off)
  real_t target{};    ///< the lift coefficient to reach
  real_t tolerance{}; ///< |CL - target| at which the lift counts as reached
};

/// One swept key of [sweep]: the [freestream] key it sets and its values, in the order run.
struct SweepAxis {
  std::string key;
  std::vector<real_t> values;
  /// The scale of the key's distances between points (campaign continuation): the mean
  /// spacing of its values, (max - min) / (n - 1) (a range's step), 1 for a single value.
  real_t spacing() const;
};

/// [sweep]: a campaign of points on one mesh (runtime/campaign/): the product of the swept
/// keys' values, the first axis outermost.
struct SweepConfig {
  std::vector<SweepAxis> axes; ///< the swept keys in schema order (mach, reynolds, sideslip, aoa)
  real_t warmCflFactor{};      ///< a warm start's CFL: this times its source point's final CFL
  bool extrapolate{};          ///< warm starts from two points' extrapolated states
  int groups{};                ///< rank groups sharing the points (fvrun --sweep-groups)
  bool active() const { return !axes.empty(); }
  /// Points of the product (1 without axes).
  std::size_t points() const;
};

/// The [freestream] keys a campaign may sweep ([sweep] KEY, fvrun --sweep KEY=SPEC), in the
/// order of the product: the first outermost.
inline constexpr const char* kSweptKeys[] = {"mach", "reynolds", "sideslip", "aoa"};

/// The largest number of points a campaign may have (all axes together).
inline constexpr std::size_t kMaxSweepPoints = 1000;

/// The values of a sweep specification: a list "v1, v2, ..." (distinct) or a range
/// "start:stop:step" (stop included within rounding; each value rounded to 12 significant
/// digits, so that 0:1:0.1 gives 0.3, not 0.30000000000000004). `what` starts the messages
/// of its usage errors: empty items, a zero step or one pointing away from stop, more than
/// kMaxSweepPoints values, a repeated value.
std::vector<real_t> sweep_values(const std::string& spec, const std::string& what);

/// [run]: the device and how ranks talk.
struct RunConfig {
  DeviceRequest device{};
  bool overlap{};    ///< halo exchanges overlapped with interior work (MPI)
  bool commTiming{}; ///< time the halo exchange phases (MPI)
  backend::TransportKind
      transport{};    ///< halos and reductions between ranks (backend/transport.hpp)
  real_t waitLimit{}; ///< s, the longest wait for other ranks (backend/wait_watchdog.hpp)
};

/// The values of a patch's keys (those of its type, defaults filled in), from which its
/// kernel parameters are derived (the row's parameter function, phys::kBcTable).
using PatchKeys = phys::BcKeys;

/// Resolved settings of one boundary patch.
struct PatchConfig {
  std::string name;      ///< patch name as in the zone file
  std::string typeName;  ///< case-file spelling of the type, e.g. "slip_wall"
  phys::BcParams params; ///< point-wise parameters used by the kernels (SI or non-dim.)
};

/// The mesh a case is resolved against, set before any section is read: the zone's patches
/// (in zone patch order) and the extrusion of a 2D mesh (ZoneFileHeader::extrusion; thickness
/// 0 for a 3D mesh or an older zone file), which gives [monitor] reference_area and
/// [freestream] lift_axis their 2D defaults.
struct MeshFacts {
  std::vector<Patch> patches;
  Extrusion extrusion;
};

/// A fully resolved case: its parts, the patches (in zone patch order) and the resolved text.
struct CaseConfig {
  MeshFacts mesh; ///< the mesh it was resolved against (not a section of the case file)
  FlowConfig flow;
  SchemeConfig scheme;
  TimeConfig time;
  NewtonConfig newton;
  LusgsConfig lusgs;
  InitialConfig initial;
  MonitorConfig monitor;
  RunConfig run;
  FixedLiftConfig lift;
  SweepConfig sweep;
  std::vector<PatchConfig> patches; ///< [patch NAME], in zone patch order
  /// What the case was resolved from, with `mesh`: the case file with its overrides
  /// (resolve_case_again(): case_conditions.hpp). Not the resolved text, whose defaults derived
  /// from the free stream (an inlet's mach, direction) are values.
  IniFile source;

  /// The fully resolved configuration as INI text ("key = value" per section, every key,
  /// defaults filled in, reals with 17 significant digits), written into every output.
  std::string resolvedIni;
};

/// Resolves the case against `mesh`: checks every section and key against the schema, parses
/// values, fills defaults (those of an extruded 2D mesh from mesh.extrusion) and matches
/// [patch NAME] sections to the zone's patches (every patch must be assigned, every patch
/// section must name a patch). On a 2D mesh the free stream and the lift must lie in the
/// mesh's plane. Usage errors name file, line and the valid choices.
CaseConfig resolve_case(const IniFile& ini, const MeshFacts& mesh);
/// The same for the mesh of a zone file: its header's patches and extrusion.
CaseConfig resolve_case(const IniFile& ini, const ZoneFileHeader& header);
/// The same for a mesh known by its patches alone (a 3D mesh: no extrusion).
CaseConfig resolve_case(const IniFile& ini, const std::vector<Patch>& zonePatches);

// ---- the schema

/// A real as the resolved text writes it: 17 significant digits (it reads back bitwise).
std::string format_real(real_t v);

/// The type of a key's value.
enum class KeyType {
  Real,    ///< a finite number
  Integer, ///< a whole number
  Boolean, ///< true | false (also yes/no, on/off, 1/0)
  Choice,  ///< one name of CaseKey::choices
  Text,    ///< any non-empty text
  Reals,   ///< CaseKey::count comma-separated numbers
  Names,   ///< comma-separated names
  Sweep    ///< a list "v1, v2, ..." or a range "start:stop:step" (sweep_values())
};

/// Bounds of a real or integer key: lo < v (lo <= v when loClosed), v < hi (v <= hi when
/// hiClosed); infinite: no bound.
struct KeyBounds {
  real_t lo = -std::numeric_limits<real_t>::infinity();
  bool loClosed = true;
  real_t hi = std::numeric_limits<real_t>::infinity();
  bool hiClosed = true;
  bool contains(real_t v) const;
  /// "> 0", ">= 1", "in (0, 1)"; empty when unbounded.
  std::string text() const;
};

/// A value parsed as its key's type (the member of the type is set; the others are empty).
struct KeyValue {
  real_t real = 0;
  long integer = 0;
  bool boolean = false;
  int choice = 0;                 ///< index into CaseKey::choices
  std::string text;               ///< Text (and the key's keyword when `keyword`)
  std::vector<real_t> reals;      ///< Reals, Sweep
  std::vector<std::string> names; ///< Names
  bool keyword = false;           ///< the key's keyword was given (CaseKey::keyword)
  bool given = false;             ///< given in the case file or on the command line (not a default)
};

/// How fvrun's command line sets a key besides --set: an option taking the value (--cfl X;
/// `flagValue` null) or a flag that sets `flagValue` (--no-overlap: false).
struct KeyOption {
  const char* name = nullptr; ///< "--cfl"; null: none
  const char* flagValue = nullptr;
  const char* help = nullptr; ///< what a flag does (an option's help is the key's meaning)
};

/// One key of the case file. Patch keys have section "patch NAME" and belong to one boundary
/// type (bcType; the "type" key to all).
struct CaseKey {
  const char* section = "";
  const char* key = "";
  KeyType type = KeyType::Real;
  /// The default: a literal in the key's type, or "=what" for a default computed from keys
  /// resolved before (dependentDefault), "(required)" for none.
  std::string defaultValue;
  const char* unit = "";
  const char* meaning = "";
  KeyBounds bounds;                 ///< Real, Integer
  std::vector<std::string> choices; ///< Choice: the names, from the owner's table
  int count = 0;                    ///< Reals: how many
  const char* keyword = nullptr;    ///< a word accepted instead of a value ("adiabatic")
  KeyOption cli;                    ///< fvrun's option for the key, if any
  phys::BcType bcType{};            ///< patch keys but "type" (storePatch set): their boundary type
  /// The default's text from the case resolved so far (null: defaultValue is the literal).
  std::function<std::string(const CaseConfig&)> dependentDefault;
  /// Where the value goes: into the case (global keys) or the patch's keys (patch keys).
  std::function<void(CaseConfig&, const KeyValue&)> store;
  std::function<void(PatchKeys&, const KeyValue&)> storePatch;

  /// "real > 0", "integer >= 1", "roe | rusanov", "3 reals", ... (the table's type column).
  std::string type_text() const;
};

/// The schema: every global key, in documentation and resolution order.
const std::vector<CaseKey>& case_keys();
/// Keys of [patch NAME] sections: "type", then each boundary type's keys.
const std::vector<CaseKey>& patch_keys();

/// Every key of case_keys() and patch_keys() as a Markdown table (section, key, type, unit,
/// default, meaning): `fvrun --keys`, and the README's table.
std::string case_keys_markdown();

/// One boundary-condition type of the case file: its row of the boundary-condition table
/// (phys::kBcTable: kernel type, case-file name, properties, parameters from the patch keys)
/// and the patch keys it accepts (patch_keys()). What every use (parsing, key checks, messages,
/// documentation) iterates.
struct BcTypeInfo {
  phys::BcType type;
  const char* name;
  std::vector<std::string> keys;
  bool viscousOnly = false; ///< the row's BcTraits::needsViscous
  const phys::BcRow* row = nullptr;
};
const std::vector<BcTypeInfo>& bc_types();

} // namespace fv
