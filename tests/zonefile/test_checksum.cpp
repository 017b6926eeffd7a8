#include "formats/checksum.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

// Reference vectors of XXH64 (seed 0) published with xxHash and its bindings.
TEST(Checksum, Xxh64MatchesReferenceVectors) {
  EXPECT_EQ(fv::xxh64("", 0), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(fv::xxh64("a", 1), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(fv::xxh64("abc", 3), 0x44BC2CF5AD770999ULL);
  const char* s = "Nobody inspects the spammish repetition";
  EXPECT_EQ(fv::xxh64(s, std::strlen(s)), 0xFBCEA83C8A378BF1ULL);
}

TEST(Checksum, StreamingEqualsOneShotForAnySplit) {
  std::mt19937_64 rng(42);
  std::vector<unsigned char> data(1000);
  for (auto& b : data)
    b = static_cast<unsigned char>(rng());
  for (std::size_t len : {0u, 1u, 7u, 31u, 32u, 33u, 64u, 100u, 1000u}) {
    const std::uint64_t ref = fv::xxh64(data.data(), len, 7);
    for (std::size_t cut1 = 0; cut1 <= len; cut1 += 13) {
      for (std::size_t cut2 = cut1; cut2 <= len; cut2 += 29) {
        fv::Xxh64 h(7);
        h.update(data.data(), cut1);
        h.update(data.data() + cut1, cut2 - cut1);
        h.update(data.data() + cut2, len - cut2);
        ASSERT_EQ(h.digest(), ref) << "len " << len << " cuts " << cut1 << "," << cut2;
      }
    }
  }
  EXPECT_NE(fv::xxh64(data.data(), 100, 0), fv::xxh64(data.data(), 100, 1));
  EXPECT_EQ(fv::hex64(0xABCULL), "0x0000000000000abc");
}

} // namespace
