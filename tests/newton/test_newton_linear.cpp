// The linear algebra of the Newton-Krylov integrator on small zones of the real prep pipeline:
// the block ILU is the exact LU on a chain of cells, GMRES matches a dense direct solve of the
// assembled operator, and the Jacobian-free product matches finite differences of the
// residual.
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/krylov.hpp"
#include "runtime/solver/block_preconditioner.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/gmres.hpp"
#include "runtime/solver/newton_krylov.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using fv::idx_t;
using fv::real_t;

namespace {

/// A generated channel zone with a smooth, non-uniform transonic state (M ~ 0.8 along x).
struct ChannelState {
  fv::testing::TestZone tz;
  fv::CaseConfig cfg;
  std::vector<real_t> U;

  ChannelState(std::array<std::int64_t, 3> n, const std::string& extra) {
    fv::GenOptions o;
    o.family = fv::MeshFamily::Channel;
    o.cells = fv::GenCells::Hex;
    o.n = n;
    o.perturb = 0.1;
    o.bumpHeight = 0.05;
    tz = fv::testing::generated_zone(o);
    const std::string text = "[freestream]\nmach = 0.8\naoa = 2\nlift_axis = y\n" + extra +
                             fv::testing::channel_patches();
    cfg = fv::resolve_case(fv::IniFile::parse(text, "linear.ini"), tz.patches);
    const idx_t nt = tz.zone.nTotalCells();
    U.assign(5 * static_cast<std::size_t>(nt), 0.0);
    const auto& f = cfg.flow.freestream;
    for (idx_t c = 0; c < nt; ++c) {
      const real_t* x = &tz.zone.cellCentroid[3 * c];
      const real_t s = std::sin(2.0 * x[0] + 1.0) * std::cos(3.0 * x[1]);
      const real_t W[5] = {f[0] * (1 + 0.1 * s), f[1] * (1 + 0.2 * s), f[2] + 0.1 * f[1] * s,
                           0.05 * f[1] * s, f[4] * (1 + 0.15 * s)};
      real_t u[5];
      fv::phys::prim_to_cons(W, u, cfg.flow.gamma);
      for (int k = 0; k < 5; ++k)
        U[k * nt + c] = u[k];
    }
  }
};

/// Dense y = M e_i columns of an operator on the owned cells (row/column index k * n + c).
std::vector<real_t> dense(const fv::Zone& z,
                          const std::function<void(const real_t*, real_t*)>& op) {
  const idx_t n = z.nCells, nt = z.nTotalCells();
  const std::size_t N = 5 * static_cast<std::size_t>(n);
  std::vector<real_t> A(N * N);
  fv::DeviceArray<real_t> e(5 * static_cast<std::size_t>(nt), "e"), y(e.size(), "y");
  std::vector<real_t> eh(e.size(), 0.0);
  for (std::size_t col = 0; col < N; ++col) {
    const std::size_t k = col / n, c = col % n;
    std::fill(eh.begin(), eh.end(), 0.0);
    eh[k * nt + c] = 1.0;
    e.assign(eh.data());
    op(e.data(), y.data());
    const std::vector<real_t> yh = y.to_host();
    for (std::size_t row = 0; row < N; ++row)
      A[row * N + col] = yh[(row / n) * nt + row % n];
  }
  return A;
}

/// Solves A x = b (dense, partial pivoting).
std::vector<real_t> direct_solve(std::vector<real_t> A, std::vector<real_t> b) {
  const std::size_t N = b.size();
  for (std::size_t c = 0; c < N; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < N; ++r)
      if (std::fabs(A[r * N + c]) > std::fabs(A[p * N + c])) p = r;
    if (p != c) {
      for (std::size_t k = 0; k < N; ++k)
        std::swap(A[c * N + k], A[p * N + k]);
      std::swap(b[c], b[p]);
    }
    for (std::size_t r = c + 1; r < N; ++r) {
      const real_t f = A[r * N + c] / A[c * N + c];
      for (std::size_t k = c; k < N; ++k)
        A[r * N + k] -= f * A[c * N + k];
      b[r] -= f * b[c];
    }
  }
  std::vector<real_t> x(N);
  for (std::size_t i = N; i-- > 0;) {
    real_t s = b[i];
    for (std::size_t k = i + 1; k < N; ++k)
      s -= A[i * N + k] * x[k];
    x[i] = s / A[i * N + i];
  }
  return x;
}

} // namespace

// On a chain of cells (each cell at most two neighbours, in hyperplane order) the block ILU(0)
// has no fill to drop: it is the exact block LU, so one application solves M x = b.
TEST(NewtonLinear, IluIsExactOnAChain) {
  ChannelState s({12, 1, 1}, "[time]\nnewton_preconditioner = ilu\nnewton_ordering = hyperplane\n");
  fv::SpatialOperator op(s.tz.zone, s.cfg);
  const fv::ZoneView& z = op.view();
  const auto n5 = s.U.size();
  fv::DeviceArray<real_t> U(s.U, "U"), dt(s.tz.zone.nTotalCells(), "dt"), b(n5, "b"), x(n5, "x"),
      y(n5, "y");
  op.evaluate(U.data(), true);
  for (real_t cfl : {10.0, 1e8}) {
    op.local_time_step(cfl, dt.data());
    fv::BlockPreconditioner P(op, s.cfg.newton, true);
    P.assemble(op.W(), dt.data(), -1);
    fv::kernels::vec_axpby(z, 5, 1.0, op.residual(), 0.0, b.data());
    P.apply(b.data(), x.data());
    P.multiply(x.data(), y.data());
    fv::Gmres g(z, 5, nullptr, 1, fv::NewtonKrylov::weights(s.cfg.flow));
    const real_t bn = g.norm(b.data());
    fv::kernels::vec_axpby(z, 5, 1.0, b.data(), -1.0, y.data());
    EXPECT_LT(g.norm(y.data()) / bn, 1e-12) << "CFL " << cfl;
  }
}

// GMRES on the assembled first-order operator (every preconditioner) against a dense LU
// solve: the same x to 1e-8 when run to 1e-13 with a Krylov space as large as the system.
TEST(NewtonLinear, GmresMatchesADirectSolve) {
  ChannelState s({4, 3, 2}, "[time]\nnewton_matvec = assembled\n");
  for (const char* pre : {"ilu", "sgs", "jacobi", "none"}) {
    SCOPED_TRACE(pre);
    fv::CaseConfig cfg = s.cfg;
    const fv::CaseConfig p =
        fv::resolve_case(fv::IniFile::parse(std::string("[time]\nnewton_preconditioner = ") + pre +
                                                fv::testing::channel_patches(),
                                            "p.ini"),
                         s.tz.patches);
    cfg.newton.preconditioner = p.newton.preconditioner;
    cfg.newton.ordering = p.newton.ordering; // its default
    cfg.newton.sweeps = 2;
    cfg.newton.krylovDim = 100;
    fv::SpatialOperator op(s.tz.zone, cfg);
    const fv::ZoneView& z = op.view();
    const idx_t n = s.tz.zone.nCells, nt = s.tz.zone.nTotalCells();
    const auto n5 = s.U.size();
    fv::DeviceArray<real_t> U(s.U, "U"), dt(static_cast<std::size_t>(nt), "dt"), b(n5, "b"),
        x(n5, "x");
    op.evaluate(U.data(), true);
    op.local_time_step(1e3, dt.data());
    fv::BlockPreconditioner P(op, cfg.newton, true);
    P.assemble(op.W(), dt.data(), -1);
    const auto A = dense(s.tz.zone, [&](const real_t* a, real_t* y) { P.multiply(a, y); });
    std::vector<real_t> bh(n5, 0.0), rhs(5 * static_cast<std::size_t>(n));
    for (int k = 0; k < 5; ++k)
      for (idx_t c = 0; c < n; ++c) {
        bh[k * nt + c] = std::cos(1.0 + c + 7.0 * k) * s.U[k * nt + c];
        rhs[k * n + c] = bh[k * nt + c];
      }
    b.assign(bh.data());
    const std::vector<real_t> ref = direct_solve(A, rhs);
    fv::Gmres g(z, 5, nullptr, 100, fv::NewtonKrylov::weights(cfg.flow));
    const fv::Gmres::Result r =
        g.solve([&](const real_t* a, real_t* y) { P.multiply(a, y); },
                [&](const real_t* a, real_t* y) { P.apply(a, y); }, b.data(), x.data(), 200, 1e-13);
    EXPECT_TRUE(r.converged);
    EXPECT_LE(r.relative, 1e-13);
    const std::vector<real_t> xh = x.to_host();
    double diff = 0, scale = 0;
    for (int k = 0; k < 5; ++k)
      for (idx_t c = 0; c < n; ++c) {
        diff = std::max(diff, std::fabs(xh[k * nt + c] - ref[k * n + c]));
        scale = std::max(scale, std::fabs(ref[k * n + c]));
      }
    EXPECT_LT(diff / scale, 1e-8);
  }
}

// The Jacobian-free product (V/dt + dR/dU) x of the second-order residual against a central
// finite difference with a step a hundred times larger: the same to the truncation error,
// with and without the limiter, and linear in x.
TEST(NewtonLinear, JacobianFreeProductMatchesFiniteDifferences) {
  for (const char* limiter : {"none", "venkat_wang"}) {
    SCOPED_TRACE(limiter);
    ChannelState s({12, 6, 3}, std::string("[scheme]\nlimiter = ") + limiter + "\n");
    fv::SpatialOperator op(s.tz.zone, s.cfg);
    fv::NewtonKrylov nk(op, s.cfg.newton);
    const fv::ZoneView& z = op.view();
    const idx_t n = s.tz.zone.nCells, nt = s.tz.zone.nTotalCells();
    const auto n5 = s.U.size();
    fv::DeviceArray<real_t> U(s.U, "U"), dt(static_cast<std::size_t>(nt), "dt"), x(n5, "x"),
        y(n5, "y"), y2(n5, "y2"), Up(n5, "U+"), Um(n5, "U-"), Rp(n5, "R+"), fd(n5, "fd");
    op.evaluate(U.data(), true);
    op.local_time_step(50.0, dt.data());
    nk.prepare({U.data(), U.data(), dt.data(), -1.0});
    // a smooth direction scaled like the state
    std::vector<real_t> xh(n5, 0.0);
    for (int k = 0; k < 5; ++k)
      for (idx_t c = 0; c < n; ++c)
        xh[k * nt + c] = s.U[k * nt + c] * std::sin(1.5 * s.tz.zone.cellCentroid[3 * c] + k) *
                         std::cos(2.0 * s.tz.zone.cellCentroid[3 * c + 1]);
    x.assign(xh.data());
    nk.multiply(x.data(), y.data());
    // linearity: the product of 3 x is three times the product of x
    fv::kernels::vec_axpby(z, 5, 3.0, x.data(), 0.0, y2.data());
    nk.multiply(y2.data(), Up.data());
    fv::kernels::vec_axpby(z, 5, -3.0, y.data(), 1.0, Up.data());
    const real_t yn = nk.gmres().norm(y.data());
    EXPECT_LT(nk.gmres().norm(Up.data()) / yn, 1e-6);
    // central difference with h = 1e-5 (relative to the state; the limiter's scales are kept).
    // Measured: 3e-7 with and without the limiter (the forward difference's truncation); a step
    // of 1e-4 crosses kinks of the limiter (1e-4 with it).
    const real_t h = 1e-5;
    fv::kernels::vec_axpby(z, 5, 1.0, U.data(), 0.0, Up.data());
    fv::kernels::vec_axpby(z, 5, h, x.data(), 1.0, Up.data());
    fv::kernels::vec_axpby(z, 5, 1.0, U.data(), 0.0, Um.data());
    fv::kernels::vec_axpby(z, 5, -h, x.data(), 1.0, Um.data());
    op.evaluate(Up.data());
    fv::kernels::vec_axpby(z, 5, 1.0, op.residual(), 0.0, Rp.data());
    op.evaluate(Um.data());
    fv::kernels::jfnk_combine(z, 5, dt.data(), -1.0, 2 * h, x.data(), Rp.data(), op.residual(),
                              fd.data());
    fv::kernels::vec_axpby(z, 5, -1.0, y.data(), 1.0, fd.data());
    const real_t rel = nk.gmres().norm(fd.data()) / yn;
    EXPECT_LT(rel, 1e-5) << "|Jx (jfnk) - Jx (central difference)| / |Jx|";
  }
}
