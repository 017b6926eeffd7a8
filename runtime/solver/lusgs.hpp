#pragma once
/// \file lusgs.hpp
/// fv::LusgsSolver: the implicit, matrix-free LU-SGS scheme (Jameson & Yoon) of one zone on the
/// active device. Given the residual R(U) of the spatial operator and the (local) time step it
/// approximately solves
///   (V/dt + dR/dU) dU = -R
/// with the scalar diagonal D_i = V_i/dt_i + omega/2 sum_f lambda_f (lambda_f = |u.S| + c|S|
/// over interior faces) -- on cells with boundary faces a 5x5 block that adds the exact
/// Jacobian of the boundary fluxes (lusgs_boundary = jacobian; spectral: omega/2 lambda_f of
/// the boundary faces, the textbook scalar) -- and off-diagonal blocks applied as exact flux
/// differences of the neighbours' updates. With lusgs_dissipation = roe, omega lambda_f is
/// replaced by omega |A~_f| (the face's Roe matrix) in the off-diagonals and the diagonal, and
/// every cell gets a 5x5 block. Solved by `sweeps` symmetric Gauss-Seidel sweeps (forward then
/// backward) in one of three orderings:
///   hyperplane  groups of zone.hyperplanes, forward in row order, backward in reverse; a cell's
///               lower neighbours are exactly its lower-numbered ones, so the result equals the
///               natural sequential sweep up to rounding;
///   colour      groups of zone.cellColours (fewer, larger groups: more parallel, but a cell's
///               "lower" neighbours are those of lower colour, a weaker implicit coupling);
///   natural     cell order on one thread, the sequential reference (CPU only).
/// Each sweep direction is one fv::forall_groups over the groups (cells of a group in parallel,
/// groups in order). On the GPU (lusgs_launch): persistent = one cooperative kernel per sweep
/// with a grid-wide barrier between groups (default), hybrid = the same with runs of small
/// groups swept by one block, graph = one launch per group captured once in a CUDA graph and
/// replayed, plain = one launch per group each time. All modes give bitwise the same dU.
/// Across zones the scheme is block Jacobi: halo cells are never lower neighbours and their dU
/// is zero unless the CellExchange hook, called between the forward and the backward sweep,
/// fills it (then the backward sweep also sees the neighbour zones' forward-sweep update).
/// See docs/numerics.md, section "LU-SGS".
#include "common/csr.hpp"
#include "common/zone.hpp"
#include "runtime/backend/kernel_sequence.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/lusgs_kernels.hpp"
#include "runtime/kernels/lusgs_neighbours.hpp"
#include "runtime/kernels/zone_view.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fv {

/// Settings of the LU-SGS scheme (from the [time] lusgs_* keys).
struct LusgsSettings {
  LusgsOrdering ordering = LusgsOrdering::Hyperplane;
  int sweeps = 1;
  real_t omega = 1.0;
  LusgsLaunch launch = LusgsLaunch::Graph; ///< GPU launch strategy of the sweeps
  real_t gamma = 1.4;
  /// Boundary faces in the diagonal: true (lusgs_boundary = jacobian): cells with boundary
  /// faces get a 5x5 block diagonal with the exact first-order Jacobian of their boundary
  /// fluxes; false (spectral): the textbook scalar omega/2 lambda_f of every boundary face.
  bool boundaryJacobian = true;
  /// Off-diagonal and diagonal dissipation: false (lusgs_dissipation = scalar): omega lambda_f;
  /// true (roe): omega |A~_f|, the Roe matrix of the residual's flux (needs boundaryJacobian;
  /// every cell gets a 5x5 block).
  bool roeDissipation = false;
  /// per zone patch: the conditions of a standalone solver's own patch table (LusgsSolver)
  std::vector<phys::BcParams> patches;
  kernels::FluxSettings flux; ///< Riemann flux of the residual (boundaryJacobian)
  /// A model with a viscous term: twice the viscous face radius joins lambda_f
  /// (kernels::lusgs_viscous_radius)
  bool viscous = false;
  phys::Transport transport;
};
/// The settings of the LU-SGS part of a case with its flow, scheme and patches.
LusgsSettings lusgs_settings(const LusgsConfig& cfg, const FlowConfig& flow,
                             const SchemeConfig& scheme, const std::vector<PatchConfig>& patches);
/// The same from a whole case.
LusgsSettings lusgs_settings(const CaseConfig& cfg);

/// Name of an ordering as in case files (kLusgsOrderingNames).
const char* to_string(LusgsOrdering o);
/// Name of a launch mode as in case files (kLusgsLaunchNames).
const char* to_string(LusgsLaunch m);

class LusgsSolver {
 public:
  /// Prepares the sweep groups of `zone` for the ordering (verifying that they are a
  /// permutation of the owned cells and that no group holds two neighbours) and allocates the
  /// work arrays on the active device. `groups`, when given, replaces the zone's groups (any
  /// valid grouping, in forward order; used by tests). `patches`: the zone's patch table
  /// (SpatialOperator::patches(), which the boundary blocks read); null: a table of the
  /// solver's own from s.patches (a standalone solver). `view` must outlive the solver, and so
  /// must the table `patches` views. natural on the GPU is a usage error.
  LusgsSolver(const Zone& zone, const ZoneView& view, const LusgsSettings& s,
              const Csr* groups = nullptr, const kernels::PatchView* patches = nullptr);
  ~LusgsSolver();
  LusgsSolver(const LusgsSolver&) = delete;
  LusgsSolver& operator=(const LusgsSolver&) = delete;

  /// Computes dU (delta()) from the primitive state W (halo cells filled), the residual R
  /// (kNumEq x nTotalCells) and the time step (dt per cell, or dtGlobal >= 0). `exchange`, when
  /// set, is called with dU after each forward sweep. Device pointers; W and R must stay the
  /// same arrays between calls for the graph replay (a change is detected and re-captured).
  void solve(const real_t* W, const real_t* R, const real_t* dt, real_t dtGlobal,
             const CellExchange& exchange = {});
  /// U += dU on owned cells.
  void apply(real_t* U) const;

  const DeviceArray<real_t>& delta() const { return dU_; }
  /// Number of sweep groups (1 per cell for natural).
  idx_t group_count() const { return nGroups_; }
  const LusgsSettings& settings() const { return s_; }
  /// The transport properties of the viscous face radius (the flow conditions changed:
  /// SpatialOperator::set_conditions).
  void set_transport(const phys::Transport& t) { s_.transport = t; }
  /// How the sweeps run on the active device, for logs and benchmarks.
  std::string launch_description() const;
  /// Times the forward sweep was captured into a CUDA graph (0 on the CPU).
  int graph_captures() const { return forward_.captures(); }

 private:
  void sweep(bool forward);

  const Zone& zone_;
  const ZoneView& view_;
  LusgsSettings s_;
  idx_t nGroups_ = 0;
  std::vector<idx_t> groupOffsets_;       ///< host: group g = groupCells[off[g], off[g+1])
  DeviceArray<idx_t> groupOffsetsDevice_; ///< the same offsets on the device (persistent sweeps)
  DeviceArray<idx_t> groupCells_;
  kernels::SweepNeighbours neighbours_; ///< lower/upper neighbour lists by sweep rank
  DeviceArray<real_t> lambda_, D_, dU_, lower_, upper_;
  // boundary blocks (boundaryJacobian): cells with boundary faces, their block index per cell
  // and the inverse blocks; the patch table of a standalone solver
  DeviceArray<idx_t> blockCells_, blockOf_;
  DeviceArray<real_t> Dinv_;
  kernels::PatchTable ownPatches_;
  kernels::LusgsBoundary boundary_;
  kernels::LusgsFields fields_;
  KernelSequence forward_, backward_;
};

} // namespace fv
