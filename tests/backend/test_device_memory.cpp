// The device memory accounting behind fvrun's start-up line ("N MiB on the device, B bytes per
// cell; ..."): bytes_allocated() counts what DeviceArrays hold now (a freed array gives its
// bytes back, a moved one keeps them), bytes_peak() the most at any one time, and
// device_memory_total() the device's memory. On the CPU backend and, when a CUDA device is
// visible in a CUDA build, on the GPU.
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace {

void check_accounting() {
  const std::size_t before = fv::backend::bytes_allocated();
  {
    fv::DeviceArray<double> a(1000, "test a");
    EXPECT_EQ(fv::backend::bytes_allocated(), before + 8000);
    {
      fv::DeviceArray<int> b(500, "test b");
      EXPECT_EQ(fv::backend::bytes_allocated(), before + 10000);
      EXPECT_GE(fv::backend::bytes_peak(), before + 10000);
    }
    EXPECT_EQ(fv::backend::bytes_allocated(), before + 8000); // b freed
    fv::DeviceArray<double> c = std::move(a);
    EXPECT_EQ(fv::backend::bytes_allocated(), before + 8000); // moved, not copied
    a = fv::DeviceArray<double>(10, "test a again");
    EXPECT_EQ(fv::backend::bytes_allocated(), before + 8080);
  }
  EXPECT_EQ(fv::backend::bytes_allocated(), before);
  EXPECT_GT(fv::backend::device_memory_total(), std::size_t{1} << 30); // any device: > 1 GiB
}

} // namespace

TEST(DeviceMemory, CountsWhatArraysHoldOnCpu) {
  fv::select_device(fv::DeviceRequest::Cpu);
  check_accounting();
}

TEST(DeviceMemory, CountsWhatArraysHoldOnCuda) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  fv::select_device(fv::DeviceRequest::Cuda);
  check_accounting();
  fv::select_device(fv::DeviceRequest::Cpu);
}
