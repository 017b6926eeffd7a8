#pragma once
/// \file gmres.hpp
/// fv::Gmres: restarted, right-preconditioned GMRES (Saad & Schultz) on the zone's cell vectors
/// (kernels/krylov.hpp), for Newton's linear systems. Solves A x = b from x = 0 through
/// A P u = b, x = P u, where the preconditioner P must be a fixed linear operator (a fixed number
/// of sweeps from zero is). The Krylov vectors, their products and the orthogonalisation stay on
/// the device; only the small Hessenberg least-squares problem is solved on the host.
/// Orthogonalisation: classical Gram-Schmidt with the DGKS criterion: the products of the new
/// vector w with the basis and with itself come from one batched launch (one global reduction
/// over the ranks, instead of one per basis vector with modified Gram-Schmidt), |w| after the
/// projection from Pythagoras, and a second pass (CGS2) only when the projection removed more
/// than half of |w|^2. Norms and inner products are the weighted ones of krylov.hpp.
#include "runtime/backend/communicator.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/krylov.hpp"

#include <functional>

namespace fv {

class Gmres {
 public:
  /// y = Op(x); both device vectors (nv x nTotalCells; the owned cells count).
  using Operator = std::function<void(const real_t* x, real_t* y)>;

  struct Result {
    int iterations = 0;     ///< Krylov iterations (products with A) done
    real_t initialNorm = 0; ///< |b|
    real_t relative = 0;    ///< |b - A x| / |b| as the least-squares problem estimates it
    bool converged = false; ///< relative <= tolerance
    bool finite = true;     ///< false: a NaN or Inf appeared (x is then undefined)
  };

  /// Work vectors for a restart length `dim` (<= kernels::kMaxKrylov) on the active device.
  /// `z` must outlive the solver. comm: nullptr for one zone (not owned).
  Gmres(const ZoneView& z, int nv, backend::Communicator* comm, int dim,
        const kernels::VectorWeights& w);

  /// x ~ A^-1 b (see file comment): stops at `tolerance` relative residual or after
  /// `maxIterations` products with A (restarting every dim iterations). COLLECTIVE.
  Result solve(const Operator& A, const Operator& P, const real_t* b, real_t* x, int maxIterations,
               real_t tolerance);

  /// Weighted inner product and norm over every rank's owned cells. COLLECTIVE.
  real_t dot(const real_t* x, const real_t* y) const;
  real_t norm(const real_t* x) const;

  /// Replaces the weights of the inner product (between solves).
  void set_weights(const kernels::VectorWeights& w) { w_ = w; }

  /// Device bytes of the Krylov basis and work vectors.
  std::size_t bytes() const { return V_.bytes() + work_.bytes(); }

 private:
  /// out[j] = <V_j, x> for j < count, summed over the ranks.
  void dots(int count, const real_t* x, real_t* out) const;
  real_t* basis(int j) { return V_.data() + static_cast<std::size_t>(j) * stride_; }

  const ZoneView& z_;
  backend::Communicator* comm_;
  int dim_;
  kernels::VectorWeights w_;
  int nv_; ///< vector components (the state model's variables)
  std::size_t stride_;
  DeviceArray<real_t> V_;    ///< dim + 1 basis vectors
  DeviceArray<real_t> work_; ///< two work vectors (P v, and the final combination)
};

} // namespace fv
