#include "prep/wall_distance.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fv {

namespace {

real_t dot(const real_t* a, const real_t* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// Exact distance from p to face f (fanned into triangles from its first corner).
real_t face_distance(const real_t* p, const WallFaces& w, idx_t f) {
  const std::vector<real_t>& x = *w.xyz;
  const idx_t b = w.offsets[f], e = w.offsets[f + 1];
  const real_t* a = &x[3 * static_cast<std::size_t>(w.nodes[b])];
  real_t d = std::numeric_limits<real_t>::infinity();
  for (idx_t k = b + 1; k + 1 < e; ++k)
    d = std::min(d, point_triangle_distance(p, a, &x[3 * static_cast<std::size_t>(w.nodes[k])],
                                            &x[3 * static_cast<std::size_t>(w.nodes[k + 1])]));
  return d;
}

/// Bounding-volume hierarchy of the wall faces: a binary tree of axis-aligned boxes, built by
/// median splits of the face centroids along the longest axis, leaves of at most kLeaf faces.
class FaceBvh {
 public:
  explicit FaceBvh(const WallFaces& w) : w_(w) {
    const idx_t nf = w.size();
    faces_.resize(static_cast<std::size_t>(nf));
    lo_.resize(3 * static_cast<std::size_t>(nf));
    hi_.resize(3 * static_cast<std::size_t>(nf));
    cen_.resize(3 * static_cast<std::size_t>(nf));
    for (idx_t f = 0; f < nf; ++f) {
      faces_[f] = f;
      for (int d = 0; d < 3; ++d) {
        lo_[3 * f + d] = std::numeric_limits<real_t>::infinity();
        hi_[3 * f + d] = -std::numeric_limits<real_t>::infinity();
      }
      for (idx_t k = w.offsets[f]; k < w.offsets[f + 1]; ++k)
        for (int d = 0; d < 3; ++d) {
          const real_t x = (*w.xyz)[3 * static_cast<std::size_t>(w.nodes[k]) + d];
          lo_[3 * f + d] = std::min(lo_[3 * f + d], x);
          hi_[3 * f + d] = std::max(hi_[3 * f + d], x);
        }
      for (int d = 0; d < 3; ++d)
        cen_[3 * f + d] = 0.5 * (lo_[3 * f + d] + hi_[3 * f + d]);
    }
    nodes_.reserve(2 * static_cast<std::size_t>(nf) / kLeaf + 2);
    nodes_.emplace_back();
    build(0, 0, nf);
  }

  /// Exact distance from p to the nearest face (branch and bound over the boxes). `hint` is a
  /// face likely to be near (the answer for a previous nearby point; kNone for none): its
  /// distance bounds the search from the start. On return it holds the nearest face.
  real_t nearest(const real_t* p, idx_t& hint) const {
    real_t best = std::numeric_limits<real_t>::infinity();
    if (hint != kNone) best = face_distance(p, w_, hint);
    idx_t stack[128];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& n = nodes_[static_cast<std::size_t>(stack[--top])];
      if (box_distance2(p, n) >= best * best) continue;
      if (n.left < 0) { // leaf
        for (idx_t i = n.begin; i < n.end; ++i) {
          const real_t d = face_distance(p, w_, faces_[i]);
          if (d < best) {
            best = d;
            hint = faces_[i];
          }
        }
        continue;
      }
      // the nearer child last, so that it is searched first
      const Node& a = nodes_[static_cast<std::size_t>(n.left)];
      const Node& b = nodes_[static_cast<std::size_t>(n.left + 1)];
      const bool aFirst = box_distance2(p, a) <= box_distance2(p, b);
      FV_ASSERT(top + 2 <= 128, "wall distance: BVH deeper than its stack");
      stack[top++] = aFirst ? n.left + 1 : n.left;
      stack[top++] = aFirst ? n.left : n.left + 1;
    }
    return best;
  }

 private:
  static constexpr idx_t kLeaf = 4;
  struct Node {
    real_t lo[3], hi[3];
    idx_t begin = 0, end = 0;
    idx_t left = -1; ///< first of two consecutive children; -1 for a leaf
  };

  static real_t box_distance2(const real_t* p, const Node& n) {
    real_t s = 0;
    for (int d = 0; d < 3; ++d) {
      const real_t e = p[d] < n.lo[d] ? n.lo[d] - p[d] : (p[d] > n.hi[d] ? p[d] - n.hi[d] : 0);
      s += e * e;
    }
    return s;
  }

  /// Builds the node of faces_[begin, end) into slot `at` (its children at the end).
  void build(idx_t at, idx_t begin, idx_t end) {
    Node n;
    n.begin = begin;
    n.end = end;
    for (int d = 0; d < 3; ++d) {
      n.lo[d] = std::numeric_limits<real_t>::infinity();
      n.hi[d] = -std::numeric_limits<real_t>::infinity();
    }
    for (idx_t i = begin; i < end; ++i)
      for (int d = 0; d < 3; ++d) {
        n.lo[d] = std::min(n.lo[d], lo_[3 * faces_[i] + d]);
        n.hi[d] = std::max(n.hi[d], hi_[3 * faces_[i] + d]);
      }
    if (end - begin <= kLeaf) {
      nodes_[static_cast<std::size_t>(at)] = n;
      return;
    }
    int axis = 0;
    for (int d = 1; d < 3; ++d)
      if (n.hi[d] - n.lo[d] > n.hi[axis] - n.lo[axis]) axis = d;
    const idx_t mid = begin + (end - begin) / 2;
    std::nth_element(faces_.begin() + begin, faces_.begin() + mid, faces_.begin() + end,
                     [&](idx_t a, idx_t b) { return cen_[3 * a + axis] < cen_[3 * b + axis]; });
    n.left = static_cast<idx_t>(nodes_.size());
    nodes_.emplace_back(); // the two children are consecutive
    nodes_.emplace_back();
    nodes_[static_cast<std::size_t>(at)] = n;
    build(n.left, begin, mid);
    build(n.left + 1, mid, end);
  }

  const WallFaces& w_;
  std::vector<idx_t> faces_;
  std::vector<real_t> lo_, hi_, cen_;
  std::vector<Node> nodes_;
};

} // namespace

real_t point_triangle_distance(const real_t* p, const real_t* a, const real_t* b, const real_t* c) {
  const real_t ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const real_t ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const real_t ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  auto dist = [&](const real_t* q) {
    const real_t d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return std::sqrt(dot(d, d));
  };
  auto at = [&](real_t v, real_t w) { // a + v ab + w ac
    const real_t q[3] = {a[0] + v * ab[0] + w * ac[0], a[1] + v * ab[1] + w * ac[1],
                         a[2] + v * ab[2] + w * ac[2]};
    return dist(q);
  };
  const real_t d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return dist(a); // vertex a
  const real_t bp[3] = {p[0] - b[0], p[1] - b[1], p[2] - b[2]};
  const real_t d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return dist(b); // vertex b
  const real_t vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(d1 / (d1 - d3), 0); // edge ab
  const real_t cp[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
  const real_t d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return dist(c); // vertex c
  const real_t vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(0, d2 / (d2 - d6)); // edge ac
  const real_t va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) { // edge bc
    const real_t w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return at(1 - w, w);
  }
  const real_t denom = va + vb + vc;                               // inside the face
  if (!(denom != 0)) return std::min({dist(a), dist(b), dist(c)}); // degenerate triangle
  return at(vb / denom, vc / denom);
}

std::vector<real_t> wall_distance(const std::vector<real_t>& points, const WallFaces& walls) {
  const std::size_t np = points.size() / 3;
  std::vector<real_t> out(np, std::numeric_limits<real_t>::infinity());
  const idx_t nf = walls.size();
  if (nf == 0) return out;
  FV_VERIFY(walls.xyz, "wall_distance: no coordinates");
  for (idx_t f = 0; f < nf; ++f)
    FV_VERIFY(walls.offsets[f + 1] - walls.offsets[f] >= 3,
              "wall_distance: wall face " << f << " has " << walls.offsets[f + 1] - walls.offsets[f]
                                          << " corners");
  const FaceBvh bvh(walls);
  // Points in blocks: each query starts from the face nearest to the previous point of its block,
  // which is near for points in a local order (cells in RCM order) and prunes most boxes.
  constexpr std::int64_t kBlock = 4096;
  const std::int64_t nBlocks = (static_cast<std::int64_t>(np) + kBlock - 1) / kBlock;
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (std::int64_t blk = 0; blk < nBlocks; ++blk) {
    idx_t hint = kNone;
    const std::int64_t end = std::min(static_cast<std::int64_t>(np), (blk + 1) * kBlock);
    for (std::int64_t i = blk * kBlock; i < end; ++i)
      out[static_cast<std::size_t>(i)] =
          bvh.nearest(&points[3 * static_cast<std::size_t>(i)], hint);
  }
  return out;
}

} // namespace fv
