// The renumbered global mesh built by the ranks of the distributed fvprep (prep/dist_mesh.hpp).
#include "common/log.hpp"
#include "prep/dist_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/mesh_ids.hpp"
#include "prep/parallel_sort.hpp"
#include "prep/spatial_order.hpp"
#include "prep/wall_distance.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <tuple>

namespace fv {

namespace {

/// A face entry on its way to the rank matching its smallest node.
struct BucketEntry {
  FaceEntry entry;
  idx_t minNode;
};

/// The faces of this rank's node block, with their build_faces() ids.
struct BucketFaces {
  FaceSet faces;
  std::vector<FaceEntry> ownerEntries;
  gidx_t first = 0; ///< build_faces() id of faces[0]
};

idx_t smallest(const std::vector<idx_t>& nodes) {
  return nodes.empty() ? idx_t(0) : *std::min_element(nodes.begin(), nodes.end());
}

/// build_faces() over the ranks: each rank sends the entries of its cell and boundary-face
/// blocks to the rank of their smallest node, which matches them (match_face_buckets()).
BucketFaces match_faces(const dist::Comm& comm, const Mesh& m, const FaceOptions& opts) {
  const int rank = comm.rank(), p = comm.size();
  const dist::Blocks cells{m.nCells(), p}, bfaces{m.nBoundaryFaces(), p};
  // Entries of the cell block, then of the boundary-face block, each with its smallest node.
  const idx_t c0 = static_cast<idx_t>(cells.first(rank)),
              nc = static_cast<idx_t>(cells.count(rank));
  std::vector<std::int64_t> at(static_cast<std::size_t>(nc) + 1, 0);
  for (idx_t i = 0; i < nc; ++i)
    at[static_cast<std::size_t>(i) + 1] =
        at[static_cast<std::size_t>(i)] + mesh_cell_face_count(m, c0 + i);
  const std::int64_t nCellEntries = at.back();
  std::vector<BucketEntry> mine(static_cast<std::size_t>(nCellEntries + bfaces.count(rank)));
#pragma omp parallel
  {
    std::vector<idx_t> buf;
#pragma omp for schedule(static)
    for (idx_t i = 0; i < nc; ++i)
      for (int lf = 0; lf < at[static_cast<std::size_t>(i) + 1] - at[static_cast<std::size_t>(i)];
           ++lf) {
        const FaceEntry e = cell_face_entry(c0 + i, lf);
        face_entry_nodes(m, e, buf);
        mine[static_cast<std::size_t>(at[static_cast<std::size_t>(i)] + lf)] = {e, smallest(buf)};
      }
#pragma omp for schedule(static)
    for (gidx_t b = 0; b < bfaces.count(rank); ++b) {
      const FaceEntry e = ~FaceEntry(bfaces.first(rank) + b);
      face_entry_nodes(m, e, buf);
      mine[static_cast<std::size_t>(nCellEntries + b)] = {e, smallest(buf)};
    }
  }
  // Node ranges holding as many entries each: a face's smallest node is far more often a low
  // node id than a high one, so equal node blocks would give most of the matching to the
  // lowest ranks (the first of 8 would match ~41 % of the faces).
  const dist::Ranges nodes = dist::balanced_ranges(
      comm, m.nNodes(), static_cast<std::int64_t>(mine.size()),
      [&](std::int64_t i) { return mine[static_cast<std::size_t>(i)].minNode; });
  auto grouped = dist::group_by_rank<BucketEntry>(
      comm, static_cast<std::int64_t>(mine.size()),
      [&](std::int64_t i) { return nodes.owner(mine[static_cast<std::size_t>(i)].minNode); },
      [&](std::int64_t i, BucketEntry& out) { out = mine[static_cast<std::size_t>(i)]; });
  std::vector<BucketEntry>().swap(mine);
  dist::Received<BucketEntry> got = dist::exchange(comm, grouped.first, grouped.second);
  std::vector<BucketEntry>().swap(grouped.first);
  const idx_t n0 = static_cast<idx_t>(nodes.first[static_cast<std::size_t>(rank)]),
              n1 = static_cast<idx_t>(nodes.first[static_cast<std::size_t>(rank) + 1]);
  std::vector<idx_t> bucketOff(static_cast<std::size_t>(n1 - n0) + 1, 0);
  for (const BucketEntry& e : got.data)
    ++bucketOff[static_cast<std::size_t>(e.minNode - n0) + 1];
  for (idx_t v = 0; v < n1 - n0; ++v)
    bucketOff[v + 1] += bucketOff[v];
  std::vector<FaceEntry> entries(got.data.size());
  {
    std::vector<idx_t> fill(bucketOff.begin(), bucketOff.end() - 1);
    for (const BucketEntry& e : got.data)
      entries[static_cast<std::size_t>(fill[static_cast<std::size_t>(e.minNode - n0)]++)] = e.entry;
  }
  got = {};
  BucketFaces out;
  FaceBucketResult r;
  dist::run_collectively(comm, [&] {
    r = match_face_buckets(m, n0, n1, bucketOff, entries, opts, &out.ownerEntries);
  });
  const bool used = comm.max(std::int64_t(r.defaultPatchUsed)) != 0;
  if (r.defaultPatchAdded && !used) r.faces.patches.pop_back();
  out.faces = std::move(r.faces);
  out.first = comm.exscan(out.faces.nFaces());
  return out;
}

/// A cell on its way through the sample sort.
struct Keyed {
  std::uint64_t key;
  idx_t cell;
  bool operator<(const Keyed& o) const { return std::tie(key, cell) < std::tie(o.key, o.cell); }
};

/// spatial_cell_order() over the ranks (sample sort of the Morton keys); returns the whole
/// order (renumbered cell -> source cell) on every rank.
std::vector<idx_t> dist_cell_order(const dist::Comm& comm, const Mesh& m, Renumber renumber) {
  const idx_t nc = m.nCells();
  if (renumber != Renumber::Rcm) {
    std::vector<idx_t> order(static_cast<std::size_t>(nc));
    std::iota(order.begin(), order.end(), 0);
    return order;
  }
  const int rank = comm.rank(), p = comm.size();
  const dist::Blocks nodes{m.nNodes(), p}, cells{nc, p};
  std::vector<double> lo(3, std::numeric_limits<real_t>::max()), hi(3, -lo[0]);
  for (gidx_t v = nodes.first(rank); v < nodes.first(rank + 1); ++v)
    for (int d = 0; d < 3; ++d) {
      const real_t x = m.xyz[3 * static_cast<std::size_t>(v) + d];
      lo[d] = std::min(lo[d], x);
      hi[d] = std::max(hi[d], x);
    }
  comm.min_in_place(lo);
  comm.max_in_place(hi);
  morton_cube(lo.data(), hi.data());
  std::vector<Keyed> keyed(static_cast<std::size_t>(cells.count(rank)));
#pragma omp parallel for schedule(static)
  for (idx_t i = 0; i < static_cast<idx_t>(keyed.size()); ++i) {
    const idx_t c = static_cast<idx_t>(cells.first(rank)) + i;
    keyed[static_cast<std::size_t>(i)] = {cell_morton_key(m, c, lo.data(), hi.data()), c};
  }
  parallel_sort(keyed.begin(), keyed.end(), std::less<Keyed>());
  // Regular samples, p per rank; splitters at every p-th of the sorted samples.
  std::vector<Keyed> samples;
  for (int i = 0; i < p && !keyed.empty(); ++i)
    samples.push_back(
        keyed[keyed.size() * static_cast<std::size_t>(i) / static_cast<std::size_t>(p)]);
  std::vector<Keyed> all = dist::all_gather(comm, samples);
  std::sort(all.begin(), all.end());
  std::vector<Keyed> splitters;
  for (int i = 1; i < p && !all.empty(); ++i)
    splitters.push_back(
        all[all.size() * static_cast<std::size_t>(i) / static_cast<std::size_t>(p)]);
  auto grouped = dist::group_by_rank<Keyed>(
      comm, static_cast<std::int64_t>(keyed.size()),
      [&](std::int64_t i) {
        return static_cast<int>(std::upper_bound(splitters.begin(), splitters.end(),
                                                 keyed[static_cast<std::size_t>(i)]) -
                                splitters.begin());
      },
      [&](std::int64_t i, Keyed& out) { out = keyed[static_cast<std::size_t>(i)]; });
  std::vector<Keyed>().swap(keyed);
  dist::Received<Keyed> got = dist::exchange(comm, grouped.first, grouped.second);
  parallel_sort(got.data.begin(), got.data.end(), std::less<Keyed>());
  std::vector<idx_t> run(got.data.size());
  for (std::size_t i = 0; i < run.size(); ++i)
    run[i] = got.data[i].cell;
  return dist::all_gather(comm, run);
}

std::vector<idx_t> invert(const std::vector<idx_t>& order, std::size_t n) {
  std::vector<idx_t> inv(n, kNone);
  for (std::size_t i = 0; i < order.size(); ++i)
    inv[static_cast<std::size_t>(order[i])] = static_cast<idx_t>(i);
  return inv;
}

/// The faces of this rank's buckets as DistFace, sent to the rank of their lower cell.
std::vector<DistFace> faces_to_owners(const dist::Comm& comm, const BucketFaces& bf,
                                      const DistGlobalMesh& g) {
  const FaceSet& fs = bf.faces;
  auto grouped = dist::group_by_rank<DistFace>(
      comm, fs.nFaces(),
      [&](std::int64_t f) {
        const idx_t o = g.newCell[static_cast<std::size_t>(fs.owner[f])];
        const idx_t n = fs.neighbour[f] == kNone ? kNone : g.newCell[fs.neighbour[f]];
        return g.cells.owner(n != kNone && n < o ? n : o);
      },
      [&](std::int64_t f, DistFace& d) {
        const idx_t o = g.newCell[static_cast<std::size_t>(fs.owner[f])];
        const idx_t n = fs.neighbour[f] == kNone ? kNone : g.newCell[fs.neighbour[f]];
        d.flip = n != kNone && n < o;
        d.lo = d.flip ? n : o;
        d.hi = d.flip ? o : n;
        d.fsId = bf.first + f;
        d.entry = bf.ownerEntries[static_cast<std::size_t>(f)];
        d.patch = fs.patch[f];
        d.bface = fs.bface[f];
      });
  return dist::exchange(comm, grouped.first, grouped.second).data;
}

/// Global ids of the faces this rank owns (lower cell in its block): boundary faces by patch,
/// then owner, then build_faces() id; interior faces by (owner, neighbour, build_faces() id).
void number_faces(const dist::Comm& comm, std::vector<DistFace>& owned, DistGlobalMesh& g) {
  const std::size_t np = g.patches.size();
  parallel_sort(owned.begin(), owned.end(), [](const DistFace& a, const DistFace& b) {
    const bool ab = a.hi == kNone, bb = b.hi == kNone;
    if (ab != bb) return ab;
    if (ab) return std::tie(a.patch, a.lo, a.fsId) < std::tie(b.patch, b.lo, b.fsId);
    return std::tie(a.lo, a.hi, a.fsId) < std::tie(b.lo, b.hi, b.fsId);
  });
  std::vector<std::int64_t> perPatch(np, 0);
  std::int64_t nInterior = 0;
  for (const DistFace& f : owned)
    f.hi == kNone ? ++perPatch[static_cast<std::size_t>(f.patch)] : ++nInterior;
  const std::vector<std::int64_t> base = comm.exscan(perPatch);
  std::vector<std::int64_t> total = perPatch;
  comm.sum_in_place(total);
  g.patchFaceOffsets.assign(np + 1, 0);
  for (std::size_t q = 0; q < np; ++q)
    g.patchFaceOffsets[q + 1] = g.patchFaceOffsets[q] + total[q];
  g.nBoundaryFaces = g.patchFaceOffsets[np];
  gidx_t next = g.nBoundaryFaces + comm.exscan(nInterior);
  std::vector<gidx_t> fill(np);
  for (std::size_t q = 0; q < np; ++q)
    fill[q] = g.patchFaceOffsets[q] + base[q];
  for (DistFace& f : owned)
    f.gid = f.hi == kNone ? fill[static_cast<std::size_t>(f.patch)]++ : next++;
  g.nFaces = comm.sum(static_cast<std::int64_t>(owned.size()));
}

/// First-touch node numbering in the renumbered cell order: a node belongs to the lowest rank
/// whose cells touch it, which numbers its nodes in the order its cells meet them.
void number_nodes(const dist::Comm& comm, const Mesh& m, DistGlobalMesh& g) {
  const int rank = comm.rank();
  const idx_t nn = m.nNodes();
  const idx_t c0 = static_cast<idx_t>(g.cells.first(rank)),
              c1 = static_cast<idx_t>(g.cells.first(rank + 1));
  std::vector<std::int32_t> firstRank(static_cast<std::size_t>(nn), comm.size());
  for (idx_t c = c0; c < c1; ++c) {
    const idx_t cm = g.cellMesh[static_cast<std::size_t>(c)];
    for (idx_t k = m.cellNodes.begin(cm); k < m.cellNodes.end(cm); ++k)
      firstRank[static_cast<std::size_t>(m.cellNodes.indices()[k])] = rank;
  }
  comm.min_in_place(firstRank);
  std::vector<std::int32_t> id(static_cast<std::size_t>(nn), -1);
  std::int32_t mine = 0;
  for (idx_t c = c0; c < c1; ++c) {
    const idx_t cm = g.cellMesh[static_cast<std::size_t>(c)];
    for (idx_t k = m.cellNodes.begin(cm); k < m.cellNodes.end(cm); ++k) {
      const auto v = static_cast<std::size_t>(m.cellNodes.indices()[k]);
      if (firstRank[v] == rank && id[v] < 0) id[v] = mine++;
    }
  }
  const auto base = static_cast<std::int32_t>(comm.exscan(mine));
  const std::vector<std::int64_t> numbered = comm.all_gather(std::int64_t(mine));
  g.nodeHolders.first.assign(numbered.size() + 1, 0);
  for (std::size_t r = 0; r < numbered.size(); ++r)
    g.nodeHolders.first[r + 1] = g.nodeHolders.first[r] + numbered[r];
  for (std::int32_t& v : id)
    if (v >= 0) v += base;
  comm.max_in_place(id);
  g.newNode.assign(id.begin(), id.end());
  g.nNodes = comm.sum(mine);
  g.nodeMesh.assign(static_cast<std::size_t>(g.nNodes), kNone);
  for (idx_t v = 0; v < nn; ++v)
    if (g.newNode[static_cast<std::size_t>(v)] != kNone)
      g.nodeMesh[static_cast<std::size_t>(g.newNode[static_cast<std::size_t>(v)])] = v;
  if (rank == 0 && g.nNodes < nn)
    FV_LOG_INFO(mesh_name(m) << ": " << nn - g.nNodes
                             << " nodes belong to no cell and are dropped");
}

/// Every face of the block's cells: the owned ones, and the interior faces other ranks (or this
/// one) own whose neighbour lies in the block. Sets g.faces, g.cellFaces and g.cellFaceSign.
void gather_block_faces(const dist::Comm& comm, std::vector<DistFace>&& owned, DistGlobalMesh& g) {
  const int rank = comm.rank();
  // Interior faces whose neighbour lies in another block go to that block's rank. `owned` is
  // in ascending global ids (number_faces() numbered it in its order), so every rank's part of
  // what arrives is too: one merge of sorted runs puts the block's faces in order.
  std::vector<DistFace> interior;
  for (const DistFace& f : owned)
    if (f.hi != kNone && g.cells.owner(f.hi) != rank) interior.push_back(f);
  auto grouped = dist::group_by_rank<DistFace>(
      comm, static_cast<std::int64_t>(interior.size()),
      [&](std::int64_t i) { return g.cells.owner(interior[static_cast<std::size_t>(i)].hi); },
      [&](std::int64_t i, DistFace& d) { d = interior[static_cast<std::size_t>(i)]; });
  std::vector<DistFace>().swap(interior);
  dist::Received<DistFace> got = dist::exchange(comm, grouped.first, grouped.second);
  std::vector<std::int64_t> runs{0};
  for (std::int64_t o : got.offsets)
    runs.push_back(static_cast<std::int64_t>(owned.size()) + o);
  g.faces = std::move(owned);
  g.faces.insert(g.faces.end(), got.data.begin(), got.data.end());
  got = {};
  merge_sorted_runs(g.faces, runs,
                    [](const DistFace& a, const DistFace& b) { return a.gid < b.gid; });
  const idx_t c0 = static_cast<idx_t>(g.cells.first(rank));
  const idx_t nBlock = static_cast<idx_t>(g.cells.count(rank));
  auto inBlock = [&](idx_t c) { return c != kNone && c >= c0 && c < c0 + nBlock; };
  std::vector<idx_t> counts(static_cast<std::size_t>(nBlock), 0);
  for (const DistFace& f : g.faces) {
    if (inBlock(f.lo)) ++counts[static_cast<std::size_t>(f.lo - c0)];
    if (inBlock(f.hi)) ++counts[static_cast<std::size_t>(f.hi - c0)];
  }
  g.cellFaces = Csr::from_counts(counts);
  g.cellFaceSign.assign(static_cast<std::size_t>(g.cellFaces.nnz()), 0);
  std::vector<idx_t> fill(g.cellFaces.offsets().begin(), g.cellFaces.offsets().end() - 1);
  for (idx_t i = 0; i < static_cast<idx_t>(g.faces.size()); ++i) {
    const DistFace& f = g.faces[static_cast<std::size_t>(i)];
    if (inBlock(f.lo)) {
      const idx_t k = fill[static_cast<std::size_t>(f.lo - c0)]++;
      g.cellFaces.indices()[k] = i;
      g.cellFaceSign[static_cast<std::size_t>(k)] = 1;
    }
    if (inBlock(f.hi)) {
      const idx_t k = fill[static_cast<std::size_t>(f.hi - c0)]++;
      g.cellFaces.indices()[k] = i;
      g.cellFaceSign[static_cast<std::size_t>(k)] = -1;
    }
  }
}

/// Cell geometry of the block, and the serial prepare's checks over all ranks.
void block_geometry(const dist::Comm& comm, const Mesh& m, const PrepOptions& opts,
                    DistGlobalMesh& g) {
  g.cellGeom =
      compute_cell_geometry(g.blockNodeXyz.data(), g.faceNodes, g.cellFaces, g.cellFaceSign);
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  const idx_t nBlock = g.cellFaces.rows();
  real_t vmin = std::numeric_limits<real_t>::max(), vmax = -vmin, cmax = 0;
  idx_t bad = kNone; // block index of the failing cell of the lowest source id
  for (idx_t i = 0; i < nBlock; ++i) {
    const real_t v = g.cellGeom.volume[static_cast<std::size_t>(i)];
    const real_t cl = g.cellGeom.closure[static_cast<std::size_t>(i)];
    vmin = std::min(vmin, v);
    vmax = std::max(vmax, v);
    cmax = std::max(cmax, cl);
    if (cell_fails_checks(v, cl, opts) &&
        (bad == kNone || g.cellMesh[c0 + i] < g.cellMesh[c0 + bad]))
      bad = i;
  }
  const std::int64_t badMesh =
      bad == kNone ? std::numeric_limits<std::int64_t>::max() : std::int64_t(g.cellMesh[c0 + bad]);
  const std::int64_t worst = comm.min(badMesh);
  dist::run_collectively(comm, [&] {
    if (bad != kNone && badMesh == worst)
      throw_bad_cell(m, g.cellMesh[c0 + bad], g.cellGeom.volume[static_cast<std::size_t>(bad)],
                     g.cellGeom.closure[static_cast<std::size_t>(bad)], opts);
  });
  g.minVolume = comm.min(double(vmin));
  g.maxVolume = comm.max(double(vmax));
  g.maxClosure = comm.max(double(cmax));
}

/// A wall face gathered on every rank.
struct WallFaceHead {
  gidx_t gid;
  idx_t nNodes;
};

/// wall_distance() of the block's centroids, computed where the work is even: the cost of a
/// query grows with the distance to the wall, so the cells are dealt to the ranks in chunks of
/// kChunk consecutive (renumbered, so nearby) cells, round robin, and the distances sent back.
/// Each distance is a function of its point alone: the result is that of one call.
std::vector<real_t> dealt_wall_distance(const dist::Comm& comm, const DistGlobalMesh& g,
                                        const WallFaces& walls) {
  constexpr std::int64_t kChunk = 4096;
  const int p = comm.size();
  const std::int64_t c0 = g.cells.first(comm.rank()), n = g.cells.count(comm.rank());
  auto dest = [&](std::int64_t i) { return static_cast<int>((c0 + i) / kChunk % p); };
  struct Point {
    real_t x[3];
  };
  auto grouped = dist::group_by_rank<Point>(comm, n, dest, [&](std::int64_t i, Point& q) {
    for (int d = 0; d < 3; ++d)
      q.x[d] = g.cellGeom.centroid[3 * static_cast<std::size_t>(i) + d];
  });
  const dist::Received<Point> got = dist::exchange(comm, grouped.first, grouped.second);
  std::vector<real_t> points(3 * got.data.size());
  for (std::size_t i = 0; i < got.data.size(); ++i)
    for (int d = 0; d < 3; ++d)
      points[3 * i + static_cast<std::size_t>(d)] = got.data[i].x[d];
  const std::vector<real_t> dealt = wall_distance(points, walls);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    counts[static_cast<std::size_t>(r)] = got.offsets[r + 1] - got.offsets[r];
  const dist::Received<real_t> back = dist::exchange(comm, dealt, counts);
  // Rank r's answers are the block's cells dealt to r, in block order.
  std::vector<std::int64_t> next(back.offsets.begin(), back.offsets.end() - 1);
  std::vector<real_t> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] =
        back.data[static_cast<std::size_t>(next[static_cast<std::size_t>(dest(i))]++)];
  return out;
}

/// Exact wall distance of the block's cells to every wall face (gathered on every rank).
void block_wall_distance(const dist::Comm& comm, const Mesh& m, const PrepOptions& opts,
                         DistGlobalMesh& g) {
  // m: for the patch table's messages only; the faces and coordinates are the block's.
  std::vector<char> isWall;
  dist::run_collectively(comm, [&] { isWall = wall_patch_flags(m, g.patches, opts); });
  std::vector<WallFaceHead> heads;
  std::vector<real_t> corners; // 3 coordinates per corner, face after face
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  for (idx_t i = 0; i < static_cast<idx_t>(g.faces.size()); ++i) {
    const DistFace& f = g.faces[static_cast<std::size_t>(i)];
    if (f.hi != kNone || !isWall[static_cast<std::size_t>(f.patch)] || f.lo < c0 ||
        f.lo >= c0 + g.cellFaces.rows())
      continue;
    heads.push_back({f.gid, g.faceNodes.size(i)});
    for (idx_t k = g.faceNodes.begin(i); k < g.faceNodes.end(i); ++k) {
      const auto v = static_cast<std::size_t>(g.faceNodes.indices()[k]);
      corners.insert(corners.end(), g.blockNodeXyz.begin() + static_cast<std::ptrdiff_t>(3 * v),
                     g.blockNodeXyz.begin() + static_cast<std::ptrdiff_t>(3 * v + 3));
    }
  }
  const std::vector<WallFaceHead> allHeads = dist::all_gather(comm, heads);
  const std::vector<real_t> allCorners = dist::all_gather(comm, corners);
  if (allHeads.empty()) return;
  std::vector<idx_t> start(allHeads.size() + 1, 0);
  for (std::size_t i = 0; i < allHeads.size(); ++i)
    start[i + 1] = start[i] + allHeads[i].nNodes;
  std::vector<std::size_t> order(allHeads.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return allHeads[a].gid < allHeads[b].gid; });
  WallFaces walls; // corners indexed in allCorners, faces in global face order
  walls.xyz = &allCorners;
  for (std::size_t i : order) {
    for (idx_t k = start[i]; k < start[i + 1]; ++k)
      walls.nodes.push_back(k);
    walls.offsets.push_back(static_cast<idx_t>(walls.nodes.size()));
  }
  g.wallDistance = dealt_wall_distance(comm, g, walls);
  if (comm.rank() == 0)
    FV_LOG_INFO("  wall distance of " << g.nCells << " cells to " << walls.size() << " wall faces");
}

/// The nodes of face f as the renumbered mesh lists them (source node ids; the face's normal
/// points lo -> hi).
void dist_face_nodes(const Mesh& mesh, const DistFace& f, std::vector<idx_t>& out) {
  face_entry_nodes(mesh, f.entry, out);
  if (f.flip) std::reverse(out.begin(), out.end());
}

/// dist_face_nodes() of every face, as rows.
Csr dist_face_node_rows(const Mesh& mesh, const std::vector<DistFace>& faces) {
  const idx_t n = static_cast<idx_t>(faces.size());
  std::vector<idx_t> counts(static_cast<std::size_t>(n));
#pragma omp parallel
  {
    std::vector<idx_t> buf;
#pragma omp for schedule(static)
    for (idx_t f = 0; f < n; ++f) {
      face_entry_nodes(mesh, faces[static_cast<std::size_t>(f)].entry, buf);
      counts[static_cast<std::size_t>(f)] = static_cast<idx_t>(buf.size());
    }
  }
  Csr rows = Csr::from_counts(counts);
#pragma omp parallel
  {
    std::vector<idx_t> buf;
#pragma omp for schedule(static)
    for (idx_t f = 0; f < n; ++f) {
      dist_face_nodes(mesh, faces[static_cast<std::size_t>(f)], buf);
      std::copy(buf.begin(), buf.end(), rows.row(f));
    }
  }
  return rows;
}

} // namespace

DistGlobalMesh build_dist_global_mesh(const dist::Comm& comm, const Mesh& mesh,
                                      const PrepOptions& opts, PrepReport* report) {
  DistGlobalMesh g;
  dist::run_collectively(comm, [&] { validate_mesh_arrays(mesh); });
  BucketFaces bf;
  run_phase(report, "building faces", [&] { bf = match_faces(comm, mesh, opts.faces); });
  g.patches = bf.faces.patches;
  g.nCells = mesh.nCells();
  g.cells = dist::Blocks{g.nCells, comm.size()};
  run_phase(report, "ordering cells", [&] {
    g.cellMesh = dist_cell_order(comm, mesh, opts.renumber);
    g.newCell = invert(g.cellMesh, static_cast<std::size_t>(g.nCells));
  });
  run_phase(report, "renumbering faces and nodes", [&] {
    std::vector<DistFace> owned = faces_to_owners(comm, bf, g);
    bf = BucketFaces();
    number_faces(comm, owned, g);
    number_nodes(comm, mesh, g);
    gather_block_faces(comm, std::move(owned), g);
  });
  run_phase(report, "renumbered blocks", [&] { materialize_block(comm, mesh, g); });
  run_phase(report, "computing geometry", [&] { block_geometry(comm, mesh, opts, g); });
  run_phase(report, "wall distance", [&] { block_wall_distance(comm, mesh, opts, g); });
  if (report) {
    report->nCells = static_cast<idx_t>(g.nCells);
    report->nFaces = static_cast<idx_t>(g.nFaces);
    report->nBoundaryFaces = static_cast<idx_t>(g.nBoundaryFaces);
    report->nNodes = static_cast<idx_t>(g.nNodes);
    report->renumber = renumber_name(opts.renumber);
    report->minVolume = g.minVolume;
    report->maxVolume = g.maxVolume;
    report->maxClosure = g.maxClosure;
  }
  return g;
}

void materialize_block(const dist::Comm& comm, const Mesh& m, DistGlobalMesh& g) {
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  const idx_t nBlock = static_cast<idx_t>(g.cells.count(comm.rank()));
  // cells, in source node ids first
  std::vector<idx_t> counts(static_cast<std::size_t>(nBlock));
  g.blockCellType.resize(static_cast<std::size_t>(nBlock));
  for (idx_t i = 0; i < nBlock; ++i) {
    const idx_t cm = g.cellMesh[static_cast<std::size_t>(c0 + i)];
    counts[static_cast<std::size_t>(i)] = m.cellNodes.size(cm);
    g.blockCellType[static_cast<std::size_t>(i)] = m.cellType[static_cast<std::size_t>(cm)];
  }
  g.blockCellNodes = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
  for (idx_t i = 0; i < nBlock; ++i) {
    const idx_t cm = g.cellMesh[static_cast<std::size_t>(c0 + i)];
    idx_t* out = g.blockCellNodes.row(i);
    for (idx_t k = m.cellNodes.begin(cm); k < m.cellNodes.end(cm); ++k)
      *out++ = m.cellNodes.indices()[k];
  }
  // nodes: every node of the block's cells (their faces' nodes are among them)
  g.blockNodes.resize(static_cast<std::size_t>(g.blockCellNodes.nnz()));
#pragma omp parallel for schedule(static)
  for (idx_t k = 0; k < g.blockCellNodes.nnz(); ++k)
    g.blockNodes[static_cast<std::size_t>(k)] =
        g.newNode[static_cast<std::size_t>(g.blockCellNodes.indices()[k])];
  parallel_sort(g.blockNodes.begin(), g.blockNodes.end(), std::less<idx_t>());
  g.blockNodes.erase(std::unique(g.blockNodes.begin(), g.blockNodes.end()), g.blockNodes.end());
  g.blockNodes.shrink_to_fit();
  g.blockNodeXyz.resize(3 * g.blockNodes.size());
  std::vector<idx_t> local(m.xyz.size() / 3, kNone); // source node -> block node
#pragma omp parallel for schedule(static)
  for (std::size_t v = 0; v < g.blockNodes.size(); ++v) {
    const auto vm = static_cast<std::size_t>(g.nodeMesh[static_cast<std::size_t>(g.blockNodes[v])]);
    local[vm] = static_cast<idx_t>(v);
    for (std::size_t d = 0; d < 3; ++d)
      g.blockNodeXyz[3 * v + d] = m.xyz[3 * vm + d];
  }
  // cells and faces in block node ids
  idx_t* cn = g.blockCellNodes.indices().data();
#pragma omp parallel for schedule(static)
  for (idx_t k = 0; k < g.blockCellNodes.nnz(); ++k)
    cn[k] = local[static_cast<std::size_t>(cn[k])];
  g.faceNodes = dist_face_node_rows(m, g.faces);
  idx_t* fn = g.faceNodes.indices().data();
#pragma omp parallel for schedule(static)
  for (idx_t k = 0; k < g.faceNodes.nnz(); ++k)
    fn[k] = local[static_cast<std::size_t>(fn[k])];
}

void release_source_maps(DistGlobalMesh& g) {
  std::vector<idx_t>().swap(g.cellMesh);
  std::vector<idx_t>().swap(g.newCell);
  std::vector<idx_t>().swap(g.newNode);
  std::vector<idx_t>().swap(g.nodeMesh);
}

Csr dist_cell_cells(const dist::Comm& comm, const DistGlobalMesh& g) {
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  const idx_t n = g.cellFaces.rows();
  std::vector<idx_t> counts(static_cast<std::size_t>(n), 0);
  for (idx_t i = 0; i < n; ++i)
    for (idx_t k = g.cellFaces.begin(i); k < g.cellFaces.end(i); ++k)
      counts[static_cast<std::size_t>(i)] +=
          g.faces[static_cast<std::size_t>(g.cellFaces.indices()[k])].hi != kNone;
  Csr cc = Csr::from_counts(counts);
  for (idx_t i = 0; i < n; ++i) {
    idx_t* out = cc.row(i);
    idx_t m = 0;
    for (idx_t k = g.cellFaces.begin(i); k < g.cellFaces.end(i); ++k) {
      const DistFace& f = g.faces[static_cast<std::size_t>(g.cellFaces.indices()[k])];
      if (f.hi == kNone) continue;
      out[m++] = f.lo == c0 + i ? f.hi : f.lo;
    }
    std::sort(out, out + m);
  }
  return cc;
}

} // namespace fv
