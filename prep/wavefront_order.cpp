#include "prep/wavefront_order.hpp"

#include "prep/rcm.hpp"

#include <algorithm>
#include <deque>
#include <tuple>

namespace fv {

std::vector<idx_t> wavefront_order(const Csr& adj, const std::vector<idx_t>& order,
                                   const std::vector<char>& last) {
  const idx_t n = adj.rows();
  const std::vector<idx_t> pos = invert_permutation(order);
  std::vector<idx_t> level(static_cast<std::size_t>(n), kNone),
      comp(static_cast<std::size_t>(n), kNone);
  std::deque<idx_t> queue;
  auto bfs = [&](idx_t c) {
    while (!queue.empty()) {
      const idx_t v = queue.front();
      queue.pop_front();
      comp[v] = c;
      for (idx_t k = adj.begin(v); k < adj.end(v); ++k) {
        const idx_t u = adj.indices()[k];
        if (level[u] == kNone) {
          level[u] = level[v] + 1;
          queue.push_back(u);
        }
      }
    }
  };
  // Components reached from the flagged vertices form the last group (key n).
  for (idx_t l = n; l-- > 0;)
    if (last[order[l]]) {
      level[order[l]] = 0;
      queue.push_back(order[l]);
    }
  bfs(n);
  // Other components from their Cuthill-McKee start (their last vertex), keyed by first position.
  std::vector<idx_t> compFirst;
  for (idx_t l = n; l-- > 0;)
    if (level[order[l]] == kNone) {
      level[order[l]] = 0;
      queue.push_back(order[l]);
      bfs(static_cast<idx_t>(compFirst.size()));
      compFirst.push_back(l);
    }
  // Colour inside each level, visiting cells in RCM position order.
  std::vector<idx_t> colour(static_cast<std::size_t>(n), kNone), stamp;
  for (idx_t l = 0; l < n; ++l) {
    const idx_t v = order[l];
    for (idx_t k = adj.begin(v); k < adj.end(v); ++k) {
      const idx_t u = adj.indices()[k];
      if (level[u] == level[v] && colour[u] != kNone) {
        if (static_cast<std::size_t>(colour[u]) >= stamp.size()) stamp.resize(colour[u] + 1, kNone);
        stamp[colour[u]] = v;
      }
    }
    idx_t c = 0;
    while (static_cast<std::size_t>(c) < stamp.size() && stamp[c] == v)
      ++c;
    colour[v] = c;
  }
  // Component key: unreached components in the order they start, the flagged group last.
  std::vector<idx_t> compKey(compFirst.size() + 1);
  {
    std::vector<idx_t> byFirst(compFirst.size());
    for (std::size_t c = 0; c < compFirst.size(); ++c)
      byFirst[c] = static_cast<idx_t>(c);
    // The first position of a component is its smallest position.
    std::vector<idx_t> minPos(compFirst.size(), n);
    for (idx_t v = 0; v < n; ++v)
      if (comp[v] < static_cast<idx_t>(compFirst.size()))
        minPos[comp[v]] = std::min(minPos[comp[v]], pos[v]);
    std::sort(byFirst.begin(), byFirst.end(),
              [&](idx_t a, idx_t b) { return minPos[a] < minPos[b]; });
    for (std::size_t r = 0; r < byFirst.size(); ++r)
      compKey[byFirst[r]] = static_cast<idx_t>(r);
    compKey[compFirst.size()] = static_cast<idx_t>(compFirst.size());
  }
  auto key = [&](idx_t v) {
    const idx_t c = comp[v] == n ? static_cast<idx_t>(compFirst.size()) : comp[v];
    return std::make_tuple(last[v] ? 1 : 0, compKey[c], -level[v], colour[v], pos[v]);
  };
  std::vector<idx_t> result(order);
  std::sort(result.begin(), result.end(), [&](idx_t a, idx_t b) { return key(a) < key(b); });
  return result;
}

idx_t count_sweep_levels(const Csr& adj, const std::vector<idx_t>& order) {
  const idx_t n = adj.rows();
  const std::vector<idx_t> pos = invert_permutation(order);
  std::vector<idx_t> level(static_cast<std::size_t>(n), 0);
  idx_t levels = n > 0 ? 1 : 0;
  for (idx_t l = 0; l < n; ++l) {
    const idx_t v = order[l];
    idx_t lv = 0;
    for (idx_t k = adj.begin(v); k < adj.end(v); ++k)
      if (pos[adj.indices()[k]] < l) lv = std::max(lv, level[adj.indices()[k]] + 1);
    level[v] = lv;
    levels = std::max(levels, lv + 1);
  }
  return levels;
}

} // namespace fv
