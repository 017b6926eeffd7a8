#pragma once
/// \file euler_solver.hpp
/// fv::EulerSolver: the cell-centred finite-volume Euler solver of one zone. It copies the zone
/// to the active device once, keeps the whole state there and advances it with explicit
/// Runge-Kutta stages. Each stage evaluates the residual in explicit steps, each a kernel over
/// the zone, with a halo-exchange point between them for the multi-zone (MPI) runtime:
///
///   primitives -> [exchange W] -> interpolate to nodes -> gradient -> [exchange grad]
///   -> local min/max -> limiter -> [exchange phi] -> face fluxes -> flux sum -> RK update
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/device_zone.hpp"

#include <array>
#include <functional>
#include <memory>
#include <vector>

namespace fv {

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
  EulerSolver(const Zone& zone, const CaseConfig& cfg);
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

  const Zone& zone_;
  CaseConfig cfg_;
  DeviceZone dz_;
  DeviceArray<real_t> U_, U0_, acc_, W_, Wn_, grad_, wmin_, wmax_, phi_, flux_, R_, dt_;
  CellExchange exchange_;
  std::unique_ptr<LusgsSolver> lusgs_; ///< integrator = lusgs only
  int iteration_ = 0;
  real_t time_ = 0;
};

} // namespace fv
