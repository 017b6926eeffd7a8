// fvbench helpers: byte model and the kernel-choice cache file.
#include "bench/fvbench/byte_model.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/kernel_choice_cache.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>

TEST(ByteModel, PointwiseKernelsAndUnknownName) {
  fv::bench::ZoneSizes s;
  s.nc = 1000;
  s.nt = 1000;
  // rk_stage reads dt, V, U0, U, R (1 + 1 + 15 reals) and writes 5 per cell
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("rk_stage", s), 1000.0 * 22 * 8);
  // fused with the flux sum: R (5 per cell) neither written nor read back
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("flux_sum_rk_stage", s),
                   fv::bench::kernel_bytes("flux_sum", s) + fv::bench::kernel_bytes("rk_stage", s) -
                       1000.0 * 10 * 8);
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("primitives", s), 1000.0 * 10 * 8);
  EXPECT_THROW(fv::bench::kernel_bytes("no_such_kernel", s), fv::Error);
}

TEST(ByteModel, CellLoopsReadOffsetsOnlyWhereCountsDiffer) {
  fv::bench::ZoneSizes s;
  s.nc = s.nt = 1000;
  s.nf = 2200;
  s.nfn = 6600;
  const double mixed = fv::bench::kernel_bytes("green_gauss_gradient", s);
  s.uniformFaces = true;
  const double faces = fv::bench::kernel_bytes("green_gauss_gradient", s);
  EXPECT_DOUBLE_EQ(mixed - faces, (2200.0 + 1) * 4);
  // uniform cells too (tetrahedra, hexahedra): no cellFaceOffsets in the cell loops over faces,
  // except the shared-memory flux sum's own kernel
  const double sum = fv::bench::kernel_bytes("flux_sum", s);
  const double fused = fv::bench::kernel_bytes("gradient_and_limiter", s);
  s.uniformCells = true;
  EXPECT_DOUBLE_EQ(faces - fv::bench::kernel_bytes("green_gauss_gradient", s), (1000.0 + 1) * 4);
  EXPECT_DOUBLE_EQ(sum - fv::bench::kernel_bytes("flux_sum", s), (1000.0 + 1) * 4);
  EXPECT_DOUBLE_EQ(fused - fv::bench::kernel_bytes("gradient_and_limiter", s), (1000.0 + 1) * 4);
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("flux_sum_smem", s), sum);
}

// Zones of tetrahedra or hexahedra: the gradient reads U node ids per cell and a 16-bit slot
// word per cell face instead of faceNodes; the fused pass only where kFusedGradientBySlots.
TEST(ByteModel, GradientReadsNodeSlotsWhereTheZoneHasThem) {
  fv::bench::ZoneSizes s;
  s.nc = s.nt = 1000;
  s.nf = 3200;
  s.nfn = 4 * 3200;
  s.ncf = 6000;
  s.uniformFaces = s.uniformCells = true;
  const double faceNodes = fv::bench::kernel_bytes("green_gauss_gradient", s);
  const double fused = fv::bench::kernel_bytes("gradient_and_limiter", s);
  s.nSlotNodes = 8 * 1000.0;
  EXPECT_DOUBLE_EQ(faceNodes - fv::bench::kernel_bytes("green_gauss_gradient", s),
                   4 * 3200.0 * 4 - (8000.0 * 4 + 6000.0 * 2));
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("green_gauss_gradient_face_nodes", s), faceNodes);
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("gradient_and_limiter", s), fused);
  s.fusedSlots = true;
  EXPECT_DOUBLE_EQ(fused - fv::bench::kernel_bytes("gradient_and_limiter", s),
                   4 * 3200.0 * 4 - (8000.0 * 4 + 6000.0 * 2));
}

// With the slot geometry (zones of hexahedra): the face-state pass reads the face offsets and
// neighbours in slot order (3 reals and an id per cell face) instead of both offset arrays of
// every face and cellCells with its offsets; elsewhere it reads those.
TEST(ByteModel, FaceStatePassReadsSlotGeometryOnZonesOfOneCellShape) {
  fv::bench::ZoneSizes s;
  s.nc = s.nt = 1000;
  s.nf = 3200;
  s.nb = 400;
  s.nfn = 4 * 3200;
  s.ncf = 6000;
  s.ncc = 5600;
  s.uniformFaces = true;
  const auto states = [&] {
    return fv::bench::kernel_bytes("gradient_limiter_states", s) -
           fv::bench::kernel_bytes("gradient_and_limiter", s);
  };
  // the gradient and the limiter not stored (20 reals per cell), 5 reals per cell face stored
  EXPECT_DOUBLE_EQ(states(), -20 * 1000.0 * 8 + 5 * 6000.0 * 8);
  s.uniformCells = true;
  EXPECT_DOUBLE_EQ(states(), -20 * 1000.0 * 8 + 5 * 6000.0 * 8);
  s.slotGeometry = true;
  EXPECT_DOUBLE_EQ(states(), -20 * 1000.0 * 8 + 5 * 6000.0 * 8 + 6000.0 * (3 * 8 + 4) -
                                 6 * 3200.0 * 8 - (1000.0 + 1) * 4 - 5600.0 * 4);
}

TEST(ByteModel, ScatterVariantsMoveMoreThanTheirInputs) {
  fv::bench::ZoneSizes s;
  s.nc = s.nt = 1000;
  s.nf = 2200;
  s.nb = 200;
  s.ncf = 4000;
  const double gather = fv::bench::kernel_bytes("flux_sum", s);
  const double atomic = fv::bench::kernel_bytes("flux_sum_atomic", s);
  const double colour = fv::bench::kernel_bytes("flux_sum_colour", s);
  EXPECT_GT(gather, 5 * s.nf * 8); // every face flux read once at least
  EXPECT_GT(colour, atomic);       // the colour list on top of the same traffic
}

TEST(KernelChoiceCache, RoundTripLatestWins) {
  const std::string path = fv::testing::scratch_dir() + "/kernel-choice-test/cache.tsv";
  std::filesystem::remove(path);
  EXPECT_FALSE(fv::lookup_kernel_choice(path, "uuid1", "GPU A"));
  fv::store_kernel_choice(path, "uuid1", "GPU A", "atomic", 1.5, "2026-01-01");
  fv::store_kernel_choice(path, "uuid1", "GPU B", "colour", 2.5, "2026-01-01");
  fv::store_kernel_choice(path, "uuid1", "GPU A", "gather", 1.2, "2026-01-02");
  EXPECT_EQ(fv::lookup_kernel_choice(path, "uuid1", "GPU A").value_or(""), "gather");
  EXPECT_EQ(fv::lookup_kernel_choice(path, "uuid1", "GPU B").value_or(""), "colour");
  EXPECT_FALSE(fv::lookup_kernel_choice(path, "uuid2", "GPU A"));
}

// 50M-cell zones (issue 9) fit the kernels' idx_t index arithmetic (k * n + i with up to 15
// cell components); zones beyond the limit are refused instead of overflowing.
TEST(ZoneSizeLimits, FiftyMillionCellsFitKernelIndexing) {
  // 50M hexahedra: ~3 faces and ~1 node per cell; 50M tetrahedra: 2 faces, 1/6 node per cell
  EXPECT_TRUE(fv::fits_kernel_indexing(50'000'000, 150'600'000, 50'500'000));
  EXPECT_TRUE(fv::fits_kernel_indexing(50'000'000, 100'300'000, 8'600'000));
  EXPECT_TRUE(fv::fits_kernel_indexing(143'165'576, 429'496'729, 429'496'729));
  EXPECT_FALSE(fv::fits_kernel_indexing(143'165'577, 1, 1));
  EXPECT_FALSE(fv::fits_kernel_indexing(1, 429'496'730, 1));
  EXPECT_FALSE(fv::fits_kernel_indexing(1, 1, 429'496'730));
  // the largest index used, 14 * nTotalCells + nTotalCells - 1, is representable at the limit
  const std::int64_t n = 143'165'576;
  EXPECT_LE(14 * n + n - 1, std::int64_t{std::numeric_limits<fv::idx_t>::max()});
}
