// The Green-Gauss gradient of a zone whose faces all have the same node count
// (ZoneViewCommon::faceNodeCount: 3 on tetrahedra, 4 on hexahedra) reads each face's nodes
// without faceNodeOffsets and unrolls the node loop; it must give bitwise the gradient and the
// limiter of the general path (count 0), which zones with mixed faces keep. Runs on the backend
// the build has (test_solver_backends compares the GPU with the CPU on such zones).
#include "prep/generate_mesh.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/device_zone.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>
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
  std::vector<real_t> grad, phi, gradOnly;
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
  return {grad.to_host(), phi.to_host(), g2.to_host()};
}

} // namespace

TEST(UniformFaces, DeviceZoneSetsTheCountOnlyWhenEveryFaceHasIt) {
  EXPECT_EQ(fv::DeviceZone(box_zone(fv::GenCells::Tet)).view().faceNodeCount, 3);
  EXPECT_EQ(fv::DeviceZone(box_zone(fv::GenCells::Hex)).view().faceNodeCount, 4);
  EXPECT_EQ(fv::DeviceZone(box_zone(fv::GenCells::Prism)).view().faceNodeCount, 0);
  EXPECT_EQ(fv::DeviceZone(box_zone(fv::GenCells::Mixed)).view().faceNodeCount, 0);
}

TEST(UniformFaces, GradientAndLimiterAreBitwiseThoseOfTheGeneralPath) {
  for (const auto cells : {fv::GenCells::Tet, fv::GenCells::Hex}) {
    SCOPED_TRACE(cells == fv::GenCells::Tet ? "tetrahedra" : "hexahedra");
    const fv::Zone zone = box_zone(cells);
    const fv::DeviceZone dz(zone);
    const fv::ZoneView uniform = dz.view();
    ASSERT_GT(uniform.faceNodeCount, 0);
    fv::ZoneView general = uniform;
    general.faceNodeCount = 0;
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
        limited += a.phi[i] < 1.0;
      }
    EXPECT_GT(nonzero, n15 / 2) << "the field must have a gradient";
    EXPECT_GT(limited, 0u) << "the front must switch the limiter on somewhere";
  }
}
