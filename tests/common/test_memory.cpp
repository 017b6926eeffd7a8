#include "common/memory.hpp"

#include <gtest/gtest.h>

namespace {

const char* kMeminfo = "MemTotal:       131072000 kB\n"
                       "MemFree:         1000000 kB\n"
                       "MemAvailable:   65536000 kB\n"
                       "Buffers:            1234 kB\n";
const std::uint64_t kMemAvailable = 65536000ull * 1024;
const std::uint64_t kGiB = 1ull << 30;

TEST(Memory, AvailableIsMemAvailableLoweredToTheCgroupsRoom) {
  EXPECT_EQ(fv::available_bytes(kMeminfo, {}), kMemAvailable);
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"max\n", "123\n", ""}, {"", "", ""}}), kMemAvailable);
  // cgroup v1 without a limit
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"9223372036854771712\n", "5608050688\n", ""}}),
            kMemAvailable);
  // a 16 GiB job limit with 10 GiB used leaves 6 GiB; the tightest of several wins
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"17179869184\n", "10737418240\n", ""}}), 6 * kGiB);
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"max", "1", ""},
                                           {"17179869184\n", "10737418240\n", ""},
                                           {"34359738368\n", "10737418240\n", ""}}),
            6 * kGiB);
  // a limit above what the node has: the node's
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"1099511627776\n", "0\n", ""}}), kMemAvailable);
  // at the limit: nothing left (1 byte, not "unknown")
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"100\n", "200\n", ""}}), 1u);
  EXPECT_EQ(fv::available_bytes("", {}), 0u);
  EXPECT_EQ(fv::available_bytes("", {{"4096\n", "1024\n", ""}}), 3072u);
}

TEST(Memory, InactivePageCacheCountsAsRoom) {
  // 10 GiB used of which 4 GiB inactive file pages (a mesh file read once): 10 GiB of room
  const std::string v2 = "anon 6442450944\nfile 4294967296\ninactive_file 4294967296\n";
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"17179869184\n", "10737418240\n", v2}}), 10 * kGiB);
  // v1: the hierarchical total wins over the cgroup's own pages
  const std::string v1 = "cache 1024\ninactive_file 16384\ntotal_cache 4294967296\n"
                         "total_inactive_file 4294967296\n";
  EXPECT_EQ(fv::available_bytes(kMeminfo, {{"17179869184\n", "10737418240\n", v1}}), 10 * kGiB);
}

TEST(Memory, CgroupFilesOfV1AndV2) {
  using Files = std::vector<fv::CgroupMemory>;
  // cgroup v2, a batch job's sub-cgroup, then the mount's top (a container's own)
  const std::string job = "/cg/slurm/job_42/step_0";
  EXPECT_EQ(fv::cgroup_memory_files("0::/slurm/job_42/step_0\n", "/cg"),
            (Files{{job + "/memory.max", job + "/memory.current", job + "/memory.stat"},
                   {"/cg/memory.max", "/cg/memory.current", "/cg/memory.stat"}}));
  EXPECT_EQ(fv::cgroup_memory_files("0::/\n", "/cg"),
            (Files{{"/cg/memory.max", "/cg/memory.current", "/cg/memory.stat"}}));
  // cgroup v1: the memory controller's line only (alone or with others)
  const Files v1 = fv::cgroup_memory_files("9:name=systemd:/\n8:pids:/\n"
                                           "4:memory:/process_api/abc\n3:cpuset:/\n0::/\n",
                                           "/cg");
  ASSERT_EQ(v1.size(), 3u);
  EXPECT_EQ(v1[0], (fv::CgroupMemory{"/cg/memory/process_api/abc/memory.limit_in_bytes",
                                     "/cg/memory/process_api/abc/memory.usage_in_bytes",
                                     "/cg/memory/process_api/abc/memory.stat"}));
  EXPECT_EQ(v1[1].limit, "/cg/memory/memory.limit_in_bytes");
  EXPECT_EQ(v1[2].limit, "/cg/memory.max");
  EXPECT_EQ(fv::cgroup_memory_files("5:cpu,memory:/job\n", "/cg")[0].usage,
            "/cg/memory/job/memory.usage_in_bytes");
  EXPECT_TRUE(fv::cgroup_memory_files("", "/cg").empty());
}

TEST(Memory, ThisProcessIsResidentAndTheMachineHasRoom) {
  EXPECT_GT(fv::resident_bytes(), 0u);
  EXPECT_GT(fv::available_bytes(), 0u);
}

} // namespace
