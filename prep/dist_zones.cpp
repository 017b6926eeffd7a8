#include "prep/dist_zones.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "prep/connectivity.hpp"
#include "prep/global_mesh.hpp"
#include "prep/id_set.hpp"
#include "prep/parallel_sort.hpp"
#include "prep/zone_builder.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <numeric>
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

/// What the block owner answers for a requested cell; its nodes follow in the node answer.
struct CellAnswer {
  real_t volume;
  real_t centroid[3];
  real_t wallDistance;
  std::int32_t nFaces; ///< faces that follow in the face answer (0 unless requested)
  std::int32_t nNodes; ///< nodes that follow in the node answer
  CellType type;
};

/// A face of a requested cell; its nodes (renumbered ids) follow in the face-node answer.
struct FaceAnswer {
  DistFace face;
  idx_t nNodes;
};

/// A renumbered node and a value: a cell touching it, or a rank whose zones touch it.
struct NodeValue {
  idx_t node;
  idx_t value;
  bool operator<(const NodeValue& o) const {
    return node != o.node ? node < o.node : value < o.value;
  }
  bool operator==(const NodeValue& o) const { return node == o.node && value == o.value; }
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

/// A renumbered node and the process whose zones own the cells of one block touching it
/// (kManyRanks: cells of several processes' zones).
struct NodeRank {
  idx_t node;
  std::int32_t rank;
};
constexpr std::int32_t kManyRanks = -2;

/// The process whose zones own the block's cells touching each block node (kManyRanks when
/// they are several's; -1 for a node of no block cell).
std::vector<std::int32_t> block_node_ranks(const dist::Comm& comm, const DistGlobalMesh& g,
                                           const std::vector<idx_t>& partOf,
                                           const ZoneAssignment& assign) {
  const Csr& cn = g.blockCellNodes;
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  std::vector<std::int32_t> rankOf(g.blockNodes.size(), -1);
#pragma omp parallel for schedule(static)
  for (idx_t i = 0; i < cn.rows(); ++i) {
    const std::int32_t r = assign.rank_of(partOf[static_cast<std::size_t>(c0 + i)]);
    for (idx_t k = cn.begin(i); k < cn.end(i); ++k) {
      std::int32_t* at = &rankOf[static_cast<std::size_t>(cn.indices()[k])];
      std::int32_t seen = -1;
      // first rank wins; a different one makes it kManyRanks (the result is order-free)
      if (!__atomic_compare_exchange_n(at, &seen, r, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
          seen != r && seen != kManyRanks)
        __atomic_store_n(at, kManyRanks, __ATOMIC_RELAXED);
    }
  }
  return rankOf;
}

/// The nodes touched by the zones of more than one process (ascending, on every process): each
/// block node goes, with the zone process of the block's cells touching it (block_node_ranks()),
/// to the node's holder, which flags the nodes seen with two processes.
std::vector<idx_t> interface_nodes(const dist::Comm& comm, const DistGlobalMesh& g,
                                   const std::vector<std::int32_t>& rankOf) {
  auto grouped = dist::group_by_rank<NodeRank>(
      comm, static_cast<std::int64_t>(g.blockNodes.size()),
      [&](std::int64_t b) {
        return g.nodeHolders.owner(g.blockNodes[static_cast<std::size_t>(b)]);
      },
      [&](std::int64_t b, NodeRank& out) {
        out = {g.blockNodes[static_cast<std::size_t>(b)], rankOf[static_cast<std::size_t>(b)]};
      });
  const std::vector<NodeRank> got = dist::exchange(comm, grouped.first, grouped.second).data;
  grouped = {};
  const gidx_t v0 = g.nodeHolders.first[static_cast<std::size_t>(comm.rank())],
               v1 = g.nodeHolders.first[static_cast<std::size_t>(comm.rank()) + 1];
  std::vector<std::int32_t> seen(static_cast<std::size_t>(v1 - v0), -1);
  std::vector<char> shared(static_cast<std::size_t>(v1 - v0), 0);
  for (const NodeRank& e : got) {
    const auto v = static_cast<std::size_t>(e.node - v0);
    if (e.rank == kManyRanks) {
      shared[v] = 1;
      continue;
    }
    if (seen[v] < 0) seen[v] = e.rank;
    shared[v] |= seen[v] != e.rank;
  }
  std::vector<idx_t> mineShared;
  for (gidx_t v = v0; v < v1; ++v)
    if (shared[static_cast<std::size_t>(v - v0)]) mineShared.push_back(static_cast<idx_t>(v));
  return dist::all_gather(comm, mineShared);
}

/// The cells this rank's zones own and those sharing a node with them (as a set of renumbered
/// cells). The owned ones follow from partOf (on every rank). The others touch a node that
/// zones of two processes touch (interface_nodes()): the block owners send the (node, cell)
/// pairs of those nodes to their holders, which send each zone process the cells of the nodes
/// it touches.
IdSet needed_cells(const dist::Comm& comm, const DistGlobalMesh& g,
                   const std::vector<idx_t>& partOf, const ZoneAssignment& assign,
                   const std::vector<char>& mine) {
  const Csr& cn = g.blockCellNodes;
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  std::vector<char> onIface(g.blockNodes.size(), 0); // block nodes that are interface nodes
  {
    const std::vector<idx_t> iface =
        interface_nodes(comm, g, block_node_ranks(comm, g, partOf, assign));
    for (std::size_t a = 0, b = 0; a < g.blockNodes.size() && b < iface.size();) { // both ascend
      if (g.blockNodes[a] < iface[b]) {
        ++a;
      } else if (iface[b] < g.blockNodes[a]) {
        ++b;
      } else {
        onIface[a++] = 1;
        ++b;
      }
    }
  }
  std::vector<NodeValue> pairs; // (node, cell) of the block's cells on interface nodes
  for (idx_t i = 0; i < cn.rows(); ++i)
    for (idx_t k = cn.begin(i); k < cn.end(i); ++k)
      if (onIface[static_cast<std::size_t>(cn.indices()[k])])
        pairs.push_back({g.blockNodes[static_cast<std::size_t>(cn.indices()[k])], c0 + i});
  auto grouped = dist::group_by_rank<NodeValue>(
      comm, static_cast<std::int64_t>(pairs.size()),
      [&](std::int64_t i) { return g.nodeHolders.owner(pairs[static_cast<std::size_t>(i)].node); },
      [&](std::int64_t i, NodeValue& out) { out = pairs[static_cast<std::size_t>(i)]; });
  std::vector<NodeValue>().swap(pairs);
  std::vector<NodeValue> cellsOf = dist::exchange(comm, grouped.first, grouped.second).data;
  grouped = {};
  parallel_sort(cellsOf.begin(), cellsOf.end(), std::less<NodeValue>());
  std::vector<std::vector<idx_t>> toRank(static_cast<std::size_t>(comm.size()));
  std::vector<int> ranks;
  for (std::size_t a = 0; a < cellsOf.size();) {
    std::size_t a1 = a;
    ranks.clear();
    for (; a1 < cellsOf.size() && cellsOf[a1].node == cellsOf[a].node; ++a1)
      ranks.push_back(assign.rank_of(partOf[static_cast<std::size_t>(cellsOf[a1].value)]));
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    for (const int r : ranks) {
      std::vector<idx_t>& out = toRank[static_cast<std::size_t>(r)];
      for (std::size_t k = a; k < a1; ++k)
        out.push_back(cellsOf[k].value);
    }
    a = a1;
  }
  std::vector<idx_t> send;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    counts[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(toRank[r].size());
    send.insert(send.end(), toRank[r].begin(), toRank[r].end());
    std::vector<idx_t>().swap(toRank[r]);
  }
  const std::vector<idx_t> cells = dist::exchange(comm, send, counts).data;
  std::vector<idx_t>().swap(send);
  IdSet out(g.nCells);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < cells.size(); ++i)
    out.insert(cells[i]);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < static_cast<idx_t>(partOf.size()); ++c) // the owned cells
    if (mine[static_cast<std::size_t>(partOf[static_cast<std::size_t>(c)])]) out.insert(c);
  out.freeze();
  return out;
}

/// The needed cells (ascending), asking their faces where this rank's zones own them.
std::vector<CellRequest> cell_requests(const IdSet& cells, const std::vector<idx_t>& partOf,
                                       const std::vector<char>& mine) {
  const std::vector<idx_t> ids = cells.ids();
  std::vector<CellRequest> out(ids.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < ids.size(); ++i)
    out[i] = {ids[i],
              mine[static_cast<std::size_t>(partOf[static_cast<std::size_t>(ids[i])])] ? 1 : 0};
  return out;
}

/// What the block owners answer for the requested cells, in request order.
struct Fetched {
  std::vector<CellAnswer> cells;
  std::vector<idx_t> cellNodes; ///< renumbered ids, cell after cell
  std::vector<FaceAnswer> faces;
  std::vector<idx_t> faceNodes; ///< renumbered ids, face after face
};

/// Fetches the requested cells' geometry and nodes and (for owned ones) faces from their block
/// owners. A face of two requested cells of one block is sent once.
Fetched fetch_cells(const dist::Comm& comm, const DistGlobalMesh& g,
                    const std::vector<CellRequest>& req) {
  auto grouped = dist::group_by_rank<CellRequest>(
      comm, static_cast<std::int64_t>(req.size()),
      [&](std::int64_t i) { return g.cells.owner(req[static_cast<std::size_t>(i)].cell); },
      [&](std::int64_t i, CellRequest& r) { r = req[static_cast<std::size_t>(i)]; });
  // The requests are sorted by cell, and so by owner: grouping kept their order.
  const dist::Received<CellRequest> asked = dist::exchange(comm, grouped.first, grouped.second);
  grouped = {};
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  const auto p = static_cast<std::size_t>(comm.size());
  // Which faces go to which rank (each once), and how much of everything.
  std::vector<std::int32_t> sentTo(g.faces.size(), -1);
  std::vector<idx_t> faceList; // faces to send, rank after rank
  std::vector<std::int64_t> ansCounts(p), nodeCounts(p, 0), faceCounts(p, 0), faceNodeCounts(p, 0);
  for (std::size_t r = 0; r < p; ++r) {
    ansCounts[r] = asked.offsets[r + 1] - asked.offsets[r];
    for (std::int64_t i = asked.offsets[r]; i < asked.offsets[r + 1]; ++i) {
      const CellRequest& q = asked.data[static_cast<std::size_t>(i)];
      const idx_t b = q.cell - c0;
      nodeCounts[r] += g.blockCellNodes.size(b);
      for (idx_t k = g.cellFaces.begin(b); q.faces && k < g.cellFaces.end(b); ++k) {
        const idx_t f = g.cellFaces.indices()[k];
        if (sentTo[static_cast<std::size_t>(f)] == static_cast<std::int32_t>(r)) continue;
        sentTo[static_cast<std::size_t>(f)] = static_cast<std::int32_t>(r);
        faceList.push_back(f);
        ++faceCounts[r];
        faceNodeCounts[r] += g.faceNodes.size(f);
      }
    }
  }
  std::vector<std::int32_t>().swap(sentTo);
  Fetched out;
  {
    std::vector<CellAnswer> ans(asked.data.size());
    std::vector<idx_t> nodes;
    nodes.reserve(static_cast<std::size_t>(
        std::accumulate(nodeCounts.begin(), nodeCounts.end(), std::int64_t(0))));
    for (std::size_t i = 0; i < ans.size(); ++i) {
      const idx_t b = asked.data[i].cell - c0;
      CellAnswer& a = ans[i];
      a.volume = g.cellGeom.volume[static_cast<std::size_t>(b)];
      for (int d = 0; d < 3; ++d)
        a.centroid[d] = g.cellGeom.centroid[3 * static_cast<std::size_t>(b) + d];
      a.wallDistance = g.wallDistance.empty() ? 0.0 : g.wallDistance[static_cast<std::size_t>(b)];
      a.type = g.blockCellType[static_cast<std::size_t>(b)];
      a.nNodes = g.blockCellNodes.size(b);
      for (idx_t k = g.blockCellNodes.begin(b); k < g.blockCellNodes.end(b); ++k)
        nodes.push_back(g.blockNodes[static_cast<std::size_t>(g.blockCellNodes.indices()[k])]);
    }
    out.cells = dist::exchange(comm, ans, ansCounts).data;
    std::vector<CellAnswer>().swap(ans);
    out.cellNodes = dist::exchange(comm, nodes, nodeCounts).data;
  }
  {
    std::vector<FaceAnswer> faces(faceList.size());
    for (std::size_t i = 0; i < faceList.size(); ++i) {
      const idx_t f = faceList[i];
      faces[i] = {g.faces[static_cast<std::size_t>(f)], g.faceNodes.size(f)};
    }
    out.faces = dist::exchange(comm, faces, faceCounts).data;
  }
  {
    std::vector<idx_t> nodes;
    nodes.reserve(static_cast<std::size_t>(
        std::accumulate(faceNodeCounts.begin(), faceNodeCounts.end(), std::int64_t(0))));
    for (const idx_t f : faceList)
      for (idx_t k = g.faceNodes.begin(f); k < g.faceNodes.end(f); ++k)
        nodes.push_back(g.blockNodes[static_cast<std::size_t>(g.faceNodes.indices()[k])]);
    std::vector<idx_t>().swap(faceList);
    out.faceNodes = dist::exchange(comm, nodes, faceNodeCounts).data;
  }
  return out;
}

/// The coordinates of `nodes` (renumbered ids, ascending), fetched from their holders.
std::vector<real_t> fetch_node_xyz(const dist::Comm& comm, const DistGlobalMesh& g,
                                   const std::vector<idx_t>& nodes) {
  auto grouped = dist::group_by_rank<idx_t>(
      comm, static_cast<std::int64_t>(nodes.size()),
      [&](std::int64_t i) { return g.nodeHolders.owner(nodes[static_cast<std::size_t>(i)]); },
      [&](std::int64_t i, idx_t& v) { v = nodes[static_cast<std::size_t>(i)]; });
  const dist::Received<idx_t> asked = dist::exchange(comm, grouped.first, grouped.second);
  // This rank's numbered nodes are a contiguous run of its block's nodes.
  const gidx_t v0 = g.nodeHolders.first[static_cast<std::size_t>(comm.rank())];
  const auto at0 = static_cast<std::size_t>(
      std::lower_bound(g.blockNodes.begin(), g.blockNodes.end(), static_cast<idx_t>(v0)) -
      g.blockNodes.begin());
  struct Xyz {
    real_t x[3];
  };
  std::vector<Xyz> ans(asked.data.size());
  for (std::size_t i = 0; i < ans.size(); ++i) {
    const std::size_t k = at0 + static_cast<std::size_t>(asked.data[i] - v0);
    for (int d = 0; d < 3; ++d)
      ans[i].x[d] = g.blockNodeXyz[3 * k + static_cast<std::size_t>(d)];
  }
  std::vector<std::int64_t> counts(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    counts[static_cast<std::size_t>(r)] = asked.offsets[r + 1] - asked.offsets[r];
  // Answers come back in rank order, and the holders' ranges ascend: the order of `nodes`.
  const std::vector<Xyz> got = dist::exchange(comm, ans, counts).data;
  std::vector<real_t> xyz(3 * got.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    for (int d = 0; d < 3; ++d)
      xyz[3 * i + static_cast<std::size_t>(d)] = got[i].x[d];
  return xyz;
}

/// Every node of the fetched cells, as a set of renumbered nodes.
IdSet piece_nodes(const Fetched& fetched, gidx_t nNodes) {
  IdSet nodes(nNodes);
  const std::vector<idx_t>& from = fetched.cellNodes;
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < from.size(); ++k)
    nodes.insert(from[k]);
  nodes.freeze();
  return nodes;
}

/// Where each of the fetched faces goes in the piece (ascending global ids): order[f] is the
/// fetched face that becomes piece face f (a face of two owned cells of two blocks came twice:
/// the first is taken). faceGlobal: the global id of each piece face.
std::vector<std::size_t> piece_face_order(const std::vector<FaceAnswer>& fa, gidx_t nFaces,
                                          std::vector<gidx_t>& faceGlobal) {
  IdSet faces(nFaces);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < fa.size(); ++i)
    faces.insert(fa[i].face.gid);
  faces.freeze();
  constexpr std::size_t kUnset = ~std::size_t(0);
  std::vector<std::size_t> order(static_cast<std::size_t>(faces.size()), kUnset);
  for (std::size_t i = 0; i < fa.size(); ++i) {
    std::size_t& o = order[static_cast<std::size_t>(faces.rank(fa[i].face.gid))];
    if (o == kUnset) o = i;
  }
  faceGlobal = faces.ids<gidx_t>();
  return order;
}

/// The piece: cells `req` (ascending; the set `cellSet`), their nodes (the set `nodeSet`, with
/// coordinates `xyz` in ascending id order), the faces of the owned ones. Rank-local.
Piece assemble_piece(const DistGlobalMesh& dg, const std::vector<idx_t>& partOf,
                     const std::vector<CellRequest>& req, const IdSet& cellSet, Fetched&& fetched,
                     const IdSet& nodeSet, std::vector<real_t>&& xyz, bool hasWalls) {
  Piece p;
  GlobalMesh& g = p.g;
  g.extrusion = dg.extrusion;
  const idx_t nc = static_cast<idx_t>(req.size());
  p.cellGlobal.resize(static_cast<std::size_t>(nc));
  for (idx_t c = 0; c < nc; ++c)
    p.cellGlobal[static_cast<std::size_t>(c)] = req[static_cast<std::size_t>(c)].cell;
  p.nodeGlobal = nodeSet.ids();
  g.xyz = std::move(xyz);
  const idx_t nn = static_cast<idx_t>(p.nodeGlobal.size());
  // cells
  std::vector<idx_t> counts(static_cast<std::size_t>(nc));
  g.cellType.resize(static_cast<std::size_t>(nc));
  p.partOf.resize(static_cast<std::size_t>(nc));
  for (idx_t c = 0; c < nc; ++c) {
    const CellAnswer& a = fetched.cells[static_cast<std::size_t>(c)];
    g.cellType[static_cast<std::size_t>(c)] = a.type;
    counts[static_cast<std::size_t>(c)] = a.nNodes;
    p.partOf[static_cast<std::size_t>(c)] =
        partOf[static_cast<std::size_t>(p.cellGlobal[static_cast<std::size_t>(c)])];
  }
  g.cellNodes = Csr::from_counts(counts);
  {
    idx_t* cn = g.cellNodes.indices().data();
    const std::vector<idx_t>& from = fetched.cellNodes;
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < from.size(); ++k)
      cn[k] = static_cast<idx_t>(nodeSet.rank(from[k]));
  }
  std::vector<idx_t>().swap(fetched.cellNodes);
  g.cellGeom.volume.resize(static_cast<std::size_t>(nc));
  g.cellGeom.centroid.resize(3 * static_cast<std::size_t>(nc));
  if (hasWalls) g.wallDistance.resize(static_cast<std::size_t>(nc));
  for (idx_t c = 0; c < nc; ++c) {
    const CellAnswer& a = fetched.cells[static_cast<std::size_t>(c)];
    g.cellGeom.volume[static_cast<std::size_t>(c)] = a.volume;
    for (int d = 0; d < 3; ++d)
      g.cellGeom.centroid[3 * static_cast<std::size_t>(c) + d] = a.centroid[d];
    if (hasWalls) g.wallDistance[static_cast<std::size_t>(c)] = a.wallDistance;
  }
  // faces of the owned cells, ascending global ids
  const std::vector<FaceAnswer>& fa = fetched.faces;
  std::vector<std::int64_t> faceAt(fa.size() + 1, 0);
  for (std::size_t i = 0; i < fa.size(); ++i)
    faceAt[i + 1] = faceAt[i] + fa[i].nNodes;
  const std::vector<std::size_t> order = piece_face_order(fa, dg.nFaces, p.faceGlobal);
  const idx_t nf = static_cast<idx_t>(order.size());
  std::vector<idx_t> faceCounts(static_cast<std::size_t>(nf));
  for (idx_t f = 0; f < nf; ++f)
    faceCounts[static_cast<std::size_t>(f)] = fa[order[static_cast<std::size_t>(f)]].nNodes;
  g.faceNodes = Csr::from_counts(faceCounts);
  g.owner.resize(static_cast<std::size_t>(nf));
  g.neighbour.resize(static_cast<std::size_t>(nf));
  g.facePatch.resize(static_cast<std::size_t>(nf));
#pragma omp parallel for schedule(static)
  for (idx_t f = 0; f < nf; ++f) {
    const std::size_t i = order[static_cast<std::size_t>(f)];
    const DistFace& d = fa[i].face;
    idx_t* row = g.faceNodes.row(f);
    for (idx_t k = 0; k < fa[i].nNodes; ++k)
      row[k] = static_cast<idx_t>(
          nodeSet.rank(fetched.faceNodes[static_cast<std::size_t>(faceAt[i] + k)]));
    // both cells of a face of an owned cell share its nodes: they are in the piece
    g.owner[static_cast<std::size_t>(f)] = static_cast<idx_t>(cellSet.rank(d.lo));
    g.neighbour[static_cast<std::size_t>(f)] =
        d.hi == kNone ? kNone : static_cast<idx_t>(cellSet.rank(d.hi));
    g.facePatch[static_cast<std::size_t>(f)] = d.hi == kNone ? d.patch : -1;
  }
  fetched = Fetched();
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

/// Frees the block arrays of g (faces, cells, nodes, geometry, wall distance).
void release_block(DistGlobalMesh& g) {
  std::vector<DistFace>().swap(g.faces);
  g.faceNodes = Csr();
  g.blockCellNodes = Csr();
  std::vector<CellType>().swap(g.blockCellType);
  std::vector<idx_t>().swap(g.blockNodes);
  std::vector<real_t>().swap(g.blockNodeXyz);
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

void build_dist_zones(const dist::Comm& comm, DistGlobalMesh& dg, const std::vector<idx_t>& partOf,
                      const ZoneAssignment& assign, const PrepOptions& opts,
                      const std::function<void(std::vector<Zone>&)>& sink,
                      std::vector<ZoneReport>* reportZones) {
  std::vector<char> mine(static_cast<std::size_t>(assign.nZones), 0);
  for (int z = 0; z < assign.nZones; ++z)
    mine[static_cast<std::size_t>(z)] = assign.rank_of(z) == comm.rank();
  const bool hasWalls = comm.max(std::int64_t(!dg.wallDistance.empty())) != 0;
  std::vector<CellRequest> req;
  Piece piece;
  {
    log::Phase phase("  gathering the zones' cells");
    Fetched fetched;
    IdSet cells, nodes;
    std::vector<real_t> xyz;
    run_phase(nullptr, "    finding the node neighbours", [&] {
      cells = needed_cells(comm, dg, partOf, assign, mine);
      req = cell_requests(cells, partOf, mine);
    });
    run_phase(nullptr, "    fetching cells and faces",
              [&] { fetched = fetch_cells(comm, dg, req); });
    run_phase(nullptr, "    fetching coordinates", [&] {
      nodes = piece_nodes(fetched, dg.nNodes);
      xyz = fetch_node_xyz(comm, dg, nodes.ids());
    });
    release_block(dg); // what the pieces need of the blocks is fetched: peak = piece + zones
    run_phase(nullptr, "    assembling the piece", [&] {
      dist::run_collectively(comm, [&] {
        piece = assemble_piece(dg, partOf, req, cells, std::move(fetched), nodes, std::move(xyz),
                               hasWalls);
      });
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
    const auto t0 = std::chrono::steady_clock::now();
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
    const double built = log::seconds_since(t0);
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
    const auto t1 = std::chrono::steady_clock::now();
    sink(zones);
    const double lo = comm.min(built), hi = comm.max(built),
                 written = comm.max(log::seconds_since(t1));
    if (comm.rank() == 0)
      FV_LOG_INFO("    zone round " << round + 1 << " of " << assign.rounds() << ": built in " << lo
                                    << "-" << hi << " s per process, written in " << written
                                    << " s");
  }
}

} // namespace fv
