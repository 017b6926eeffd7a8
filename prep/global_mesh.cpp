#include "prep/global_mesh.hpp"
#include "prep/wall_distance.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "common/node_weights.hpp"
#include "prep/connectivity.hpp"
#include "prep/faces.hpp"
#include "prep/mesh_ids.hpp"
#include "prep/parallel_work.hpp"
#include "prep/rcm.hpp"
#include "prep/spatial_order.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace fv {

namespace {

// Runs fn() inside a log phase and records its duration in the report.
/// True for the CGNS BC types of no-slip walls (BCWallInviscid is a slip wall).
bool is_viscous_wall_type(const std::string& t) {
  return t == "BCWall" || t == "BCWallViscous" || t == "BCWallViscousHeatFlux" ||
         t == "BCWallViscousIsothermal";
}

} // namespace

std::vector<char> wall_patch_flags(const Mesh& mesh, const std::vector<Patch>& patches,
                                   const PrepOptions& opts) {
  std::vector<char> isWall(patches.size(), 0);
  for (const std::string& w : opts.walls) {
    bool found = false;
    for (std::size_t p = 0; p < patches.size(); ++p)
      if (patches[p].name == w) isWall[p] = found = true;
    std::string names;
    for (const Patch& p : patches)
      names += (names.empty() ? "" : ", ") + p.name;
    FV_VERIFY_USAGE(found, mesh_name(mesh) << ": --walls names '" << w
                                           << "', which is no patch (patches: " << names << ")");
  }
  if (opts.walls.empty())
    for (std::size_t p = 0; p < patches.size(); ++p)
      isWall[p] = is_viscous_wall_type(patches[p].bcType);
  return isWall;
}

void throw_bad_cell(const Mesh& mesh, idx_t meshCell, real_t volume, real_t closure,
                    const PrepOptions& opts) {
  throw_bad_cell(mesh_name(mesh), cell_label(mesh, meshCell), volume, closure, opts);
}

void throw_bad_cell(const std::string& meshName, const std::string& cellLabel, real_t volume,
                    real_t closure, const PrepOptions& opts) {
  if (opts.checkVolumes)
    FV_VERIFY(volume > 0.0 && std::isfinite(volume),
              meshName << ": " << cellLabel << " has non-positive volume " << volume
                       << " (inverted or wrongly ordered element)");
  FV_THROW(meshName << ": " << cellLabel << " is not closed: |sum S| / sum |S| = " << closure);
}

bool cell_fails_checks(real_t volume, real_t closure, const PrepOptions& opts) {
  return (opts.checkVolumes && !(volume > 0.0 && std::isfinite(volume))) ||
         !(closure <= opts.closureTol);
}

namespace {

/// The wall distance of every cell: the wall patches from opts.walls or the BC types.
std::vector<real_t> cell_wall_distance(const Mesh& mesh, const GlobalMesh& g,
                                       const PrepOptions& opts) {
  const std::vector<char> isWall = wall_patch_flags(mesh, g.patches, opts);
  WallFaces walls;
  walls.xyz = &g.xyz;
  for (std::size_t p = 0; p < g.patches.size(); ++p) {
    if (!isWall[p]) continue;
    for (idx_t f = g.patchFaceOffsets[p]; f < g.patchFaceOffsets[p + 1]; ++f) {
      for (idx_t k = g.faceNodes.offsets()[f]; k < g.faceNodes.offsets()[f + 1]; ++k)
        walls.nodes.push_back(g.faceNodes.indices()[k]);
      walls.offsets.push_back(static_cast<idx_t>(walls.nodes.size()));
    }
  }
  if (walls.size() == 0) return {};
  std::vector<real_t> d = wall_distance(g.cellGeom.centroid, walls);
  FV_LOG_INFO("  wall distance of " << d.size() << " cells to " << walls.size() << " wall faces");
  return d;
}

/// The direction the node weights of a mesh with this extrusion are taken across (zero: 3D).
std::array<real_t, 3> weight_plane(const Extrusion& e) {
  if (!e.extruded()) return {0, 0, 0};
  return {e.direction[0], e.direction[1], e.direction[2]};
}

} // namespace

std::vector<real_t> node_cell_weights(const Csr& nodeCells, const real_t* x, const real_t* cc,
                                      const std::array<real_t, 3>& plane) {
  std::vector<real_t> w(static_cast<std::size_t>(nodeCells.nnz()), 0.0);
#pragma omp parallel for schedule(static)
  for (idx_t n = 0; n < nodeCells.rows(); ++n) {
    const idx_t k0 = nodeCells.begin(n), k1 = nodeCells.end(n);
    real_t sum = 0;
    idx_t atCentroid = kNone;
    for (idx_t k = k0; k < k1; ++k) {
      const idx_t c = nodeCells.indices()[k];
      real_t o[3];
      for (int i = 0; i < 3; ++i)
        o[i] = cc[3 * c + i] - x[3 * n + i];
      const real_t along = o[0] * plane[0] + o[1] * plane[1] + o[2] * plane[2];
      for (int i = 0; i < 3; ++i) // a 2D mesh: the offset in its plane
        o[i] -= along * plane[static_cast<std::size_t>(i)];
      const real_t d = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
      if (d == 0.0) atCentroid = k;
      w[k] = d > 0.0 ? 1.0 / d : 0.0;
      sum += w[k];
    }
    for (idx_t k = k0; k < k1; ++k)
      w[k] = atCentroid != kNone ? (k == atCentroid ? 1.0 : 0.0) : w[k] / sum;
  }
  return w;
}

NodeRowWeights node_row_weights(const GlobalMesh& g, const gidx_t* nodes, idx_t n) {
  NodeRowWeights out;
  std::vector<idx_t> counts(static_cast<std::size_t>(n));
  std::vector<real_t> xyz(3 * static_cast<std::size_t>(n));
  const bool threads = threads_pay_off(n);
#pragma omp parallel for schedule(static) if (threads)
  for (idx_t i = 0; i < n; ++i) {
    const idx_t v = static_cast<idx_t>(nodes[i]);
    counts[i] = g.nodeCells.size(v);
    for (int d = 0; d < 3; ++d)
      xyz[3 * i + d] = g.xyz[3 * static_cast<std::size_t>(v) + d];
  }
  out.rows = Csr::from_counts(counts);
#pragma omp parallel for schedule(static) if (threads)
  for (idx_t i = 0; i < n; ++i)
    std::copy_n(g.nodeCells.row(static_cast<idx_t>(nodes[i])), out.rows.size(i), out.rows.row(i));
  const real_t* centroid = g.cellGeom.centroid.data();
  out.inverseDistance =
      node_cell_weights(out.rows, xyz.data(), centroid, weight_plane(g.extrusion));
  // A 2D mesh keeps the in-plane inverse distance for both sets: the pseudo-Laplacian
  // correction in its plane stalled the symmetric transonic NACA 0012 (and, unbounded, SA on a
  // stretched C-grid; bench/results/planar_node_weights_2026-12-07/)
  out.linear = g.extrusion.extruded()
                   ? out.inverseDistance
                   : linear_exact_node_weights(out.rows, out.inverseDistance.data(), xyz.data(),
                                               centroid);
  return out;
}

GlobalMesh build_global_mesh(const Mesh& mesh, const PrepOptions& opts, PrepReport* report) {
  FaceSet fs;
  run_phase(report, "building faces", [&] { fs = build_faces(mesh, opts.faces); });
  return build_global_mesh(mesh, std::move(fs), opts, report);
}

GlobalMesh build_global_mesh(const Mesh& mesh, FaceSet&& faces, const PrepOptions& opts,
                             PrepReport* report) {
  GlobalMesh g = build_global_topology(mesh, std::move(faces), opts, report);
  add_global_geometry(mesh, g, opts, report);
  return g;
}

GlobalMesh build_global_topology(const Mesh& mesh, FaceSet&& faces, const PrepOptions& opts,
                                 PrepReport* report, const CellGraphReady& cellGraphReady) {
  GlobalMesh g;
  g.extrusion = mesh.extrusion;
  FaceSet fs = std::move(faces);
  FV_VERIFY(fs.owner.size() == fs.neighbour.size() &&
                static_cast<std::size_t>(fs.faceNodes.rows()) == fs.owner.size(),
            mesh_name(mesh) << ": inconsistent face set");
  const idx_t nc = mesh.nCells(), nf = fs.nFaces(), nn = mesh.nNodes();
  const idx_t nPatches = static_cast<idx_t>(fs.patches.size());

  // ---- cell order. With Renumber::Rcm the global order is the Morton order of the cells:
  // it only has to be local, for prep's own passes (METIS, geometry, zone building gather
  // from the global arrays), because every zone is renumbered by its own RCM. A global RCM on
  // top bought nothing for the zones and cost a serial graph walk, prep's slowest serial step
  // (bench/results/prep_scale_h100host_20261124.md).
  Csr cellFacesMesh;
  std::vector<std::int8_t> signMesh;
  std::vector<idx_t> newCell;
  run_phase(report, "ordering cells", [&] {
    build_cell_faces(nc, fs.owner, fs.neighbour, cellFacesMesh, signMesh);
    if (opts.renumber == Renumber::Rcm) {
      g.cellMesh = spatial_cell_order(mesh);
    } else {
      g.cellMesh.resize(static_cast<std::size_t>(nc));
      std::iota(g.cellMesh.begin(), g.cellMesh.end(), 0);
    }
    newCell = invert_permutation(g.cellMesh);
    if (report) report->before = face_bandwidth(nc, fs.owner, fs.neighbour);
    // the dual graph now, so that METIS can start (cellGraphReady)
    g.cellCells = build_cell_cells(cellFacesMesh, fs.owner, fs.neighbour, g.cellMesh, newCell);
  });
  if (cellGraphReady) cellGraphReady(g.cellCells);

  // ---- faces (Algorithm 2) and nodes (first touch)
  std::vector<idx_t> faceMesh; // fv::FaceSet id of each new face
  run_phase(report, "renumbering faces and nodes", [&] {
    // Per new cell: its boundary faces and its interior faces towards higher new cells.
    std::vector<idx_t> nBound(static_cast<std::size_t>(nc)),
        upperOff(static_cast<std::size_t>(nc) + 1, 0);
#pragma omp parallel for schedule(static)
    for (idx_t c = 0; c < nc; ++c) {
      const idx_t cm = g.cellMesh[c];
      idx_t b = 0, u = 0;
      for (idx_t k = cellFacesMesh.begin(cm); k < cellFacesMesh.end(cm); ++k) {
        const idx_t f = cellFacesMesh.indices()[k];
        if (fs.neighbour[f] == kNone)
          ++b;
        else
          u += newCell[fs.owner[f] == cm ? fs.neighbour[f] : fs.owner[f]] > c;
      }
      nBound[c] = b;
      upperOff[c + 1] = u;
    }
    // Boundary faces grouped by patch, each patch in the order of its owner cells.
    std::vector<idx_t> perPatch(static_cast<std::size_t>(nPatches) + 1, 0);
    for (idx_t f = 0; f < nf; ++f)
      if (fs.neighbour[f] == kNone) ++perPatch[fs.patch[f] + 1];
    for (idx_t p = 0; p < nPatches; ++p)
      perPatch[p + 1] += perPatch[p];
    g.patchFaceOffsets = perPatch;
    const idx_t nb = perPatch[nPatches];
    faceMesh.assign(static_cast<std::size_t>(nf), kNone);
    {
      std::vector<idx_t> fill(perPatch.begin(), perPatch.end() - 1);
      for (idx_t c = 0; c < nc; ++c) {
        if (nBound[c] == 0) continue;
        const idx_t cm = g.cellMesh[c];
        for (idx_t k = cellFacesMesh.begin(cm); k < cellFacesMesh.end(cm); ++k) {
          const idx_t f = cellFacesMesh.indices()[k];
          if (fs.neighbour[f] == kNone) faceMesh[fill[fs.patch[f]]++] = f;
        }
      }
    }
    // Interior faces: a loop over the new cells meets each face first at its lower cell; the
    // faces of a cell are taken in ascending order of the cell across them.
    upperOff[0] = nb;
    for (idx_t c = 0; c < nc; ++c)
      upperOff[c + 1] += upperOff[c];
    FV_VERIFY(upperOff[nc] == nf, mesh_name(mesh) << ": face renumbering met " << upperOff[nc]
                                                  << " of " << nf << " faces");
#pragma omp parallel
    {
      std::vector<std::pair<idx_t, idx_t>> upper; // (new neighbour, face)
#pragma omp for schedule(static)
      for (idx_t c = 0; c < nc; ++c) {
        const idx_t cm = g.cellMesh[c];
        upper.clear();
        for (idx_t k = cellFacesMesh.begin(cm); k < cellFacesMesh.end(cm); ++k) {
          const idx_t f = cellFacesMesh.indices()[k];
          if (fs.neighbour[f] == kNone) continue;
          const idx_t other = newCell[fs.owner[f] == cm ? fs.neighbour[f] : fs.owner[f]];
          if (other > c) upper.emplace_back(other, f);
        }
        std::sort(upper.begin(), upper.end());
        for (std::size_t i = 0; i < upper.size(); ++i)
          faceMesh[static_cast<std::size_t>(upperOff[c]) + i] = upper[i].second;
      }
    }
    std::vector<idx_t>().swap(nBound);
    std::vector<idx_t>().swap(upperOff);
    cellFacesMesh = Csr();
    signMesh.clear();

    // Cells, with their nodes gathered in the new cell order (still fv::Mesh node ids).
    g.cellType.resize(static_cast<std::size_t>(nc));
    std::vector<idx_t> counts(static_cast<std::size_t>(nc));
#pragma omp parallel for schedule(static)
    for (idx_t c = 0; c < nc; ++c) {
      g.cellType[c] = mesh.cellType[g.cellMesh[c]];
      counts[c] = mesh.cellNodes.size(g.cellMesh[c]);
    }
    g.cellNodes = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
    for (idx_t c = 0; c < nc; ++c)
      std::copy_n(mesh.cellNodes.row(g.cellMesh[c]), g.cellNodes.size(c), g.cellNodes.row(c));

    // Nodes by first touch in the new cell order.
    std::vector<idx_t> newNode = first_touch_numbering(g.cellNodes, nn);
    const idx_t nUsed = nn - static_cast<idx_t>(std::count(newNode.begin(), newNode.end(), kNone));
    g.nodeMesh.assign(static_cast<std::size_t>(nUsed), kNone);
#pragma omp parallel for schedule(static)
    for (idx_t v = 0; v < nn; ++v)
      if (newNode[v] != kNone) g.nodeMesh[static_cast<std::size_t>(newNode[v])] = v;
    if (nUsed < nn)
      FV_LOG_INFO(mesh_name(mesh) << ": " << nn - nUsed
                                  << " nodes belong to no cell and are dropped");
    {
      idx_t* cn = g.cellNodes.indices().data();
      const std::int64_t nnz = g.cellNodes.nnz();
#pragma omp parallel for schedule(static)
      for (std::int64_t k = 0; k < nnz; ++k)
        cn[k] = newNode[cn[k]];
    }
    // Face nodes of faces (all are nodes of cells) never meet an unused node.
    g.xyz.resize(3 * static_cast<std::size_t>(nUsed));
#pragma omp parallel for schedule(static)
    for (idx_t v = 0; v < nUsed; ++v)
      for (int d = 0; d < 3; ++d)
        g.xyz[3 * v + d] = mesh.xyz[3 * g.nodeMesh[v] + d];

    // Faces: owner is the lower new cell; the node loop flips when the file's owner is not.
    g.owner.resize(static_cast<std::size_t>(nf));
    g.neighbour.resize(static_cast<std::size_t>(nf));
    g.facePatch.resize(static_cast<std::size_t>(nf));
    g.faceBface.resize(static_cast<std::size_t>(nf));
    counts.assign(static_cast<std::size_t>(nf), 0);
#pragma omp parallel for schedule(static)
    for (idx_t f = 0; f < nf; ++f)
      counts[f] = fs.faceNodes.size(faceMesh[f]);
    g.faceNodes = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
    for (idx_t f = 0; f < nf; ++f) {
      const idx_t fm = faceMesh[f];
      const idx_t o = newCell[fs.owner[fm]];
      const idx_t n = fs.neighbour[fm] == kNone ? kNone : newCell[fs.neighbour[fm]];
      const bool flip = n != kNone && n < o;
      g.owner[f] = flip ? n : o;
      g.neighbour[f] = flip ? o : n;
      g.facePatch[f] = fs.patch[fm];
      g.faceBface[f] = fs.bface[fm];
      const idx_t* in = fs.faceNodes.row(fm);
      idx_t* out = g.faceNodes.row(f);
      const idx_t len = g.faceNodes.size(f);
      for (idx_t k = 0; k < len; ++k)
        out[k] = newNode[in[flip ? len - 1 - k : k]];
    }
    g.patches = fs.patches;
  });
  fs = FaceSet();

  run_phase(report, "building connectivity", [&] {
    build_cell_faces(nc, g.owner, g.neighbour, g.cellFaces, g.cellFaceSign);
    if (report) report->after = adjacency_bandwidth(g.cellCells);
    g.nodeCells = g.cellNodes.transpose(g.nNodes());
  });

  if (report) {
    report->nCells = nc;
    report->nFaces = nf;
    report->nBoundaryFaces = g.nBoundaryFaces();
    report->nNodes = g.nNodes();
    report->renumber = renumber_name(opts.renumber);
  }
  return g;
}

void add_global_geometry(const Mesh& mesh, GlobalMesh& g, const PrepOptions& opts,
                         PrepReport* report) {
  const idx_t nc = g.nCells();
  run_phase(report, "computing geometry", [&] {
    g.cellGeom = compute_cell_geometry(g.xyz.data(), g.faceNodes, g.cellFaces, g.cellFaceSign);
  });
  // The checks of validate_mesh(), reported for the failing cell of the lowest file id, so that
  // a prepare names the same cell as `fvprep info`.
  double vmin = nc ? g.cellGeom.volume[0] : 0.0, vmax = vmin, cmax = 0.0;
  idx_t bad = kNone; // renumbered id of the failing cell with the lowest fv::Mesh id
  for (idx_t c = 0; c < nc; ++c) {
    const real_t v = g.cellGeom.volume[c];
    vmin = std::min(vmin, v);
    vmax = std::max(vmax, v);
    cmax = std::max(cmax, g.cellGeom.closure[c]);
    if (cell_fails_checks(v, g.cellGeom.closure[c], opts) &&
        (bad == kNone || g.cellMesh[c] < g.cellMesh[bad]))
      bad = c;
  }
  if (bad != kNone)
    throw_bad_cell(mesh, g.cellMesh[bad], g.cellGeom.volume[bad], g.cellGeom.closure[bad], opts);
  run_phase(report, "wall distance", [&] { g.wallDistance = cell_wall_distance(mesh, g, opts); });
  if (report) {
    report->minVolume = vmin;
    report->maxVolume = vmax;
    report->maxClosure = cmax;
  }
}

void release_unused_by_zones(GlobalMesh& g) {
  std::vector<real_t>().swap(g.cellGeom.closure);
  std::vector<idx_t>().swap(g.faceBface);
  std::vector<std::int8_t>().swap(g.cellFaceSign);
}

} // namespace fv
