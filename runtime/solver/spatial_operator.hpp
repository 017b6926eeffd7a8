#pragma once
/// \file spatial_operator.hpp
/// fv::SpatialOperator: the residual R(U) of one zone (net outflow per cell) and its halo
/// choreography, the one place that evaluates the spatial discretisation. Every integrator
/// (explicit Runge-Kutta, LU-SGS, Newton-Krylov), Newton's Jacobian-vector products and
/// fvbench's stage call it. One evaluation is, kernel by kernel,
///
///   primitives -> [exchange W] -> interpolate to nodes -> gradient -> [exchange grad]
///   -> limiter (with the local min/max) -> [exchange phi] -> face fluxes -> flux sum
///
/// The evaluation is compiled per model (visit_state_model(), solver/state_model.hpp) from its
/// terms: a model with a viscous term (M::kViscous: [physics] model = navier_stokes, rans_sa)
/// subtracts the viscous flux of every face after the convective ones (kernels::viscous_*_fluxes,
/// from the same unlimited gradients; computed at first order too) and adds the viscous spectral
/// radius to the local time step; a model with a source term (M::kSource: rans_sa, which carries
/// rho nu-tilde as a sixth variable through the same pipeline) subtracts it after the flux sum.
///
/// On several ranks (ParallelSetup with a communicator; one zone per rank) it owns two
/// parallel::HaloExchange objects and a second-order evaluation runs (docs/parallel.md)
///
///   primitives (owned) -> begin cells{W} -> interpolate to nodes (owned cells' partial sums)
///   -> finish cells -> begin nodes{Wn, Sum} -> finish nodes -> gradient -> limiter -> begin
///   cells{grad, phi} -> boundary fluxes + faces between owned cells
///   -> finish cells -> interface faces -> flux sum
///
/// i.e. three messages per neighbour, each overlapped with work that needs none of its values
/// (overlap off: finish() right after begin()). With stored face states (stores_face_states())
/// the gradient and limiter pass stores every owned cell's face states and the interface cells'
/// grad and phi, which the third message carries; the faces between owned cells read two
/// stored states, the interface faces their owned side's state and reconstruct the halo side.
///
/// The limiter can be frozen (phi kept from the last evaluation that computed it: Newton's
/// Jacobian-vector products and limiter freezing), and the reference scales of the
/// Venkatakrishnan epsilon are refreshed explicitly (refresh_limiter_scales), once per
/// nonlinear iteration, so that R is one smooth function of U within an iteration.
/// Owns the zone's device copy and every work array of the residual; all pointers it returns
/// or takes are device pointers of the active backend.
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/backend/side_stream.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/face_state_arrays.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/residual_assembly.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/state_model.hpp"

#include <functional>
#include <memory>
#include <string>

namespace fv {

/// How a solver runs across ranks. comm == nullptr: one zone, no communication.
struct ParallelSetup {
  /// Rank r holds zone r of the zone file; not owned, outlives the solver. Its transport
  /// (backend/transport.hpp) carries the halos and the reductions.
  backend::Communicator* comm = nullptr;
  bool overlap = true; ///< compute interior work while halo messages are in flight
  /// Time the exchanges' phases (CommTimes). Off: no device synchronisation around the
  /// exchanges and CommTimes stay zero.
  bool commTiming = false;
};

/// Time split of the exchanges so far (seconds, summed, this rank). compute = wall - pack -
/// wait - unpack (the exchanges synchronise the device around their phases, so kernels are
/// billed to compute).
struct CommTimes {
  double pack = 0, wait = 0, unpack = 0;
  long exchanges = 0;
};

/// Halo exchange of a cell field with `ncomp` components (stride nTotalCells). A test hook:
/// the single-zone runtime passes none; tests fill halo cells of a zone cut from a larger mesh.
using CellExchange = std::function<void(const char* what, real_t* field, int ncomp)>;

/// An assembly of the interior faces into the residual from outside the solver: fvbench plugs
/// its benchmark variants (atomics, face colouring, fused face loops) into a whole evaluation
/// through it (SpatialOperator::set_interior_assembly). Called with the zone, the flux settings
/// of the evaluation, the primitives W, the gradients and the limiter (halo cells' included; grad
/// and phi unused at first order) and the face-flux array holding the boundary faces' fluxes, it
/// writes R of every owned cell: the interior faces' fluxes (which it may store in `flux`) and the
/// boundary faces' summed per cell. One zone, the Euler model, FP64 geometry.
using InteriorAssembly =
    std::function<void(const ZoneView& z, const kernels::FluxSettings& s, const real_t* W,
                       const real_t* grad, const real_t* phi, real_t* flux, real_t* R)>;

/// One explicit Runge-Kutta stage applied to the residual of an evaluation (owned cells,
/// nVars x nTotalCells device arrays): Unew = a U0 + b (U - beta dt / V R(U)), dt per cell or
/// dtGlobal when >= 0. U may be Unew.
struct RkUpdate {
  real_t a = 0.0, b = 1.0, beta = 1.0;
  const real_t* dt = nullptr;
  real_t dtGlobal = -1.0;
  const real_t* U0 = nullptr;
  const real_t* U = nullptr;
  real_t* Unew = nullptr;
  /// Also store the primitives of Unew (owned cells) in W() with the update, bitwise what the
  /// primitives pass computes, so that the evaluation of Unew that comes next skips that pass
  /// (its kernel reads U, writes W: 10 values per cell). For stages whose result is evaluated
  /// right away (the explicit schemes' stages but the last). W() then no longer holds the
  /// primitives of U.
  bool storePrimitives = false;
};

class SpatialOperator {
 public:
  /// Copies the zone to the active device and allocates the work arrays for the flow, the
  /// scheme and the patches of a case resolved against this zone's patches (same order).
  /// COLLECTIVE with a communicator.
  SpatialOperator(const Zone& zone, const FlowConfig& flow, const SchemeConfig& scheme,
                  const std::vector<PatchConfig>& patches, const ParallelSetup& par = {});
  /// The same with the case's flow, scheme and patches.
  SpatialOperator(const Zone& zone, const CaseConfig& cfg, const ParallelSetup& par = {});
  ~SpatialOperator();
  SpatialOperator(const SpatialOperator&) = delete;
  SpatialOperator& operator=(const SpatialOperator&) = delete;

  /// R(U) into residual() (owned cells; nVars x nTotalCells, stride nTotalCells), with W, the
  /// gradients, the limiter and the face fluxes of U left in their arrays. U: conservative
  /// state of owned cells (halo entries are not read: the primitives are exchanged).
  /// `refreshLimiterScales`: first refresh_limiter_scales() from U's primitives (the first
  /// evaluation of a nonlinear iteration).
  void evaluate(const real_t* U, bool refreshLimiterScales = false);
  /// evaluate(u.U) followed by the stage u: where nothing but the face fluxes makes the
  /// residual (gather assembly, no RANS source, no fixed source) its flux sum and the update
  /// are one pass and R is not stored (residual() then holds an older residual); else
  /// evaluate() and kernels::rk_stage. The new state is bitwise the same either way.
  void evaluate_and_update(const RkUpdate& u);
  /// The stage u applied to the residual in residual() (of u.U, from the last evaluate()):
  /// kernels::rk_stage, or its form that stores the primitives (u.storePrimitives).
  void update(const RkUpdate& u);
  /// Primitive state of U on owned cells and, through the cell exchange, on halo cells.
  void primitives(const real_t* U);
  /// The state array whose owned cells' primitives W() holds because the update that wrote it
  /// stored them (RkUpdate::storePrimitives), until the next evaluation, primitives() or update;
  /// null otherwise. An evaluation of exactly that array takes them instead of the primitives
  /// pass (the array must not have been changed in between: the explicit stages evaluate the
  /// state the previous stage wrote).
  const real_t* stored_primitives_of() const { return primitivesOf_; }
  /// Local time steps dt = cfl V / sum_faces(|u.S| + c|S|) of the primitives in W() (call
  /// primitives() or evaluate() first); returns the smallest over all ranks.
  real_t local_time_step(real_t cfl, real_t* dt);
  /// local_time_step() without waiting: the time steps are written, this zone's minimum is
  /// queued in `slot`; min_time_step() finishes it (over all ranks).
  PendingReduce local_time_step_async(real_t cfl, real_t* dt, backend::ReduceSlot& slot);
  /// The smallest time step over all ranks of a local_time_step_async() (COLLECTIVE).
  real_t min_time_step(const PendingReduce& p) const;

  /// Replaces the flow conditions (the free stream and its transport properties) and the
  /// patches' boundary conditions of a case resolved against the same zone with the same
  /// model, gas and patch types (a campaign's next point, a fixed-lift angle of attack): the
  /// patch table is uploaded again in place, the constant limiter scales follow, and nothing
  /// of the last evaluation (frozen limiter, stored primitives, supersonic region) is kept.
  /// What the integrators, the monitor and the CFL law read of the flow they read from here
  /// or are told by EulerSolver::set_conditions().
  void set_conditions(const FlowConfig& flow, const std::vector<PatchConfig>& patches);

  /// First-order reconstruction (cell values) instead of the case's second order (a first-order
  /// start: [time] startup_orders); no-op for a first-order case.
  void set_first_order(bool first) { flux_settings_.secondOrder = !first && scheme_.order == 2; }
  bool first_order() const { return !flux_settings_.secondOrder; }

  /// Keeps phi from the last evaluation that computed it (true) or recomputes it (false). An
  /// evaluation that stores face states keeps phi only where the case may freeze the limiter
  /// ([scheme] limiter_freeze or limiter_freeze_stall) or it is frozen already; else the first
  /// evaluation after freezing computes the phi that the later ones keep.
  void freeze_limiter(bool frozen) { limiterFrozen_ = frozen; }
  bool limiter_frozen() const { return limiterFrozen_; }
  /// Recomputes the reference scales of the Venkatakrishnan epsilon from the primitives in W()
  /// (venkat_wang: the global range of each primitive over all ranks; the other limiters'
  /// scales are constant). Call once per nonlinear iteration, after primitives().
  void refresh_limiter_scales();
  /// The scales in use (for tests and logs).
  const kernels::LimiterScales& limiter_scales() const { return scales_; }

  /// Fills the halo cells of a cell field (ncomp components, stride nTotalCells) from their
  /// owners (no-op on a single zone; the test hook when set). COLLECTIVE.
  void exchange_cells(const char* what, real_t* field, int ncomp);
  /// How the interior fluxes are summed into R (kernels/residual_assembly.hpp): Gather, the
  /// default, or Smem (bitwise the same residual; one zone, the Euler model, FP64 geometry).
  /// Replaces an interior assembly set before.
  void set_assembly(kernels::ResidualAssembly a);
  /// The operator's own assembly (set_assembly(); not used while an interior assembly is set).
  kernels::ResidualAssembly assembly() const { return assembly_; }
  /// Assembles the interior faces with `a` instead of the operator's own (fvbench's benchmark
  /// variants: InteriorAssembly), `name` naming it in messages and assembly_name(); an empty
  /// `a` goes back to the own. One zone, the Euler model, FP64 geometry (checked).
  void set_interior_assembly(const std::string& name, InteriorAssembly a);
  /// The name of the assembly in use: the interior assembly's, else the own's.
  std::string assembly_name() const;
  /// How the node interpolation maps onto threads (fv::forall_components; the residual is
  /// bitwise the same either way): ByDevice until choose_node_loop() (solver/assembly_choice.hpp)
  /// or a caller sets it.
  void set_node_loop(ComponentMapping m) { nodeLoop_ = m; }
  ComponentMapping node_loop() const { return nodeLoop_; }

  /// Whether a second-order evaluation that computes the limiter stores each face's
  /// reconstructed states (kernels::gradient_limiter_states) for the face loops to read, instead
  /// of storing the gradient for them to reconstruct from (the same fluxes, bitwise; fewer
  /// bytes gathered per face; nVars values per cell face and 2 indices per face of device
  /// memory). It does where the gradient has no other reader: no exchange hook, the Euler
  /// model, the gather assembly (no interior assembly), and [scheme] face_states = on (the default;
  /// off allocates no states). With neighbours, the interface cells also store grad and phi for
  /// them (class comment). fvbench times both.
  void set_face_states(bool on) { faceStatesOn_ = on; }
  /// True when the next such evaluation stores face states.
  bool stores_face_states() const;

  /// A fixed volumetric source (nVars x nTotalCells SoA, owned cells read; each cell's source
  /// integrated over its volume, residual units) subtracted from every residual evaluation:
  /// R(U) = net outflow - Q. The manufactured-solution tests' forcing; empty: none.
  void set_source(const std::vector<real_t>& Q);

  /// Test hook replacing the MPI exchanges of a single zone (see CellExchange).
  void set_exchange(CellExchange ex) { hook_ = std::move(ex); }
  const CellExchange& exchange_hook() const { return hook_; }

  const Zone& zone() const { return zone_; }
  /// The case's state model: its fields are state().nVars x nTotalCells.
  const StateModel& state() const { return state_; }
  int num_vars() const { return nv_; }
  const FlowConfig& flow() const { return flow_; }
  const SchemeConfig& scheme() const { return scheme_; }
  /// The patches' resolved settings, in zone patch order.
  const std::vector<PatchConfig>& patch_configs() const { return patchConfigs_; }
  /// The zone's patch table on the device: the patch of every boundary face and the patches'
  /// boundary conditions, uploaded once for the residual and the implicit operators (LU-SGS,
  /// the Newton preconditioner).
  kernels::PatchView patches() const { return patches_.view(); }
  const ZoneView& view() const { return dz_.view(); }
  const ParallelSetup& parallel() const { return par_; }
  /// The run's communicator (nullptr on one zone).
  backend::Communicator* comm() const { return par_.comm; }
  /// Owned cells over all ranks.
  gidx_t global_cells() const { return globalCells_; }
  /// True when the zone has neighbours (a communicator; no test hook).
  bool multi_zone() const { return cells_ != nullptr; }

  real_t* residual() { return R_.data(); }
  const real_t* residual() const { return R_.data(); }
  const real_t* W() const { return W_.data(); }
  real_t* W() { return W_.data(); }
  const real_t* face_flux() const { return flux_.data(); }
  /// Cell gradients of the primitives of the last evaluation that computed them (order 2 or
  /// viscous); null when there is none or the last second-order evaluation stored face states
  /// instead (stores_face_states()).
  const real_t* gradients() const { return gradValid_ ? grad_.data() : nullptr; }
  /// Navier-Stokes: kernels::wall_viscous_data() of every boundary face for the state of the
  /// last evaluation, into out (kWallViscousValues x nBoundaryFaces, device).
  void wall_viscous_data(real_t* out) const;
  const DeviceArray<real_t>& residual_array() const { return R_; }
  const DeviceArray<real_t>& primitive_array() const { return W_; }

  /// Pack / wait / unpack seconds of this rank's halo exchanges so far.
  CommTimes comm_times() const;
  void reset_comm_times();

 private:
  /// the Venkatakrishnan scales that do not follow the solution (venkat), from the free stream
  void set_constant_limiter_scales();
  void halo_begin(parallel::HaloExchange* h, const std::vector<parallel::FieldView>& f);
  void halo_progress(parallel::HaloExchange* h);
  /// Begins the cell exchange of grad and phi (the interface faces' halo side; no-op on one
  /// zone): the gradient path's and the face-state path's one message.
  void begin_gradient_exchange();
  void halo_finish(parallel::HaloExchange* h);
  void hook(const char* what, DeviceArray<real_t>& field, int ncomp);
  template <class M, class G>
  void evaluate_model(const real_t* U, bool refreshLimiterScales, const RkUpdate* update);
  template <class M, class G>
  void face_fluxes(bool split);

  /// the face fluxes from the stored face states (boundary faces on the side stream); split:
  /// the interface faces after the halo exchange begun before, their halo side reconstructed
  template <class M, class G>
  void state_face_fluxes(bool split);
  template <class M>
  void viscous_fluxes(); ///< subtracts F_v from every face flux (halo W and grad in place)
  /// flux sum, the model's volume sources, the fixed source; then the update when given
  template <class M>
  void finish_residual(const RkUpdate* update);
  /// the stage u on the stored residual (kernels::rk_stage, or its form storing primitives)
  template <class M>
  void apply_update(const RkUpdate& u);
  /// the gather assembly, no interior assembly: the flux sum is the operator's flux_sum (or its
  /// form fused with the update), after the face fluxes
  bool gathers() const {
    return !interiorAssembly_ && assembly_ == kernels::ResidualAssembly::Gather;
  }
  /// the checks of an assembly other than the gather (set_assembly, set_interior_assembly)
  void check_non_gather_assembly(const std::string& name) const;

  const Zone& zone_;
  FlowConfig flow_;
  SchemeConfig scheme_;
  std::vector<PatchConfig> patchConfigs_;
  ParallelSetup par_;
  DeviceZone dz_;
  /// the scheme's flux settings, at first order during a first-order start (set_first_order)
  kernels::FluxSettings flux_settings_;
  StateModel state_;
  int nv_ = phys::kNumEq; ///< state_.nVars
  kernels::LimiterScales scales_;
  bool limiterFrozen_ = false;
  bool phiValid_ = false;  ///< phi holds a computed limiter (freezing needs one)
  bool gradValid_ = false; ///< grad holds the gradients of the last evaluation that needed them
  const real_t* primitivesOf_ = nullptr; ///< stored_primitives_of()
  bool faceStatesOn_ = true;
  bool keepPhi_ = false; ///< the case may freeze the limiter: face-state evaluations store phi
  std::unique_ptr<parallel::HaloExchange> cells_, nodes_; // null without MPI
  /// The boundary faces' fluxes run on it beside the interior faces' (disjoint flux entries):
  /// its latency-bound gathers of scattered owners overlap the interior kernel.
  backend::SideStream boundarySide_;
  gidx_t globalCells_ = 0;
  DeviceArray<real_t> W_, Wn_, grad_, phi_, flux_, R_;
  /// kernels::gradient_limiter_states' face states (second order, Euler, face_states = on;
  /// else empty)
  kernels::FaceStateArrays faceStates_;
  kernels::PatchTable patches_; ///< the patches' boundary conditions on the device (patches())
  /// limiter_region = supersonic: per node, the supersonic excess of the cells around it
  /// (kernels::supersonic_node_excess); empty when the limiter acts everywhere or not at all
  DeviceArray<real_t> supersonic_;
  bool regionValid_ = false;   ///< supersonic_ holds a complete (exchanged) excess
  DeviceArray<real_t> source_; ///< set_source(); empty: none
  CellExchange hook_;
  kernels::ResidualAssembly assembly_ = kernels::ResidualAssembly::Gather;
  InteriorAssembly interiorAssembly_; ///< set_interior_assembly(); empty: assembly_
  std::string interiorAssemblyName_;
  ComponentMapping nodeLoop_ = ComponentMapping::ByDevice;
};

} // namespace fv
