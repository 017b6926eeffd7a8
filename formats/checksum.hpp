#pragma once
/// \file checksum.hpp
/// XXH64 (xxHash, 64-bit variant, by Yann Collet), the checksum of every zone-file dataset and
/// the hash behind the mesh UUID. Implemented here from the published algorithm
/// (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md) so that no dependency is
/// needed; it reproduces the reference test vectors (see tests/zonefile/test_checksum.cpp).
/// Throughput is a few GB/s per core: verifying a 1 GB zone costs well under a second.
#include <cstddef>
#include <cstdint>
#include <string>

namespace fv {

/// One-shot XXH64 of `bytes` bytes at `data` (data may be null when bytes == 0).
std::uint64_t xxh64(const void* data, std::size_t bytes, std::uint64_t seed = 0);

/// Streaming XXH64: update() any number of times, then digest(); equal to the one-shot hash of
/// the concatenated input.
class Xxh64 {
 public:
  explicit Xxh64(std::uint64_t seed = 0);
  void update(const void* data, std::size_t bytes);
  /// Hash of a plain value's bytes (host byte order; fvkit requires a little-endian host).
  template <class T>
  void update_value(const T& v) {
    update(&v, sizeof(T));
  }
  std::uint64_t digest() const;

 private:
  std::uint64_t total_ = 0;
  std::uint64_t v_[4];
  std::uint64_t seed_;
  unsigned char mem_[32];
  std::size_t memSize_ = 0;
};

/// "0x" followed by 16 lower-case hex digits.
std::string hex64(std::uint64_t h);

} // namespace fv
