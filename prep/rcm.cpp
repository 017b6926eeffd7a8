#include "prep/rcm.hpp"

#include "common/error.hpp"

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <boost/property_map/property_map.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <utility>

namespace fv {

namespace {

using Vertex = std::uint32_t;
using Graph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                       boost::no_property, Vertex, Vertex>;

// Streams the (row, column) pairs of a Csr in row order, without materialising an edge list.
class CsrEdgeIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = std::pair<Vertex, Vertex>;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = const value_type&;

  CsrEdgeIterator(const Csr* a, idx_t k) : a_(a), k_(k), row_(0) { settle(); }
  const value_type& operator*() const { return cur_; }
  const value_type* operator->() const { return &cur_; }
  CsrEdgeIterator& operator++() {
    ++k_;
    settle();
    return *this;
  }
  CsrEdgeIterator operator++(int) {
    CsrEdgeIterator t = *this;
    ++*this;
    return t;
  }
  bool operator==(const CsrEdgeIterator& o) const { return k_ == o.k_; }
  bool operator!=(const CsrEdgeIterator& o) const { return k_ != o.k_; }

 private:
  void settle() {
    while (row_ < a_->rows() && k_ >= a_->end(row_))
      ++row_;
    if (k_ < a_->nnz()) cur_ = {static_cast<Vertex>(row_), static_cast<Vertex>(a_->indices()[k_])};
  }
  const Csr* a_;
  idx_t k_;
  idx_t row_;
  value_type cur_{0, 0};
};

} // namespace

std::vector<idx_t> rcm_order(const Csr& adj) {
  const idx_t n = adj.rows();
  std::vector<idx_t> order(static_cast<std::size_t>(n));
  if (n == 0) return order;
  const Graph g(boost::edges_are_sorted, CsrEdgeIterator(&adj, 0), CsrEdgeIterator(&adj, adj.nnz()),
                static_cast<Vertex>(n), static_cast<Vertex>(adj.nnz()));
  std::vector<boost::default_color_type> colors(static_cast<std::size_t>(n));
  auto colorMap = boost::make_iterator_property_map(colors.begin(), get(boost::vertex_index, g));
  std::vector<Vertex> cm(static_cast<std::size_t>(n));
  boost::cuthill_mckee_ordering(g, cm.rbegin(), colorMap, boost::make_out_degree_map(g));
  for (idx_t i = 0; i < n; ++i)
    order[i] = static_cast<idx_t>(cm[i]);
  return order;
}

std::vector<idx_t> rcm_order_towards(const Csr& adj, const std::vector<char>& last) {
  const idx_t n = adj.rows();
  std::vector<idx_t> flagged;
  for (idx_t i = 0; i < n; ++i)
    if (last[i]) flagged.push_back(i);
  if (flagged.empty()) return rcm_order(adj);
  // Graph with a virtual source (vertex n) joined to every flagged vertex.
  std::vector<idx_t> counts(static_cast<std::size_t>(n) + 1);
  for (idx_t i = 0; i < n; ++i)
    counts[i] = adj.size(i) + (last[i] ? 1 : 0);
  counts[n] = static_cast<idx_t>(flagged.size());
  Csr ext = Csr::from_counts(counts);
  for (idx_t i = 0; i < n; ++i) {
    idx_t* out = std::copy(adj.row(i), adj.row(i) + adj.size(i), ext.row(i));
    if (last[i]) *out = n;
  }
  std::copy(flagged.begin(), flagged.end(), ext.row(n));
  const Graph g(boost::edges_are_sorted, CsrEdgeIterator(&ext, 0), CsrEdgeIterator(&ext, ext.nnz()),
                static_cast<Vertex>(n + 1), static_cast<Vertex>(ext.nnz()));
  std::vector<boost::default_color_type> colors(static_cast<std::size_t>(n) + 1);
  auto colorMap = boost::make_iterator_property_map(colors.begin(), get(boost::vertex_index, g));
  // CM sorts the vertices a BFS step discovers by this "degree"; the flagged vertices are all
  // discovered from the source, so ranking them by index keeps their relative order.
  std::vector<idx_t> degree(static_cast<std::size_t>(n) + 1);
  for (idx_t i = 0; i < n; ++i)
    degree[i] = last[i] ? i : adj.size(i);
  auto degreeMap = boost::make_iterator_property_map(degree.begin(), get(boost::vertex_index, g));
  std::vector<Vertex> cm;
  cm.reserve(static_cast<std::size_t>(n) + 1);
  boost::cuthill_mckee_ordering(g, std::deque<Vertex>{static_cast<Vertex>(n)},
                                std::back_inserter(cm), colorMap, degreeMap);
  // cm: source, then reached vertices in CM order. Unreached components go first, in RCM order.
  std::vector<char> reached(static_cast<std::size_t>(n), 0);
  for (std::size_t k = 1; k < cm.size(); ++k)
    reached[cm[k]] = 1;
  std::vector<idx_t> order;
  order.reserve(static_cast<std::size_t>(n));
  if (static_cast<idx_t>(cm.size()) - 1 < n)
    for (idx_t v : rcm_order(adj))
      if (!reached[v]) order.push_back(v);
  for (std::size_t k = cm.size(); k-- > 1;)
    order.push_back(static_cast<idx_t>(cm[k]));
  return order;
}

std::vector<idx_t> invert_permutation(const std::vector<idx_t>& perm) {
  const std::int64_t n = static_cast<std::int64_t>(perm.size());
  std::vector<idx_t> inv(perm.size(), kNone);
  std::int64_t bad = n; // first entry out of range
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (std::int64_t i = 0; i < n; ++i) {
    const idx_t p = perm[static_cast<std::size_t>(i)];
    if (p < 0 || p >= n)
      bad = std::min(bad, i);
    else
      inv[static_cast<std::size_t>(p)] = static_cast<idx_t>(i);
  }
  FV_VERIFY(bad == n, "invert_permutation: entry " << bad << " = "
                                                   << perm[static_cast<std::size_t>(bad)]
                                                   << " is not a permutation");
  // n entries in range fill all n slots unless two are equal.
  std::int64_t hole = n;
#pragma omp parallel for schedule(static) reduction(min : hole)
  for (std::int64_t k = 0; k < n; ++k)
    if (inv[static_cast<std::size_t>(k)] == kNone) hole = std::min(hole, k);
  FV_VERIFY(hole == n,
            "invert_permutation: no entry maps to " << hole << ", so some entry repeats");
  return inv;
}

Csr permute_adjacency(const Csr& adj, const std::vector<idx_t>& order) {
  const std::vector<idx_t> newOf = invert_permutation(order);
  std::vector<idx_t> counts(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    counts[i] = adj.size(order[i]);
  Csr r = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
  for (idx_t i = 0; i < static_cast<idx_t>(order.size()); ++i) {
    idx_t* out = r.row(i);
    const idx_t* in = adj.row(order[i]);
    for (idx_t k = 0; k < adj.size(order[i]); ++k)
      out[k] = newOf[in[k]];
    std::sort(out, out + r.size(i));
  }
  return r;
}

} // namespace fv
