#pragma once
/// \file id_set.hpp
/// A set of global ids in [0, n) as a bitmap with constant-time rank: the distributed prepare
/// uses it where it would otherwise sort and deduplicate id lists (the nodes of a block, the
/// cells, nodes and faces of a zone piece) and then hash global ids to positions in them.
/// Marking is O(ids) and thread-safe, listing is O(n / 64 + size), rank(id) (the position of
/// id among the set's ids, ascending) is two loads and a popcount. Memory: n / 4 bytes (the
/// bits and a running count per 64 of them), whatever the size of the set: 38 MB for the
/// 150M faces of a 50M-hexahedron mesh.
#include "common/types.hpp"

#include <cstdint>
#include <vector>

namespace fv {

class IdSet {
 public:
  IdSet() = default;
  /// An empty set of ids in [0, n).
  explicit IdSet(gidx_t n) : n_(n), words_(static_cast<std::size_t>((n + 63) / 64), 0) {}

  gidx_t universe() const { return n_; }

  /// Adds id (0 <= id < universe()); safe from several threads at once. Invalidates rank().
  void insert(gidx_t id) {
    __atomic_fetch_or(&words_[static_cast<std::size_t>(id >> 6)], bit(id), __ATOMIC_RELAXED);
  }
  bool contains(gidx_t id) const {
    return (words_[static_cast<std::size_t>(id >> 6)] & bit(id)) != 0;
  }

  /// Counts the ids (before rank() and size() may be used, after the last insert()).
  void freeze() {
    before_.resize(words_.size() + 1);
    before_[0] = 0;
    for (std::size_t w = 0; w < words_.size(); ++w)
      before_[w + 1] = before_[w] + __builtin_popcountll(words_[w]);
  }
  /// How many ids the set holds (after freeze()).
  gidx_t size() const { return before_.empty() ? 0 : before_.back(); }
  /// The number of ids of the set below id: the position of id in ids() when it is in the set
  /// (after freeze()).
  gidx_t rank(gidx_t id) const {
    const auto w = static_cast<std::size_t>(id >> 6);
    return before_[w] + __builtin_popcountll(words_[w] & (bit(id) - 1));
  }

  /// The ids, ascending (after freeze()).
  template <class T = idx_t>
  std::vector<T> ids() const {
    std::vector<T> out(static_cast<std::size_t>(size()));
#pragma omp parallel for schedule(static)
    for (std::size_t w = 0; w < words_.size(); ++w) {
      std::uint64_t bits = words_[w];
      auto at = static_cast<std::size_t>(before_[w]);
      while (bits != 0) {
        out[at++] = static_cast<T>(64 * static_cast<gidx_t>(w) + __builtin_ctzll(bits));
        bits &= bits - 1;
      }
    }
    return out;
  }

 private:
  static std::uint64_t bit(gidx_t id) {
    return std::uint64_t(1) << (id & 63);
  }
  gidx_t n_ = 0;
  std::vector<std::uint64_t> words_;
  std::vector<gidx_t> before_; ///< ids in words [0, w)
};

} // namespace fv
