#pragma once
/// \file local_ids.hpp
/// Global id -> zone-local id for the cells or nodes of one zone while it is built: an
/// open-addressing hash table (linear probing) sized to the zone, not to the mesh, so that a
/// thread building a zone of a 50M-cell mesh holds megabytes, not 400 MB of dense tables, and
/// its lookups stay in cache.
#include "common/types.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fv {

class LocalIds {
 public:
  /// Empties the table and makes room for `n` ids without growing (load factor <= 1/2).
  void reset(std::size_t n) {
    std::size_t cap = 16;
    while (cap < 2 * n)
      cap *= 2;
    if (keys_.size() < cap || keys_.size() > 8 * cap) {
      keys_.assign(cap, kNone);
      vals_.resize(cap);
    } else {
      std::fill(keys_.begin(), keys_.end(), kNone);
    }
    mask_ = keys_.size() - 1;
    size_ = 0;
  }
  /// The local id of global id g, or kNone.
  idx_t get(idx_t g) const {
    for (std::size_t i = slot(g);; i = (i + 1) & mask_) {
      if (keys_[i] == g) return vals_[i];
      if (keys_[i] == kNone) return kNone;
    }
  }
  /// Sets (or overwrites) the local id of global id g >= 0.
  void set(idx_t g, idx_t local) {
    std::size_t i = slot(g);
    while (keys_[i] != kNone && keys_[i] != g)
      i = (i + 1) & mask_;
    if (keys_[i] == kNone) {
      if (2 * (size_ + 1) > keys_.size()) { // grow: rehash into twice the room
        grow();
        set(g, local);
        return;
      }
      ++size_;
      keys_[i] = g;
    }
    vals_[i] = local;
  }
  std::size_t size() const { return size_; }

 private:
  std::size_t slot(idx_t g) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(g)) *
                                     0x9E3779B97F4A7C15ULL) >>
                                    17) &
           mask_;
  }
  void grow() {
    std::vector<idx_t> k = std::move(keys_), v = std::move(vals_);
    keys_.assign(2 * k.size(), kNone);
    vals_.resize(2 * k.size());
    mask_ = keys_.size() - 1;
    size_ = 0;
    for (std::size_t i = 0; i < k.size(); ++i)
      if (k[i] != kNone) set(k[i], v[i]);
  }
  std::vector<idx_t> keys_, vals_;
  std::size_t mask_ = 0, size_ = 0;
};

} // namespace fv
