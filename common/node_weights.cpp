#include "common/node_weights.hpp"

#include <cmath>
#include <cstdint>

namespace fv {

std::vector<real_t> linear_exact_node_weights(const Csr& nc, const real_t* weight,
                                              const real_t* nodeXyz, const real_t* cellCentroid,
                                              const NodeSum& sum_nodes) {
  const idx_t nN = nc.rows();
  std::vector<real_t> w(static_cast<std::size_t>(nc.nnz()));
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
  for (std::int64_t j = 0; j < nc.nnz(); ++j)
    w[static_cast<std::size_t>(j)] = weight[j];
  // partial sums: R (3) and the symmetric I (6: xx yy zz xy xz yz) per node
  std::vector<real_t> s(9 * static_cast<std::size_t>(nN), 0.0);
  auto at = [&](int k, idx_t n) -> real_t& { return s[static_cast<std::size_t>(k) * nN + n]; };
  // Every loop below works node by node: threads (OpenMP) give the same result as one.
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
  for (idx_t n = 0; n < nN; ++n)
    for (idx_t j = nc.begin(n); j < nc.end(n); ++j) {
      const idx_t c = nc.indices()[j];
      real_t d[3];
      for (int k = 0; k < 3; ++k)
        d[k] = cellCentroid[3 * c + k] - nodeXyz[3 * n + k];
      const real_t wc = weight[j];
      for (int k = 0; k < 3; ++k)
        at(k, n) += wc * d[k];
      at(3, n) += wc * d[0] * d[0];
      at(4, n) += wc * d[1] * d[1];
      at(5, n) += wc * d[2] * d[2];
      at(6, n) += wc * d[0] * d[1];
      at(7, n) += wc * d[0] * d[2];
      at(8, n) += wc * d[1] * d[2];
    }
  if (sum_nodes) sum_nodes(s, 9);
  // lambda and the normalisation per node (from the global sums: the same in every zone)
  std::vector<real_t> lam(4 * static_cast<std::size_t>(nN), 0.0); // lambda (3), norm
  std::vector<char> use(static_cast<std::size_t>(nN), 0);
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
  for (idx_t n = 0; n < nN; ++n) {
    const real_t R[3] = {at(0, n), at(1, n), at(2, n)};
    const real_t a = at(3, n), b = at(6, n), c = at(7, n), e = at(4, n), f = at(8, n), i = at(5, n);
    // I = [a b c; b e f; c f i]; inverse by cofactors
    const real_t A = e * i - f * f, B = -(b * i - c * f), C = b * f - c * e;
    const real_t det = a * A + b * B + c * C;
    const real_t scale = a + e + i;
    // near-planar cell sets (faces and edges of hex boxes) would need huge, cancelling
    // weights: keep the inverse-distance weights there
    if (!(scale > 0) || std::fabs(det) < 1e-9 * scale * scale * scale) continue;
    const real_t D = -(b * i - f * c), E = a * i - c * c, F = -(a * f - b * c);
    const real_t G = b * f - e * c, H = -(a * f - c * b), K = a * e - b * b;
    // inverse rows (symmetric): [A D G; B E H; C F K] / det
    real_t* l = &lam[4 * static_cast<std::size_t>(n)];
    l[0] = -(A * R[0] + D * R[1] + G * R[2]) / det;
    l[1] = -(B * R[0] + E * R[1] + H * R[2]) / det;
    l[2] = -(C * R[0] + F * R[1] + K * R[2]) / det;
    l[3] = 1.0 + l[0] * R[0] + l[1] * R[1] + l[2] * R[2];
    if (!(l[3] > 1e-3)) continue; // degenerate: keep the inverse-distance weights
    use[n] = 1;
  }
  auto factor = [&](idx_t n, idx_t cell) {
    const real_t* l = &lam[4 * static_cast<std::size_t>(n)];
    real_t ld = 0;
    for (int k = 0; k < 3; ++k)
      ld += l[k] * (cellCentroid[3 * cell + k] - nodeXyz[3 * n + k]);
    return (1.0 + ld) / l[3];
  };
  // Holmes & Connell bound the correction: weights may change by a factor in (-10, 10). The
  // bound is checked over ALL cells of the node: zones count their own violations and add them
  // (a node shared by zones must get the corrected or the plain weights in every zone).
  std::vector<real_t> out(static_cast<std::size_t>(nN), 0.0);
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
  for (idx_t n = 0; n < nN; ++n)
    if (use[n])
      for (idx_t j = nc.begin(n); j < nc.end(n); ++j) {
        const real_t fac = factor(n, nc.indices()[j]);
        if (!(fac > -10.0 && fac < 10.0)) out[n] += 1.0;
      }
  if (sum_nodes) sum_nodes(out, 1);
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
  for (idx_t n = 0; n < nN; ++n) {
    if (!use[n] || out[n] > 0) continue;
    for (idx_t j = nc.begin(n); j < nc.end(n); ++j)
      w[j] = weight[j] * factor(n, nc.indices()[j]);
  }
  return w;
}

} // namespace fv
