#include "formats/structured_block.hpp"

#include "common/error.hpp"

#include <cstdlib>
#include <string>

namespace fv {

namespace {

using Ijk = std::array<std::int64_t, 3>;

/// The two in-plane directions of a side's normal direction d (a < b).
void in_plane(int dim, int d, int& a, int& b) {
  if (dim == 2) {
    a = 1 - d;
    b = -1;
    return;
  }
  a = d == 0 ? 1 : 0;
  b = d == 2 ? 1 : 2;
}

} // namespace

std::int64_t StructuredBlock::n_cells() const {
  std::int64_t n = 1;
  for (int d = 0; d < dim; ++d)
    n *= nv[d] - 1;
  return n;
}

bool StructuredBlock::has_vertex(const Ijk& ijk) const {
  for (int d = 0; d < 3; ++d)
    if (ijk[d] < 1 || ijk[d] > nv[d]) return false;
  return true;
}

std::vector<std::int64_t> block_cells(const StructuredBlock& b, bool leftHanded) {
  std::vector<std::int64_t> conn;
  const int per = b.dim == 3 ? 8 : 4;
  conn.reserve(static_cast<std::size_t>(b.n_cells() * per));
  const std::int64_t kEnd = b.dim == 3 ? b.nv[2] - 1 : 1;
  for (std::int64_t k = 1; k <= kEnd; ++k)
    for (std::int64_t j = 1; j < b.nv[1]; ++j)
      for (std::int64_t i = 1; i < b.nv[0]; ++i) {
        const std::int64_t quad[2][4] = {{b.node({i, j, k}), b.node({i + 1, j, k}),
                                          b.node({i + 1, j + 1, k}), b.node({i, j + 1, k})},
                                         {0, 0, 0, 0}};
        if (b.dim == 2) {
          conn.insert(conn.end(), quad[0], quad[0] + 4);
          continue;
        }
        const std::int64_t top[4] = {b.node({i, j, k + 1}), b.node({i + 1, j, k + 1}),
                                     b.node({i + 1, j + 1, k + 1}), b.node({i, j + 1, k + 1})};
        const std::int64_t* first = leftHanded ? top : quad[0];
        const std::int64_t* second = leftHanded ? quad[0] : top;
        conn.insert(conn.end(), first, first + 4);
        conn.insert(conn.end(), second, second + 4);
      }
  return conn;
}

bool block_is_left_handed(const StructuredBlock& b, const std::vector<double>& xyz) {
  if (b.dim != 3) return false;
  double sum = 0;
  auto p = [&](std::int64_t i, std::int64_t j, std::int64_t k, int d) {
    return xyz[static_cast<std::size_t>(3 * b.node({i, j, k}) + d)];
  };
  for (std::int64_t k = 1; k < b.nv[2]; ++k)
    for (std::int64_t j = 1; j < b.nv[1]; ++j)
      for (std::int64_t i = 1; i < b.nv[0]; ++i) {
        double e[3][3];
        for (int d = 0; d < 3; ++d) {
          // cell-average edge vectors along i, j, k
          e[0][d] = 0.25 * (p(i + 1, j, k, d) - p(i, j, k, d) + p(i + 1, j + 1, k, d) -
                            p(i, j + 1, k, d) + p(i + 1, j, k + 1, d) - p(i, j, k + 1, d) +
                            p(i + 1, j + 1, k + 1, d) - p(i, j + 1, k + 1, d));
          e[1][d] = 0.25 * (p(i, j + 1, k, d) - p(i, j, k, d) + p(i + 1, j + 1, k, d) -
                            p(i + 1, j, k, d) + p(i, j + 1, k + 1, d) - p(i, j, k + 1, d) +
                            p(i + 1, j + 1, k + 1, d) - p(i + 1, j, k + 1, d));
          e[2][d] = 0.25 * (p(i, j, k + 1, d) - p(i, j, k, d) + p(i + 1, j, k + 1, d) -
                            p(i + 1, j, k, d) + p(i, j + 1, k + 1, d) - p(i, j + 1, k, d) +
                            p(i + 1, j + 1, k + 1, d) - p(i + 1, j + 1, k, d));
        }
        sum += (e[0][1] * e[1][2] - e[0][2] * e[1][1]) * e[2][0] +
               (e[0][2] * e[1][0] - e[0][0] * e[1][2]) * e[2][1] +
               (e[0][0] * e[1][1] - e[0][1] * e[1][0]) * e[2][2];
      }
  return sum < 0;
}

std::vector<BlockFace> block_boundary_faces(const StructuredBlock& b) {
  std::vector<BlockFace> faces;
  for (int side = 0; side < 2 * b.dim; ++side) {
    const int d = side / 2;
    int a, c;
    in_plane(b.dim, d, a, c);
    const std::int64_t fix = side % 2 == 0 ? 1 : b.nv[d];
    const std::int64_t nc = c >= 0 ? b.nv[c] - 1 : 1;
    for (std::int64_t v = 1; v <= nc; ++v)
      for (std::int64_t u = 1; u < b.nv[a]; ++u) {
        BlockFace f;
        f.side = side;
        f.lo[d] = fix;
        f.lo[a] = u;
        if (c >= 0) f.lo[c] = v;
        faces.push_back(f);
      }
  }
  return faces;
}

int block_face_corners(const StructuredBlock& b, const BlockFace& f, Ijk out[4]) {
  const int d = f.side / 2;
  int a, c;
  in_plane(b.dim, d, a, c);
  Ijk p = f.lo;
  out[0] = p;
  p[a] += 1;
  out[1] = p;
  if (c < 0) return 2;
  p[c] += 1;
  out[2] = p;
  p[a] -= 1;
  out[3] = p;
  return 4;
}

int block_face_nodes(const StructuredBlock& b, const BlockFace& f, std::int64_t out[4]) {
  Ijk corners[4];
  const int n = block_face_corners(b, f, corners);
  for (int k = 0; k < n; ++k)
    out[k] = b.node(corners[k]);
  return n;
}

Ijk face_center_index(const StructuredBlock& b, const BlockFace& f) {
  (void)b;
  return f.lo; // the corner's vertex index is the plane index in d and the cell index elsewhere
}

bool face_in_range(const StructuredBlock& b, const BlockFace& f, PointSetAt at, const Ijk& lo,
                   const Ijk& hi) {
  if (at == PointSetAt::Vertex) {
    Ijk corners[4];
    const int n = block_face_corners(b, f, corners);
    for (int k = 0; k < n; ++k)
      for (int d = 0; d < b.dim; ++d)
        if (corners[k][d] < lo[d] || corners[k][d] > hi[d]) return false;
    return true;
  }
  const int dn = f.side / 2;
  // a face-centre range names one plane: the vertex index of the side, or (written as a cell
  // index by some tools) nv - 1 on the max side
  if (lo[dn] != hi[dn]) return false;
  const std::int64_t plane = f.lo[dn];
  const bool onSide =
      lo[dn] == plane || (f.side % 2 == 1 && lo[dn] == plane - 1 && plane > 1 && lo[dn] != 1);
  if (!onSide) return false;
  const Ijk idx = face_center_index(b, f);
  for (int d = 0; d < b.dim; ++d)
    if (d != dn && (idx[d] < lo[d] || idx[d] > hi[d])) return false;
  return true;
}

std::vector<std::pair<std::int64_t, std::int64_t>>
one_to_one_pairs(const StructuredBlock& self, const StructuredBlock& donor, const Ijk& lo,
                 const Ijk& hi, const Ijk& donorBegin, const std::array<int, 3>& transform,
                 const std::string& where) {
  int seen = 0;
  for (int c = 0; c < self.dim; ++c) {
    const int t = std::abs(transform[c]);
    const bool fresh = t >= 1 && t <= self.dim && !(seen & (1 << t));
    seen |= 1 << t;
    FV_VERIFY(fresh, where << ": transform (" << transform[0] << ", " << transform[1] << ", "
                           << transform[2] << ") is not a permutation of the index directions");
  }
  FV_VERIFY(self.has_vertex(lo) && self.has_vertex(hi),
            where << ": point range (" << lo[0] << "," << lo[1] << "," << lo[2] << ")..(" << hi[0]
                  << "," << hi[1] << "," << hi[2] << ") lies outside the zone");
  // ranges may be written high to low
  Ijk from = lo, to = hi, step{1, 1, 1};
  for (int d = 0; d < 3; ++d)
    step[d] = to[d] >= from[d] ? 1 : -1;
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  Ijk i = from;
  for (i[2] = from[2];; i[2] += step[2]) {
    for (i[1] = from[1];; i[1] += step[1]) {
      for (i[0] = from[0];; i[0] += step[0]) {
        Ijk j = donorBegin;
        for (int c = 0; c < self.dim; ++c) {
          const int row = std::abs(transform[c]) - 1;
          j[row] += (transform[c] > 0 ? 1 : -1) * (i[c] - from[c]);
        }
        FV_VERIFY(donor.has_vertex(j), where << ": vertex (" << i[0] << "," << i[1] << "," << i[2]
                                             << ") maps to (" << j[0] << "," << j[1] << "," << j[2]
                                             << "), outside the donor zone");
        pairs.emplace_back(self.node(i), donor.node(j));
        if (i[0] == to[0]) break;
      }
      if (i[1] == to[1]) break;
    }
    if (i[2] == to[2]) break;
  }
  return pairs;
}

} // namespace fv
