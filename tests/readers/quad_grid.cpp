#include "tests/readers/quad_grid.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace fv::testing {

namespace {

using Edge = std::pair<idx_t, idx_t>;
using Quad = std::array<idx_t, 4>;
/// A walked cell: its corners (i, j), (i+1, j), (i+1, j+1), (i, j+1) and its quad.
struct Cell {
  idx_t n00, n10, n11, n01;
  std::size_t quad;
};

Edge edge(idx_t a, idx_t b) {
  return {std::min(a, b), std::max(a, b)};
}

class Walker {
 public:
  explicit Walker(const std::vector<Quad>& q) : quads_(q) {
    for (std::size_t k = 0; k < q.size(); ++k)
      for (int e = 0; e < 4; ++e)
        byEdge_[edge(q[k][e], q[k][(e + 1) % 4])].push_back(k);
  }

  bool boundary(idx_t a, idx_t b) const { return byEdge_.at(edge(a, b)).size() == 1; }

  /// The quad across edge (a, b) of quad `from` and its corners a2 next to a and b2 next to
  /// b (the far edge); false on a boundary.
  bool across(std::size_t from, idx_t a, idx_t b, std::size_t& k, idx_t& a2, idx_t& b2) const {
    for (std::size_t n : byEdge_.at(edge(a, b))) {
      if (n == from) continue;
      k = n;
      a2 = next_to(quads_[n], a, b);
      b2 = next_to(quads_[n], b, a);
      return true;
    }
    return false;
  }

  /// The walk from a corner cell; empty when it is not a consistent grid.
  QuadGrid walk(const Cell& start) const {
    std::vector<char> seen(quads_.size(), 0);
    std::vector<std::vector<Cell>> rows;
    Cell rowStart = start;
    for (;;) {
      std::vector<Cell> row{rowStart};
      seen[rowStart.quad] = 1;
      std::size_t k;
      idx_t a2, b2;
      for (;;) { // i+ : the old (1,0), (1,1) become (0,0), (0,1)
        const Cell& c = row.back();
        if (!across(c.quad, c.n10, c.n11, k, a2, b2) || seen[k]) break;
        seen[k] = 1;
        row.push_back({c.n10, a2, b2, c.n11, k});
      }
      if (!rows.empty() && row.size() != rows[0].size()) return {};
      rows.push_back(row);
      // j+ : the old (0,1), (1,1) become (0,0), (1,0)
      if (!across(rowStart.quad, rowStart.n01, rowStart.n11, k, a2, b2) || seen[k]) break;
      rowStart = {rowStart.n01, rowStart.n11, b2, a2, k};
    }
    std::size_t walked = 0;
    for (const auto& r : rows)
      walked += r.size();
    if (walked != quads_.size()) return {};
    QuadGrid g;
    g.ni = static_cast<int>(rows[0].size()) + 1;
    g.nj = static_cast<int>(rows.size()) + 1;
    g.node.assign(static_cast<std::size_t>(g.ni) * static_cast<std::size_t>(g.nj), -1);
    for (std::size_t j = 0; j < rows.size(); ++j)
      for (std::size_t i = 0; i < rows[j].size(); ++i) {
        const Cell& c = rows[j][i];
        const std::size_t at[4] = {i + g.ni * j, i + 1 + g.ni * j, i + 1 + g.ni * (j + 1),
                                   i + g.ni * (j + 1)};
        const idx_t v[4] = {c.n00, c.n10, c.n11, c.n01};
        for (int m = 0; m < 4; ++m) {
          idx_t& slot = g.node[at[m]];
          if (slot != -1 && slot != v[m]) return {};
          slot = v[m];
        }
      }
    return g;
  }

  const std::vector<Quad>& quads() const { return quads_; }

 private:
  /// The corner of q next to a that is not b.
  static idx_t next_to(const Quad& q, idx_t a, idx_t b) {
    const int ia = static_cast<int>(std::find(q.begin(), q.end(), a) - q.begin());
    const idx_t up = q[(ia + 1) % 4], down = q[(ia + 3) % 4];
    return up == b ? down : up;
  }

  const std::vector<Quad>& quads_;
  std::map<Edge, std::vector<std::size_t>> byEdge_;
};

} // namespace

QuadGrid structure_quads(const std::vector<Quad>& quads) {
  const Walker w(quads);
  std::map<idx_t, int> uses;
  for (const Quad& q : quads)
    for (idx_t v : q)
      ++uses[v];
  for (std::size_t k = 0; k < quads.size(); ++k)
    for (int c = 0; c < 4; ++c) {
      const Quad& q = quads[k];
      const idx_t v = q[c], prev = q[(c + 3) % 4], next = q[(c + 1) % 4];
      if (uses[v] != 1 || !w.boundary(v, prev) || !w.boundary(v, next)) continue;
      // i along either boundary edge of the corner
      for (const Cell& start :
           {Cell{v, next, q[(c + 2) % 4], prev, k}, Cell{v, prev, q[(c + 2) % 4], next, k}}) {
        QuadGrid g = w.walk(start);
        if (g.ni > 0) return g;
      }
    }
  return {};
}

} // namespace fv::testing
