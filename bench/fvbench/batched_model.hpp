#pragma once
/// \file batched_model.hpp
/// The byte model of batched flow conditions (issue 49, "batched conditions"): K states of the
/// same zone advanced by one pass over the mesh that reads the zone's connectivity and geometry
/// once for all K. Each kernel's bytes of the byte model (byte_model.hpp) split into
///   shared     connectivity and geometry: index arrays (cellFaces, faceNodes, node slots, the
///              node -> cell relation, owners, neighbours, the ILU's neighbour lists), signs,
///              face areas, volumes, face offsets, interpolation weights;
///   per state  everything a flow condition owns: U, W, Wn, grad, phi, face states, fluxes, R,
///              dt, the block matrices of the preconditioner, the Krylov vectors.
/// A batch of K states moves shared + K perState bytes, so per state shared / K + perState:
/// a bandwidth-bound kernel gains at most (shared + perState) / (shared / K + perState).
/// Benchmark code only (fvbench --batched-model); the solver has no batched path.
#include "bench/fvbench/byte_model.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace fv::bench {

/// Bytes of one kernel (or a group of kernels) split into the zone's part and a state's part.
struct ByteSplit {
  double shared = 0;   ///< connectivity and geometry, read once per pass whatever K
  double perState = 0; ///< moved once per flow condition
  double total() const { return shared + perState; }
  /// Bytes per state of a pass over K states.
  double per_state(int k) const { return shared / k + perState; }
  /// Time per state of K sequential passes over that of one batched pass (bandwidth-bound).
  double speedup(int k) const { return total() / per_state(k); }
  ByteSplit& operator+=(const ByteSplit& o) {
    shared += o.shared;
    perState += o.perState;
    return *this;
  }
};
inline ByteSplit operator*(double a, ByteSplit b) {
  return {a * b.shared, a * b.perState};
}

/// The split of byte_model.hpp's kernel_bytes(kernel, s): shared + perState equals it for every
/// kernel it knows. Also the Newton-Krylov kernels, which byte_model.hpp does not time:
/// "jfnk_vectors" (norm of x, U + eps x, jfnk_combine), "krylov_dots_combine" with `krylovJ`
/// (GMRES iteration j: the products with V_0..V_{j+1}, the classical Gram-Schmidt combination
/// and the normalisation), "assemble_block_jacobian", "ilu_gather_blocks", "ilu_factor",
/// "ilu_forward", "ilu_backward" (runtime/kernels/block_jacobian.hpp). Throws fv::Error for
/// an unknown name.
ByteSplit kernel_bytes_split(const std::string& kernel, const ZoneSizes& s, int krylovJ = 0);

/// One line of the batched model: a kernel, or the sum of a group (item "total").
struct BatchedModelRow {
  std::string group, item;
  ByteSplit bytes;
};

/// The model's rows: (a) a later explicit SSP-RK3 stage as fvrun runs it (interpolate_to_nodes,
/// gradient_limiter_states, interior_state_fluxes, boundary_state_fluxes,
/// flux_sum_rk_primitives) and the residual evaluation of a Jacobian-free product; (b) one
/// GMRES iteration of Newton-Krylov (JFNK product, block-ILU(0) solve, orthogonalisation
/// averaged over a restart cycle of `krylovIterations`, and the per-Newton-iteration work --
/// assembly, factorisation, final combination -- spread over its GMRES iterations).
std::vector<BatchedModelRow> batched_model(const ZoneSizes& s, int krylovIterations);

/// Example sizes: the 600k-730k-cell wing of tetrahedra (729580 cells, nf ~ 2 nc,
/// ncf = 4 nc, nn ~ nc / 5.5, nnc ~ 4 nc; boundary faces assumed 3 % of the cells) ...
ZoneSizes wing_tet_sizes();
/// ... and a structured box of n^3 hexahedra (nf ~ 3 nc, ncf = 6 nc, nn ~ nc, nnc = 8 nc).
ZoneSizes box_hex_sizes(int n);

/// The table of the model for sizes s (title: what they are); B per cell per state at
/// K = 1, 2, 4, 8 and the bandwidth-bound speed-up per state at K = 4 and 8.
void print_batched_model(const std::string& title, const ZoneSizes& s, int krylovIterations,
                         std::ostream& os);

} // namespace fv::bench
