#include "mesh_checks.hpp"

#include "common/cell_shapes.hpp"

#include <algorithm>
#include <sstream>

namespace fv::testing {
namespace {

using V3 = std::array<double, 3>;

V3 node(const Mesh& m, idx_t n) {
  const double* p = m.xyz.data() + 3 * static_cast<std::size_t>(n);
  return {p[0], p[1], p[2]};
}
V3 sub(const V3& a, const V3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const V3& a, const V3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

V3 mean(const Mesh& m, const idx_t* n, int count) {
  V3 c{0, 0, 0};
  for (int i = 0; i < count; ++i) {
    const V3 p = node(m, n[i]);
    for (int d = 0; d < 3; ++d)
      c[d] += p[d] / count;
  }
  return c;
}

/// One face occurrence: sorted nodes as key, original cyclic order, and who owns it.
struct FaceRef {
  std::array<idx_t, 4> key;
  std::array<idx_t, 4> nodes;
  int n;
  long owner; ///< cell id, or -(bface + 1) for boundary faces
};

/// Whether b is a's cyclic order reversed (opposite orientation).
bool reversed(const FaceRef& a, const FaceRef& b) {
  if (a.n != b.n) return false;
  for (int s = 0; s < a.n; ++s) {
    bool ok = true;
    for (int i = 0; i < a.n && ok; ++i)
      ok = a.nodes[i] == b.nodes[(s - i + 2 * a.n) % a.n];
    if (ok) return true;
  }
  return false;
}
bool same_cycle(const FaceRef& a, const FaceRef& b) {
  if (a.n != b.n) return false;
  for (int s = 0; s < a.n; ++s) {
    bool ok = true;
    for (int i = 0; i < a.n && ok; ++i)
      ok = a.nodes[i] == b.nodes[(s + i) % a.n];
    if (ok) return true;
  }
  return false;
}

} // namespace

double cell_volume(const Mesh& m, idx_t c) {
  const CellType t = m.cellType[static_cast<std::size_t>(c)];
  const idx_t* cn = m.cellNodes.row(c);
  const V3 xc = mean(m, cn, m.cellNodes.size(c));
  double vol = 0;
  for (int f = 0; f < cell_face_count(t); ++f) {
    const LocalFace& lf = cell_face(t, f);
    idx_t fn[4];
    for (int i = 0; i < lf.n; ++i)
      fn[i] = cn[lf.v[i]];
    const V3 fc = mean(m, fn, lf.n);
    for (int i = 0; i < lf.n; ++i) {
      const V3 a = sub(fc, xc), b = sub(node(m, fn[i]), xc),
               d = sub(node(m, fn[(i + 1) % lf.n]), xc);
      vol += dot(a, cross(b, d)) / 6.0;
    }
  }
  return vol;
}

std::array<double, 3> bface_area(const Mesh& m, idx_t f) {
  const idx_t* fn = m.bfaceNodes.row(f);
  const int n = m.bfaceNodes.size(f);
  const V3 fc = mean(m, fn, n);
  V3 s{0, 0, 0};
  for (int i = 0; i < n; ++i) {
    const V3 a = cross(sub(node(m, fn[i]), fc), sub(node(m, fn[(i + 1) % n]), fc));
    for (int d = 0; d < 3; ++d)
      s[d] += 0.5 * a[d];
  }
  return s;
}

FaceMatch match_faces(const Mesh& m) {
  std::vector<FaceRef> refs;
  auto add = [&](const idx_t* n, int count, long owner) {
    FaceRef r{};
    r.n = count;
    r.owner = owner;
    r.key.fill(-1);
    r.nodes.fill(-1);
    for (int i = 0; i < count; ++i)
      r.key[i] = r.nodes[i] = n[i];
    std::sort(r.key.begin(), r.key.begin() + count);
    refs.push_back(r);
  };
  for (idx_t c = 0; c < m.nCells(); ++c) {
    const CellType t = m.cellType[static_cast<std::size_t>(c)];
    const idx_t* cn = m.cellNodes.row(c);
    for (int f = 0; f < cell_face_count(t); ++f) {
      const LocalFace& lf = cell_face(t, f);
      idx_t fn[4];
      for (int i = 0; i < lf.n; ++i)
        fn[i] = cn[lf.v[i]];
      add(fn, lf.n, c);
    }
  }
  for (idx_t f = 0; f < m.nBoundaryFaces(); ++f)
    add(m.bfaceNodes.row(f), m.bfaceNodes.size(f), -(f + 1L));
  std::sort(refs.begin(), refs.end(), [](const FaceRef& a, const FaceRef& b) {
    return a.key != b.key ? a.key < b.key : a.owner > b.owner; // cells first, then boundary
  });
  FaceMatch r;
  auto error = [&](const std::string& e) {
    if (r.errors.size() < 10) r.errors.push_back(e);
  };
  for (std::size_t i = 0; i < refs.size();) {
    std::size_t j = i;
    while (j < refs.size() && refs[j].key == refs[i].key)
      ++j;
    const FaceRef& a = refs[i];
    std::ostringstream who;
    who << "face (" << a.nodes[0] << "," << a.nodes[1] << "," << a.nodes[2];
    if (a.n == 4) who << "," << a.nodes[3];
    who << ")";
    if (j - i != 2) {
      error(who.str() + " occurs " + std::to_string(j - i) + " times");
    } else {
      const FaceRef& b = refs[i + 1];
      if (a.owner < 0) {
        error(who.str() + " is a boundary face of no cell");
      } else if (b.owner >= 0) {
        if (reversed(a, b))
          ++r.interior;
        else
          error(who.str() + " is shared by cells " + std::to_string(a.owner) + " and " +
                std::to_string(b.owner) + " with the same orientation");
      } else {
        if (same_cycle(a, b))
          ++r.boundary;
        else
          error(who.str() + " of cell " + std::to_string(a.owner) + " has an inward boundary face");
      }
    }
    i = j;
  }
  return r;
}

Geometry canonical_geometry(const Mesh& m) {
  Geometry g;
  for (idx_t c = 0; c < m.nCells(); ++c) {
    std::vector<double> v{static_cast<double>(m.cellType[static_cast<std::size_t>(c)])};
    for (idx_t k = m.cellNodes.begin(c); k < m.cellNodes.end(c); ++k) {
      const V3 p = node(m, m.cellNodes.indices()[static_cast<std::size_t>(k)]);
      v.insert(v.end(), p.begin(), p.end());
    }
    g.cells.push_back(std::move(v));
  }
  for (idx_t n = 0; n < m.nNodes(); ++n)
    g.nodes.push_back(node(m, n));
  for (idx_t f = 0; f < m.nBoundaryFaces(); ++f) {
    std::vector<double> v{static_cast<double>(m.bfacePatch[static_cast<std::size_t>(f)])};
    for (idx_t k = m.bfaceNodes.begin(f); k < m.bfaceNodes.end(f); ++k) {
      const V3 p = node(m, m.bfaceNodes.indices()[static_cast<std::size_t>(k)]);
      v.insert(v.end(), p.begin(), p.end());
    }
    g.bfaces.push_back(std::move(v));
  }
  std::sort(g.cells.begin(), g.cells.end());
  std::sort(g.nodes.begin(), g.nodes.end());
  std::sort(g.bfaces.begin(), g.bfaces.end());
  return g;
}

} // namespace fv::testing
