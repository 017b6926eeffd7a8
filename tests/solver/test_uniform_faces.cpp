// Cell loops of a zone whose cells all have the same number of faces and whose faces all have
// the same number of nodes (ZoneViewCommon::cellFaceCount / faceNodeCount: 4 and 3 on
// tetrahedra, 6 and 4 on hexahedra; kernels/cell_shape.hpp) read no offsets and unroll their
// loops; they must give bitwise the gradient, the limiter and the flux sum of the general path
// (counts 0), which zones with mixed cells keep. Runs on the backend the build has
// (test_solver_backends compares the GPU with the CPU on such zones).
#include "bench/fvbench/byte_model.hpp"
#include "prep/generate_mesh.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/device_zone.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using fv::idx_t;
using fv::real_t;

namespace {

fv::Zone box_zone(fv::GenCells cells) {
  fv::GenOptions o;
  o.cells = cells;
  o.n = {6, 5, 4};
  o.perturb = 0.2;
  o.shuffle = true;
  return fv::testing::zone_from_mesh(fv::generate_mesh(o));
}

/// A smooth field of 5 components with a steep front in x (so that the limiter acts), at the
/// points xyz (3 per point).
std::vector<real_t> field(const real_t* xyz, idx_t n) {
  std::vector<real_t> f(5 * static_cast<std::size_t>(n));
  for (idx_t i = 0; i < n; ++i) {
    const real_t x = xyz[3 * i], y = xyz[3 * i + 1], z = xyz[3 * i + 2];
    for (int k = 0; k < 5; ++k)
      f[static_cast<std::size_t>(k) * n + i] =
          1.0 + 0.1 * k + std::tanh(8.0 * (x - 0.5) + k * y) + 0.3 * std::sin(3.0 * z + k);
  }
  return f;
}

struct GradientAndLimiter {
  std::vector<real_t> grad, phi, gradOnly, phiOnly, fluxSum;
};

GradientAndLimiter evaluate(const fv::ZoneView& v, const fv::DeviceArray<real_t>& Wn,
                            const fv::DeviceArray<real_t>& W) {
  const std::size_t nt = static_cast<std::size_t>(v.nTotalCells);
  const std::vector<real_t> zeros(15 * nt, 0.0);
  fv::DeviceArray<real_t> grad(zeros, "grad"), g2(zeros, "g2"),
      phi(std::vector<real_t>(5 * nt, 0.0), "phi");
  fv::kernels::gradient_and_limiter<5>(v, Wn.data(), fv::kernels::Limiter::Venkat, 0.5,
                                       fv::kernels::LimiterScales{}, W.data(), nullptr, grad.data(),
                                       phi.data());
  fv::kernels::green_gauss_gradient<5>(v, Wn.data(), g2.data());
  fv::DeviceArray<real_t> p2(std::vector<real_t>(5 * nt, 0.0), "p2");
  fv::kernels::limiter<5>(v, fv::kernels::Limiter::Venkat, 0.5, fv::kernels::LimiterScales{},
                          W.data(), grad.data(), nullptr, p2.data());
  // a stand-in face flux: the gradient array read as 5 values per face
  std::vector<real_t> flux(5 * static_cast<std::size_t>(v.nFaces));
  const std::vector<real_t> gh = grad.to_host();
  for (std::size_t i = 0; i < flux.size(); ++i)
    flux[i] = gh[i % gh.size()] + 1e-3 * static_cast<real_t>(i % 7);
  const fv::DeviceArray<real_t> F(flux, "flux");
  fv::DeviceArray<real_t> R(std::vector<real_t>(5 * nt, 0.0), "R");
  fv::kernels::flux_sum<5>(v, F.data(), R.data());
  return {gh, phi.to_host(), g2.to_host(), p2.to_host(), R.to_host()};
}

} // namespace

TEST(UniformFaces, DeviceZoneSetsTheCountsOnlyWhenEveryCellOrFaceHasThem) {
  const auto counts = [](fv::GenCells cells) {
    const fv::DeviceZone dz(box_zone(cells));
    return std::pair<idx_t, idx_t>{dz.view().cellFaceCount, dz.view().faceNodeCount};
  };
  EXPECT_EQ(counts(fv::GenCells::Tet), (std::pair<idx_t, idx_t>{4, 3}));
  EXPECT_EQ(counts(fv::GenCells::Hex), (std::pair<idx_t, idx_t>{6, 4}));
  EXPECT_EQ(counts(fv::GenCells::Prism), (std::pair<idx_t, idx_t>{5, 0}));
  EXPECT_EQ(counts(fv::GenCells::Mixed), (std::pair<idx_t, idx_t>{0, 0}));
}

// fvbench's byte model leaves out the offsets exactly where the kernels are dispatched on a
// shape that does not read them.
TEST(UniformFaces, ByteModelFollowsTheKernelsShape) {
  const auto flags = [](fv::GenCells cells) {
    const fv::bench::ZoneSizes s = fv::bench::zone_sizes(box_zone(cells), 0);
    return std::pair<bool, bool>{s.uniformCells, s.uniformFaces};
  };
  EXPECT_EQ(flags(fv::GenCells::Tet), (std::pair<bool, bool>{true, true}));
  EXPECT_EQ(flags(fv::GenCells::Hex), (std::pair<bool, bool>{true, true}));
  EXPECT_EQ(flags(fv::GenCells::Prism), (std::pair<bool, bool>{false, false}));
  EXPECT_EQ(flags(fv::GenCells::Mixed), (std::pair<bool, bool>{false, false}));
}

TEST(UniformFaces, ByteModelCountsTheNodeSlotsTheKernelsRead) {
  const auto slots = [](fv::GenCells cells) {
    const fv::Zone zone = box_zone(cells);
    const fv::bench::ZoneSizes s = fv::bench::zone_sizes(zone, 0);
    return std::pair<double, bool>{s.nSlotNodes / zone.nCells, s.fusedSlots};
  };
  EXPECT_EQ(slots(fv::GenCells::Tet), (std::pair<double, bool>{4, true}));
  EXPECT_EQ(slots(fv::GenCells::Hex), (std::pair<double, bool>{8, false}));
  EXPECT_EQ(slots(fv::GenCells::Prism), (std::pair<double, bool>{0, false}));
  EXPECT_EQ(slots(fv::GenCells::Mixed), (std::pair<double, bool>{0, false}));
}

TEST(UniformFaces, GradientLimiterAndFluxSumAreBitwiseThoseOfTheGeneralPath) {
  for (const auto cells : {fv::GenCells::Tet, fv::GenCells::Hex}) {
    SCOPED_TRACE(cells == fv::GenCells::Tet ? "tetrahedra" : "hexahedra");
    const fv::Zone zone = box_zone(cells);
    const fv::DeviceZone dz(zone);
    const fv::ZoneView uniform = dz.view();
    ASSERT_GT(uniform.faceNodeCount, 0);
    ASSERT_GT(uniform.cellFaceCount, 0);
    fv::ZoneView general = uniform;
    general.faceNodeCount = 0;
    general.cellFaceCount = 0;
    const fv::DeviceArray<real_t> Wn(field(zone.nodeXyz.data(), zone.nNodes), "Wn");
    const fv::DeviceArray<real_t> W(field(zone.cellCentroid.data(), zone.nTotalCells()), "W");
    const GradientAndLimiter a = evaluate(uniform, Wn, W), b = evaluate(general, Wn, W);
    const std::size_t nt = static_cast<std::size_t>(zone.nTotalCells());
    const std::size_t n15 = 15 * static_cast<std::size_t>(zone.nCells);
    std::size_t limited = 0, nonzero = 0;
    for (std::size_t i = 0; i < 15 * nt; ++i) {
      const std::size_t c = i % nt;
      if (c >= static_cast<std::size_t>(zone.nCells)) continue; // owned cells only
      ASSERT_EQ(a.grad[i], b.grad[i]) << "gradient entry " << i;
      ASSERT_EQ(a.gradOnly[i], b.gradOnly[i]) << "green_gauss_gradient entry " << i;
      ASSERT_EQ(a.grad[i], a.gradOnly[i]) << "fused and separate gradient, entry " << i;
      nonzero += a.grad[i] != 0.0;
    }
    for (std::size_t k = 0; k < 5; ++k)
      for (idx_t c = 0; c < zone.nCells; ++c) {
        const std::size_t i = k * nt + static_cast<std::size_t>(c);
        ASSERT_EQ(a.phi[i], b.phi[i]) << "limiter entry " << i;
        ASSERT_EQ(a.phiOnly[i], b.phiOnly[i]) << "separate limiter entry " << i;
        ASSERT_EQ(a.phi[i], a.phiOnly[i]) << "fused and separate limiter, entry " << i;
        ASSERT_EQ(a.fluxSum[i], b.fluxSum[i]) << "flux sum entry " << i;
        limited += a.phi[i] < 1.0;
      }
    EXPECT_GT(nonzero, n15 / 2) << "the field must have a gradient";
    EXPECT_GT(limited, 0u) << "the front must switch the limiter on somewhere";
  }
}

// The node slots (ZoneViewCommon::cellLocalNodes, cellFaceNodeSlots) name, for every face of
// every owned cell, the face's own nodes in faceNodes order; a cell with other than U distinct
// nodes leaves the zone without them.
TEST(UniformFaces, NodeSlotsReproduceEveryFacesNodes) {
  for (const auto cells : {fv::GenCells::Tet, fv::GenCells::Hex}) {
    SCOPED_TRACE(cells == fv::GenCells::Tet ? "tetrahedra" : "hexahedra");
    fv::Zone zone = box_zone(cells);
    const idx_t F = zone.cellFaces.uniform_row_size(), K = zone.faceNodes.uniform_row_size();
    const idx_t U = F * K / 3;
    const auto [nodes, slots] = fv::DeviceZone(zone).node_slots();
    ASSERT_EQ(nodes.size(), static_cast<std::size_t>(U * zone.nCells));
    ASSERT_EQ(slots.size(), static_cast<std::size_t>(F * zone.nCells));
    for (idx_t c = 0; c < zone.nCells; ++c) {
      const idx_t* cn = nodes.data() + U * c;
      for (idx_t a = 0; a < U; ++a)
        for (idx_t b = a + 1; b < U; ++b)
          ASSERT_NE(cn[a], cn[b]) << "cell " << c;
      for (idx_t j = 0; j < F; ++j) {
        const idx_t f = zone.cellFaces.row(c)[j];
        for (idx_t m = 0; m < K; ++m) {
          const unsigned u = (slots[static_cast<std::size_t>(F * c + j)] >> (4 * m)) & 15u;
          ASSERT_LT(u, static_cast<unsigned>(U));
          ASSERT_EQ(cn[u], zone.faceNodes.row(f)[m]) << "cell " << c << " face " << j;
        }
      }
    }
    // a face node of cell 0 replaced by a node of no face of cell 0: U + 1 distinct nodes
    const idx_t f0 = zone.cellFaces.row(0)[0];
    idx_t far = 0;
    for (idx_t n = 0; n < zone.nNodes; ++n)
      if (std::find(nodes.begin(), nodes.begin() + U, n) == nodes.begin() + U) far = n;
    zone.faceNodes.indices()[zone.faceNodes.offsets()[f0]] = far;
    const fv::DeviceZone degenerate(zone);
    EXPECT_EQ(degenerate.view().cellLocalNodes, nullptr);
    EXPECT_TRUE(degenerate.node_slots().first.empty());
  }
  for (const auto cells : {fv::GenCells::Prism, fv::GenCells::Mixed})
    EXPECT_EQ(fv::DeviceZone(box_zone(cells)).view().cellLocalNodes, nullptr);
}

TEST(UniformFaces, GradientThroughNodeSlotsIsBitwiseThatOfTheFaceNodes) {
  for (const auto cells : {fv::GenCells::Tet, fv::GenCells::Hex}) {
    SCOPED_TRACE(cells == fv::GenCells::Tet ? "tetrahedra" : "hexahedra");
    const fv::Zone zone = box_zone(cells);
    const fv::DeviceZone dz(zone);
    const fv::ZoneView slots = dz.view();
    ASSERT_NE(slots.cellLocalNodes, nullptr);
    fv::ZoneView faceNodes = slots;
    faceNodes.cellLocalNodes = nullptr;
    faceNodes.cellFaceNodeSlots = nullptr;
    const fv::DeviceArray<real_t> Wn(field(zone.nodeXyz.data(), zone.nNodes), "Wn");
    const fv::DeviceArray<real_t> W(field(zone.cellCentroid.data(), zone.nTotalCells()), "W");
    const GradientAndLimiter a = evaluate(slots, Wn, W), b = evaluate(faceNodes, Wn, W);
    const std::size_t nt = static_cast<std::size_t>(zone.nTotalCells());
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < 15 * nt; ++i) {
      if (i % nt >= static_cast<std::size_t>(zone.nCells)) continue; // owned cells only
      ASSERT_EQ(a.grad[i], b.grad[i]) << "gradient entry " << i;
      ASSERT_EQ(a.gradOnly[i], b.gradOnly[i]) << "green_gauss_gradient entry " << i;
      nonzero += a.grad[i] != 0.0;
    }
    for (std::size_t k = 0; k < 5; ++k)
      for (idx_t c = 0; c < zone.nCells; ++c)
        ASSERT_EQ(a.phi[k * nt + static_cast<std::size_t>(c)],
                  b.phi[k * nt + static_cast<std::size_t>(c)])
            << "limiter, cell " << c;
    EXPECT_GT(nonzero, 15 * static_cast<std::size_t>(zone.nCells) / 2);
  }
}
