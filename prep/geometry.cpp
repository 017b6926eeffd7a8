#include "prep/geometry.hpp"

#include "common/error.hpp"
#include "prep/connectivity.hpp"
#include "prep/faces.hpp"
#include "prep/mesh_ids.hpp"

#include <cmath>

namespace fv {

namespace {

struct V3 {
  real_t x = 0, y = 0, z = 0;
};
inline V3 operator+(V3 a, V3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline V3 operator-(V3 a, V3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline V3 operator*(real_t s, V3 a) {
  return {s * a.x, s * a.y, s * a.z};
}
inline real_t dot(V3 a, V3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline V3 cross(V3 a, V3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline real_t norm(V3 a) {
  return std::sqrt(dot(a, a));
}
inline V3 load(const real_t* p, idx_t i) {
  return {p[3 * i], p[3 * i + 1], p[3 * i + 2]};
}
inline void store(real_t* p, idx_t i, V3 v) {
  p[3 * i] = v.x;
  p[3 * i + 1] = v.y;
  p[3 * i + 2] = v.z;
}

// Calls fn(a, b, c) for the triangles of a face (relative to origin r): the face itself when it
// is a triangle, else the fan about its node average.
template <class Fn>
void for_each_triangle(const real_t* xyz, const idx_t* nodes, idx_t n, V3 r, Fn&& fn) {
  if (n == 3) {
    fn(load(xyz, nodes[0]) - r, load(xyz, nodes[1]) - r, load(xyz, nodes[2]) - r);
    return;
  }
  V3 m;
  for (idx_t k = 0; k < n; ++k)
    m = m + load(xyz, nodes[k]);
  m = (1.0 / n) * m;
  const V3 mr = m - r;
  for (idx_t k = 0; k < n; ++k)
    fn(mr, load(xyz, nodes[k]) - r, load(xyz, nodes[(k + 1) % n]) - r);
}

} // namespace

void face_geometry(const real_t* xyz, const idx_t* nodes, idx_t n, real_t* area, real_t* centroid) {
  const V3 r = load(xyz, nodes[0]); // local origin for precision
  V3 s;
  for_each_triangle(xyz, nodes, n, r, [&](V3 a, V3 b, V3 c) { s = s + 0.5 * cross(b - a, c - a); });
  const real_t smag = norm(s);
  V3 cen, avg;
  real_t w = 0;
  for_each_triangle(xyz, nodes, n, r, [&](V3 a, V3 b, V3 c) {
    const V3 st = 0.5 * cross(b - a, c - a);
    const real_t wt = smag > 0 ? dot(st, s) / smag : 0.0;
    cen = cen + wt * ((1.0 / 3.0) * (a + b + c));
    w += wt;
  });
  for (idx_t k = 0; k < n; ++k)
    avg = avg + (load(xyz, nodes[k]) - r);
  avg = (1.0 / n) * avg;
  const V3 c = (w > 1e-300 * (1.0 + smag)) ? (1.0 / w) * cen : avg;
  store(area, 0, s);
  store(centroid, 0, r + c);
}

FaceGeometry compute_face_geometry(const real_t* xyz, const Csr& faceNodes) {
  const idx_t nf = faceNodes.rows();
  FaceGeometry g;
  g.area.assign(3 * static_cast<std::size_t>(nf), 0.0);
  g.centroid.assign(3 * static_cast<std::size_t>(nf), 0.0);
#pragma omp parallel for schedule(static)
  for (idx_t f = 0; f < nf; ++f)
    face_geometry(xyz, faceNodes.row(f), faceNodes.size(f),
                  &g.area[3 * static_cast<std::size_t>(f)],
                  &g.centroid[3 * static_cast<std::size_t>(f)]);
  return g;
}

namespace {

// One cell's volume, centroid and closure from its faces; faceArea(k) / faceCentroid(k) give the
// geometry of the cell's k-th face (k in [0, nFaces)).
struct CellValues {
  real_t volume, closure;
  V3 centroid;
};
template <class FaceArea, class FaceCentroid>
CellValues cell_values(const real_t* xyz, const Csr& faceNodes, const idx_t* faces,
                       const std::int8_t* sign, idx_t nFaces, FaceArea&& faceArea,
                       FaceCentroid&& faceCentroid) {
  V3 r;
  for (idx_t k = 0; k < nFaces; ++k)
    r = r + load(faceCentroid(k), 0);
  if (nFaces > 0) r = (1.0 / nFaces) * r;
  real_t vol = 0, smag = 0;
  V3 mom, ssum;
  for (idx_t k = 0; k < nFaces; ++k) {
    const idx_t f = faces[k];
    const real_t sg = sign[k];
    const V3 sf = load(faceArea(k), 0);
    ssum = ssum + sg * sf;
    smag += norm(sf);
    for_each_triangle(xyz, faceNodes.row(f), faceNodes.size(f), r, [&](V3 a, V3 b, V3 cc) {
      const V3 st = (0.5 * sg) * cross(b - a, cc - a);
      vol += dot((1.0 / 3.0) * (a + b + cc), st) / 3.0;
      // int_T x_i^2 dS is exact with the edge-midpoint rule (quadratic integrand).
      const V3 m0 = 0.5 * (a + b), m1 = 0.5 * (b + cc), m2 = 0.5 * (cc + a);
      mom.x += st.x / 3.0 * (m0.x * m0.x + m1.x * m1.x + m2.x * m2.x);
      mom.y += st.y / 3.0 * (m0.y * m0.y + m1.y * m1.y + m2.y * m2.y);
      mom.z += st.z / 3.0 * (m0.z * m0.z + m1.z * m1.z + m2.z * m2.z);
    });
  }
  CellValues out;
  out.volume = vol;
  out.centroid = vol != 0.0 ? r + (0.5 / vol) * mom : r;
  out.closure = smag > 0 ? norm(ssum) / smag : 0.0;
  return out;
}

CellGeometry allocate_cell_geometry(idx_t nc) {
  CellGeometry g;
  g.volume.assign(static_cast<std::size_t>(nc), 0.0);
  g.centroid.assign(3 * static_cast<std::size_t>(nc), 0.0);
  g.closure.assign(static_cast<std::size_t>(nc), 0.0);
  return g;
}

void store_cell(CellGeometry& g, idx_t c, const CellValues& v) {
  g.volume[c] = v.volume;
  store(g.centroid.data(), c, v.centroid);
  g.closure[c] = v.closure;
}

} // namespace

CellGeometry compute_cell_geometry(const real_t* xyz, const Csr& faceNodes, const FaceGeometry& fg,
                                   const Csr& cellFaces, const std::vector<std::int8_t>& sign) {
  const idx_t nc = cellFaces.rows();
  CellGeometry g = allocate_cell_geometry(nc);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nc; ++c) {
    const idx_t* faces = cellFaces.row(c);
    store_cell(g, c,
               cell_values(
                   xyz, faceNodes, faces, &sign[static_cast<std::size_t>(cellFaces.begin(c))],
                   cellFaces.size(c), [&](idx_t k) { return &fg.area[3 * std::size_t(faces[k])]; },
                   [&](idx_t k) { return &fg.centroid[3 * std::size_t(faces[k])]; }));
  }
  return g;
}

CellGeometry compute_cell_geometry(const real_t* xyz, const Csr& faceNodes, const Csr& cellFaces,
                                   const std::vector<std::int8_t>& sign) {
  const idx_t nc = cellFaces.rows();
  CellGeometry g = allocate_cell_geometry(nc);
#pragma omp parallel
  {
    std::vector<real_t> area, centroid; // the current cell's faces, 3 per face
#pragma omp for schedule(static)
    for (idx_t c = 0; c < nc; ++c) {
      const idx_t* faces = cellFaces.row(c);
      const idx_t n = cellFaces.size(c);
      area.resize(3 * static_cast<std::size_t>(n));
      centroid.resize(3 * static_cast<std::size_t>(n));
      for (idx_t k = 0; k < n; ++k)
        face_geometry(xyz, faceNodes.row(faces[k]), faceNodes.size(faces[k]), &area[3 * k],
                      &centroid[3 * k]);
      store_cell(g, c,
                 cell_values(
                     xyz, faceNodes, faces, &sign[static_cast<std::size_t>(cellFaces.begin(c))], n,
                     [&](idx_t k) { return &area[3 * std::size_t(k)]; },
                     [&](idx_t k) { return &centroid[3 * std::size_t(k)]; }));
    }
  }
  return g;
}

Geometry compute_geometry(const Mesh& mesh, const FaceSet& faces) {
  Csr cellFaces;
  std::vector<std::int8_t> sign;
  build_cell_faces(mesh.nCells(), faces.owner, faces.neighbour, cellFaces, sign);
  Geometry g;
  g.faces = compute_face_geometry(mesh.xyz.data(), faces.faceNodes);
  g.cells = compute_cell_geometry(mesh.xyz.data(), faces.faceNodes, g.faces, cellFaces, sign);
  return g;
}

void verify_cell_geometry(const Mesh& mesh, const CellGeometry& cg, real_t closureTol) {
  const idx_t nc = static_cast<idx_t>(cg.volume.size());
  for (idx_t c = 0; c < nc; ++c) {
    FV_VERIFY(cg.volume[c] > 0.0 && std::isfinite(cg.volume[c]),
              mesh_name(mesh) << ": " << cell_label(mesh, c) << " has non-positive volume "
                              << cg.volume[c] << " (inverted or wrongly ordered element)");
    FV_VERIFY(cg.closure[c] <= closureTol,
              mesh_name(mesh) << ": " << cell_label(mesh, c)
                              << " is not closed: |sum S| / sum |S| = " << cg.closure[c]);
  }
}

} // namespace fv
