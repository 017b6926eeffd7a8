#pragma once
/// \file euler_solver.hpp
/// fv::EulerSolver: the cell-centred finite-volume Euler solver of one zone. It copies the zone
/// to the active device once, keeps the whole state there and advances it with explicit
/// Runge-Kutta stages. Each stage evaluates the residual in explicit steps, each a kernel over
/// the zone, with a halo-exchange point between them for the multi-zone (MPI) runtime:
///
///   primitives -> [exchange W] -> interpolate to nodes -> gradient -> [exchange grad]
///   -> local min/max -> limiter -> [exchange phi] -> face fluxes -> flux sum -> RK update
///
/// On several MPI ranks (ParallelSetup with a communicator; one zone per rank) the solver
/// owns two parallel::HaloExchange objects and a stage of second order runs (docs/parallel.md)
///
///   primitives (owned) -> begin cells{W} -> interpolate to nodes (owned cells' partial sums)
///   -> finish cells -> begin nodes{Wn, Sum} -> local min/max -> finish nodes -> gradient
///   -> limiter -> begin cells{grad, phi} -> boundary fluxes + faces between owned cells
///   -> finish cells -> interface faces -> flux sum -> RK update
///
/// i.e. three messages per neighbour per stage, each overlapped with work that needs none of
/// its values (overlap off: finish() right after begin()). RMS residuals, forces, the global
/// time step and the non-physical-state check are reduced over all ranks (same numbers on
/// every rank).
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/solver/device_zone.hpp"

#include <array>
#include <functional>
#include <memory>
#include <mpi.h>
#include <vector>

namespace fv {

/// How an EulerSolver runs across ranks. comm == MPI_COMM_NULL: one zone, no communication.
struct ParallelSetup {
  MPI_Comm comm = MPI_COMM_NULL; ///< rank r holds zone r of the zone file
  parallel::Transport transport = parallel::Transport::HostStaged;
  bool overlap = true; ///< compute interior work while halo messages are in flight
  /// Time the exchanges' phases (CommTimes). Off: no device synchronisation around the
  /// exchanges and CommTimes stay zero.
  bool commTiming = false;
};

/// Time split of the iterations so far (seconds, summed over iterations, this rank).
/// compute = wall - pack - wait - unpack (the exchanges synchronise the device around their
/// phases, so kernels are billed to compute).
struct CommTimes {
  double pack = 0, wait = 0, unpack = 0;
  long exchanges = 0;
};

class LusgsSolver;

/// What one iteration measured (host values).
struct IterationStats {
  int iteration = 0;              ///< 1-based number of the completed iteration
  real_t time = 0;                ///< physical time after it (global stepping), s
  real_t dt = 0;                  ///< global time step (global stepping) or minimum local step
  std::array<real_t, 5> rms{};    ///< RMS over cells of R/V per equation (first stage)
  std::array<real_t, 6> forces{}; ///< pressure force (x, y, z) and moment about the origin
};

/// Halo exchange of a cell field with `ncomp` components (stride nTotalCells). The
/// single-zone runtime passes none; the MPI runtime fills the halo cells of the field.
using CellExchange = std::function<void(const char* what, real_t* field, int ncomp)>;

class EulerSolver {
 public:
  /// Copies the zone to the active device and allocates the state; the case must be resolved
  /// against this zone's patches (same order).
  EulerSolver(const Zone& zone, const CaseConfig& cfg, const ParallelSetup& par = {});
  ~EulerSolver();

  /// Sets the initial condition of the case (free stream or split) on owned cells.
  void initialise();
  /// Advances one iteration (one RK step, or one implicit LU-SGS step for integrator = lusgs:
  /// runtime/solver/lusgs.hpp). Throws fv::Error naming the iteration and the
  /// global cell id when the new state is not physical; the state is then left at the last
  /// good one.
  IterationStats step();

  /// Evaluates the residual R(U) of the current state (net outflow per cell, 5 x nTotalCells
  /// SoA) and returns it on the host; used by verification tests.
  std::vector<real_t> residual();

  /// Current conservative / primitive state on the host (5 x nTotalCells, SoA).
  std::vector<real_t> conservative() const;
  std::vector<real_t> primitive() const;
  /// Replaces the conservative state (5 x nTotalCells, SoA).
  void set_conservative(const std::vector<real_t>& U);
  /// Sets the iteration counter and physical time (continuing from a restart).
  void set_progress(int iteration, real_t time) {
    iteration_ = iteration;
    time_ = time;
  }

  /// Owned cells over all ranks (nCells of the single zone without MPI).
  gidx_t global_cells() const { return globalCells_; }
  /// The communicator (MPI_COMM_NULL for a single zone without MPI).
  MPI_Comm comm() const { return par_.comm; }
  /// Pack / wait / unpack seconds of this rank's halo exchanges so far.
  CommTimes comm_times() const;
  void reset_comm_times();

  int iteration() const { return iteration_; }
  real_t time() const { return time_; }
  const Zone& zone() const { return zone_; }
  const CaseConfig& config() const { return cfg_; }
  /// Bytes the solver holds on the device (zone + fields).
  std::size_t device_bytes() const;

  /// Optional halo exchange between stages (no-op when empty).
  void set_exchange(CellExchange ex) { exchange_ = std::move(ex); }

 private:
  void compute_residual(const real_t* U);
  /// RMS residuals and wall forces of the residual just computed (R_, flux_).
  void measure(IterationStats& st);
  void exchange(const char* what, DeviceArray<real_t>& field, int ncomp);
  real_t current_cfl() const;
  /// cfl_law = adaptive: the CFL of the next iteration from this iteration's residual (called
  /// by measure()).
  void adapt_cfl(const IterationStats& st);
  void halo_begin(parallel::HaloExchange* h, const std::vector<parallel::FieldView>& f);
  void halo_progress(parallel::HaloExchange* h);
  void halo_finish(parallel::HaloExchange* h);

  const Zone& zone_;
  CaseConfig cfg_;
  ParallelSetup par_;
  DeviceZone dz_;
  std::unique_ptr<parallel::HaloExchange> cells_, nodes_; // null without MPI
  gidx_t globalCells_ = 0;
  DeviceArray<real_t> U_, U0_, acc_, W_, Wn_, grad_, wmin_, wmax_, phi_, flux_, R_, dt_;
  CellExchange exchange_;
  std::unique_ptr<LusgsSolver> lusgs_; ///< integrator = lusgs only
  int iteration_ = 0;
  real_t time_ = 0;
  // cfl_law = adaptive: current CFL, first RMS residuals, last residual measure (-1: none yet)
  real_t cflAdaptive_ = 0;
  std::array<real_t, 5> rms0_{};
  real_t lastMeasure_ = -1;
};

} // namespace fv
