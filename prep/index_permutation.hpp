#pragma once
/// \file index_permutation.hpp
/// fv::IndexPermutation: a seeded pseudo-random permutation of [0, n) that needs no storage.
///
/// It is a balanced Feistel network on the smallest even-bit power-of-two domain that holds n,
/// restricted to [0, n) by cycle walking (apply again while the result is >= n). Both
/// directions cost O(1) expected time, are pure functions of (n, seed, i) and so are
/// thread-safe and independent of the thread count: the mesh generator uses them to write
/// cells and nodes straight into their shuffled positions in parallel, without a 400 MB
/// permutation array per 100M entities.
#include "common/types.hpp"

#include <cstdint>

namespace fv {

class IndexPermutation {
 public:
  /// Permutation of [0, n) selected by `seed`; n = 0 gives the empty permutation. When
  /// `identity` is true, forward() and inverse() return their argument (no shuffling).
  IndexPermutation(std::int64_t n, std::uint64_t seed, bool identity = false)
      : n_(n), identity_(identity) {
    int bits = 0;
    while (bits < 62 && (std::int64_t{1} << bits) < n)
      ++bits;
    half_ = (bits + 1) / 2;
    if (half_ == 0) half_ = 1;
    mask_ = (std::uint64_t{1} << half_) - 1;
    std::uint64_t s = seed ^ 0x5deece66dULL;
    for (auto& k : keys_)
      k = mix(s += 0x9e3779b97f4a7c15ULL);
  }

  std::int64_t size() const { return n_; }

  /// Position of i in the permuted order.
  std::int64_t forward(std::int64_t i) const {
    if (identity_) return i;
    std::uint64_t x = static_cast<std::uint64_t>(i);
    do {
      x = encrypt(x);
    } while (x >= static_cast<std::uint64_t>(n_));
    return static_cast<std::int64_t>(x);
  }

  /// The i with forward(i) == p.
  std::int64_t inverse(std::int64_t p) const {
    if (identity_) return p;
    std::uint64_t x = static_cast<std::uint64_t>(p);
    do {
      x = decrypt(x);
    } while (x >= static_cast<std::uint64_t>(n_));
    return static_cast<std::int64_t>(x);
  }

  /// splitmix64 finaliser: a fast, well-mixed 64-bit hash (also used for per-entity noise).
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  static constexpr int kRounds = 4; // Luby-Rackoff: 4 rounds make a strong permutation

  std::uint64_t round(int r, std::uint64_t x) const { return mix(x ^ keys_[r]) & mask_; }

  std::uint64_t encrypt(std::uint64_t x) const {
    std::uint64_t l = x >> half_, r = x & mask_;
    for (int k = 0; k < kRounds; ++k) {
      const std::uint64_t t = l ^ round(k, r);
      l = r;
      r = t;
    }
    return (l << half_) | r;
  }

  std::uint64_t decrypt(std::uint64_t x) const {
    std::uint64_t l = x >> half_, r = x & mask_;
    for (int k = kRounds - 1; k >= 0; --k) {
      const std::uint64_t t = r ^ round(k, l);
      r = l;
      l = t;
    }
    return (l << half_) | r;
  }

  std::int64_t n_;
  bool identity_;
  int half_ = 1;
  std::uint64_t mask_ = 1;
  std::uint64_t keys_[kRounds] = {};
};

} // namespace fv
