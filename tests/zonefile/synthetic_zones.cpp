#include "synthetic_zones.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace fv::testing {

namespace {

gidx_t node_id(int i, int j, int k) {
  return 4 * static_cast<gidx_t>(i) + 2 * k + j;
}
std::array<real_t, 3> node_xyz(gidx_t g) {
  return {static_cast<real_t>(g / 4), static_cast<real_t>(g % 2), static_cast<real_t>((g / 2) % 2)};
}
/// CGNS HEXA_8 nodes of cell i.
std::array<gidx_t, 8> hex_nodes(int i) {
  return {node_id(i, 0, 0), node_id(i + 1, 0, 0), node_id(i + 1, 1, 0), node_id(i, 1, 0),
          node_id(i, 0, 1), node_id(i + 1, 0, 1), node_id(i + 1, 1, 1), node_id(i, 1, 1)};
}

/// A global face: nodes (any orientation), cells on each side (right = -1 on the boundary).
struct GFace {
  gidx_t id;
  std::array<gidx_t, 4> nodes;
  int left, right; // global cells; normal of `nodes` to be fixed to point left -> right
  int patch;       // -1 for interior
};

std::vector<GFace> faces_of_cell(int i, int nx) {
  std::vector<GFace> f;
  // x-faces: x = i (shared with i-1 or inlet), x = i+1 (shared with i+1 or outlet)
  auto xface = [&](int plane) {
    return std::array<gidx_t, 4>{node_id(plane, 0, 0), node_id(plane, 1, 0), node_id(plane, 1, 1),
                                 node_id(plane, 0, 1)};
  };
  if (i == 0)
    f.push_back({nx - 1, xface(0), 0, -1, 0});
  else
    f.push_back({i - 1, xface(i), i - 1, i, -1});
  if (i == nx - 1)
    f.push_back({nx, xface(nx), i, -1, 1});
  else
    f.push_back({i, xface(i + 1), i, i + 1, -1});
  // side faces (wall): y = 0, y = 1, z = 0, z = 1
  const gidx_t base = nx + 1 + 4 * static_cast<gidx_t>(i);
  f.push_back({base + 0,
               {node_id(i, 0, 0), node_id(i + 1, 0, 0), node_id(i + 1, 0, 1), node_id(i, 0, 1)},
               i,
               -1,
               2});
  f.push_back({base + 1,
               {node_id(i, 1, 0), node_id(i + 1, 1, 0), node_id(i + 1, 1, 1), node_id(i, 1, 1)},
               i,
               -1,
               2});
  f.push_back({base + 2,
               {node_id(i, 0, 0), node_id(i + 1, 0, 0), node_id(i + 1, 1, 0), node_id(i, 1, 0)},
               i,
               -1,
               2});
  f.push_back({base + 3,
               {node_id(i, 0, 1), node_id(i + 1, 0, 1), node_id(i + 1, 1, 1), node_id(i, 1, 1)},
               i,
               -1,
               2});
  return f;
}

std::array<real_t, 3> newell(const std::vector<std::array<real_t, 3>>& p) {
  std::array<real_t, 3> n{0, 0, 0};
  for (std::size_t a = 0; a < p.size(); ++a) {
    const auto& u = p[a];
    const auto& v = p[(a + 1) % p.size()];
    n[0] += (u[1] - v[1]) * (u[2] + v[2]);
    n[1] += (u[2] - v[2]) * (u[0] + v[0]);
    n[2] += (u[0] - v[0]) * (u[1] + v[1]);
  }
  for (auto& x : n)
    x *= 0.5;
  return n;
}

std::array<real_t, 3> centroid_of(int i) {
  return {i + 0.5, 0.5, 0.5};
}

/// Greedy colouring of items whose conflicts are given by a "keys" function.
Csr greedy_colours(int n, const std::vector<std::vector<int>>& keys) {
  std::map<int, std::set<int>> used; // key -> colours
  std::vector<int> colour(static_cast<std::size_t>(n));
  int nColours = 0;
  for (int i = 0; i < n; ++i) {
    int c = 0;
    for (;; ++c) {
      bool clash = false;
      for (int k : keys[static_cast<std::size_t>(i)])
        clash = clash || used[k].count(c);
      if (!clash) break;
    }
    colour[static_cast<std::size_t>(i)] = c;
    for (int k : keys[static_cast<std::size_t>(i)])
      used[k].insert(c);
    nColours = std::max(nColours, c + 1);
  }
  std::vector<idx_t> counts(static_cast<std::size_t>(nColours), 0);
  for (int c : colour)
    ++counts[static_cast<std::size_t>(c)];
  Csr out = Csr::from_counts(counts);
  std::vector<idx_t> fill(out.offsets().begin(), out.offsets().end() - 1);
  for (int i = 0; i < n; ++i)
    out.indices()[fill[static_cast<std::size_t>(colour[static_cast<std::size_t>(i)])]++] = i;
  return out;
}

Csr csr_from_rows(const std::vector<std::vector<idx_t>>& rows) {
  std::vector<idx_t> counts;
  for (const auto& r : rows)
    counts.push_back(static_cast<idx_t>(r.size()));
  Csr c = Csr::from_counts(counts);
  idx_t k = 0;
  for (const auto& r : rows)
    for (idx_t v : r)
      c.indices()[static_cast<std::size_t>(k++)] = v;
  return c;
}

} // namespace

StripMesh strip_mesh(int nx) {
  StripMesh m;
  for (gidx_t g = 0; g < 4 * static_cast<gidx_t>(nx + 1); ++g) {
    auto p = node_xyz(g);
    m.xyz.insert(m.xyz.end(), p.begin(), p.end());
  }
  std::vector<std::vector<idx_t>> rows;
  for (int i = 0; i < nx; ++i) {
    m.cellType.push_back(CellType::Hex);
    auto h = hex_nodes(i);
    rows.emplace_back(h.begin(), h.end());
  }
  m.cellNodes = csr_from_rows(rows);
  return m;
}

ZoneFileHeader strip_header(int nx, int nZones) {
  ZoneFileHeader h;
  h.creator = "fvkit test";
  h.commandLine = "synthetic strip";
  h.options = "nx=" + std::to_string(nx);
  h.sourceMesh = "(generated strip)";
  h.nZones = nZones;
  h.nGlobalCells = nx;
  h.nGlobalFaces = (nx - 1) + 2 + 4 * static_cast<gidx_t>(nx);
  h.nGlobalNodes = 4 * static_cast<gidx_t>(nx + 1);
  h.patches = {{"inlet", "BCInflow"}, {"outlet", "BCOutflow"}, {"wall", "BCWall"}};
  return h;
}

std::vector<int> even_blocks(int nx, int n) {
  std::vector<int> b;
  for (int p = 0; p < n; ++p)
    b.push_back(nx / n + (p < nx % n ? 1 : 0));
  return b;
}

std::vector<Zone> strip_zones(const std::vector<int>& blockSizes) {
  const int nz = static_cast<int>(blockSizes.size());
  const int nx = std::accumulate(blockSizes.begin(), blockSizes.end(), 0);
  std::vector<int> start(static_cast<std::size_t>(nz + 1), 0);
  for (int p = 0; p < nz; ++p)
    start[p + 1] = start[p] + blockSizes[p];
  auto owner_zone = [&](int cell) {
    return static_cast<int>(std::upper_bound(start.begin(), start.end(), cell) - start.begin()) - 1;
  };
  // inverse-distance weights of each global node over all its global cells
  auto weight = [&](gidx_t node, int cell) {
    const auto p = node_xyz(node);
    auto dist = [&](int c) {
      const auto q = centroid_of(c);
      return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                       (p[2] - q[2]) * (p[2] - q[2]));
    };
    const int plane = static_cast<int>(node / 4);
    real_t sum = 0;
    for (int c = plane - 1; c <= plane; ++c)
      if (c >= 0 && c < nx) sum += 1.0 / dist(c);
    return (1.0 / dist(cell)) / sum;
  };

  std::vector<Zone> zones;
  for (int p = 0; p < nz; ++p) {
    Zone z;
    z.zoneId = p;
    const int a = start[p], b = start[p + 1];
    // owned cells: interior first, then interface (next to another zone); halo after
    std::vector<int> interior, interface, halo;
    for (int i = a; i < b; ++i)
      ((p > 0 && i == a) || (p < nz - 1 && i == b - 1) ? interface : interior).push_back(i);
    if (p > 0) halo.push_back(a - 1);
    if (p < nz - 1) halo.push_back(b);
    std::vector<int> cells = interior;
    cells.insert(cells.end(), interface.begin(), interface.end());
    cells.insert(cells.end(), halo.begin(), halo.end());
    std::map<int, idx_t> local;
    for (std::size_t k = 0; k < cells.size(); ++k)
      local[cells[k]] = static_cast<idx_t>(k);
    z.nCells = b - a;
    z.nInteriorCells = static_cast<idx_t>(interior.size());
    z.nHaloCells = static_cast<idx_t>(halo.size());
    const idx_t nOwned = z.nCells;

    // nodes by first touch in owned-cell order
    std::map<gidx_t, idx_t> nodeLocal;
    std::vector<gidx_t> nodeG;
    std::vector<std::vector<idx_t>> cellNodeRows;
    for (idx_t c = 0; c < nOwned; ++c) {
      std::vector<idx_t> row;
      for (gidx_t g : hex_nodes(cells[static_cast<std::size_t>(c)])) {
        auto it = nodeLocal.find(g);
        if (it == nodeLocal.end()) {
          it = nodeLocal.emplace(g, static_cast<idx_t>(nodeG.size())).first;
          nodeG.push_back(g);
        }
        row.push_back(it->second);
      }
      cellNodeRows.push_back(row);
    }
    z.nNodes = static_cast<idx_t>(nodeG.size());

    // faces: boundary by patch, then interior in the order the cell loop meets them
    std::vector<GFace> bfaces[3], ifaces;
    std::set<gidx_t> seen;
    for (idx_t c = 0; c < nOwned; ++c)
      for (const GFace& f : faces_of_cell(cells[static_cast<std::size_t>(c)], nx)) {
        if (!seen.insert(f.id).second) continue;
        if (f.patch >= 0)
          bfaces[f.patch].push_back(f);
        else
          ifaces.push_back(f);
      }
    std::vector<GFace> faces;
    std::vector<idx_t> patchOff{0};
    for (auto& bf : bfaces) {
      faces.insert(faces.end(), bf.begin(), bf.end());
      patchOff.push_back(static_cast<idx_t>(faces.size()));
    }
    z.nBoundaryFaces = static_cast<idx_t>(faces.size());
    faces.insert(faces.end(), ifaces.begin(), ifaces.end());
    z.nFaces = static_cast<idx_t>(faces.size());
    z.patchFaceOffsets = Array<idx_t>(std::move(patchOff));

    const std::size_t nT = cells.size();
    std::vector<gidx_t> cg;
    std::vector<std::int8_t> ct;
    std::vector<real_t> cv, cc;
    for (int g : cells) {
      cg.push_back(g);
      ct.push_back(static_cast<std::int8_t>(CellType::Hex));
      cv.push_back(1.0);
      auto q = centroid_of(g);
      cc.insert(cc.end(), q.begin(), q.end());
    }
    (void)nT;
    z.cellGlobalId = std::move(cg);
    z.cellType = std::move(ct);
    z.cellVolume = std::move(cv);
    z.cellCentroid = std::move(cc);

    std::vector<gidx_t> fg;
    std::vector<idx_t> fo, fn;
    std::vector<real_t> fa, fc, fod, fnd;
    std::vector<std::vector<idx_t>> faceNodeRows;
    for (const GFace& f : faces) {
      idx_t o = local.at(f.left), n = f.right >= 0 ? local.at(f.right) : kNone;
      int og = f.left, ng = f.right;
      if (n != kNone && n < o) {
        std::swap(o, n);
        std::swap(og, ng);
      }
      fg.push_back(f.id);
      fo.push_back(o);
      fn.push_back(n);
      // orient the nodes so the normal points out of the owner
      std::vector<std::array<real_t, 3>> pts;
      for (gidx_t g : f.nodes)
        pts.push_back(node_xyz(g));
      std::array<real_t, 3> ctr{0, 0, 0};
      for (auto& q : pts)
        for (int d = 0; d < 3; ++d)
          ctr[d] += q[d] / 4;
      auto s = newell(pts);
      const auto oc = centroid_of(og);
      std::array<gidx_t, 4> nodes = f.nodes;
      if (s[0] * (ctr[0] - oc[0]) + s[1] * (ctr[1] - oc[1]) + s[2] * (ctr[2] - oc[2]) < 0) {
        std::reverse(nodes.begin(), nodes.end());
        for (auto& x : s)
          x = -x;
      }
      std::vector<idx_t> row;
      for (gidx_t g : nodes)
        row.push_back(nodeLocal.at(g));
      faceNodeRows.push_back(row);
      fa.insert(fa.end(), s.begin(), s.end());
      fc.insert(fc.end(), ctr.begin(), ctr.end());
      for (int d = 0; d < 3; ++d)
        fod.push_back(ctr[d] - oc[d]);
      if (ng >= 0) {
        const auto nc = centroid_of(ng);
        for (int d = 0; d < 3; ++d)
          fnd.push_back(ctr[d] - nc[d]);
      } else {
        fnd.insert(fnd.end(), {0.0, 0.0, 0.0});
      }
    }
    z.faceGlobalId = std::move(fg);
    z.faceOwner = Array<idx_t>(std::vector<idx_t>(fo));
    z.faceNeighbour = Array<idx_t>(std::vector<idx_t>(fn));
    z.faceArea = std::move(fa);
    z.faceCentroid = std::move(fc);
    z.faceOwnerDelta = std::move(fod);
    z.faceNeighbourDelta = std::move(fnd);

    std::vector<gidx_t> ng(nodeG);
    std::vector<real_t> nxyz;
    for (gidx_t g : nodeG) {
      auto q = node_xyz(g);
      nxyz.insert(nxyz.end(), q.begin(), q.end());
    }
    z.nodeGlobalId = std::move(ng);
    z.nodeXyz = std::move(nxyz);

    // cell -> faces (ascending), signs, cell -> cells (ascending)
    std::vector<std::vector<idx_t>> cf(static_cast<std::size_t>(nOwned)),
        cn(static_cast<std::size_t>(nOwned));
    for (idx_t f = 0; f < z.nFaces; ++f) {
      const idx_t o = fo[static_cast<std::size_t>(f)], n = fn[static_cast<std::size_t>(f)];
      cf[static_cast<std::size_t>(o)].push_back(f);
      if (n != kNone) {
        cn[static_cast<std::size_t>(o)].push_back(n);
        if (n < nOwned) {
          cf[static_cast<std::size_t>(n)].push_back(f);
          cn[static_cast<std::size_t>(n)].push_back(o);
        }
      }
    }
    std::vector<std::int8_t> sign;
    for (idx_t c = 0; c < nOwned; ++c) {
      auto& r = cf[static_cast<std::size_t>(c)];
      std::sort(r.begin(), r.end());
      std::sort(cn[static_cast<std::size_t>(c)].begin(), cn[static_cast<std::size_t>(c)].end());
      for (idx_t f : r)
        sign.push_back(fo[static_cast<std::size_t>(f)] == c ? 1 : -1);
    }
    z.cellFaces = csr_from_rows(cf);
    z.cellFaceSign = std::move(sign);
    z.cellCells = csr_from_rows(cn);
    z.cellNodes = csr_from_rows(cellNodeRows);
    z.faceNodes = csr_from_rows(faceNodeRows);
    z.nodeFaces = z.faceNodes.transpose(z.nNodes);
    z.nodeCells = z.cellNodes.transpose(z.nNodes);
    std::vector<real_t> w;
    for (idx_t n = 0; n < z.nNodes; ++n)
      for (idx_t k = z.nodeCells.begin(n); k < z.nodeCells.end(n); ++k)
        w.push_back(weight(
            nodeG[static_cast<std::size_t>(n)],
            cells[static_cast<std::size_t>(z.nodeCells.indices()[static_cast<std::size_t>(k)])]));
    z.nodeCellWeight = std::move(w);

    // colourings and hyperplanes
    std::vector<std::vector<int>> faceKeys, cellKeys;
    for (idx_t f = 0; f < z.nFaces; ++f) {
      std::vector<int> k{fo[static_cast<std::size_t>(f)]};
      if (fn[static_cast<std::size_t>(f)] != kNone) k.push_back(fn[static_cast<std::size_t>(f)]);
      faceKeys.push_back(k);
    }
    for (idx_t c = 0; c < nOwned; ++c) {
      // a cell conflicts with its owned face neighbours: key = the face shared with them
      std::vector<int> k;
      for (idx_t f : cf[static_cast<std::size_t>(c)])
        if (fn[static_cast<std::size_t>(f)] != kNone && fn[static_cast<std::size_t>(f)] < nOwned)
          k.push_back(f);
      cellKeys.push_back(k);
    }
    z.faceColours = greedy_colours(z.nFaces, faceKeys);
    z.cellColours = greedy_colours(nOwned, cellKeys);
    std::vector<int> level(static_cast<std::size_t>(nOwned), 0);
    int nLevels = 0;
    for (idx_t c = 0; c < nOwned; ++c) {
      for (idx_t n : cn[static_cast<std::size_t>(c)])
        if (n < c)
          level[static_cast<std::size_t>(c)] =
              std::max(level[static_cast<std::size_t>(c)], level[static_cast<std::size_t>(n)] + 1);
      nLevels = std::max(nLevels, level[static_cast<std::size_t>(c)] + 1);
    }
    std::vector<std::vector<idx_t>> planes(static_cast<std::size_t>(nLevels));
    for (idx_t c = 0; c < nOwned; ++c)
      planes[static_cast<std::size_t>(level[static_cast<std::size_t>(c)])].push_back(c);
    z.hyperplanes = csr_from_rows(planes);

    // exchange: cells
    std::vector<std::int32_t> nbrs;
    std::vector<std::vector<idx_t>> send, recv, nsend;
    for (int q : {p - 1, p + 1}) {
      if (q < 0 || q >= nz) continue;
      nbrs.push_back(q);
      const int sendCell = q < p ? a : b - 1;
      const int recvCell = q < p ? a - 1 : b;
      send.push_back({local.at(sendCell)});
      recv.push_back({local.at(recvCell)});
      const int plane = q < p ? a : b;
      std::vector<idx_t> shared;
      for (gidx_t g = node_id(plane, 0, 0); g < node_id(plane + 1, 0, 0); ++g)
        shared.push_back(nodeLocal.at(g));
      nsend.push_back(shared);
    }
    z.cellExchange.neighbours = Array<std::int32_t>(std::vector<std::int32_t>(nbrs));
    z.cellExchange.send = csr_from_rows(send);
    z.cellExchange.recv = csr_from_rows(recv);
    z.nodeExchange.neighbours = Array<std::int32_t>(std::vector<std::int32_t>(nbrs));
    z.nodeExchange.send = csr_from_rows(nsend);
    z.nodeExchange.recv = csr_from_rows(nsend);
    (void)owner_zone;
    zones.push_back(std::move(z));
  }
  return zones;
}

} // namespace fv::testing
