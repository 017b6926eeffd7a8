#pragma once
/// \file euler_solver.hpp
/// fv::EulerSolver: the cell-centred finite-volume Euler solver of one zone. It copies the zone
/// to the active device once, keeps the whole state there and iterates. It puts together the
/// solver's roles, each its own type:
///   SpatialOperator   the residual R(U) and its halo choreography (spatial_operator.hpp);
///   Integrator        one iteration of the time scheme: explicit Runge-Kutta, LU-SGS or
///                     Newton-Krylov (integrator.hpp);
///   CflController     the CFL of every iteration and the back-off after a failed one
///                     (cfl_controller.hpp);
///   Monitor           residual norms and wall forces of the state each iteration starts from
///                     (monitor.hpp).
/// An iteration: R(U) of the state it starts from (kept from the last iteration when that one
/// evaluated it) -> local time steps at the controller's CFL -> residual norms and forces ->
/// the integrator's update -> health check. A failed iteration (non-physical state, NaN,
/// residual blow-up) is retried from the last good state at a lower CFL where the CFL law has
/// a back-off (ser), else it stops the run with an error naming the iteration and the cell.
/// RMS residuals, forces, the global time step and the health check are reduced over all ranks
/// (same numbers on every rank).
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/assembly_choice.hpp"
#include "runtime/solver/cfl_controller.hpp"
#include "runtime/solver/monitor.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "runtime/solver/state_model.hpp"

#include <array>
#include <memory>
#include <vector>

namespace fv {

class Integrator;

/// What one iteration measured (host values).
struct IterationStats {
  int iteration = 0;              ///< 1-based number of the completed iteration
  real_t time = 0;                ///< physical time after it (global stepping), s
  real_t dt = 0;                  ///< global time step (global stepping) or minimum local step
  real_t cfl = 0;                 ///< CFL number of the iteration
  StateArray rms{};               ///< RMS over cells of R/V per equation, of the start state
  std::array<real_t, 6> forces{}; ///< force (x, y, z) and moment about the origin, pressure
                                  ///< and (Navier-Stokes) viscous, on the monitored patches
  std::array<real_t, 3> viscousForce{}; ///< the viscous part of forces[0..2] (0 for Euler)
  int linearIterations = 0;             ///< Krylov iterations (newton)
  real_t linearResidual = 0;            ///< relative linear residual reached (newton)
  real_t relaxation = 1;                ///< factor the update was scaled by (newton)
  int backoffs = 0;                     ///< failed tries of this iteration retried at a lower CFL
};

class EulerSolver {
 public:
  /// Copies the zone to the active device and allocates the state; the case must be resolved
  /// against this zone's patches (same order). COLLECTIVE with a communicator.
  EulerSolver(const Zone& zone, const CaseConfig& cfg, const ParallelSetup& par = {});
  ~EulerSolver();

  /// Sets the initial condition of the case (free stream or split) on owned cells.
  void initialise();
  /// Applies [scheme] assembly (solver/assembly_choice.hpp) with the current state, then
  /// chooses the node interpolation's thread mapping (choose_node_loop()): call after
  /// initialise() or a restart, before the first step(). `meshUuid` keys the choice cache.
  /// COLLECTIVE with a communicator (residual evaluations).
  AssemblyChoice choose_assembly(const std::string& meshUuid);
  /// Advances one iteration (see file comment). Throws fv::Error naming the iteration and the
  /// global cell id when the new state is not physical and no back-off is left; the state is
  /// then left at the last good one.
  IterationStats step();

  /// Evaluates the residual R(U) of the current state (net outflow per cell, nVars x nTotalCells
  /// SoA) and returns it on the host; used by verification tests.
  std::vector<real_t> residual();

  /// Current conservative / primitive state on the host (nVars x nTotalCells, SoA).
  std::vector<real_t> conservative() const;
  std::vector<real_t> primitive() const;
  /// Navier-Stokes: per boundary face, the viscous force on it, the wall heat flux and y+ of
  /// the current state (kernels::wall_viscous_data(), kWallViscousValues x nBoundaryFaces SoA,
  /// host). Evaluates the residual of the current state first (the state is not changed).
  std::vector<real_t> wall_viscous_data() const;
  /// Replaces the conservative state (nVars x nTotalCells, SoA).
  void set_conservative(const std::vector<real_t>& U);
  /// Sets the iteration counter and physical time (continuing from a restart).
  void set_progress(int iteration, real_t time);

  /// Re-applies the flow conditions of `cfg` (the free stream and the patches' values) to the
  /// live solver, the zone and the state staying on the device: the operator's
  /// (SpatialOperator::set_conditions), the CFL law's free-stream scales, and the case every
  /// role reads its conditions from (the integrators, the monitor and the run loop read them
  /// through the operator and config()). `cfg` must be this case resolved again with other
  /// flow conditions (resolve_case_again(), runtime/config/case_conditions.hpp): any other
  /// difference is an error. The next step() evaluates the state afresh.
  void set_conditions(const CaseConfig& cfg);
  /// The residual reference a cold start takes under the current conditions: the state is set
  /// to the initial condition (initialise(), iteration 0), its residual evaluated as the first
  /// iteration of a cold run would (first order while startup_orders applies) and its norms
  /// floored (residual_reference()). A warm start measures its orders against it, so that they
  /// mean what a cold run's do. COLLECTIVE with a communicator.
  StateArray cold_reference();
  /// Starts the iterations again at 0 from the state set last (set_conservative(): another
  /// converged solution), at second order, with the CFL law resumed at `cfl` and the
  /// convergence measured against `reference` (cold_reference()): a campaign's warm start.
  void warm_start(real_t cfl, const StateArray& reference);
  /// A restart continues the CFL law of the run that wrote it at `cfl` (its last CFL).
  void continue_cfl(real_t cfl) { cfl_.continue_at(cfl); }

  /// Owned cells over all ranks (nCells of the single zone without MPI).
  gidx_t global_cells() const { return op_->global_cells(); }
  /// The communicator (nullptr for a single zone).
  backend::Communicator* comm() const { return op_->comm(); }
  /// Pack / wait / unpack seconds of this rank's halo exchanges so far.
  CommTimes comm_times() const { return op_->comm_times(); }
  void reset_comm_times() { op_->reset_comm_times(); }

  int iteration() const { return iteration_; }
  real_t time() const { return time_; }
  const Zone& zone() const { return zone_; }
  /// The case the solver was assembled from (the run loop and the writers read its time,
  /// monitor and flow parts and its resolved text).
  const CaseConfig& config() const { return cfg_; }
  /// Bytes the solver holds on the device (zone + fields).
  std::size_t device_bytes() const;
  SpatialOperator& spatial_operator() { return *op_; }
  /// The case's state model (the layout of conservative() and primitive()).
  const StateModel& state() const { return op_->state(); }
  const CflController& cfl_controller() const { return cfl_; }
  /// True once the limiter was frozen (limiter_freeze, limiter_freeze_stall).
  bool limiter_frozen() const { return op_->limiter_frozen(); }

  /// Optional halo exchange between stages (a test hook; no-op when empty).
  void set_exchange(CellExchange ex) { op_->set_exchange(std::move(ex)); }

 private:
  /// Fills `st` with the residual norms and forces of the state the iteration starts from (the
  /// monitor's reductions queued this iteration, `pending`) and feeds the CFL law and the
  /// limiter freezing.
  void observe(IterationStats& st, const Monitor::Pending& pending);
  /// Message of the lowest non-physical owned cell (empty when none on this rank).
  std::string unphysical_message(idx_t bad) const;

  const Zone& zone_;
  /// The case: each role got its part (the operator the flow, scheme and patches, the
  /// controller the time part, the monitor the monitor part, the integrator its scheme's part)
  CaseConfig cfg_;
  std::unique_ptr<SpatialOperator> op_;
  std::unique_ptr<Integrator> integrator_;
  std::unique_ptr<Monitor> monitor_;
  CflController cfl_;
  DeviceArray<real_t> U_, U0_, dt_;
  int iteration_ = 0;
  real_t time_ = 0;
  bool evaluated_ = false; ///< the operator holds R(U) of the current state
  bool haveRms_ = false;   ///< rms_ holds the residual norms of that evaluation
  /// read the start state's statistics before the update (else with the health check)
  bool readStatsFirst_ = true;
  backend::ReduceSlot dtSlot_; ///< the minimum time step, queued each iteration
  StateArray rms_{};
  real_t bestMeasure_ = 1e300; ///< lowest convergence measure so far (freezing by stall)
  int sinceBest_ = 0;
};

} // namespace fv
