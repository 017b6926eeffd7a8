// The batched byte model (bench/fvbench/batched_model.hpp): every kernel of the byte model
// split into shared and per-state bytes without losing a byte; bytes per state and speed-ups.
#include "bench/fvbench/batched_model.hpp"
#include "common/error.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {

TEST(BatchedModel, SplitsEveryKernelOfTheByteModel) {
  const char* kernels[] = {"primitives",
                           "interpolate_to_nodes",
                           "green_gauss_gradient",
                           "green_gauss_gradient_face_nodes",
                           "limiter",
                           "gradient_and_limiter",
                           "gradient_limiter_states",
                           "interior_state_fluxes",
                           "boundary_state_fluxes",
                           "interior_fluxes",
                           "boundary_fluxes",
                           "flux_sum",
                           "flux_sum_smem",
                           "flux_sum_atomic",
                           "flux_sum_colour",
                           "fused_flux_atomic",
                           "fused_flux_colour",
                           "rk_stage",
                           "rk_stage_primitives",
                           "flux_sum_rk_stage",
                           "flux_sum_rk_primitives",
                           "halo_pack",
                           "halo_unpack"};
  fv::bench::ZoneSizes mixed = fv::bench::wing_tet_sizes();
  mixed.uniformCells = mixed.uniformFaces = false;
  mixed.nSlotNodes = 0;
  mixed.fusedSlots = false;
  mixed.nHalo = 1234;
  mixed.nt = 1.1 * mixed.nc;
  for (const fv::bench::ZoneSizes& s :
       {fv::bench::wing_tet_sizes(), fv::bench::box_hex_sizes(20), mixed}) {
    for (const char* k : kernels) {
      const fv::bench::ByteSplit b = fv::bench::kernel_bytes_split(k, s);
      EXPECT_NEAR(b.total(), fv::bench::kernel_bytes(k, s), 1e-9 * b.total()) << k;
      EXPECT_GE(b.shared, 0) << k;
      EXPECT_GE(b.perState, 0) << k;
    }
  }
  EXPECT_THROW(fv::bench::kernel_bytes_split("no_such_kernel", fv::bench::wing_tet_sizes()),
               fv::Error);
}

TEST(BatchedModel, BytesPerStateAndSpeedUp) {
  const fv::bench::ByteSplit b{100, 300};
  EXPECT_DOUBLE_EQ(b.per_state(1), 400);
  EXPECT_DOUBLE_EQ(b.per_state(4), 325);
  EXPECT_DOUBLE_EQ(b.speedup(8), 400 / 312.5);
  // the flux sum on tetrahedra: cellFaces and signs (4 x 5 B) shared, fluxes and R per state
  const fv::bench::ZoneSizes s = fv::bench::wing_tet_sizes();
  const fv::bench::ByteSplit f = fv::bench::kernel_bytes_split("flux_sum", s);
  EXPECT_DOUBLE_EQ(f.shared, 4 * s.nc * 5);
  EXPECT_DOUBLE_EQ(f.perState, 5 * s.nf * 8 + 5 * s.nc * 8);
  // the Krylov vectors and the preconditioner's blocks are a state's alone
  EXPECT_EQ(fv::bench::kernel_bytes_split("krylov_dots_combine", s, 10).shared, 0);
  const fv::bench::ByteSplit ilu = fv::bench::kernel_bytes_split("ilu_forward", s);
  EXPECT_GT(ilu.perState, 10 * ilu.shared);
  // the groups' totals are the sums of their kernels
  const auto rows = fv::bench::batched_model(s, 40);
  fv::bench::ByteSplit stage;
  for (const auto& r : rows)
    if (r.group == "explicit stage" && r.item != "total") stage += r.bytes;
  bool found = false;
  for (const auto& r : rows)
    if (r.group == "explicit stage" && r.item == "total") {
      found = true;
      EXPECT_DOUBLE_EQ(r.bytes.shared, stage.shared);
      EXPECT_DOUBLE_EQ(r.bytes.perState, stage.perState);
    }
  EXPECT_TRUE(found);
  std::ostringstream os;
  fv::bench::print_batched_model("wing", s, 40, os);
  EXPECT_NE(os.str().find("newton per GMRES it."), std::string::npos);
}

} // namespace
