#include "box_mesh.hpp"

#include "common/cell_shapes.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <random>

namespace fv::testing {

namespace {

double signed_volume6(const std::vector<real_t>& x, idx_t a, idx_t b, idx_t c, idx_t d) {
  auto p = [&](idx_t i, int k) { return x[3 * static_cast<std::size_t>(i) + k]; };
  const double u[3] = {p(b, 0) - p(a, 0), p(b, 1) - p(a, 1), p(b, 2) - p(a, 2)};
  const double v[3] = {p(c, 0) - p(a, 0), p(c, 1) - p(a, 1), p(c, 2) - p(a, 2)};
  const double w[3] = {p(d, 0) - p(a, 0), p(d, 1) - p(a, 1), p(d, 2) - p(a, 2)};
  return (u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] +
         (u[0] * v[1] - u[1] * v[0]) * w[2];
}

Csr csr_from_rows(const std::vector<std::vector<idx_t>>& rows) {
  std::vector<idx_t> counts;
  for (auto& r : rows)
    counts.push_back(static_cast<idx_t>(r.size()));
  Csr c = Csr::from_counts(counts);
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::copy(rows[i].begin(), rows[i].end(), c.row(static_cast<idx_t>(i)));
  return c;
}

} // namespace

Mesh make_box_mesh(const BoxSpec& s) {
  std::mt19937_64 rng(s.seed);
  Mesh m;
  const int nx = s.nx, ny = s.ny, nz = s.nz;
  auto nid = [&](int i, int j, int k) {
    return static_cast<idx_t>((k * (ny + 1) + j) * (nx + 1) + i);
  };
  const double h[3] = {s.lx / nx, s.ly / ny, s.lz / nz};
  std::uniform_real_distribution<double> jit(-s.jitter, s.jitter);
  m.xyz.resize(3 * static_cast<std::size_t>((nx + 1) * (ny + 1) * (nz + 1)));
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const idx_t n = nid(i, j, k);
        const int ijk[3] = {i, j, k}, nmax[3] = {nx, ny, nz};
        for (int d = 0; d < 3; ++d) {
          double v = ijk[d] * h[d];
          const bool interior = i > 0 && i < nx && j > 0 && j < ny && k > 0 && k < nz;
          if (interior && s.jitter > 0) v += jit(rng) * h[d];
          (void)nmax;
          m.xyz[3 * static_cast<std::size_t>(n) + d] = s.origin[d] + v;
        }
      }

  std::vector<std::vector<idx_t>> cells;
  std::vector<char> toPoly; // Mixed: cells stored as polyhedra once the boundary is known
  const idx_t nGrid = static_cast<idx_t>(m.xyz.size() / 3);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const idx_t v[8] = {
            nid(i, j, k),     nid(i + 1, j, k),     nid(i + 1, j + 1, k),     nid(i, j + 1, k),
            nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)};
        const int pattern = s.cells == BoxCells::Mixed ? (i + j + k) % 3 : 0;
        if (s.cells == BoxCells::Hex || (s.cells == BoxCells::Mixed && pattern != 1)) {
          cells.push_back({v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]});
          m.cellType.push_back(CellType::Hex);
          toPoly.push_back(s.cells == BoxCells::Mixed && j % 2 == 0);
        } else if (s.cells == BoxCells::Mixed) {
          // 6 pyramids about the centre: base = hex face reversed, so the base points outward.
          const idx_t centre = static_cast<idx_t>(m.xyz.size() / 3);
          double cx[3] = {0, 0, 0};
          for (idx_t q : v)
            for (int d = 0; d < 3; ++d)
              cx[d] += m.xyz[3 * static_cast<std::size_t>(q) + d] / 8;
          m.xyz.insert(m.xyz.end(), cx, cx + 3);
          for (int f = 0; f < 6; ++f) {
            const LocalFace& lf = cell_face(CellType::Hex, f);
            cells.push_back({v[lf.v[0]], v[lf.v[3]], v[lf.v[2]], v[lf.v[1]], centre});
            m.cellType.push_back(CellType::Pyramid);
            toPoly.push_back(0);
          }
        } else if (s.cells == BoxCells::Tet) {
          // Freudenthal split along the diagonal 0-6 (conforming between hexes).
          const int t[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                               {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
          for (auto& tt : t) {
            std::vector<idx_t> c = {v[tt[0]], v[tt[1]], v[tt[2]], v[tt[3]]};
            if (signed_volume6(m.xyz, c[0], c[1], c[2], c[3]) < 0) std::swap(c[1], c[2]);
            cells.push_back(c);
            m.cellType.push_back(CellType::Tet);
            toPoly.push_back(0);
          }
        } else {
          const int t[2][3] = {{0, 1, 2}, {0, 2, 3}};
          for (auto& tt : t) {
            std::vector<idx_t> c = {v[tt[0]],     v[tt[1]],     v[tt[2]],
                                    v[tt[0] + 4], v[tt[1] + 4], v[tt[2] + 4]};
            if (signed_volume6(m.xyz, c[0], c[1], c[2], c[3]) < 0) {
              std::swap(c[1], c[2]);
              std::swap(c[4], c[5]);
            }
            cells.push_back(c);
            m.cellType.push_back(CellType::Prism);
            toPoly.push_back(0);
          }
        }
      }

  // Boundary faces: cell faces whose nodes all lie on one side of the box.
  m.patches = {{"xmin", "BCWall"}, {"xmax", "BCFarfield"}, {"ymin", "BCSymmetryPlane"},
               {"ymax", "BCWall"}, {"zmin", "BCInflow"},   {"zmax", "BCOutflow"}};
  std::vector<std::vector<idx_t>> bfaces;
  auto idx_of = [&](idx_t n) {
    const int i = n % (nx + 1), j = (n / (nx + 1)) % (ny + 1), k = n / ((nx + 1) * (ny + 1));
    return std::array<int, 3>{i, j, k};
  };
  const int nmax[3] = {nx, ny, nz};
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const CellType t = m.cellType[c];
    for (int f = 0; f < cell_face_count(t); ++f) {
      const LocalFace& lf = cell_face(t, f);
      for (int side = 0; side < 6; ++side) {
        const int d = side / 2, val = side % 2 ? nmax[d] : 0;
        bool on = true;
        for (int q = 0; q < lf.n; ++q)
          on = on && cells[c][lf.v[q]] < nGrid && idx_of(cells[c][lf.v[q]])[d] == val;
        if (!on) continue;
        std::vector<idx_t> fn;
        for (int q = 0; q < lf.n; ++q)
          fn.push_back(cells[c][lf.v[q]]);
        if (rng() % 2) std::reverse(fn.begin(), fn.end()); // any orientation as read
        bfaces.push_back(fn);
        m.bfacePatch.push_back(side);
      }
    }
  }

  if (s.shuffle) {
    const std::size_t nn = m.xyz.size() / 3;
    std::vector<idx_t> np(nn);
    std::iota(np.begin(), np.end(), 0);
    std::shuffle(np.begin(), np.end(), rng);
    std::vector<real_t> x2(m.xyz.size());
    for (std::size_t i = 0; i < nn; ++i)
      for (int d = 0; d < 3; ++d)
        x2[3 * static_cast<std::size_t>(np[i]) + d] = m.xyz[3 * i + d];
    m.xyz = std::move(x2);
    for (auto& c : cells)
      for (auto& v : c)
        v = np[static_cast<std::size_t>(v)];
    for (auto& f : bfaces)
      for (auto& v : f)
        v = np[static_cast<std::size_t>(v)];
    std::vector<std::size_t> cp(cells.size());
    std::iota(cp.begin(), cp.end(), 0);
    std::shuffle(cp.begin(), cp.end(), rng);
    std::vector<std::vector<idx_t>> c2(cells.size());
    std::vector<CellType> t2(cells.size());
    std::vector<char> p2poly(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
      c2[cp[i]] = cells[i];
      t2[cp[i]] = m.cellType[i];
      p2poly[cp[i]] = toPoly[i];
    }
    cells = std::move(c2);
    m.cellType = std::move(t2);
    toPoly = std::move(p2poly);
    std::vector<std::size_t> bp(bfaces.size());
    std::iota(bp.begin(), bp.end(), 0);
    std::shuffle(bp.begin(), bp.end(), rng);
    std::vector<std::vector<idx_t>> b2(bfaces.size());
    std::vector<idx_t> p2(bfaces.size());
    for (std::size_t i = 0; i < bfaces.size(); ++i) {
      b2[bp[i]] = bfaces[i];
      p2[bp[i]] = m.bfacePatch[i];
    }
    bfaces = std::move(b2);
    m.bfacePatch = std::move(p2);
  }
  // Polyhedra: outward hex faces, each shared face stored once (~f for the second cell).
  if (std::any_of(toPoly.begin(), toPoly.end(), [](char c) { return c != 0; })) {
    std::map<std::vector<idx_t>, idx_t> faceId;
    std::vector<std::vector<idx_t>> polyFaces, polyCells;
    m.polyCell.assign(cells.size(), -1);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (!toPoly[c]) continue;
      std::vector<idx_t> refs;
      for (int f = 0; f < 6; ++f) {
        const LocalFace& lf = cell_face(CellType::Hex, f);
        std::vector<idx_t> fn;
        for (int q = 0; q < 4; ++q)
          fn.push_back(cells[c][lf.v[q]]);
        std::vector<idx_t> key = fn;
        std::sort(key.begin(), key.end());
        auto [it, fresh] = faceId.emplace(key, static_cast<idx_t>(polyFaces.size()));
        if (fresh) polyFaces.push_back(fn);
        refs.push_back(fresh ? it->second : ~it->second);
      }
      m.polyCell[c] = static_cast<idx_t>(polyCells.size());
      polyCells.push_back(refs);
      m.cellType[c] = CellType::Polyhedron;
    }
    m.polyCellFaces = csr_from_rows(polyCells);
    m.polyFaceNodes = csr_from_rows(polyFaces);
  }
  m.cellNodes = csr_from_rows(cells);
  m.bfaceNodes = csr_from_rows(bfaces);
  m.cellFileId.resize(cells.size());
  std::iota(m.cellFileId.begin(), m.cellFileId.end(), gidx_t(1));
  m.bfaceFileId.resize(bfaces.size());
  std::iota(m.bfaceFileId.begin(), m.bfaceFileId.end(), static_cast<gidx_t>(cells.size()) + 1);
  m.path = "generated-box";
  m.format = "generated";
  return m;
}

} // namespace fv::testing
