#pragma once
/// \file cfl_controller.hpp
/// fv::CflController: the CFL number of every iteration ([time] cfl_law) and the back-off after
/// a failed iteration. Host-side bookkeeping only; the solver asks cfl() before an iteration,
/// reports the residual of the state the iteration starts from (observe) and how the iteration
/// ended (accepted with its relaxation factor, or failed: back_off).
///
///   ramp      linear from cfl_start to cfl over cfl_ramp_iterations (then cfl);
///   adaptive  times cfl_growth after an iteration that did not raise the residual, times
///             cfl_cut after one that raised it, kept within [cfl_start, cfl];
///   ser       switched evolution relaxation (Mulder & van Leer) with safeguards, after each
///             accepted iteration: an update the solver had to scale down to alpha < 1/2 says
///             the CFL was too large: times max(2 alpha, cfl_cut); alpha in [1/2, 1): kept. The
///             linear solver sets the pace too: a linear solve that left more than 9/10 of its
///             residual halves the CFL (the update was no Newton step), one that left more
///             than half keeps it. Otherwise, after a full update: times max(cfl_growth,
///             (r_prev / r)^cfl_exponent), at most 10 (Newton's fast growth as the residual
///             falls), or times max(r_prev / r, cfl_cut) when the residual more than doubled.
///             The CFL stays within [cfl_start / 1000, cfl]. A failed
///             iteration (non-physical state, NaN, residual blow-up) multiplies the CFL by
///             cfl_cut and is retried from the last good state, at most cfl_backoffs times in
///             a row.
/// r is the convergence measure of the run loop: the larger of the density and energy RMS
/// residuals, each relative to its value at the first observed iteration.
#include "common/types.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/state_model.hpp"

#include <array>

namespace fv {

class CflController {
 public:
  /// The CFL law of `time`; `flow`'s free stream scales the residual measure.
  CflController(const TimeConfig& time, const FlowConfig& flow);

  /// Back to the first iteration (a fresh start or a restart at `iteration`).
  void reset(int iteration = 0);
  /// A warm start (a campaign's point from another point's converged state), after reset():
  /// the CFL law continues from `cfl` (kept within [cfl_start / 1000, cfl] like the law's own
  /// values; ramp: from the ramp's iteration at that CFL) and the residual measure is relative to
  /// `reference` instead of the first observed residual.
  void resume(real_t cfl, const StateArray& reference);
  /// A restart: the adaptive and ser laws continue from `cfl` (within their bounds; the ramp
  /// follows the restart's iteration), the residual measure from the first residual observed.
  void continue_at(real_t cfl);
  /// The free stream whose scales floor the residual reference (the solver's new conditions).
  void set_flow(const FlowConfig& flow) { flow_ = flow; }
  /// The conditions changed within a run (fixed lift moved the angle of attack): the next
  /// residual is not compared with the last one (its jump is no verdict on the CFL).
  void conditions_changed() { last_ = previous_ = -1; }
  /// CFL of the next iteration (iteration() completed so far).
  real_t cfl() const;
  /// Residual RMS per equation of the state the current iteration starts from.
  void observe(const StateArray& rms);
  /// The current iteration was accepted; `relaxation` in (0, 1] is the factor its update was
  /// scaled by (1: the full update); `linearResidual` the relative residual its linear solve
  /// reached (0: no linear solve).
  void accepted(real_t relaxation = 1, real_t linearResidual = 0);
  /// The current iteration failed: lowers the CFL for its retry. False when the law has no
  /// back-off (ramp, adaptive) or cfl_backoffs retries in a row are used up.
  bool back_off();

  /// Completed (accepted) iterations.
  int iteration() const { return iteration_; }
  /// Back-offs in a row so far (0 after an accepted iteration) and in total.
  int backoffs_in_a_row() const { return inARow_; }
  int backoffs_total() const { return total_; }
  /// The convergence measure of the last observed residual (1 at the first iteration).
  real_t measure() const { return last_; }
  /// The CFL law's bounds: [cfl_start / 1000, cfl] (ser; the ramp and adaptive laws stay
  /// within [cfl_start, cfl]).
  real_t lowest() const;
  real_t highest() const { return max_; }

 private:
  CflLaw law_;
  real_t start_, max_, growth_, cut_, exponent_;
  int ramp_, maxBackoffs_;
  FlowConfig flow_; ///< the free-stream scales of the residual reference
  int iteration_ = 0;
  real_t cfl_ = 0;
  real_t tried_ = 0; ///< the CFL of the iteration being tried (observe() updates cfl_ already)
  bool haveRef_ = false;
  StateArray ref_{};
  real_t last_ = -1;      ///< measure of the last observed residual (-1: none yet)
  real_t previous_ = -1;  ///< measure of the residual before it (ser)
  real_t relaxation_ = 1; ///< relaxation of the last accepted update (ser)
  real_t linear_ = 0;     ///< relative linear residual of the last accepted update (ser)
  int inARow_ = 0, total_ = 0;
};

} // namespace fv
