#include "formats/mesh_builder.hpp"

#include "common/error.hpp"
#include "common/log.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace fv {

namespace {

Csr make_csr(std::vector<idx_t>&& off, std::vector<idx_t>&& conn) {
  return Csr(Array<idx_t>(std::move(off)), Array<idx_t>(std::move(conn)));
}

void check_size(std::size_t n, const std::string& path, const char* what) {
  FV_VERIFY(n < static_cast<std::size_t>(std::numeric_limits<idx_t>::max()),
            path << ": too many " << what << " (" << n << ") for 32-bit indices");
}

} // namespace

idx_t MeshBuilder::add_cell(CellType t, const idx_t* nodes, int n, gidx_t fileId) {
  cellType.push_back(t);
  cellConn.insert(cellConn.end(), nodes, nodes + n);
  check_size(cellConn.size(), path, "cell-node entries");
  cellOff.push_back(static_cast<idx_t>(cellConn.size()));
  cellFileId.push_back(fileId);
  if (!polyCell.empty()) polyCell.push_back(-1);
  return nCells() - 1;
}

idx_t MeshBuilder::add_poly_face(const idx_t* nodes, int n) {
  pfnConn.insert(pfnConn.end(), nodes, nodes + n);
  check_size(pfnConn.size(), path, "polyhedral face-node entries");
  pfnOff.push_back(static_cast<idx_t>(pfnConn.size()));
  return static_cast<idx_t>(pfnOff.size() - 2);
}

idx_t MeshBuilder::add_poly_cell(const idx_t* faces, int nf, gidx_t fileId) {
  if (polyCell.empty()) polyCell.assign(static_cast<std::size_t>(nCells()), -1);
  // distinct nodes of the polyhedron, in order of first appearance
  std::vector<idx_t> nodes;
  for (int k = 0; k < nf; ++k) {
    const idx_t f = faces[k] < 0 ? ~faces[k] : faces[k];
    FV_VERIFY(f >= 0 && static_cast<std::size_t>(f) + 1 < pfnOff.size(),
              path << ": polyhedron " << fileId << " refers to an unknown face");
    for (idx_t i = pfnOff[f]; i < pfnOff[f + 1]; ++i)
      if (std::find(nodes.begin(), nodes.end(), pfnConn[i]) == nodes.end())
        nodes.push_back(pfnConn[i]);
  }
  cellType.push_back(CellType::Polyhedron);
  cellConn.insert(cellConn.end(), nodes.begin(), nodes.end());
  check_size(cellConn.size(), path, "cell-node entries");
  cellOff.push_back(static_cast<idx_t>(cellConn.size()));
  cellFileId.push_back(fileId);
  polyCell.push_back(static_cast<idx_t>(pcfOff.size() - 1));
  pcfConn.insert(pcfConn.end(), faces, faces + nf);
  pcfOff.push_back(static_cast<idx_t>(pcfConn.size()));
  return nCells() - 1;
}

idx_t MeshBuilder::add_bface(const idx_t* nodes, int n, gidx_t fileId, idx_t patchIdx) {
  bConn.insert(bConn.end(), nodes, nodes + n);
  check_size(bConn.size(), path, "boundary face-node entries");
  bOff.push_back(static_cast<idx_t>(bConn.size()));
  bFileId.push_back(fileId);
  bPatch.push_back(patchIdx);
  return nBFaces() - 1;
}

idx_t MeshBuilder::patch(const std::string& name, const std::string& bcType) {
  auto it = patchIndex_.find(name);
  if (it != patchIndex_.end()) {
    Patch& p = patches[static_cast<std::size_t>(it->second)];
    if (p.bcType != bcType)
      warn("patch '" + name + "' is given BC types '" + p.bcType + "' and '" + bcType +
           "'; keeping '" + p.bcType + "'");
    return it->second;
  }
  const idx_t idx = static_cast<idx_t>(patches.size());
  patches.push_back({name, bcType});
  patchIndex_.emplace(name, idx);
  return idx;
}

std::vector<idx_t> MeshBuilder::drop_bfaces(const std::vector<char>& drop) {
  std::vector<idx_t> kept, off{0}, conn;
  for (idx_t f = 0; f < nBFaces(); ++f) {
    if (drop[static_cast<std::size_t>(f)]) continue;
    kept.push_back(f);
    conn.insert(conn.end(), bConn.begin() + bOff[f], bConn.begin() + bOff[f + 1]);
    off.push_back(static_cast<idx_t>(conn.size()));
  }
  bOff = std::move(off);
  bConn = std::move(conn);
  keep_rows(bPatch, kept);
  keep_rows(bFileId, kept);
  keep_rows(bZone, kept);
  return kept;
}

void MeshBuilder::warn(const std::string& msg) {
  if (std::find(warnings.begin(), warnings.end(), msg) != warnings.end()) return;
  warnings.push_back(msg);
  FV_LOG_WARN(path << ": " << msg);
}

namespace {

/// Relative accuracy to which an extruded mesh's nodes must hold its thickness: that of the
/// geometric identities fvprep check verifies (a cell's closure: 1e3 x its tolerance 1e-9,
/// prep/zone_check.cpp).
constexpr double kExtrusionAccuracy = 1e-6;

/// The least thickness a 2D mesh with the bounding box [lo, hi] can be extruded by. The top
/// nodes are x + t n: the thickness they hold, (x + t n) - x, is t to within the rounding of
/// the largest coordinate, eps |x|max, so t must be at least eps |x|max / kExtrusionAccuracy.
/// Thinner, side faces and volumes come out wrong, or zero (fvprep check: "face has zero
/// area") once their squares underflow.
double least_extrusion(const std::array<double, 3>& lo, const std::array<double, 3>& hi) {
  double largest = 0;
  for (int d = 0; d < 3; ++d)
    largest = std::max({largest, std::fabs(lo[d]), std::fabs(hi[d])});
  return std::numeric_limits<double>::epsilon() * largest / kExtrusionAccuracy;
}

} // namespace

void extrude_2d(MeshBuilder& b, double thickness) {
  FV_VERIFY(b.dim == 2, "extrude_2d: not a 2D mesh");
  const idx_t nn = b.nNodes();
  FV_VERIFY(b.nCells() > 0, b.path << ": the 2D mesh has no cells");
  // bounding box and plane
  std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (idx_t i = 0; i < nn; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], b.xyz[3 * i + d]);
      hi[d] = std::max(hi[d], b.xyz[3 * i + d]);
    }
  double extent = 0, diag2 = 0;
  for (int d = 0; d < 3; ++d) {
    extent = std::max(extent, hi[d] - lo[d]);
    diag2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  }
  // normal: sum of |Newell normals| made consistent with the first cell's
  auto newell = [&](idx_t c) {
    std::array<double, 3> s{0, 0, 0};
    const idx_t b0 = b.cellOff[c], n = b.cellOff[c + 1] - b0;
    for (idx_t k = 0; k < n; ++k) {
      const real_t* p = &b.xyz[3 * b.cellConn[b0 + k]];
      const real_t* q = &b.xyz[3 * b.cellConn[b0 + (k + 1) % n]];
      s[0] += (p[1] - q[1]) * (p[2] + q[2]);
      s[1] += (p[2] - q[2]) * (p[0] + q[0]);
      s[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    return s;
  };
  std::array<double, 3> nrm{0, 0, 0};
  for (idx_t c = 0; c < b.nCells(); ++c) {
    auto s = newell(c);
    const double dot = s[0] * nrm[0] + s[1] * nrm[1] + s[2] * nrm[2];
    const double sg = dot < 0 ? -1.0 : 1.0;
    for (int d = 0; d < 3; ++d)
      nrm[d] += sg * s[d];
  }
  const double len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  FV_VERIFY(len > 0, b.path << ": the 2D mesh has zero area");
  for (double& v : nrm)
    v /= len;
  // prefer +z (or the positive axis) so that a planar xy mesh extrudes towards +z
  if (nrm[0] + nrm[1] + nrm[2] < 0)
    for (double& v : nrm)
      v = -v;
  // planarity
  const real_t* p0 = &b.xyz[3 * b.cellConn[0]];
  const double tolPlane = 1e-6 * std::sqrt(diag2);
  for (idx_t i = 0; i < nn; ++i) {
    const real_t* p = &b.xyz[3 * i];
    const double dist = (p[0] - p0[0]) * nrm[0] + (p[1] - p0[1]) * nrm[1] + (p[2] - p0[2]) * nrm[2];
    FV_VERIFY(std::fabs(dist) <= tolPlane, b.path << ": 2D mesh is not planar: node " << i + 1
                                                  << " lies " << dist
                                                  << " off the plane of the first cell");
  }
  double t = thickness;
  if (!(t > 0)) t = kDefaultExtrudeFraction * extent;
  FV_VERIFY(t > 0 && std::isfinite(t), b.path << ": cannot extrude: thickness " << t);
  const double least = least_extrusion(lo, hi);
  if (!(t >= least)) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%s: cannot extrude by %g%s: with coordinates up to %g the nodes hold a "
                  "thickness to the relative 1e-6 fvprep check asks of the geometry from %g on",
                  b.path.c_str(), t, thickness > 0 ? " (--extrude)" : " (1/100 of the extent)",
                  least * kExtrusionAccuracy / std::numeric_limits<double>::epsilon(), least);
    if (thickness > 0) FV_VERIFY_USAGE(false, buf);
    FV_THROW(buf);
  }
  {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "2D mesh extruded into one cell layer of thickness %g along (%g, %g, %g)%s; "
                  "the zone file records it: fvrun's 2D reference area is the chord times it",
                  t, nrm[0], nrm[1], nrm[2],
                  thickness > 0 ? "" : " (default: 1/100 of the largest extent; set --extrude)");
    b.warn(buf);
  }

  // nodes: bottom copy (as read) then top copy
  std::vector<real_t> xyz(b.xyz);
  xyz.resize(6 * static_cast<std::size_t>(nn));
  for (idx_t i = 0; i < nn; ++i)
    for (int d = 0; d < 3; ++d)
      xyz[3 * (nn + i) + d] = b.xyz[3 * i + d] + t * nrm[d];

  MeshBuilder out;
  out.dim = 3;
  out.path = b.path;
  out.format = b.format;
  out.writer = b.writer;
  out.warnings = b.warnings;
  out.zoneNames = b.zoneNames;
  for (double& v : nrm) // -0 (a flipped zero component) printed as "-0": +0
    v += 0.0;
  out.extrusion = {t, nrm};
  out.xyz = std::move(xyz);
  if (!b.nodeFileId.empty()) {
    out.nodeFileId = b.nodeFileId;
    out.nodeFileId.resize(2 * static_cast<std::size_t>(nn), -1); // top copies: synthesised
  }
  for (const Patch& p : b.patches)
    out.patch(p.name, p.bcType);
  std::string symName = "symmetry";
  for (const Patch& p : b.patches)
    if (p.name == symName) symName = "symmetry_extruded";
  if (symName != "symmetry")
    out.warn("the file already has a patch 'symmetry': the extruded sides are named '" + symName +
             "'");
  const idx_t sym = out.patch(symName, "BCSymmetryPlane");
  for (const NodeSetPatch& ns : b.nodeSetPatches) {
    NodeSetPatch e{ns.patch, ns.nodes};
    for (idx_t v : ns.nodes)
      e.nodes.push_back(v + nn);
    out.nodeSetPatches.push_back(std::move(e));
  }
  const bool zones = !b.cellZone.empty();

  for (idx_t c = 0; c < b.nCells(); ++c) {
    const idx_t b0 = b.cellOff[c], n = b.cellOff[c + 1] - b0;
    FV_VERIFY(n == 3 || n == 4, b.path << ": 2D cell " << b.cellFileId[c] << " has " << n
                                       << " nodes; only triangles and quadrilaterals can be "
                                          "extruded");
    auto s = newell(c);
    const bool flip = s[0] * nrm[0] + s[1] * nrm[1] + s[2] * nrm[2] < 0;
    idx_t v[8];
    for (idx_t k = 0; k < n; ++k) {
      const idx_t node = b.cellConn[b0 + (flip ? (n - k) % n : k)];
      v[k] = node;
      v[k + n] = node + nn;
    }
    out.add_cell(n == 3 ? CellType::Prism : CellType::Hex, v, static_cast<int>(2 * n),
                 b.cellFileId[c]);
    if (zones) out.cellZone.push_back(b.cellZone[c]);
    // the two new sides: bottom reversed (outward = -normal), top as is
    idx_t bottom[4], top[4];
    for (idx_t k = 0; k < n; ++k) {
      bottom[k] = v[n - 1 - k];
      top[k] = v[n + k];
    }
    out.add_bface(bottom, static_cast<int>(n), -1, sym);
    out.add_bface(top, static_cast<int>(n), -1, sym);
    if (zones) {
      out.bZone.push_back(b.cellZone[c]);
      out.bZone.push_back(b.cellZone[c]);
    }
  }
  for (idx_t f = 0; f < b.nBFaces(); ++f) {
    const idx_t b0 = b.bOff[f], n = b.bOff[f + 1] - b0;
    FV_VERIFY(n == 2, b.path << ": boundary element " << b.bFileId[f] << " of the 2D mesh has " << n
                             << " nodes; expected an edge (2 nodes)");
    const idx_t a = b.bConn[b0], c = b.bConn[b0 + 1];
    const idx_t q[4] = {a, c, c + nn, a + nn};
    out.add_bface(q, 4, b.bFileId[f], b.bPatch[f]);
    if (zones) out.bZone.push_back(b.bZone[f]);
  }
  b = std::move(out);
}

Mesh MeshBuilder::finish(const ReadOptions& opts) {
  if (dim == 2) extrude_2d(*this, opts.extrudeThickness);
  const idx_t nn = nNodes();
  FV_VERIFY(nCells() > 0, path << ": the mesh has no volume cells");
  for (idx_t c = 0; c < nCells(); ++c)
    for (idx_t i = cellOff[c]; i < cellOff[c + 1]; ++i)
      FV_VERIFY(cellConn[i] >= 0 && cellConn[i] < nn, path << ": cell " << cellFileId[c]
                                                           << " refers to node " << cellConn[i] + 1
                                                           << ", outside 1.." << nn);
  return finish_checked(nn);
}

Mesh MeshBuilder::finish_boundary(idx_t nn) {
  FV_VERIFY(nCells() == 0 && dim == 3, path << ": internal: finish_boundary() of a 2D mesh or "
                                               "one with cells");
  return finish_checked(nn);
}

Mesh MeshBuilder::finish_checked(idx_t nn) {
  for (idx_t f = 0; f < nBFaces(); ++f)
    for (idx_t i = bOff[f]; i < bOff[f + 1]; ++i)
      FV_VERIFY(bConn[i] >= 0 && bConn[i] < nn, path << ": boundary face " << bFileId[f]
                                                     << " refers to node " << bConn[i] + 1
                                                     << ", outside 1.." << nn);
  // drop patches without faces, keep the order of first definition
  std::vector<idx_t> count(patches.size(), 0), remap(patches.size(), kNone);
  for (idx_t p : bPatch)
    if (p >= 0) ++count[static_cast<std::size_t>(p)];
  for (const NodeSetPatch& ns : nodeSetPatches)
    ++count[static_cast<std::size_t>(ns.patch)];
  std::vector<Patch> kept;
  for (std::size_t p = 0; p < patches.size(); ++p) {
    if (count[p] == 0) {
      warn("patch '" + patches[p].name + "' has no boundary faces; dropped");
      continue;
    }
    remap[p] = static_cast<idx_t>(kept.size());
    kept.push_back(patches[p]);
  }
  for (idx_t& p : bPatch)
    if (p >= 0) p = remap[static_cast<std::size_t>(p)];
  for (NodeSetPatch& ns : nodeSetPatches) {
    ns.patch = remap[static_cast<std::size_t>(ns.patch)];
    std::sort(ns.nodes.begin(), ns.nodes.end());
    ns.nodes.erase(std::unique(ns.nodes.begin(), ns.nodes.end()), ns.nodes.end());
  }

  Mesh m;
  m.xyz = std::move(xyz);
  if (!nodeFileId.empty()) {
    FV_VERIFY(nodeFileId.size() == static_cast<std::size_t>(m.nNodes()),
              path << ": internal: node file ids do not match the nodes");
    m.nodeFileId = std::move(nodeFileId);
  }
  m.cellType = std::move(cellType);
  m.cellNodes = make_csr(std::move(cellOff), std::move(cellConn));
  if (!polyCell.empty()) {
    polyCell.resize(m.cellType.size(), -1);
    m.polyCell = std::move(polyCell);
    m.polyCellFaces = make_csr(std::move(pcfOff), std::move(pcfConn));
    m.polyFaceNodes = make_csr(std::move(pfnOff), std::move(pfnConn));
  }
  m.bfaceNodes = make_csr(std::move(bOff), std::move(bConn));
  m.bfacePatch = std::move(bPatch);
  m.patches = std::move(kept);
  m.nodeSetPatches = std::move(nodeSetPatches);
  m.cellFileId = std::move(cellFileId);
  m.bfaceFileId = std::move(bFileId);
  m.path = path;
  m.format = format;
  m.writer = writer;
  m.warnings = std::move(warnings);
  m.extrusion = extrusion;
  if (zoneNames.size() > 1) {
    m.fileZones = std::move(zoneNames);
    m.cellFileZone = std::move(cellZone);
    m.bfaceFileZone = std::move(bZone);
  }
  *this = MeshBuilder();
  return m;
}

} // namespace fv
