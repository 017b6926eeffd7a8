#include "common/memory.hpp"

#include <gtest/gtest.h>

namespace {

const char* kMeminfo = "MemTotal:       131072000 kB\n"
                       "MemFree:         1000000 kB\n"
                       "MemAvailable:   65536000 kB\n"
                       "Buffers:            1234 kB\n";

TEST(Memory, AvailableIsMemAvailableLoweredToTheCgroupsRoom) {
  const std::uint64_t memAvailable = 65536000ull * 1024;
  EXPECT_EQ(fv::available_bytes(kMeminfo, "", ""), memAvailable);
  EXPECT_EQ(fv::available_bytes(kMeminfo, "max\n", "123\n"), memAvailable);
  // a 16 GiB job limit with 10 GiB used leaves 6 GiB
  EXPECT_EQ(fv::available_bytes(kMeminfo, "17179869184\n", "10737418240\n"), 6ull << 30);
  // a limit above what the node has: the node's
  EXPECT_EQ(fv::available_bytes(kMeminfo, "1099511627776\n", "0\n"), memAvailable);
  // at the limit: nothing left (1 byte, not "unknown")
  EXPECT_EQ(fv::available_bytes(kMeminfo, "100\n", "200\n"), 1u);
  EXPECT_EQ(fv::available_bytes("", "", ""), 0u);
  EXPECT_EQ(fv::available_bytes("", "4096\n", "1024\n"), 3072u);
}

TEST(Memory, ThisProcessIsResidentAndTheMachineHasRoom) {
  EXPECT_GT(fv::resident_bytes(), 0u);
  EXPECT_GT(fv::available_bytes(), 0u);
}

} // namespace
