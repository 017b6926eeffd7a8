// Every residual-assembly variant (atomics, face colouring, fused face loops) gives the residual
// of the solver's default cell gather to 1e-12 relative, on shuffled generated meshes of several
// cell kinds, with one zone and with several (halo cells must receive no residual).
#include "bench/fvbench/assembly_variants.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/zones.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/device_zone.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using fv::idx_t;
using fv::real_t;
using fv::bench::FluxSumVariant;

namespace {

std::vector<fv::Zone> make_zones(fv::GenCells cells, int parts) {
  fv::GenOptions g;
  g.family = fv::MeshFamily::Channel;
  g.cells = cells;
  g.n = {10, 6, 5};
  g.perturb = 0.1;
  g.shuffle = true;
  const fv::Mesh mesh = fv::generate_mesh(g);
  std::vector<idx_t> part(mesh.nCells());
  for (idx_t c = 0; c < mesh.nCells(); ++c)
    part[c] = c % parts; // scattered parts: many interface faces and halo cells
  return fv::build_zones(mesh, part, parts, fv::PrepOptions{});
}

struct Fields {
  explicit Fields(const fv::Zone& z)
      : nt(z.nTotalCells()), W(5 * static_cast<std::size_t>(nt), "W"),
        Wn(5 * static_cast<std::size_t>(z.nNodes), "Wn"), grad(15 * static_cast<std::size_t>(nt)),
        phi(5 * static_cast<std::size_t>(nt)), flux(5 * static_cast<std::size_t>(z.nFaces)),
        R(5 * static_cast<std::size_t>(nt)) {}
  idx_t nt;
  fv::DeviceArray<real_t> W, Wn, grad, phi, flux, R;
};

/// A smooth non-uniform primitive state on every cell (halo included).
std::vector<real_t> state(const fv::Zone& z) {
  const idx_t nt = z.nTotalCells();
  std::vector<real_t> W(5 * static_cast<std::size_t>(nt));
  for (idx_t c = 0; c < nt; ++c) {
    const real_t* x = &z.cellCentroid[3 * c];
    const real_t s = std::sin(2.0 * x[0]) * std::cos(3.0 * x[1]) + 0.5 * std::sin(5.0 * x[2]);
    const real_t w[5] = {1.0 + 0.1 * s, 0.6 + 0.2 * s, 0.1 * s, 0.05, 0.7 + 0.1 * s};
    for (int k = 0; k < 5; ++k)
      W[k * static_cast<std::size_t>(nt) + c] = w[k];
  }
  return W;
}

/// Checks every variant against gather on the active device; returns gather's residual.
std::vector<real_t> check_zone(const fv::Zone& z, bool secondOrder) {
  EXPECT_FALSE(z.faceColours.offsets().empty()) << "fvprep's zones carry a face colouring";
  const fv::DeviceZone dz(z);
  const fv::ZoneView& v = dz.view();
  Fields f(z);
  f.W.assign(state(z).data());
  fv::kernels::FluxSettings s;
  s.secondOrder = secondOrder;
  fv::kernels::LimiterScales scales;
  if (secondOrder) {
    fv::kernels::interpolate_to_nodes<fv::phys::EulerModel::kNumVars>(v, f.W.data(), f.Wn.data());
    fv::kernels::green_gauss_gradient<fv::phys::EulerModel::kNumVars>(v, f.Wn.data(),
                                                                      f.grad.data());
    fv::kernels::limiter<fv::phys::EulerModel::kNumVars>(v, fv::kernels::Limiter::Venkat, 5.0,
                                                         scales, f.W.data(), f.grad.data(), nullptr,
                                                         f.phi.data());
  }
  fv::phys::BcParams bc;
  bc.ref[0] = 1.0;
  bc.ref[1] = 0.6;
  bc.ref[4] = 0.7;
  const fv::kernels::PatchTable patches({0, z.nBoundaryFaces}, {bc});
  fv::kernels::boundary_fluxes<fv::phys::EulerModel>(v, patches.view(), s, f.W.data(),
                                                     f.grad.data(), f.phi.data(), f.flux.data());
  fv::DeviceArray<idx_t> cf(z.faceColours.indices(), "colours");
  fv::bench::FaceColouring colours;
  colours.offsets.assign(z.faceColours.offsets().begin(), z.faceColours.offsets().end());
  colours.faces = cf.data();

  fv::bench::residual_with(FluxSumVariant::Gather, v, colours, s, f.W.data(), f.grad.data(),
                           f.phi.data(), f.flux.data(), f.R.data());
  const std::vector<real_t> ref = f.R.to_host();
  const std::size_t nt = static_cast<std::size_t>(z.nTotalCells());
  real_t scale[5] = {0, 0, 0, 0, 0};
  for (int k = 0; k < 5; ++k)
    for (idx_t c = 0; c < z.nCells; ++c)
      scale[k] = std::max(scale[k], std::fabs(ref[k * nt + c]));
  for (int k = 0; k < 5; ++k)
    EXPECT_GT(scale[k], 1e-8) << "the test state must give a non-trivial residual";

  for (FluxSumVariant var : fv::bench::flux_sum_variants()) {
    SCOPED_TRACE(fv::bench::to_string(var));
    // poison R (owned and halo) so that a variant that misses a cell or writes halo cells shows
    std::vector<real_t> poison(5 * nt, 1e30);
    f.R.assign(poison.data());
    fv::bench::residual_with(var, v, colours, s, f.W.data(), f.grad.data(), f.phi.data(),
                             f.flux.data(), f.R.data());
    const std::vector<real_t> r = f.R.to_host();
    for (int k = 0; k < 5; ++k) {
      real_t worst = 0;
      for (idx_t c = 0; c < z.nCells; ++c)
        worst = std::max(worst, std::fabs(r[k * nt + c] - ref[k * nt + c]));
      EXPECT_LE(worst / scale[k], 1e-12) << "component " << k;
      // smem adds the same terms in the same order as gather: bitwise equal
      if (var == FluxSumVariant::Smem) {
        EXPECT_EQ(worst, 0.0) << "component " << k;
      }
      for (std::size_t c = z.nCells; c < nt; ++c)
        EXPECT_EQ(r[k * nt + c], 1e30) << "halo cell " << c << " was written";
    }
  }
  return ref;
}

} // namespace

TEST(FluxSumVariants, SameResidualAsGatherOneZone) {
  for (fv::GenCells cells : {fv::GenCells::Tet, fv::GenCells::Hex, fv::GenCells::Mixed}) {
    SCOPED_TRACE(fv::to_string(cells));
    const auto zones = make_zones(cells, 1);
    check_zone(zones.at(0), true);
  }
}

TEST(FluxSumVariants, SameResidualAsGatherFirstOrder) {
  const auto zones = make_zones(fv::GenCells::Prism, 1);
  check_zone(zones.at(0), false);
}

TEST(FluxSumVariants, OwnedCellsOnlyWithHalos) {
  const auto zones = make_zones(fv::GenCells::Tet, 3);
  for (const fv::Zone& z : zones) {
    ASSERT_GT(z.nHaloCells, 0);
    check_zone(z, true);
  }
}

TEST(FluxSumVariants, Names) {
  for (FluxSumVariant var : fv::bench::flux_sum_variants())
    EXPECT_EQ(fv::bench::parse_flux_sum_variant(fv::bench::to_string(var)), var);
  EXPECT_THROW(fv::bench::parse_flux_sum_variant("scatter"), fv::Error);
}

// On a GPU (CUDA build on a GPU machine; skipped elsewhere): the variants agree there too (real
// FP64 atomics), and the GPU residual matches the CPU one to rounding.
TEST(FluxSumVariants, GpuMatchesCpu) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (CPU-only build or no GPU)";
  const auto zones = make_zones(fv::GenCells::Mixed, 1);
  fv::select_device(fv::DeviceRequest::Cpu);
  const std::vector<real_t> cpu = check_zone(zones.at(0), true);
  fv::select_device(fv::DeviceRequest::Cuda);
  const std::vector<real_t> gpu = check_zone(zones.at(0), true);
  fv::select_device(fv::DeviceRequest::Cpu);
  ASSERT_EQ(cpu.size(), gpu.size());
  const std::size_t nt = static_cast<std::size_t>(zones.at(0).nTotalCells());
  for (int k = 0; k < 5; ++k) {
    real_t scale = 0, worst = 0;
    for (std::size_t c = 0; c < static_cast<std::size_t>(zones.at(0).nCells); ++c) {
      scale = std::max(scale, std::fabs(cpu[k * nt + c]));
      worst = std::max(worst, std::fabs(cpu[k * nt + c] - gpu[k * nt + c]));
    }
    EXPECT_LE(worst / scale, 1e-12) << "component " << k;
  }
}

// smem on synthetic connectivity: blocks whose cell-face entries exceed the staging capacity
// (here the first block, 12 entries per cell) read global memory and still equal the gather.
TEST(FluxSumVariants, SmemStagedAndUnstagedBlocksEqualGather) {
  const idx_t nCells = 3 * fv::kernels::kSmemCells + 17, nFaces = 997;
  std::vector<idx_t> offsets{0}, faces;
  std::vector<std::int8_t> sign;
  std::uint32_t seed = 12345;
  auto rnd = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (idx_t c = 0; c < nCells; ++c) {
    const int m = c < fv::kernels::kSmemCells ? 12 : 4 + static_cast<int>(rnd() % 3);
    for (int j = 0; j < m; ++j) {
      faces.push_back(static_cast<idx_t>(rnd() % nFaces));
      sign.push_back(rnd() % 2 ? 1 : -1);
    }
    offsets.push_back(static_cast<idx_t>(faces.size()));
  }
  ASSERT_GT(12 * fv::kernels::kSmemCells, fv::kernels::kSmemEntries);
  std::vector<real_t> flux(5 * static_cast<std::size_t>(nFaces));
  for (auto& x : flux)
    x = static_cast<real_t>(rnd() % 100000) / 997.0 - 50.0;
  const fv::DeviceArray<idx_t> dOff(offsets, "offsets"), dFaces(faces, "faces");
  const fv::DeviceArray<std::int8_t> dSign(sign, "sign");
  const fv::DeviceArray<real_t> dFlux(flux, "flux");
  fv::ZoneView v;
  v.nTotalCells = nCells + 5; // 5 "halo" cells that must not be written
  v.nCells = nCells;
  v.nFaces = nFaces;
  v.cellFaceOffsets = dOff.data();
  v.cellFaces = dFaces.data();
  v.cellFaceSign = dSign.data();
  std::vector<real_t> poison(5 * static_cast<std::size_t>(v.nTotalCells), 1e30);
  fv::DeviceArray<real_t> Rg(poison, "Rg"), Rs(poison, "Rs");
  fv::kernels::flux_sum<fv::phys::EulerModel::kNumVars>(v, dFlux.data(), Rg.data());
  fv::kernels::flux_sum_shared(v, dFlux.data(), Rs.data());
  const auto g = Rg.to_host(), s = Rs.to_host();
  ASSERT_EQ(g.size(), s.size());
  for (std::size_t i = 0; i < g.size(); ++i)
    ASSERT_EQ(s[i], g[i]) << "entry " << i;
  EXPECT_EQ(s[nCells], 1e30); // halo untouched
  EXPECT_NE(s[0], 1e30);
}
