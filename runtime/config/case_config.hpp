#pragma once
/// \file case_config.hpp
/// The typed, fully resolved configuration of an fvrun case, read from an INI case file
/// (runtime/config/ini.hpp) plus command-line overrides. Every key has a default and a one-line
/// meaning in the schema (case_keys()); unknown sections/keys, bad values and unassigned
/// patches are usage errors (exit 2) that list the valid choices.
#include "common/types.hpp"
#include "common/zone.hpp"
#include "runtime/config/ini.hpp"
#include "runtime/physics/euler/bc_states.hpp"
#include "runtime/physics/navier_stokes/transport.hpp"

#include <array>
#include <string>
#include <vector>

namespace fv {

enum class FluxScheme { Roe, Rusanov };
enum class LimiterKind { Venkat, Barth, None, VenkatWang };
/// Where the limiter acts: cells whose gradient stencil holds supersonic flow, or every cell.
enum class LimiterRegion { Supersonic, Everywhere };
enum class TimeScheme { Rk2, SspRk3, Rk4, Lusgs, Newton };
/// How the CFL number evolves over the iterations (runtime/solver/cfl_controller.hpp).
enum class CflLaw { Ramp, Adaptive, Ser };
/// Jacobian-vector products of the Newton-Krylov integrator: Jacobian-free (Frechet derivative
/// of the residual by a finite difference) or the assembled first-order Jacobian.
enum class NewtonMatvec { Jfnk, Assembled };
/// Preconditioner of Newton's GMRES on the assembled first-order Jacobian: block ILU, block
/// Gauss-Seidel or block Jacobi sweeps, or none.
enum class NewtonPreconditioner { Ilu, Sgs, Jacobi, None };
/// Order of the preconditioner's sweeps: compact blocks of cells each in its sequential
/// (hyperplane) order, all blocks at once (ilu only); the cell colours; the hyperplanes.
enum class SweepOrdering { Blocks, Colour, Hyperplane };
/// Sweep ordering of the implicit LU-SGS scheme (runtime/solver/lusgs.hpp).
enum class LusgsOrdering { Hyperplane, Colour, Natural };
/// How the LU-SGS sweeps launch their groups on the GPU (key [time] lusgs_launch; the CPU
/// backend runs every mode the same way): one cooperative kernel per sweep with grid.sync()
/// between groups, the same plus single-block runs of small groups, per-group launches
/// captured once in a CUDA graph, or plain per-group launches.
enum class LusgsLaunch { Persistent, Hybrid, Graph, Plain };
enum class InitialKind { Freestream, Split };
/// Volume solution files ([monitor] solution_format).
enum class SolutionFormat { Xdmf, Cgns, Both };
/// The equations solved ([physics] model): inviscid Euler or laminar Navier-Stokes.
enum class PhysicsModel { Euler, NavierStokes, RansSa };
enum class NodeWeights { LinearExact, InverseDistance };

/// One documented key of the case file. Patch keys have section "patch NAME".
struct CaseKey {
  const char* section;
  const char* key;
  const char* defaultValue;
  const char* meaning;
};

/// The schema: every global key with its default and meaning, in documentation order.
const std::vector<CaseKey>& case_keys();
/// Keys of [patch NAME] sections (section "patch NAME" in the table).
const std::vector<CaseKey>& patch_keys();

/// Every key of case_keys() and patch_keys() as a Markdown table (section, key, default,
/// meaning): `fvrun --keys`, and the README's table.
std::string case_keys_markdown();

/// One boundary-condition type of the case file: its kernel type, its case-file name, the
/// patch keys it accepts and whether it needs the Navier-Stokes model. The one table every
/// use (parsing, key checks, messages, documentation) iterates.
struct BcTypeInfo {
  phys::BcType type;
  const char* name;
  std::vector<std::string> keys;
  bool viscousOnly = false;
};
const std::vector<BcTypeInfo>& bc_types();

/// Resolved settings of one boundary patch.
struct PatchConfig {
  std::string name;      ///< patch name as in the zone file
  std::string typeName;  ///< case-file spelling of the type, e.g. "slip_wall"
  phys::BcParams params; ///< point-wise parameters used by the kernels (SI or non-dim.)
};

/// A fully resolved case. Free-stream values are derived quantities in solver units.
struct CaseConfig {
  // [gas]
  real_t gamma = 1.4;
  real_t gasConstant = 287.05; ///< J/(kg K)
  // [freestream]
  real_t mach = 0.5, aoaDeg = 0, sideslipDeg = 0;
  real_t pressure = 101325, temperature = 288.15; ///< Pa, K
  bool nondimensional = false;
  int liftAxis = 2; ///< 1 = y, 2 = z: direction of lift (and of the aoa rotation)
  std::array<real_t, phys::kNumEq> freestream;     ///< primitive rho, u, v, w, p (derived)
  std::array<real_t, 3> dragDir, liftDir, sideDir; ///< unit vectors (derived)
  real_t reynolds = 0;       ///< free-stream Reynolds number (0: from the viscosity law)
  real_t reynoldsLength = 1; ///< length of the Reynolds number, m
  // [physics]
  PhysicsModel model = PhysicsModel::Euler;
  /// Viscosity law, Prandtl number and gas of the Navier-Stokes model, in solver units (the
  /// reference viscosity scaled to [freestream] reynolds when given).
  phys::Transport transport;
  bool viscous() const { return model != PhysicsModel::Euler; }
  /// Reynolds-averaged with Spalart-Allmaras (the state has rho nu-tilde as a sixth variable).
  bool rans() const { return model == PhysicsModel::RansSa; }
  real_t nuTildeRatio = 3;      ///< [freestream] nu_tilde_ratio: free-stream nu-tilde / nu
  real_t nuTildeFreestream = 0; ///< free-stream nu-tilde, m^2/s (derived; 0 unless rans)
  // [scheme]
  FluxScheme flux = FluxScheme::Roe;
  real_t entropyFix = 0.1;
  bool entropyFixAcousticOnly = false; ///< entropy_fix_waves = acoustic (navier_stokes default)
  int order = 2;
  LimiterKind limiter = LimiterKind::VenkatWang;
  /// [scheme] limiter_region (default: Supersonic for the viscous models, Everywhere for euler)
  LimiterRegion limiterRegion = LimiterRegion::Everywhere;
  /// [scheme] assembly: "auto", "auto_any" or a residual-assembly variant name
  /// (kernels::to_string(FluxSumVariant)); applied by EulerSolver::choose_assembly()
  std::string assembly = "auto";
  real_t venkatK = 5.0;
  real_t venkatLength = 0;   ///< venkat: global length L of eps^2 = (K L)^3 q^2 (0: cell size)
  real_t venkatWangK = 0.05; ///< venkat_wang: eps = K * global range of the variable
  real_t limiterFreeze = 0;  ///< freeze phi once the residual dropped this many orders (0: never)
  int limiterFreezeStall =
      0; ///< ... or after this many iterations without a new minimum (0: never)
  NodeWeights nodeWeights = NodeWeights::LinearExact;
  /// [scheme] precision = mixed: the reconstruction kernels read FP32 copies of the geometry
  /// (ZoneViewT<float>, kernels::FV_FOR_EACH_PRECISION); false: FP64 throughout
  bool mixedPrecision = false;
  /// [scheme] face_states: second-order inviscid evaluations on one zone store the faces'
  /// reconstructed states (SpatialOperator::stores_face_states) rather than reconstructing in
  /// the face loops
  bool faceStates = true;
  // [time]
  TimeScheme integrator = TimeScheme::Newton;
  bool localTimeStep = true;
  real_t cfl = 1.0, cflStart = 1.0;
  int cflRampIterations = 0;
  CflLaw cflLaw = CflLaw::Ramp;
  real_t cflGrowth = 1.1;   ///< adaptive: factor after an iteration that lowered the residual;
                            ///< ser: the least factor after a full update
  real_t cflCut = 0.5;      ///< adaptive: factor after an iteration that raised it; ser: factor
                            ///< of a back-off after a failed iteration
  real_t cflExponent = 1;   ///< ser: CFL grows as (r_previous / r)^cfl_exponent
  int cflBackoffs = 10;     ///< ser: back-offs in a row before a failing run stops
  real_t startupOrders = 2; ///< order 2: first order until the residual dropped this much
  int iterations = 1000;
  real_t dt = 0, finalTime = 0;
  real_t convergenceOrders = 8;
  // [time] implicit LU-SGS (integrator = lusgs)
  LusgsOrdering lusgsOrdering = LusgsOrdering::Hyperplane;
  int lusgsSweeps = 1;     ///< symmetric (forward + backward) sweeps per iteration
  real_t lusgsOmega = 1.0; ///< over-relaxation of the spectral radius in D and the off-diagonals
  LusgsLaunch lusgsLaunch = LusgsLaunch::Persistent; ///< GPU launch strategy of the sweeps
  bool lusgsBoundaryJacobian = true; ///< boundary fluxes' exact Jacobian in block diagonals
  bool lusgsRoeDissipation = false;  ///< Roe matrix instead of the spectral radius (implicit)
  // [time] Newton-Krylov (integrator = newton), runtime/solver/newton_krylov.hpp
  NewtonMatvec newtonMatvec = NewtonMatvec::Jfnk;
  NewtonPreconditioner newtonPreconditioner = NewtonPreconditioner::Ilu;
  SweepOrdering newtonOrdering = SweepOrdering::Blocks; ///< sweep order of the preconditioner
  int newtonBlockCells = 2048;                          ///< cells per block of the blocks ordering
  int newtonSweeps = 1; ///< ILU solves, symmetric Gauss-Seidel or Jacobi sweeps per application
  int krylovDim = 50;   ///< GMRES restart length
  int linearIterations = 50;     ///< most GMRES iterations per Newton iteration
  real_t linearTolerance = 0.05; ///< GMRES stops at this relative residual
  real_t maxChange = 1.0;        ///< rho and p change by at most the factor 1 + maxChange
  real_t jfnkStep = 1e-7;        ///< relative finite-difference step of the Jacobian-vector product
  // [initial]
  InitialKind initial = InitialKind::Freestream;
  int splitAxis = 0;
  real_t splitPosition = 0;
  std::array<real_t, phys::kNumEq> left{}, right{}; ///< primitive states either side of the split
  // [monitor]
  std::vector<std::string> forcePatches; ///< wall patches integrated for forces
  real_t refArea = 1, refLength = 1;
  std::array<real_t, 3> momentOrigin{0, 0, 0};
  int outputInterval = 10;
  std::string outputDir = "fvrun_out";
  bool profile = false;      ///< [monitor] profile: per-kernel time table and profile.csv
  bool writeSolution = true; ///< [monitor] write_solution: final solution/surfaces/restart
  SolutionFormat solutionFormat = SolutionFormat::Xdmf; ///< [monitor] solution_format
  // [run]
  std::string device = "auto";
  bool overlap = true;     ///< [run] overlap: halo exchanges overlapped with interior work (MPI)
  bool commTiming = false; ///< [run] comm_timing: time the halo exchange phases (MPI)
  /// [run] transport: auto | host_staged_mpi | cuda_aware_mpi | nccl | cuda_ipc
  /// (backend/transport.hpp)
  std::string haloTransport = "auto";
  // [patch NAME], in zone patch order
  std::vector<PatchConfig> patches;

  /// The fully resolved configuration as INI text (every key, defaults filled in), written
  /// into every output.
  std::string resolvedIni;

  /// Dynamic pressure of the free stream, 0.5 rho |u|^2.
  real_t dynamic_pressure() const;
};

/// Resolves the case: checks every section and key against the schema, parses values, fills
/// defaults and matches [patch NAME] sections to the zone's patches (every patch must be
/// assigned, every patch section must name a patch). Usage errors name file, line and the
/// valid choices.
CaseConfig resolve_case(const IniFile& ini, const std::vector<Patch>& zonePatches);

} // namespace fv
