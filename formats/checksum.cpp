#include "formats/checksum.hpp"

#include <cstdio>
#include <cstring>

namespace fv {

namespace {

constexpr std::uint64_t P1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t P2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t P3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t P4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t P5 = 0x27D4EB2F165667C5ULL;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "fvkit zone files need a little-endian host");

inline std::uint64_t rotl(std::uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}
inline std::uint64_t read64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline std::uint32_t read32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
  acc += input * P2;
  acc = rotl(acc, 31);
  return acc * P1;
}
inline std::uint64_t merge_round(std::uint64_t acc, std::uint64_t val) {
  acc ^= round(0, val);
  return acc * P1 + P4;
}
/// Consumes 32-byte stripes from p (n a multiple of 32) into v.
inline void stripes(std::uint64_t v[4], const unsigned char* p, std::size_t n) {
  std::uint64_t a = v[0], b = v[1], c = v[2], d = v[3];
  for (const unsigned char* end = p + n; p < end; p += 32) {
    a = round(a, read64(p));
    b = round(b, read64(p + 8));
    c = round(c, read64(p + 16));
    d = round(d, read64(p + 24));
  }
  v[0] = a;
  v[1] = b;
  v[2] = c;
  v[3] = d;
}
/// Final mixing of the tail (fewer than 32 bytes) and avalanche.
std::uint64_t finish(std::uint64_t h, const unsigned char* p, std::size_t n) {
  while (n >= 8) {
    h ^= round(0, read64(p));
    h = rotl(h, 27) * P1 + P4;
    p += 8;
    n -= 8;
  }
  if (n >= 4) {
    h ^= static_cast<std::uint64_t>(read32(p)) * P1;
    h = rotl(h, 23) * P2 + P3;
    p += 4;
    n -= 4;
  }
  while (n > 0) {
    h ^= (*p) * P5;
    h = rotl(h, 11) * P1;
    ++p;
    --n;
  }
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}
std::uint64_t converge(const std::uint64_t v[4]) {
  std::uint64_t h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
  for (int i = 0; i < 4; ++i)
    h = merge_round(h, v[i]);
  return h;
}

} // namespace

std::uint64_t xxh64(const void* data, std::size_t bytes, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h;
  const std::size_t body = bytes & ~static_cast<std::size_t>(31);
  if (bytes >= 32) {
    std::uint64_t v[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};
    stripes(v, p, body);
    h = converge(v);
  } else {
    h = seed + P5;
  }
  h += static_cast<std::uint64_t>(bytes);
  return finish(h, p + (bytes >= 32 ? body : 0), bytes - (bytes >= 32 ? body : 0));
}

Xxh64::Xxh64(std::uint64_t seed) : v_{seed + P1 + P2, seed + P2, seed, seed - P1}, seed_(seed) {}

void Xxh64::update(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  total_ += bytes;
  if (memSize_ + bytes < 32) {
    if (bytes > 0) std::memcpy(mem_ + memSize_, p, bytes);
    memSize_ += bytes;
    return;
  }
  if (memSize_ > 0) {
    const std::size_t fill = 32 - memSize_;
    std::memcpy(mem_ + memSize_, p, fill);
    stripes(v_, mem_, 32);
    p += fill;
    bytes -= fill;
    memSize_ = 0;
  }
  const std::size_t body = bytes & ~static_cast<std::size_t>(31);
  stripes(v_, p, body);
  p += body;
  bytes -= body;
  if (bytes > 0) std::memcpy(mem_, p, bytes);
  memSize_ = bytes;
}

std::uint64_t Xxh64::digest() const {
  std::uint64_t h = total_ >= 32 ? converge(v_) : seed_ + P5;
  h += total_;
  return finish(h, mem_, memSize_);
}

std::string hex64(std::uint64_t h) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(h));
  return buf;
}

} // namespace fv
