// fvbench helpers: byte model and the kernel-choice cache file.
#include "runtime/bench/byte_model.hpp"
#include "runtime/bench/kernel_choice_cache.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

TEST(ByteModel, PointwiseKernelsAndUnknownName) {
  fv::bench::ZoneSizes s;
  s.nc = 1000;
  s.nt = 1000;
  // rk_stage reads dt, V, U0, U, R (1 + 1 + 15 reals) and writes 5 per cell
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("rk_stage", s), 1000.0 * 22 * 8);
  EXPECT_DOUBLE_EQ(fv::bench::kernel_bytes("primitives", s), 1000.0 * 10 * 8);
  EXPECT_THROW(fv::bench::kernel_bytes("no_such_kernel", s), fv::Error);
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
  EXPECT_FALSE(fv::bench::lookup_kernel_choice(path, "uuid1", "GPU A"));
  fv::bench::store_kernel_choice(path, "uuid1", "GPU A", "atomic", 1.5, "2026-01-01");
  fv::bench::store_kernel_choice(path, "uuid1", "GPU B", "colour", 2.5, "2026-01-01");
  fv::bench::store_kernel_choice(path, "uuid1", "GPU A", "gather", 1.2, "2026-01-02");
  EXPECT_EQ(fv::bench::lookup_kernel_choice(path, "uuid1", "GPU A").value_or(""), "gather");
  EXPECT_EQ(fv::bench::lookup_kernel_choice(path, "uuid1", "GPU B").value_or(""), "colour");
  EXPECT_FALSE(fv::bench::lookup_kernel_choice(path, "uuid2", "GPU A"));
}
