#include "runtime/solver/gmres.hpp"

#include "common/error.hpp"
#include "runtime/parallel/reduce.hpp"

#include <cmath>
#include <vector>

namespace fv {

Gmres::Gmres(const ZoneView& z, int nv, backend::Communicator* comm, int dim,
             const kernels::VectorWeights& w)
    : z_(z), comm_(comm), dim_(dim), w_(w), nv_(nv),
      stride_(nv * static_cast<std::size_t>(z.nTotalCells)) {
  FV_VERIFY_USAGE(dim >= 1 && dim <= kernels::kMaxKrylov, "newton_krylov_dim must be in [1, "
                                                              << kernels::kMaxKrylov << "] (got "
                                                              << dim << ")");
  V_ = DeviceArray<real_t>(static_cast<std::size_t>(dim + 1) * stride_, "krylov basis");
  work_ = DeviceArray<real_t>(2 * stride_, "krylov work vectors");
}

void Gmres::dots(int count, const real_t* x, real_t* out) const {
  kernels::vec_dots(z_, nv_, count, V_.data(), stride_, x, w_, out);
  if (comm_) {
    std::vector<real_t> v(out, out + count);
    parallel::sum_all(*comm_, v);
    for (int j = 0; j < count; ++j)
      out[j] = v[j];
  }
}

real_t Gmres::dot(const real_t* x, const real_t* y) const {
  real_t d = 0;
  kernels::vec_dots(z_, nv_, 1, x, stride_, y, w_, &d);
  if (comm_) d = parallel::sum_all(*comm_, d);
  return d;
}

real_t Gmres::norm(const real_t* x) const {
  return std::sqrt(std::max<real_t>(dot(x, x), 0));
}

Gmres::Result Gmres::solve(const Operator& A, const Operator& P, const real_t* b, real_t* x,
                           int maxIterations, real_t tolerance) {
  Result res;
  real_t* Pv = work_.data();
  real_t* AP = work_.data() + stride_;
  kernels::vec_zero(nv_, z_.nTotalCells, x);
  real_t beta = norm(b);
  res.initialNorm = beta;
  if (!std::isfinite(beta)) {
    res.finite = false;
    return res;
  }
  if (beta == 0.0) {
    res.converged = true;
    return res;
  }
  const real_t target = tolerance * res.initialNorm;
  kernels::vec_axpby(z_, nv_, 1.0, b, 0.0, basis(0)); // r = b (x = 0)
  const int m = dim_;
  std::vector<real_t> H(static_cast<std::size_t>(m + 1) * m), cs(m), sn(m), g(m + 1), h(m + 2),
      h2(m + 2);
  auto Hij = [&](int i, int j) -> real_t& { return H[static_cast<std::size_t>(j) * (m + 1) + i]; };
  real_t resid = beta;
  while (true) {
    // a cycle from r in basis(0) with norm beta
    kernels::KrylovCoeffs c;
    c.c[0] = 1.0 / beta;
    kernels::vec_combine(z_, nv_, 1, basis(0), stride_, c, 0.0, basis(0));
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = beta;
    int k = 0;
    for (int j = 0; j < m && res.iterations < maxIterations; ++j) {
      real_t* w = basis(j + 1);
      P(basis(j), Pv);
      A(Pv, w);
      ++res.iterations;
      // classical Gram-Schmidt in one launch (the products with V_0..V_j and |w|^2 at once),
      // a second pass only where the projection removed most of w (DGKS criterion)
      dots(j + 2, w, h.data());
      real_t ww = h[j + 1], removed = 0;
      for (int i = 0; i <= j; ++i) {
        c.c[i] = -h[i];
        removed += h[i] * h[i];
      }
      kernels::vec_combine(z_, nv_, j + 1, basis(0), stride_, c, 1.0, w);
      real_t hn2 = ww - removed;
      if (!(hn2 > 0.5 * ww)) {
        dots(j + 2, w, h2.data());
        ww = h2[j + 1];
        removed = 0;
        for (int i = 0; i <= j; ++i) {
          c.c[i] = -h2[i];
          h[i] += h2[i];
          removed += h2[i] * h2[i];
        }
        kernels::vec_combine(z_, nv_, j + 1, basis(0), stride_, c, 1.0, w);
        hn2 = ww - removed;
      }
      const real_t hn = std::sqrt(std::max<real_t>(hn2, 0));
      for (int i = 0; i <= j; ++i)
        Hij(i, j) = h[i];
      Hij(j + 1, j) = hn;
      if (!std::isfinite(hn) || !std::isfinite(ww)) {
        res.finite = false;
        return res;
      }
      if (hn > 0.0) {
        kernels::KrylovCoeffs s;
        s.c[0] = 1.0 / hn;
        kernels::vec_combine(z_, nv_, 1, w, stride_, s, 0.0, w);
      }
      // previous Givens rotations, then a new one that zeroes H(j+1, j)
      for (int i = 0; i < j; ++i) {
        const real_t a = Hij(i, j), bb = Hij(i + 1, j);
        Hij(i, j) = cs[i] * a + sn[i] * bb;
        Hij(i + 1, j) = -sn[i] * a + cs[i] * bb;
      }
      const real_t a = Hij(j, j), bb = Hij(j + 1, j);
      const real_t r = std::hypot(a, bb);
      cs[j] = r > 0 ? a / r : 1.0;
      sn[j] = r > 0 ? bb / r : 0.0;
      Hij(j, j) = r;
      Hij(j + 1, j) = 0.0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      k = j + 1;
      resid = std::fabs(g[j + 1]);
      if (resid <= target || hn == 0.0) break;
    }
    // y = H^-1 g (upper triangular k x k), x += P (V y)
    std::vector<real_t> y(static_cast<std::size_t>(k), 0.0);
    for (int i = k - 1; i >= 0; --i) {
      real_t s = g[i];
      for (int l = i + 1; l < k; ++l)
        s -= Hij(i, l) * y[l];
      y[i] = Hij(i, i) != 0.0 ? s / Hij(i, i) : 0.0;
    }
    for (int i = 0; i < k; ++i)
      c.c[i] = y[i];
    kernels::vec_combine(z_, nv_, k, basis(0), stride_, c, 0.0, AP);
    P(AP, Pv);
    kernels::vec_axpby(z_, nv_, 1.0, Pv, 1.0, x);
    res.relative = resid / res.initialNorm;
    res.converged = resid <= target;
    if (!std::isfinite(res.relative)) {
      res.finite = false;
      return res;
    }
    if (res.converged || res.iterations >= maxIterations || k == 0) return res;
    // restart from the true residual r = b - A x
    A(x, AP);
    kernels::vec_axpby(z_, nv_, 1.0, b, 0.0, basis(0));
    kernels::vec_axpby(z_, nv_, -1.0, AP, 1.0, basis(0));
    beta = norm(basis(0));
    if (!std::isfinite(beta)) {
      res.finite = false;
      return res;
    }
    res.relative = beta / res.initialNorm;
    if (beta <= target) {
      res.converged = true;
      return res;
    }
  }
}

} // namespace fv
