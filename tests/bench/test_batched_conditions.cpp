// Batched flow conditions (bench/fvbench/batched_conditions.hpp): the flux sum and the
// Green-Gauss gradient of K states in one pass, with either thread mapping, equal K passes of
// the solver's kernels bit for bit, on shuffled tetrahedral, hexahedral and mixed channels and
// a zone with halo cells.
#include "bench/fvbench/batched_conditions.hpp"
#include "common/error.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/zones.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/device_zone.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using fv::idx_t;
using fv::real_t;

namespace {

fv::Zone make_zone(fv::GenCells cells, int parts) {
  fv::GenOptions g;
  g.family = fv::MeshFamily::Channel;
  g.cells = cells;
  g.n = {9, 6, 5};
  g.perturb = 0.1;
  g.shuffle = true;
  const fv::Mesh mesh = fv::generate_mesh(g);
  std::vector<idx_t> part(mesh.nCells());
  for (idx_t c = 0; c < mesh.nCells(); ++c)
    part[c] = c % parts;
  return std::move(fv::build_zones(mesh, part, parts, fv::PrepOptions{}).front());
}

/// Value (state s, component k, entity i) of an array in the batched layout of stride n.
real_t batched_at(const std::vector<real_t>& a, idx_t n, int K, int k, idx_t i, int s) {
  return a[(static_cast<std::size_t>(k) * n + i) * K + s];
}

bool same_bits(real_t a, real_t b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// Every owned cell's ncomp values of K states: batched (stride nt) against K solver arrays.
void expect_equal_states(const std::vector<real_t>& bat, const std::vector<real_t>& seq, idx_t nc,
                         idx_t nt, int ncomp, int K, const char* what) {
  int bad = 0;
  for (int s = 0; s < K; ++s)
    for (int k = 0; k < ncomp; ++k)
      for (idx_t c = 0; c < nc; ++c) {
        const real_t a = batched_at(bat, nt, K, k, c, s);
        const real_t b = seq[(static_cast<std::size_t>(s) * ncomp + k) * nt + c];
        if (!same_bits(a, b) && ++bad <= 3)
          ADD_FAILURE() << what << " K=" << K << ": state " << s << " component " << k << " cell "
                        << c << ": " << a << " against " << b;
      }
  EXPECT_EQ(bad, 0) << what << " K=" << K;
}

void check_zone(const fv::Zone& z, bool expectGradient) {
  const fv::DeviceZone dz(z);
  const fv::ZoneView& v = dz.view();
  const idx_t nc = z.nCells, nt = z.nTotalCells(), nf = z.nFaces, nn = z.nNodes;
  for (int K : {1, 2, 4, 8}) {
    SCOPED_TRACE("K = " + std::to_string(K));
    // the flux sum: batched and outer against K solver passes
    const std::size_t fs = 5 * static_cast<std::size_t>(nf), rs = 5 * static_cast<std::size_t>(nt);
    fv::DeviceArray<real_t> fluxSeq(K * fs), fluxBat(K * fs), rSeq(K * rs), rBat(K * rs),
        rOut(K * rs);
    fv::bench::fill_states(nf, 5, K, false, fluxSeq.data());
    fv::bench::fill_states(nf, 5, K, true, fluxBat.data());
    // the two layouts hold the same values
    const std::vector<real_t> fS = fluxSeq.to_host(), fB = fluxBat.to_host();
    for (int s = 0; s < K; ++s)
      ASSERT_TRUE(same_bits(fS[s * fs + 3 * static_cast<std::size_t>(nf) + nf / 2],
                            batched_at(fB, nf, K, 3, nf / 2, s)));
    for (int s = 0; s < K; ++s)
      fv::kernels::flux_sum<5>(v, fluxSeq.data() + s * fs, rSeq.data() + s * rs);
    fv::bench::flux_sum_batched_outer(v, K, fluxSeq.data(), fs, rOut.data(), rs);
    const std::vector<real_t> seq = rSeq.to_host();
    for (const auto m : {fv::bench::BatchMapping::PerState, fv::bench::BatchMapping::PerEntity}) {
      fv::bench::flux_sum_batched(v, K, fluxBat.data(), rBat.data(), m);
      expect_equal_states(rBat.to_host(), seq, nc, nt, 5, K, "flux_sum batched");
    }
    expect_equal_states(rOut.to_host(), seq, nc, nt, 5 * K, 1, "flux_sum outer");
    // the states differ (the comparison is not of K copies of one state)
    if (K > 1) {
      EXPECT_NE(seq[static_cast<std::size_t>(nc) / 2], seq[rs + nc / 2]);
    }

    // the Green-Gauss gradient through the node slots
    const std::size_t ws = 5 * static_cast<std::size_t>(nn), gs = 15 * static_cast<std::size_t>(nt);
    fv::DeviceArray<real_t> wnSeq(K * ws), wnBat(K * ws), gSeq(K * gs), gBat(K * gs);
    fv::bench::fill_states(nn, 5, K, false, wnSeq.data());
    fv::bench::fill_states(nn, 5, K, true, wnBat.data());
    for (int s = 0; s < K; ++s)
      fv::kernels::green_gauss_gradient<5>(v, wnSeq.data() + s * ws, gSeq.data() + s * gs);
    const std::vector<real_t> gradSeq = gSeq.to_host();
    for (const auto m : {fv::bench::BatchMapping::PerState, fv::bench::BatchMapping::PerEntity}) {
      ASSERT_EQ(fv::bench::green_gauss_gradient_batched(v, K, wnBat.data(), gBat.data(), m),
                expectGradient);
      if (expectGradient)
        expect_equal_states(gBat.to_host(), gradSeq, nc, nt, 15, K, "gradient batched");
    }
  }
}

TEST(BatchedConditions, TetrahedraEqualSequentialPasses) {
  check_zone(make_zone(fv::GenCells::Tet, 1), true);
}

TEST(BatchedConditions, HexahedraEqualSequentialPasses) {
  check_zone(make_zone(fv::GenCells::Hex, 1), true);
}

TEST(BatchedConditions, MixedCellsSumThroughOffsetsAndHaveNoSlotGradient) {
  check_zone(make_zone(fv::GenCells::Mixed, 1), false);
}

TEST(BatchedConditions, ZoneWithHaloCells) { // halo cells: stride nTotalCells > nCells
  const fv::Zone z = make_zone(fv::GenCells::Hex, 3);
  ASSERT_GT(z.nTotalCells(), z.nCells);
  check_zone(z, true);
}

TEST(BatchedConditions, UnsupportedBatchSizeIsRefused) {
  const fv::Zone z = make_zone(fv::GenCells::Tet, 1);
  const fv::DeviceZone dz(z);
  fv::DeviceArray<real_t> a(5 * 3 * static_cast<std::size_t>(z.nFaces)),
      r(5 * 3 * static_cast<std::size_t>(z.nTotalCells()));
  EXPECT_THROW(fv::bench::flux_sum_batched(dz.view(), 3, a.data(), r.data()), fv::Error);
  EXPECT_FALSE(fv::bench::is_batch_size(3));
  EXPECT_TRUE(fv::bench::is_batch_size(8));
}

} // namespace
