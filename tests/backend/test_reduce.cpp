// fv::reduce against sequential references: sums fold each chunk of kReduceChunk items in
// index order and the chunks in chunk order (bitwise the same as one thread folding f over the
// chunk, the order the helper documents); minima and maxima (folded over several device levels
// when there are more than kReduceChunk chunks) equal the exact extremum and ignore NaN terms.
// Sizes cover an empty range, a partial chunk, several chunks and three levels of chunks. Runs
// on the CPU backend and, when a CUDA device is visible in a CUDA build, on the GPU.
#include "runtime/backend/memory.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/backend/select.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using fv::idx_t;
using fv::real_t;

namespace fvtest_reduce { // named: nvcc's extended lambdas need an enclosing external function

void sums(idx_t n, const real_t* a, real_t (&out)[3]) {
  fv::reduce<3>(
      "test_sum", n, fv::ReduceOp::Sum,
      [=] FV_HOST_DEVICE(idx_t i, real_t * acc) {
        acc[0] += a[i];
        acc[1] += a[i] * a[i];
        acc[2] += 1.0 / (1.0 + i);
      },
      out);
}

void extrema(idx_t n, const real_t* a, real_t (&lo)[2], real_t (&hi)[1]) {
  fv::reduce<2>(
      "test_min", n, fv::ReduceOp::Min,
      [=] FV_HOST_DEVICE(idx_t i, real_t * acc) {
        acc[0] = a[i] < acc[0] ? a[i] : acc[0];
        if (a[i] > 0.5 && static_cast<real_t>(i) < acc[1]) acc[1] = static_cast<real_t>(i);
      },
      lo);
  fv::reduce<1>(
      "test_max", n, fv::ReduceOp::Max,
      [=] FV_HOST_DEVICE(idx_t i, real_t * acc) { acc[0] = a[i] > acc[0] ? a[i] : acc[0]; }, hi);
}

void check_all() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<real_t> u(-1.0, 1.0);
  for (const idx_t n :
       {idx_t{0}, idx_t{1}, idx_t{255}, idx_t{257}, idx_t{10000}, idx_t{70001}, idx_t{300000}}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<real_t> h(static_cast<std::size_t>(n));
    for (real_t& x : h)
      x = u(rng) * std::exp(8 * u(rng)); // magnitudes over 7 orders: the order shows in sums
    if (n > 300) h[n / 3] = std::numeric_limits<real_t>::quiet_NaN(); // for the extrema only
    const fv::DeviceArray<real_t> d(h, "reduce input");
    // extrema: exact, NaN ignored
    real_t lo[2], hi[1];
    extrema(n, d.data(), lo, hi);
    real_t rlo = 1e300, rhi = -1e300, first = 1e300;
    for (idx_t i = 0; i < n; ++i) {
      if (h[i] < rlo) rlo = h[i];
      if (h[i] > rhi) rhi = h[i];
      if (h[i] > 0.5 && first == 1e300) first = static_cast<real_t>(i);
    }
    EXPECT_EQ(lo[0], rlo);
    EXPECT_EQ(lo[1], first);
    EXPECT_EQ(hi[0], rhi);
    // sums: chunk by chunk in index order, chunks in order (no NaN)
    if (n > 300) h[n / 3] = 0.25;
    const fv::DeviceArray<real_t> d2(h, "reduce input");
    real_t s[3];
    sums(n, d2.data(), s);
    real_t ref[3] = {0, 0, 0};
    for (idx_t c0 = 0; c0 < n; c0 += fv::kReduceChunk) {
      real_t acc[3] = {0, 0, 0};
      for (idx_t i = c0; i < std::min(n, c0 + fv::kReduceChunk); ++i) {
        acc[0] += h[i];
        acc[1] += h[i] * h[i];
        acc[2] += 1.0 / (1.0 + i);
      }
      for (int k = 0; k < 3; ++k)
        ref[k] += acc[k];
    }
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(s[k], ref[k]) << "component " << k;
  }
}
} // namespace fvtest_reduce

TEST(Reduce, MatchesTheDocumentedOrderOnCpu) {
  fv::select_device(fv::DeviceRequest::Cpu);
  fvtest_reduce::check_all();
}

TEST(Reduce, MatchesTheDocumentedOrderOnCuda) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  fv::select_device(fv::DeviceRequest::Cuda);
  fvtest_reduce::check_all();
  fv::select_device(fv::DeviceRequest::Cpu);
}
