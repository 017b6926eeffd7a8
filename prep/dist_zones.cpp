#include "prep/dist_zones.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "prep/connectivity.hpp"
#include "prep/global_mesh.hpp"
#include "prep/local_ids.hpp"
#include "prep/parallel_sort.hpp"
#include "prep/zone_builder.hpp"

#include <algorithm>
#include <exception>
#include <functional>
#include <string>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

namespace {

/// A renumbered cell this rank needs; faces != 0 for a cell of its zones (its faces too).
struct CellRequest {
  idx_t cell;
  std::int32_t faces;
};

/// What the block owner answers for a requested cell.
struct CellAnswer {
  real_t volume;
  real_t centroid[3];
  real_t wallDistance;
  std::int32_t nFaces; ///< faces that follow in the face answer (0 unless requested)
};

/// The piece of the renumbered mesh this rank's zones need, as a GlobalMesh in local numbering
/// (ascending in the global numbering), with the maps back to global ids.
struct Piece {
  GlobalMesh g;
  std::vector<idx_t> cellGlobal;  ///< local cell -> renumbered global cell
  std::vector<gidx_t> faceGlobal; ///< local face -> global face
  std::vector<idx_t> nodeGlobal;  ///< local node -> global node
  std::vector<idx_t> partOf;      ///< part of each local cell
};

/// global id -> index in `ids` (a hash table the size of the piece).
LocalIds index_of(const std::vector<idx_t>& ids) {
  LocalIds t;
  t.reset(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i)
    t.set(ids[i], static_cast<idx_t>(i));
  return t;
}

/// The cells this rank's zones own (ascending) and those sharing a node with them.
std::vector<CellRequest> needed_cells(const Mesh& m, const DistGlobalMesh& g,
                                      const std::vector<idx_t>& partOf,
                                      const std::vector<char>& mine) {
  const idx_t nc = static_cast<idx_t>(g.nCells);
  auto owned = [&](idx_t c) {
    return mine[static_cast<std::size_t>(partOf[static_cast<std::size_t>(c)])] != 0;
  };
  std::vector<char> nodeMark(static_cast<std::size_t>(m.nNodes()), 0);
  for (idx_t c = 0; c < nc; ++c) {
    if (!owned(c)) continue;
    const idx_t cm = g.cellMesh[static_cast<std::size_t>(c)];
    for (idx_t k = m.cellNodes.begin(cm); k < m.cellNodes.end(cm); ++k)
      nodeMark[static_cast<std::size_t>(m.cellNodes.indices()[k])] = 1;
  }
  std::vector<char> touches(static_cast<std::size_t>(nc), 0);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nc; ++c) {
    bool t = owned(c);
    const idx_t cm = g.cellMesh[static_cast<std::size_t>(c)];
    for (idx_t k = m.cellNodes.begin(cm); k < m.cellNodes.end(cm) && !t; ++k)
      t = nodeMark[static_cast<std::size_t>(m.cellNodes.indices()[k])];
    touches[static_cast<std::size_t>(c)] = t;
  }
  std::vector<CellRequest> out;
  for (idx_t c = 0; c < nc; ++c)
    if (touches[static_cast<std::size_t>(c)]) out.push_back({c, owned(c) ? 1 : 0});
  return out;
}

/// Fetches the requested cells' geometry and (for owned ones) faces from their block owners.
void fetch_cells(const dist::Comm& comm, const DistGlobalMesh& g,
                 const std::vector<CellRequest>& req, std::vector<CellAnswer>& answers,
                 std::vector<DistFace>& faces) {
  auto grouped = dist::group_by_rank<CellRequest>(
      comm, static_cast<std::int64_t>(req.size()),
      [&](std::int64_t i) { return g.cells.owner(req[static_cast<std::size_t>(i)].cell); },
      [&](std::int64_t i, CellRequest& r) { r = req[static_cast<std::size_t>(i)]; });
  // The requests are sorted by cell, and so by owner: grouping kept their order.
  const dist::Received<CellRequest> asked = dist::exchange(comm, grouped.first, grouped.second);
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  std::vector<CellAnswer> ans(asked.data.size());
  std::vector<DistFace> fout;
  std::vector<std::int64_t> faceCounts(static_cast<std::size_t>(comm.size()), 0);
  for (int r = 0; r < comm.size(); ++r)
    for (std::int64_t i = asked.offsets[r]; i < asked.offsets[r + 1]; ++i) {
      const CellRequest& q = asked.data[static_cast<std::size_t>(i)];
      const idx_t b = q.cell - c0;
      CellAnswer& a = ans[static_cast<std::size_t>(i)];
      a.volume = g.cellGeom.volume[static_cast<std::size_t>(b)];
      for (int d = 0; d < 3; ++d)
        a.centroid[d] = g.cellGeom.centroid[3 * static_cast<std::size_t>(b) + d];
      a.wallDistance = g.wallDistance.empty() ? 0.0 : g.wallDistance[static_cast<std::size_t>(b)];
      a.nFaces = q.faces ? g.cellFaces.size(b) : 0;
      for (idx_t k = g.cellFaces.begin(b); q.faces && k < g.cellFaces.end(b); ++k)
        fout.push_back(g.faces[static_cast<std::size_t>(g.cellFaces.indices()[k])]);
      faceCounts[static_cast<std::size_t>(r)] += a.nFaces;
    }
  std::vector<std::int64_t> ansCounts(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    ansCounts[static_cast<std::size_t>(r)] = asked.offsets[r + 1] - asked.offsets[r];
  answers = dist::exchange(comm, ans, ansCounts).data;
  faces = dist::exchange(comm, fout, faceCounts).data;
}

/// The piece: cells `req` (ascending), their nodes, the faces of the owned ones.
Piece assemble_piece(const Mesh& m, const DistGlobalMesh& dg, const std::vector<idx_t>& partOf,
                     const std::vector<CellRequest>& req, const std::vector<CellAnswer>& ans,
                     std::vector<DistFace>&& faces, bool hasWalls) {
  Piece p;
  GlobalMesh& g = p.g;
  const idx_t nc = static_cast<idx_t>(req.size());
  p.cellGlobal.resize(static_cast<std::size_t>(nc));
  for (idx_t c = 0; c < nc; ++c)
    p.cellGlobal[static_cast<std::size_t>(c)] = req[static_cast<std::size_t>(c)].cell;
  // nodes: every node of the cells, ascending global ids
  for (idx_t c = 0; c < nc; ++c) {
    const idx_t cm =
        dg.cellMesh[static_cast<std::size_t>(p.cellGlobal[static_cast<std::size_t>(c)])];
    for (idx_t k = m.cellNodes.begin(cm); k < m.cellNodes.end(cm); ++k)
      p.nodeGlobal.push_back(dg.newNode[static_cast<std::size_t>(m.cellNodes.indices()[k])]);
  }
  parallel_sort(p.nodeGlobal.begin(), p.nodeGlobal.end(), std::less<idx_t>());
  p.nodeGlobal.erase(std::unique(p.nodeGlobal.begin(), p.nodeGlobal.end()), p.nodeGlobal.end());
  const idx_t nn = static_cast<idx_t>(p.nodeGlobal.size());
  g.xyz.resize(3 * static_cast<std::size_t>(nn));
  for (idx_t v = 0; v < nn; ++v) {
    const idx_t vm =
        dg.nodeMesh[static_cast<std::size_t>(p.nodeGlobal[static_cast<std::size_t>(v)])];
    for (int d = 0; d < 3; ++d)
      g.xyz[3 * static_cast<std::size_t>(v) + d] = m.xyz[3 * static_cast<std::size_t>(vm) + d];
  }
  const LocalIds nodeIndex = index_of(p.nodeGlobal), cellIndex = index_of(p.cellGlobal);
  auto nodeLocal = [&](idx_t meshNode) {
    return nodeIndex.get(dg.newNode[static_cast<std::size_t>(meshNode)]);
  };
  // cells
  std::vector<idx_t> counts(static_cast<std::size_t>(nc));
  g.cellType.resize(static_cast<std::size_t>(nc));
  g.cellMesh.resize(static_cast<std::size_t>(nc));
  p.partOf.resize(static_cast<std::size_t>(nc));
  for (idx_t c = 0; c < nc; ++c) {
    const idx_t gc = p.cellGlobal[static_cast<std::size_t>(c)];
    const idx_t cm = dg.cellMesh[static_cast<std::size_t>(gc)];
    g.cellMesh[static_cast<std::size_t>(c)] = cm;
    g.cellType[static_cast<std::size_t>(c)] = m.cellType[static_cast<std::size_t>(cm)];
    counts[static_cast<std::size_t>(c)] = m.cellNodes.size(cm);
    p.partOf[static_cast<std::size_t>(c)] = partOf[static_cast<std::size_t>(gc)];
  }
  g.cellNodes = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nc; ++c) {
    const idx_t cm = g.cellMesh[static_cast<std::size_t>(c)];
    idx_t* out = g.cellNodes.row(c);
    for (idx_t k = m.cellNodes.begin(cm); k < m.cellNodes.end(cm); ++k)
      *out++ = nodeLocal(m.cellNodes.indices()[k]);
  }
  g.cellGeom.volume.resize(static_cast<std::size_t>(nc));
  g.cellGeom.centroid.resize(3 * static_cast<std::size_t>(nc));
  if (hasWalls) g.wallDistance.resize(static_cast<std::size_t>(nc));
  for (idx_t c = 0; c < nc; ++c) {
    const CellAnswer& a = ans[static_cast<std::size_t>(c)];
    g.cellGeom.volume[static_cast<std::size_t>(c)] = a.volume;
    for (int d = 0; d < 3; ++d)
      g.cellGeom.centroid[3 * static_cast<std::size_t>(c) + d] = a.centroid[d];
    if (hasWalls) g.wallDistance[static_cast<std::size_t>(c)] = a.wallDistance;
  }
  // faces of the owned cells, ascending global ids
  parallel_sort(faces.begin(), faces.end(),
                [](const DistFace& a, const DistFace& b) { return a.gid < b.gid; });
  faces.erase(std::unique(faces.begin(), faces.end(),
                          [](const DistFace& a, const DistFace& b) { return a.gid == b.gid; }),
              faces.end());
  const idx_t nf = static_cast<idx_t>(faces.size());
  g.faceNodes = dist_face_node_rows(m, faces);
  g.owner.resize(static_cast<std::size_t>(nf));
  g.neighbour.resize(static_cast<std::size_t>(nf));
  g.facePatch.resize(static_cast<std::size_t>(nf));
  p.faceGlobal.resize(static_cast<std::size_t>(nf));
#pragma omp parallel for schedule(static)
  for (idx_t f = 0; f < nf; ++f) {
    const DistFace& d = faces[static_cast<std::size_t>(f)];
    idx_t* row = g.faceNodes.row(f);
    for (idx_t k = 0; k < g.faceNodes.size(f); ++k)
      row[k] = nodeLocal(row[k]);
    g.owner[static_cast<std::size_t>(f)] = cellIndex.get(d.lo);
    g.neighbour[static_cast<std::size_t>(f)] = d.hi == kNone ? kNone : cellIndex.get(d.hi);
    g.facePatch[static_cast<std::size_t>(f)] = d.hi == kNone ? d.patch : -1;
    p.faceGlobal[static_cast<std::size_t>(f)] = d.gid;
  }
  // The owned cells' faces and face neighbours; the other cells need only their nodes,
  // geometry and part. A cell's faces are taken only when it is owned by a zone here: a face
  // between a node-neighbour cell and a cell of no zone here is not in the piece.
  std::vector<char> owned(static_cast<std::size_t>(nc), 0);
  for (idx_t c = 0; c < nc; ++c)
    owned[static_cast<std::size_t>(c)] = req[static_cast<std::size_t>(c)].faces != 0;
  std::vector<idx_t> ownerOwned(g.owner.size()), neighbourOwned(g.neighbour.size());
  for (idx_t f = 0; f < nf; ++f) {
    const idx_t o = g.owner[static_cast<std::size_t>(f)],
                n = g.neighbour[static_cast<std::size_t>(f)];
    ownerOwned[static_cast<std::size_t>(f)] = owned[static_cast<std::size_t>(o)] ? o : nc;
    neighbourOwned[static_cast<std::size_t>(f)] =
        n == kNone ? kNone : (owned[static_cast<std::size_t>(n)] ? n : nc);
  }
  build_cell_faces(nc + 1, ownerOwned, neighbourOwned, g.cellFaces, g.cellFaceSign);
  {
    // drop the sink row nc (faces of cells owned by no zone here)
    std::vector<idx_t> rc(static_cast<std::size_t>(nc));
    for (idx_t c = 0; c < nc; ++c)
      rc[static_cast<std::size_t>(c)] = g.cellFaces.size(c);
    Csr cf = Csr::from_counts(rc);
    for (idx_t c = 0; c < nc; ++c)
      std::copy_n(g.cellFaces.row(c), rc[static_cast<std::size_t>(c)], cf.row(c));
    g.cellFaces = std::move(cf);
    g.cellFaceSign.clear();
  }
  g.cellCells = build_cell_cells(g.cellFaces, g.owner, g.neighbour);
  g.nodeCells = g.cellNodes.transpose(nn);
  g.patches = dg.patches;
  return p;
}

/// Frees the block arrays of g (faces, cell-face relation, geometry, wall distance); the
/// renumbering maps stay.
void release_block(DistGlobalMesh& g) {
  std::vector<DistFace>().swap(g.faces);
  g.cellFaces = Csr();
  std::vector<std::int8_t>().swap(g.cellFaceSign);
  g.cellGeom = CellGeometry();
  std::vector<real_t>().swap(g.wallDistance);
}

/// Maps a zone built on the piece back to global ids.
void to_global_ids(const Piece& p, Zone& z) {
  for (std::size_t i = 0; i < z.cellGlobalId.size(); ++i)
    z.cellGlobalId.data()[i] = p.cellGlobal[static_cast<std::size_t>(z.cellGlobalId[i])];
  for (std::size_t i = 0; i < z.faceGlobalId.size(); ++i)
    z.faceGlobalId.data()[i] = p.faceGlobal[static_cast<std::size_t>(z.faceGlobalId[i])];
  for (std::size_t i = 0; i < z.nodeGlobalId.size(); ++i)
    z.nodeGlobalId.data()[i] = p.nodeGlobal[static_cast<std::size_t>(z.nodeGlobalId[i])];
}

} // namespace

void build_dist_zones(const dist::Comm& comm, const Mesh& mesh, DistGlobalMesh& dg,
                      const std::vector<idx_t>& partOf, const ZoneAssignment& assign,
                      const PrepOptions& opts, const std::function<void(std::vector<Zone>&)>& sink,
                      std::vector<ZoneReport>* reportZones) {
  std::vector<char> mine(static_cast<std::size_t>(assign.nZones), 0);
  for (int z = 0; z < assign.nZones; ++z)
    mine[static_cast<std::size_t>(z)] = assign.rank_of(z) == comm.rank();
  const bool hasWalls = comm.max(std::int64_t(!dg.wallDistance.empty())) != 0;
  std::vector<CellRequest> req;
  Piece piece;
  {
    log::Phase phase("  gathering the zones' cells");
    req = needed_cells(mesh, dg, partOf, mine);
    std::vector<CellAnswer> ans;
    std::vector<DistFace> faces;
    fetch_cells(comm, dg, req, ans, faces);
    release_block(dg); // what the pieces needed of the blocks is fetched: peak = piece + zones
    dist::run_collectively(comm, [&] {
      piece = assemble_piece(mesh, dg, partOf, req, ans, std::move(faces), hasWalls);
    });
    phase.note(std::to_string(req.size()) + " cells on rank 0");
  }
  // owned cells per zone of this rank (local ids, ascending)
  std::vector<std::vector<idx_t>> owned(static_cast<std::size_t>(assign.nZones));
  for (idx_t c = 0; c < static_cast<idx_t>(req.size()); ++c)
    if (req[static_cast<std::size_t>(c)].faces)
      owned[static_cast<std::size_t>(piece.partOf[static_cast<std::size_t>(c)])].push_back(c);
  std::vector<ZoneScratch> scratch(static_cast<std::size_t>(assign.perRank));
  for (int round = 0; round < assign.rounds(); ++round) {
    std::vector<int> ids;
    for (int z = round * assign.perRank * assign.nRanks;
         z < std::min(assign.nZones, (round + 1) * assign.perRank * assign.nRanks); ++z)
      if (mine[static_cast<std::size_t>(z)]) ids.push_back(z);
    std::vector<Zone> zones(ids.size());
    std::vector<ZoneReport> reps(ids.size());
    std::vector<std::string> errors(ids.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(assign.perRank)
    for (int i = 0; i < static_cast<int>(ids.size()); ++i) {
      const int z = ids[static_cast<std::size_t>(i)];
      const std::vector<idx_t>& cells = owned[static_cast<std::size_t>(z)];
      try {
        FV_VERIFY(!cells.empty(), "build_zones: part "
                                      << z << " of " << assign.nZones
                                      << " has no cells (fewer cells than parts?)");
        zones[static_cast<std::size_t>(i)] = build_one_zone(
            piece.g, piece.partOf, cells.data(), static_cast<idx_t>(cells.size()), z, opts,
            scratch[static_cast<std::size_t>(i)], reps[static_cast<std::size_t>(i)]);
        to_global_ids(piece, zones[static_cast<std::size_t>(i)]);
      } catch (const std::exception& e) {
        errors[static_cast<std::size_t>(i)] = e.what();
      }
    }
    dist::run_collectively(comm, [&] {
      for (const std::string& e : errors)
        FV_VERIFY(e.empty(), e);
    });
    for (const int z : ids)
      std::vector<idx_t>().swap(owned[static_cast<std::size_t>(z)]);
    if (reportZones) {
      std::vector<std::int64_t> counts(static_cast<std::size_t>(comm.size()), 0);
      counts[0] = static_cast<std::int64_t>(reps.size());
      dist::Received<ZoneReport> got = dist::exchange(comm, reps, counts);
      reportZones->insert(reportZones->end(), got.data.begin(), got.data.end());
    }
    sink(zones);
  }
}

} // namespace fv
