#include "tests/solver/test_meshes.hpp"

#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/state_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace fv::testing {
namespace {
using V3 = std::array<real_t, 3>;
V3 sub(const V3& a, const V3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
real_t dot(const V3& a, const V3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
} // namespace

Mesh box_mesh(int nx, int ny, int nz, V3 lo, V3 hi, bool tets, real_t jitter, const NodeMap& map) {
  Mesh m;
  auto nid = [&](int i, int j, int k) {
    return static_cast<idx_t>((k * (ny + 1) + j) * (nx + 1) + i);
  };
  std::mt19937 rng(12345);
  std::uniform_real_distribution<real_t> U(-1.0, 1.0);
  const V3 h = {(hi[0] - lo[0]) / nx, (hi[1] - lo[1]) / ny, (hi[2] - lo[2]) / nz};
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        V3 p = {lo[0] + i * h[0], lo[1] + j * h[1], lo[2] + k * h[2]};
        if (jitter > 0) {
          const real_t dx = U(rng), dy = U(rng), dz = U(rng);
          if (i > 0 && i < nx) p[0] += jitter * h[0] * dx;
          if (j > 0 && j < ny) p[1] += jitter * h[1] * dy;
          if (k > 0 && k < nz) p[2] += jitter * h[2] * dz;
        }
        if (map) p = map(p[0], p[1], p[2]);
        m.xyz.insert(m.xyz.end(), p.begin(), p.end());
      }
  std::vector<idx_t> offsets{0}, nodes;
  auto add_cell = [&](CellType t, std::initializer_list<idx_t> v) {
    m.cellType.push_back(t);
    nodes.insert(nodes.end(), v);
    offsets.push_back(static_cast<idx_t>(nodes.size()));
  };
  auto vol = [&](idx_t a, idx_t b, idx_t c, idx_t d) {
    auto P = [&](idx_t n) { return V3{m.xyz[3 * n], m.xyz[3 * n + 1], m.xyz[3 * n + 2]}; };
    return dot(sub(P(b), P(a)), cross(sub(P(c), P(a)), sub(P(d), P(a))));
  };
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const idx_t v[8] = {
            nid(i, j, k),     nid(i + 1, j, k),     nid(i + 1, j + 1, k),     nid(i, j + 1, k),
            nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)};
        if (!tets) {
          add_cell(CellType::Hex, {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]});
          continue;
        }
        const int t[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                             {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
        for (const auto& q : t) {
          idx_t a = v[q[0]], b = v[q[1]], c = v[q[2]], d = v[q[3]];
          if (vol(a, b, c, d) < 0) std::swap(b, c);
          add_cell(CellType::Tet, {a, b, c, d});
        }
      }
  m.cellNodes = Csr(Array<idx_t>(std::move(offsets)), Array<idx_t>(std::move(nodes)));
  // boundary faces: the faces of the cells that lie on the logical box boundary
  const char* names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  for (auto* n : names)
    m.patches.push_back(Patch{n, "UserDefined"});
  std::vector<idx_t> bo{0}, bn;
  auto logical = [&](idx_t n, int& i, int& j, int& k) {
    i = n % (nx + 1);
    j = (n / (nx + 1)) % (ny + 1);
    k = n / ((nx + 1) * (ny + 1));
  };
  for (idx_t c = 0; c < m.nCells(); ++c) {
    const idx_t* cn = m.cellNodes.row(c);
    for (int f = 0; f < cell_face_count(m.cellType[c]); ++f) {
      const LocalFace& lf = cell_face(m.cellType[c], f);
      for (int side = 0; side < 6; ++side) {
        const int axis = side / 2;
        const int target = side % 2 == 0 ? 0 : (axis == 0 ? nx : axis == 1 ? ny : nz);
        bool on = true;
        for (int q = 0; q < lf.n; ++q) {
          int ijk[3];
          logical(cn[lf.v[q]], ijk[0], ijk[1], ijk[2]);
          on = on && ijk[axis] == target;
        }
        if (!on) continue;
        for (int q = 0; q < lf.n; ++q)
          bn.push_back(cn[lf.v[q]]);
        bo.push_back(static_cast<idx_t>(bn.size()));
        m.bfacePatch.push_back(side);
      }
    }
  }
  m.bfaceNodes = Csr(Array<idx_t>(std::move(bo)), Array<idx_t>(std::move(bn)));
  m.path = "generated box";
  m.format = "generated";
  return m;
}

Zone zone_with_zmin_wall(const Mesh& mesh) {
  Zone zone = zone_from_mesh(mesh);
  std::vector<real_t> d(static_cast<std::size_t>(zone.nTotalCells()));
  for (std::size_t c = 0; c < d.size(); ++c)
    d[c] = zone.cellCentroid[3 * c + 2];
  zone.cellWallDistance = Array<real_t>(std::move(d));
  return zone;
}

Zone zone_from_mesh(const Mesh& m) {
  Zone z;
  const idx_t nC = m.nCells(), nN = m.nNodes();
  auto P = [&](idx_t n) { return V3{m.xyz[3 * n], m.xyz[3 * n + 1], m.xyz[3 * n + 2]}; };
  // boundary face patch by sorted node key
  std::map<std::vector<idx_t>, idx_t> bpatch;
  for (idx_t b = 0; b < m.nBoundaryFaces(); ++b) {
    std::vector<idx_t> key(m.bfaceNodes.row(b), m.bfaceNodes.row(b) + m.bfaceNodes.size(b));
    std::sort(key.begin(), key.end());
    bpatch[key] = m.bfacePatch[b];
  }
  struct F {
    std::vector<idx_t> nodes; // owner's outward orientation
    idx_t owner = kNone, neighbour = kNone;
  };
  std::vector<F> faces;
  std::map<std::vector<idx_t>, idx_t> index;
  for (idx_t c = 0; c < nC; ++c) {
    const idx_t* cn = m.cellNodes.row(c);
    for (int f = 0; f < cell_face_count(m.cellType[c]); ++f) {
      const LocalFace& lf = cell_face(m.cellType[c], f);
      std::vector<idx_t> nodes(lf.n);
      for (int q = 0; q < lf.n; ++q)
        nodes[q] = cn[lf.v[q]];
      std::vector<idx_t> key = nodes;
      std::sort(key.begin(), key.end());
      auto it = index.find(key);
      if (it == index.end()) {
        index[key] = static_cast<idx_t>(faces.size());
        faces.push_back(F{nodes, c, kNone});
      } else {
        FV_VERIFY(faces[it->second].neighbour == kNone, "face shared by more than two cells");
        faces[it->second].neighbour = c;
      }
    }
  }
  // numbering: boundary faces grouped by patch, then interior faces in cell-loop order
  const idx_t nP = static_cast<idx_t>(m.patches.size());
  std::vector<std::vector<idx_t>> byPatch(nP);
  std::vector<idx_t> interior;
  for (idx_t f = 0; f < static_cast<idx_t>(faces.size()); ++f) {
    if (faces[f].neighbour == kNone) {
      std::vector<idx_t> key = faces[f].nodes;
      std::sort(key.begin(), key.end());
      auto it = bpatch.find(key);
      FV_VERIFY(it != bpatch.end(), "boundary face without patch");
      byPatch[it->second].push_back(f);
    } else {
      interior.push_back(f); // already in order of first meeting (owner = lower cell)
    }
  }
  std::vector<idx_t> order;
  std::vector<idx_t> patchOff{0};
  for (auto& l : byPatch) {
    order.insert(order.end(), l.begin(), l.end());
    patchOff.push_back(static_cast<idx_t>(order.size()));
  }
  z.nBoundaryFaces = static_cast<idx_t>(order.size());
  order.insert(order.end(), interior.begin(), interior.end());
  const idx_t nF = static_cast<idx_t>(order.size());
  z.nCells = nC;
  z.nInteriorCells = nC;
  z.nHaloCells = 0;
  z.nFaces = nF;
  z.nNodes = nN;
  z.patchFaceOffsets = Array<idx_t>(std::move(patchOff));

  // geometry
  std::vector<real_t> fa(3 * nF), fc(3 * nF), vol(nC, 0.0), cc(3 * nC, 0.0);
  std::vector<idx_t> own(nF), ngb(nF), fno{0}, fnn;
  for (idx_t f = 0; f < nF; ++f) {
    const F& face = faces[order[f]];
    own[f] = face.owner;
    ngb[f] = face.neighbour;
    fnn.insert(fnn.end(), face.nodes.begin(), face.nodes.end());
    fno.push_back(static_cast<idx_t>(fnn.size()));
    V3 c0{0, 0, 0};
    for (idx_t n : face.nodes)
      for (int d = 0; d < 3; ++d)
        c0[d] += P(n)[d] / face.nodes.size();
    V3 S{0, 0, 0}, C{0, 0, 0};
    real_t A = 0;
    for (std::size_t q = 0; q < face.nodes.size(); ++q) {
      const V3 a = P(face.nodes[q]), b = P(face.nodes[(q + 1) % face.nodes.size()]);
      const V3 s = cross(sub(a, c0), sub(b, c0));
      const real_t w = 0.5 * std::sqrt(dot(s, s));
      for (int d = 0; d < 3; ++d) {
        S[d] += 0.5 * s[d];
        C[d] += w * (a[d] + b[d] + c0[d]) / 3.0;
      }
      A += w;
    }
    for (int d = 0; d < 3; ++d) {
      fa[3 * f + d] = S[d];
      fc[3 * f + d] = C[d] / A;
    }
  }
  // cell volume and centroid: pyramids from the node average to each face triangle
  for (idx_t c = 0; c < nC; ++c) {
    V3 x0{0, 0, 0};
    const idx_t nn = m.cellNodes.size(c);
    for (idx_t q = 0; q < nn; ++q)
      for (int d = 0; d < 3; ++d)
        x0[d] += P(m.cellNodes.row(c)[q])[d] / nn;
    V3 xc{0, 0, 0};
    real_t V = 0;
    for (int f = 0; f < cell_face_count(m.cellType[c]); ++f) {
      const LocalFace& lf = cell_face(m.cellType[c], f);
      V3 f0{0, 0, 0};
      for (int q = 0; q < lf.n; ++q)
        for (int d = 0; d < 3; ++d)
          f0[d] += P(m.cellNodes.row(c)[lf.v[q]])[d] / lf.n;
      for (int q = 0; q < lf.n; ++q) {
        const V3 a = P(m.cellNodes.row(c)[lf.v[q]]),
                 b = P(m.cellNodes.row(c)[lf.v[(q + 1) % lf.n]]);
        const real_t v6 = dot(sub(f0, x0), cross(sub(a, x0), sub(b, x0)));
        const real_t v = v6 / 6.0;
        V += v;
        for (int d = 0; d < 3; ++d)
          xc[d] += v * (x0[d] + f0[d] + a[d] + b[d]) / 4.0;
      }
    }
    FV_VERIFY(V > 0, "generated cell " << c << " has volume " << V);
    vol[c] = V;
    for (int d = 0; d < 3; ++d)
      cc[3 * c + d] = xc[d] / V;
  }
  std::vector<real_t> od(3 * nF), nd(3 * nF, 0.0);
  for (idx_t f = 0; f < nF; ++f)
    for (int d = 0; d < 3; ++d) {
      od[3 * f + d] = fc[3 * f + d] - cc[3 * own[f] + d];
      if (ngb[f] != kNone) nd[3 * f + d] = fc[3 * f + d] - cc[3 * ngb[f] + d];
    }
  // connectivity
  std::vector<std::vector<std::pair<idx_t, int>>> cf(nC);
  for (idx_t f = 0; f < nF; ++f) {
    cf[own[f]].push_back({f, +1});
    if (ngb[f] != kNone) cf[ngb[f]].push_back({f, -1});
  }
  std::vector<idx_t> cfo{0}, cfi, cco{0}, cci;
  std::vector<std::int8_t> sign;
  for (idx_t c = 0; c < nC; ++c) {
    std::sort(cf[c].begin(), cf[c].end());
    std::vector<idx_t> nb;
    for (auto [f, s] : cf[c]) {
      cfi.push_back(f);
      sign.push_back(static_cast<std::int8_t>(s));
      if (ngb[f] != kNone) nb.push_back(own[f] == c ? ngb[f] : own[f]);
    }
    std::sort(nb.begin(), nb.end());
    cci.insert(cci.end(), nb.begin(), nb.end());
    cfo.push_back(static_cast<idx_t>(cfi.size()));
    cco.push_back(static_cast<idx_t>(cci.size()));
  }
  z.cellFaces = Csr(Array<idx_t>(std::move(cfo)), Array<idx_t>(std::move(cfi)));
  z.cellFaceSign = Array<std::int8_t>(std::move(sign));
  z.cellCells = Csr(Array<idx_t>(std::move(cco)), Array<idx_t>(std::move(cci)));
  z.cellNodes = m.cellNodes.clone();
  z.faceNodes = Csr(Array<idx_t>(std::move(fno)), Array<idx_t>(std::move(fnn)));
  z.nodeFaces = z.faceNodes.transpose(nN);
  z.nodeCells = z.cellNodes.transpose(nN);
  std::vector<real_t> w(z.nodeCells.nnz());
  for (idx_t n = 0; n < nN; ++n) {
    real_t sum = 0;
    for (idx_t j = z.nodeCells.begin(n); j < z.nodeCells.end(n); ++j) {
      const idx_t c = z.nodeCells.indices()[j];
      const V3 d = sub(V3{cc[3 * c], cc[3 * c + 1], cc[3 * c + 2]}, P(n));
      w[j] = 1.0 / std::sqrt(dot(d, d));
      sum += w[j];
    }
    for (idx_t j = z.nodeCells.begin(n); j < z.nodeCells.end(n); ++j)
      w[j] /= sum;
  }
  z.nodeCellWeight = Array<real_t>(std::move(w));
  std::vector<gidx_t> cg(nC), fg(nF), ng(nN);
  for (idx_t i = 0; i < nC; ++i)
    cg[i] = i;
  for (idx_t i = 0; i < nF; ++i)
    fg[i] = i;
  for (idx_t i = 0; i < nN; ++i)
    ng[i] = i;
  z.cellGlobalId = Array<gidx_t>(std::move(cg));
  z.faceGlobalId = Array<gidx_t>(std::move(fg));
  z.nodeGlobalId = Array<gidx_t>(std::move(ng));
  z.cellType = Array<std::int8_t>(std::vector<std::int8_t>(nC));
  for (idx_t c = 0; c < nC; ++c)
    z.cellType[c] = static_cast<std::int8_t>(m.cellType[c]);
  z.cellVolume = Array<real_t>(std::move(vol));
  z.cellCentroid = Array<real_t>(std::move(cc));
  z.faceOwner = Array<idx_t>(std::move(own));
  z.faceNeighbour = Array<idx_t>(std::move(ngb));
  z.faceArea = Array<real_t>(std::move(fa));
  z.faceCentroid = Array<real_t>(std::move(fc));
  z.faceOwnerDelta = Array<real_t>(std::move(od));
  z.faceNeighbourDelta = Array<real_t>(std::move(nd));
  z.nodeXyz = Array<real_t>(std::vector<real_t>(m.xyz));
  return z;
}

real_t l1_difference(const Zone& z, const std::vector<real_t>& a, const std::vector<real_t>& b) {
  real_t s = 0, v = 0;
  for (idx_t c = 0; c < z.nCells; ++c) {
    s += std::fabs(a[c] - b[c]) * z.cellVolume[c];
    v += z.cellVolume[c];
  }
  return s / v;
}

std::vector<real_t> smooth_state(const Zone& zone, const CaseConfig& cfg, real_t amp) {
  const StateModel sm = StateModel::of(cfg.flow);
  const idx_t nt = zone.nTotalCells();
  std::vector<real_t> U(static_cast<std::size_t>(sm.nVars) * nt);
  const std::vector<real_t> inf = sm.freestream(cfg.flow);
  for (idx_t c = 0; c < nt; ++c) {
    const real_t* x = &zone.cellCentroid[3 * c];
    const real_t s = 1 + amp * std::sin(3 * x[0]) * std::cos(2 * x[1] + x[2]);
    std::vector<real_t> w = inf;
    w[0] *= s;
    w[1] *= 2 - s;
    w[4] *= s * s;
    real_t u[phys::kMaxVars];
    sm.to_conservative(w.data(), u, cfg.flow.gamma);
    for (int k = 0; k < sm.nVars; ++k)
      U[static_cast<std::size_t>(k) * nt + c] = u[k];
  }
  return U;
}

} // namespace fv::testing
