// fv::forall_groups against a sequential reference: every index runs exactly once, groups run
// in order (forward and reverse) and each group sees every write of the group before it. Each
// index i reads the value written by one index of the previous non-empty group (in sweep
// order), so a group that ran early, twice, or without seeing its predecessor's writes changes
// the result. Schedules mix empty groups, single-index groups, long runs of small groups (the
// single-block path of GroupLaunch::Hybrid), groups of about one block and one group larger
// than kOpenMPMinLoop (the OpenMP team path); a schedule of a few huge groups takes the
// full-occupancy persistent grid. Runs on the CPU backend and, when a CUDA device
// is visible in a CUDA build, on the GPU in every launch mode.
#include "runtime/backend/forall.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using fv::idx_t;

namespace {

struct Schedule {
  std::vector<idx_t> offsets;
  idx_t total() const { return offsets.back(); }
  idx_t groups() const { return static_cast<idx_t>(offsets.size()) - 1; }
};

Schedule from_sizes(const std::vector<idx_t>& sizes) {
  Schedule s;
  s.offsets.push_back(0);
  for (idx_t n : sizes)
    s.offsets.push_back(s.offsets.back() + n);
  return s;
}

/// dep[i]: an index of the previous non-empty group in sweep order (-1 in the first one).
std::vector<idx_t> dependencies(const Schedule& s, bool reverse, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<idx_t> dep(static_cast<std::size_t>(s.total()), -1);
  idx_t pb = 0, pe = 0; // previous non-empty group
  const idx_t ng = s.groups();
  for (idx_t k = 0; k < ng; ++k) {
    const idx_t g = reverse ? ng - 1 - k : k;
    const idx_t b = s.offsets[g], e = s.offsets[g + 1];
    if (e == b) continue;
    for (idx_t i = b; i < e; ++i)
      dep[i] = pe > pb ? pb + static_cast<idx_t>(rng() % static_cast<unsigned>(pe - pb)) : -1;
    pb = b;
    pe = e;
  }
  return dep;
}

/// The sequential sweep: value[i] = 1 + i % 7 + value[dep[i]].
std::vector<idx_t> reference(const Schedule& s, const std::vector<idx_t>& dep, bool reverse) {
  std::vector<idx_t> v(dep.size(), 0);
  const idx_t ng = s.groups();
  for (idx_t k = 0; k < ng; ++k) {
    const idx_t g = reverse ? ng - 1 - k : k;
    for (idx_t i = s.offsets[g]; i < s.offsets[g + 1]; ++i)
      v[i] = 1 + i % 7 + (dep[i] >= 0 ? v[dep[i]] : 0);
  }
  return v;
}

struct Outcome {
  std::vector<idx_t> value, visits;
};

Outcome sweep(const Schedule& s, const std::vector<idx_t>& dep, bool reverse,
              fv::GroupLaunch mode) {
  const std::size_t n = dep.size();
  fv::DeviceArray<idx_t> offsets(s.offsets, "offsets"), depD(dep, "dep"), value(n, "value"),
      visits(n, "visits");
  const fv::GroupSchedule gs{s.groups(), s.offsets.data(), offsets.data()};
  idx_t* v = value.data();
  idx_t* count = visits.data();
  const idx_t* d = depD.data();
  fv::forall_groups(
      "test_forall_groups", gs,
      [=] FV_HOST_DEVICE(idx_t i) {
        v[i] = 1 + i % 7 + (d[i] >= 0 ? v[d[i]] : 0);
        count[i] = count[i] + 1;
      },
      reverse, mode);
  return {value.to_host(), visits.to_host()};
}

void check_all_modes(const std::vector<idx_t>& sizes, const std::string& what) {
  const Schedule s = from_sizes(sizes);
  for (bool reverse : {false, true}) {
    const std::vector<idx_t> dep = dependencies(s, reverse, 17u + (reverse ? 1u : 0u));
    const std::vector<idx_t> ref = reference(s, dep, reverse);
    for (fv::GroupLaunch mode :
         {fv::GroupLaunch::PerGroup, fv::GroupLaunch::Persistent, fv::GroupLaunch::Hybrid}) {
      const Outcome o = sweep(s, dep, reverse, mode);
      ASSERT_EQ(o.value.size(), ref.size());
      idx_t wrong = 0, first = -1;
      for (std::size_t i = 0; i < ref.size(); ++i)
        if (o.value[i] != ref[i] || o.visits[i] != 1) {
          if (first < 0) first = static_cast<idx_t>(i);
          ++wrong;
        }
      EXPECT_EQ(wrong, 0) << what << " on " << fv::backend_name() << ", mode "
                          << static_cast<int>(mode) << (reverse ? ", reverse" : ", forward")
                          << ": first wrong index " << first;
    }
  }
}

std::vector<idx_t> mixed_sizes() {
  std::vector<idx_t> sizes = {0, 1, 0, 3, 1000, 1, 1, 2, 2 * fv::kOpenMPMinLoop + 37, 0, 5, 300};
  std::mt19937 rng(5);
  for (int k = 0; k < 300; ++k) // a long run of small groups
    sizes.push_back(1 + static_cast<idx_t>(rng() % 60));
  for (idx_t n : {255, 256, 257, 1023, 1024, 1025, 4000})
    sizes.push_back(n);
  for (int k = 0; k < 50; ++k)
    sizes.push_back(static_cast<idx_t>(rng() % 3)); // empty and tiny groups
  sizes.push_back(fv::kOpenMPMinLoop);
  sizes.push_back(0);
  return sizes;
}

void check_on_active_device() {
  check_all_modes(mixed_sizes(), "mixed groups");
  check_all_modes({fv::kOpenMPMinLoop * 3}, "one huge group");
  // average group larger than the few-block persistent grid: the full-occupancy grid
  check_all_modes({fv::kOpenMPMinLoop * 12, 0, 100003, 1}, "colour-like huge groups");
  check_all_modes({1}, "one group of one");
  check_all_modes({0, 0, 0}, "empty groups only");
  check_all_modes({}, "no groups");
  std::vector<idx_t> ones(2000, 1); // the natural order as groups
  check_all_modes(ones, "2000 groups of one");
}

} // namespace

TEST(ForallGroups, MatchesSequentialSweepOnCpu) {
  fv::select_device(fv::DeviceRequest::Cpu);
  check_on_active_device();
}

TEST(ForallGroups, MatchesSequentialSweepOnCuda) {
  if (fv::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device (or a CPU-only build)";
  fv::select_device(fv::DeviceRequest::Cuda);
  check_on_active_device();
  fv::select_device(fv::DeviceRequest::Cpu);
}
