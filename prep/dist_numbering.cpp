// The renumbered global mesh built by the ranks of the distributed fvprep (prep/dist_mesh.hpp).
#include "common/log.hpp"
#include "common/relaxed_atomics.hpp"
#include "prep/dist_mesh.hpp"
#include "prep/dist_source.hpp"
#include "prep/global_mesh.hpp"
#include "prep/id_set.hpp"
#include "prep/mesh_ids.hpp"
#include "prep/parallel_sort.hpp"
#include "prep/spatial_order.hpp"
#include "prep/wall_distance.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>

namespace fv {

namespace {

/// A face entry on its way to the rank matching its smallest node, with its node loop
/// (face_entry_nodes(): outward for cells, as read for boundary faces; source node ids).
struct BucketEntry {
  FaceEntry entry;     ///< of the whole mesh: source cell and local face, or ~file boundary face
  FaceLoop4 loop;      ///< the loop when of at most 4 nodes
  idx_t minNode;       ///< source node id
  std::int32_t nNodes; ///< nodes; a loop of more than 4 follows in the long-loop stream
  idx_t patch;         ///< a file boundary face's patch (-1 for cell faces)
};

/// The faces of this rank's node range, with their build_faces() ids and node loops.
struct BucketFaces {
  FaceSet faces;    ///< faces.faceNodes: the owner entry's node loop (source node ids)
  gidx_t first = 0; ///< build_faces() id of faces[0]
};

/// Entries received by the matching rank: match_face_buckets()' source for what it does not
/// read from the entries' FaceLoop4s: the node loops of more than 4 nodes and the patches of
/// file boundary faces, found by slot (the entry's index in the received stream); cells and
/// boundary faces of other ranks are named by tokens (prep/dist_source.hpp).
class ReceivedEntries final : public FaceEntrySource {
 public:
  /// `got`: the received entries; `longNodes`: the loops of those of more than 4 nodes, one
  /// after another.
  ReceivedEntries(const Mesh& part, const std::vector<BucketEntry>& got,
                  std::vector<idx_t>&& longNodes)
      : part_(part), name_(mesh_name(part)), longNodes_(std::move(longNodes)) {
    longAt_.push_back(0);
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i].nNodes > 4) {
        longSlot_.push_back(static_cast<idx_t>(i));
        longAt_.push_back(longAt_.back() + got[i].nNodes);
      }
      if (got[i].entry < 0) {
        bfaceSlot_.push_back(static_cast<idx_t>(i));
        bfacePatch_.push_back(got[i].patch);
      }
    }
  }
  const std::string& name() const override { return name_; }
  const std::vector<Patch>& patches() const override { return part_.patches; }
  void nodes(FaceEntry, idx_t slot, std::vector<idx_t>& out) const override {
    const std::size_t j = find(longSlot_, slot);
    out.assign(longNodes_.begin() + longAt_[j], longNodes_.begin() + longAt_[j + 1]);
  }
  idx_t bface_patch(FaceEntry, idx_t slot) const override {
    return bfacePatch_[find(bfaceSlot_, slot)];
  }
  std::string cell_label(idx_t c) const override { return cell_token(c); }
  std::string bface_label(FaceEntry e, idx_t) const override { return bface_token(~e); }

 private:
  static std::size_t find(const std::vector<idx_t>& slots, idx_t slot) {
    const auto it = std::lower_bound(slots.begin(), slots.end(), slot);
    FV_VERIFY(it != slots.end() && *it == slot, "face entry " << slot << " not received");
    return static_cast<std::size_t>(it - slots.begin());
  }
  const Mesh& part_;
  std::string name_;
  std::vector<idx_t> longSlot_;      ///< slots of the loops of more than 4 nodes, ascending
  std::vector<std::int64_t> longAt_; ///< where each one's nodes start in longNodes_
  std::vector<idx_t> longNodes_;
  std::vector<idx_t> bfaceSlot_;  ///< slots of the file boundary faces, ascending
  std::vector<idx_t> bfacePatch_; ///< and their patches
};

idx_t smallest(const std::vector<idx_t>& nodes) {
  return nodes.empty() ? idx_t(0) : *std::min_element(nodes.begin(), nodes.end());
}

/// build_faces() over the ranks: each rank sends the entries of its slice's cells and boundary
/// faces, with their nodes, to the rank of their smallest node, which matches them
/// (match_face_buckets()).
BucketFaces match_faces(const dist::Comm& comm, const MeshSlice& s, const SliceLayout& layout,
                        const FaceOptions& opts) {
  const int rank = comm.rank();
  const Mesh& m = s.part;
  const idx_t nc = m.nCells(), nb = m.nBoundaryFaces();
  // Entries of the slice's cells, then of its boundary faces (local entry -> whole-mesh one).
  std::vector<std::int64_t> at(static_cast<std::size_t>(nc) + 1, 0);
  for (idx_t i = 0; i < nc; ++i)
    at[static_cast<std::size_t>(i) + 1] =
        at[static_cast<std::size_t>(i)] + mesh_cell_face_count(m, i);
  const std::int64_t nCellEntries = at.back(), n = nCellEntries + nb;
  auto local_entry = [&](std::int64_t k, idx_t i) {
    return k < nCellEntries
               ? cell_face_entry(i, static_cast<int>(k - at[static_cast<std::size_t>(i)]))
               : ~FaceEntry(k - nCellEntries);
  };
  std::vector<BucketEntry> mine(static_cast<std::size_t>(n));
  std::optional<log::Phase> step(std::in_place, "    face entries"); // the steps at -v
#pragma omp parallel
  {
    std::vector<idx_t> buf;
#pragma omp for schedule(static)
    for (idx_t i = 0; i < nc; ++i)
      for (std::int64_t k = at[static_cast<std::size_t>(i)];
           k < at[static_cast<std::size_t>(i) + 1]; ++k) {
        face_entry_nodes(m, local_entry(k, i), buf);
        mine[static_cast<std::size_t>(k)] = {
            cell_face_entry(static_cast<idx_t>(s.cellFirst + i),
                            static_cast<int>(k - at[static_cast<std::size_t>(i)])),
            face_loop4(buf), smallest(buf), static_cast<std::int32_t>(buf.size()), -1};
      }
#pragma omp for schedule(static)
    for (idx_t b = 0; b < nb; ++b) {
      face_entry_nodes(m, ~FaceEntry(b), buf);
      mine[static_cast<std::size_t>(nCellEntries + b)] = {
          ~FaceEntry(s.bfaceFirst + b), face_loop4(buf), smallest(buf),
          static_cast<std::int32_t>(buf.size()), m.bfacePatch[static_cast<std::size_t>(b)]};
    }
  }
  step.emplace("    sending face entries");
  // Node ranges holding as many entries each: a face's smallest node is far more often a low
  // node id than a high one, so equal node blocks would give most of the matching to the
  // lowest ranks (the first of 8 would match ~41 % of the faces).
  const dist::Ranges nodes = dist::balanced_ranges(
      comm, s.nNodes, n, [&](std::int64_t i) { return mine[static_cast<std::size_t>(i)].minNode; });
  auto dest = [&](std::int64_t k) {
    return nodes.owner(mine[static_cast<std::size_t>(k)].minNode);
  };
  // The loops of more than 4 nodes, grouped as group_by_rank() groups the entries (by rank,
  // entry order).
  auto stream = dist::group_rows_by_rank<idx_t>(
      comm, n, dest,
      [&](std::int64_t k) {
        const std::int32_t l = mine[static_cast<std::size_t>(k)].nNodes;
        return l > 4 ? l : 0;
      },
      [&](std::int64_t k, idx_t* out) {
        if (mine[static_cast<std::size_t>(k)].nNodes <= 4) return;
        thread_local std::vector<idx_t> buf;
        const auto i =
            static_cast<idx_t>(std::upper_bound(at.begin(), at.end(), k) - at.begin() - 1);
        face_entry_nodes(m, local_entry(k, std::min(i, nc)), buf);
        std::copy(buf.begin(), buf.end(), out);
      });
  auto grouped =
      dist::group_by_rank<BucketEntry>(comm, n, dest, [&](std::int64_t k, BucketEntry& out) {
        out = mine[static_cast<std::size_t>(k)];
      });
  std::vector<BucketEntry>().swap(mine);
  dist::Received<BucketEntry> got = dist::exchange(comm, grouped.first, grouped.second);
  grouped = {};
  dist::Received<idx_t> gotNodes = dist::exchange(comm, stream.first, stream.second);
  stream = {};
  // Buckets of this rank's node range: entries and their slots in the received stream.
  const idx_t n0 = static_cast<idx_t>(nodes.first[static_cast<std::size_t>(rank)]),
              n1 = static_cast<idx_t>(nodes.first[static_cast<std::size_t>(rank) + 1]);
  std::vector<idx_t> bucketOff(static_cast<std::size_t>(n1 - n0) + 1, 0);
  for (const BucketEntry& e : got.data)
    ++bucketOff[static_cast<std::size_t>(e.minNode - n0) + 1];
  for (idx_t v = 0; v < n1 - n0; ++v)
    bucketOff[v + 1] += bucketOff[v];
  std::vector<FaceBucketItem> items(got.data.size());
  {
    std::vector<idx_t> fill(bucketOff.begin(), bucketOff.end() - 1);
    // The order inside a bucket does not matter: match_face_buckets() sorts each one.
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < got.data.size(); ++i) {
      const BucketEntry& e = got.data[i];
      const auto k =
          static_cast<std::size_t>(fetch_increment(fill[static_cast<std::size_t>(e.minNode - n0)]));
      items[k] = {e.entry, e.loop, static_cast<idx_t>(i)};
    }
  }
  const ReceivedEntries src(m, got.data, std::move(gotNodes.data));
  got = {};
  step.emplace("    matching faces");
  BucketFaces out;
  FaceBucketResult r;
  run_labelled(comm, s, layout,
               [&] { r = match_face_buckets(src, n0, n1, bucketOff, items, opts); });
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
std::vector<idx_t> dist_cell_order(const dist::Comm& comm, const MeshSlice& s,
                                   const SliceLayout& layout, Renumber renumber) {
  const idx_t nc = static_cast<idx_t>(s.nCells);
  if (renumber != Renumber::Rcm) {
    std::vector<idx_t> order(static_cast<std::size_t>(nc));
    std::iota(order.begin(), order.end(), 0);
    return order;
  }
  const int p = comm.size();
  std::vector<double> lo(3, std::numeric_limits<real_t>::max()), hi(3, -lo[0]);
  for (std::size_t v = 0; v < s.xyz.size() / 3; ++v)
    for (std::size_t d = 0; d < 3; ++d) {
      const real_t x = s.xyz[3 * v + d];
      lo[d] = std::min(lo[d], x);
      hi[d] = std::max(hi[d], x);
    }
  comm.min_in_place(lo);
  comm.max_in_place(hi);
  morton_cube(lo.data(), hi.data());
  // The coordinates of the slice's cells' nodes, from the ranks holding them, a chunk of
  // cells at a time (each cell's nodes asked for as listed: on a shuffled mesh the cells of a
  // slice share few nodes, and sorting them out cost more than the repeats).
  constexpr idx_t kChunk = idx_t(1) << 19;
  const Csr& cn = s.part.cellNodes;
  std::vector<Keyed> keyed(static_cast<std::size_t>(cn.rows()));
  const std::int64_t rounds = comm.max((std::int64_t(cn.rows()) + kChunk - 1) / kChunk);
  for (std::int64_t round = 0; round < rounds; ++round) {
    const idx_t c0 = static_cast<idx_t>(std::min<std::int64_t>(cn.rows(), round * kChunk));
    const idx_t c1 = std::min<idx_t>(cn.rows(), c0 + kChunk);
    const std::vector<idx_t> ids(cn.indices().begin() + cn.begin(c0),
                                 cn.indices().begin() + cn.begin(c1));
    const std::vector<real_t> xyz = fetch_source_xyz(comm, s, layout, ids);
    const idx_t k0 = cn.begin(c0);
#pragma omp parallel for schedule(static)
    for (idx_t i = c0; i < c1; ++i) {
      const real_t* at = xyz.data() + 3 * static_cast<std::size_t>(cn.begin(i) - k0);
      keyed[static_cast<std::size_t>(i)] = {
          mean_point_morton_key(
              cn.size(i), [&](idx_t k) { return at + 3 * static_cast<std::size_t>(k); }, lo.data(),
              hi.data()),
          static_cast<idx_t>(s.cellFirst + i)};
    }
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

/// A cell on its way from the rank whose slice holds it to the rank of its renumbered block;
/// its nNodes nodes (source ids) follow in the node stream.
struct MigratingCell {
  idx_t cell; ///< renumbered id
  std::int32_t nNodes;
  CellType type;
};

/// Sends the slice's cells to the ranks of their renumbered blocks: g.blockCellType and
/// g.blockCellNodes (source node ids for now, materialize_block() maps them), in block order.
void migrate_cells(const dist::Comm& comm, const MeshSlice& s, DistGlobalMesh& g) {
  const Csr& cn = s.part.cellNodes;
  const idx_t nc = cn.rows();
  auto dest = [&](std::int64_t i) {
    return g.cells.owner(g.newCell[static_cast<std::size_t>(s.cellFirst + i)]);
  };
  auto grouped =
      dist::group_by_rank<MigratingCell>(comm, nc, dest, [&](std::int64_t i, MigratingCell& c) {
        c = {g.newCell[static_cast<std::size_t>(s.cellFirst + i)],
             static_cast<std::int32_t>(cn.size(static_cast<idx_t>(i))),
             s.part.cellType[static_cast<std::size_t>(i)]};
      });
  auto stream = dist::group_rows_by_rank<idx_t>(
      comm, nc, dest, [&](std::int64_t i) { return cn.size(static_cast<idx_t>(i)); },
      [&](std::int64_t i, idx_t* out) {
        std::copy_n(cn.row(static_cast<idx_t>(i)), cn.size(static_cast<idx_t>(i)), out);
      });
  const dist::Received<MigratingCell> got = dist::exchange(comm, grouped.first, grouped.second);
  grouped = {};
  const dist::Received<idx_t> gotNodes = dist::exchange(comm, stream.first, stream.second);
  stream = {};
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  const idx_t nBlock = static_cast<idx_t>(g.cells.count(comm.rank()));
  FV_VERIFY(static_cast<idx_t>(got.data.size()) == nBlock,
            "migrate_cells: " << got.data.size() << " cells for a block of " << nBlock);
  std::vector<idx_t> counts(static_cast<std::size_t>(nBlock), 0);
  std::vector<std::int64_t> from(static_cast<std::size_t>(nBlock), 0);
  g.blockCellType.resize(static_cast<std::size_t>(nBlock));
  std::int64_t at = 0;
  for (const MigratingCell& c : got.data) {
    const auto i = static_cast<std::size_t>(c.cell - c0);
    counts[i] = c.nNodes;
    from[i] = at;
    g.blockCellType[i] = c.type;
    at += c.nNodes;
  }
  g.blockCellNodes = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
  for (idx_t i = 0; i < nBlock; ++i)
    std::copy_n(gotNodes.data.begin() + from[static_cast<std::size_t>(i)],
                counts[static_cast<std::size_t>(i)], g.blockCellNodes.row(i));
}

/// First-touch node numbering in the renumbered cell order: a node belongs to the lowest rank
/// whose cells touch it, which numbers its nodes in the order its cells meet them. Reads the
/// block's cells (source node ids, migrate_cells()).
void number_nodes(const dist::Comm& comm, const MeshSlice& s, DistGlobalMesh& g) {
  const int rank = comm.rank();
  const idx_t nn = static_cast<idx_t>(s.nNodes);
  const Csr& cn = g.blockCellNodes;
  std::vector<std::int32_t> firstRank(static_cast<std::size_t>(nn), comm.size());
  for (idx_t k = 0; k < cn.nnz(); ++k)
    firstRank[static_cast<std::size_t>(cn.indices()[k])] = rank;
  comm.min_in_place(firstRank);
  std::vector<std::int32_t> id(static_cast<std::size_t>(nn), -1);
  std::int32_t mine = 0;
  for (idx_t k = 0; k < cn.nnz(); ++k) {
    const auto v = static_cast<std::size_t>(cn.indices()[k]);
    if (firstRank[v] == rank && id[v] < 0) id[v] = mine++;
  }
  std::vector<std::int32_t>().swap(firstRank);
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
    FV_LOG_INFO(mesh_name(s.part) << ": " << nn - g.nNodes
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
void block_geometry(const dist::Comm& comm, const MeshSlice& s, const SliceLayout& layout,
                    const PrepOptions& opts, DistGlobalMesh& g) {
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
  run_labelled(comm, s, layout, [&] {
    if (bad != kNone && badMesh == worst)
      throw_bad_cell(mesh_name(s.part), cell_token(g.cellMesh[c0 + bad]),
                     g.cellGeom.volume[static_cast<std::size_t>(bad)],
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
  const std::vector<std::int64_t> pos = dist::answer_positions(comm, n, dest);
  std::vector<real_t> out(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] =
        back.data[static_cast<std::size_t>(pos[static_cast<std::size_t>(i)])];
  return out;
}

/// Exact wall distance of the block's cells to every wall face (gathered on every rank).
void block_wall_distance(const dist::Comm& comm, const Mesh& m, const PrepOptions& opts,
                         DistGlobalMesh& g) {
  // m: the slice's part, for the messages only; the faces and coordinates are the block's.
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

/// The node loops of the block's faces (source node ids, normal lo -> hi), fetched by
/// build_faces() id from the ranks that matched them (`matched`: this rank's faces' loops,
/// build_faces() ids [byId.first[rank], ...)). COLLECTIVE.
Csr fetch_face_nodes(const dist::Comm& comm, const dist::Ranges& byId, const Csr& matched,
                     const std::vector<DistFace>& faces) {
  const int p = comm.size();
  const auto n = static_cast<std::int64_t>(faces.size());
  auto dest = [&](std::int64_t f) { return byId.owner(faces[static_cast<std::size_t>(f)].fsId); };
  auto grouped = dist::group_by_rank<gidx_t>(comm, n, dest, [&](std::int64_t f, gidx_t& id) {
    id = faces[static_cast<std::size_t>(f)].fsId;
  });
  const dist::Received<gidx_t> asked = dist::exchange(comm, grouped.first, grouped.second);
  grouped = {};
  const gidx_t first = byId.first[static_cast<std::size_t>(comm.rank())];
  // the answers: each asked face's node count, and its loop (rows grouped by asking rank)
  std::vector<std::int32_t> sizes(asked.data.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < sizes.size(); ++i)
    sizes[i] = matched.size(static_cast<idx_t>(asked.data[i] - first));
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p)),
      nodeCounts(static_cast<std::size_t>(p), 0);
  std::vector<std::int64_t> loopAt(sizes.size() + 1, 0);
  for (int r = 0; r < p; ++r) {
    counts[static_cast<std::size_t>(r)] = asked.offsets[r + 1] - asked.offsets[r];
    for (std::int64_t i = asked.offsets[r]; i < asked.offsets[r + 1]; ++i) {
      nodeCounts[static_cast<std::size_t>(r)] += sizes[static_cast<std::size_t>(i)];
      loopAt[static_cast<std::size_t>(i) + 1] =
          loopAt[static_cast<std::size_t>(i)] + sizes[static_cast<std::size_t>(i)];
    }
  }
  std::vector<idx_t> loops(static_cast<std::size_t>(loopAt.back()));
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto f = static_cast<idx_t>(asked.data[i] - first);
    std::copy_n(matched.row(f), sizes[i], loops.begin() + loopAt[i]);
  }
  const dist::Received<std::int32_t> gotSizes = dist::exchange(comm, sizes, counts);
  const dist::Received<idx_t> gotLoops = dist::exchange(comm, loops, nodeCounts);
  std::vector<idx_t>().swap(loops);
  // Rank r's answers are the faces asked of r, in face order.
  const std::vector<std::int64_t> pos = dist::answer_positions(comm, n, dest);
  std::vector<std::int64_t> gotAt(gotSizes.data.size() + 1, 0);
  for (std::size_t i = 0; i < gotSizes.data.size(); ++i)
    gotAt[i + 1] = gotAt[i] + gotSizes.data[i];
  std::vector<idx_t> rowCounts(static_cast<std::size_t>(n));
  std::vector<std::int64_t> from(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (std::int64_t f = 0; f < n; ++f) {
    const auto k = static_cast<std::size_t>(pos[static_cast<std::size_t>(f)]);
    rowCounts[static_cast<std::size_t>(f)] = gotSizes.data[k];
    from[static_cast<std::size_t>(f)] = gotAt[k];
  }
  Csr rows = Csr::from_counts(rowCounts);
#pragma omp parallel for schedule(static)
  for (std::int64_t f = 0; f < n; ++f) {
    idx_t* row = rows.row(static_cast<idx_t>(f));
    const auto k = rowCounts[static_cast<std::size_t>(f)];
    std::copy_n(gotLoops.data.begin() + from[static_cast<std::size_t>(f)], k, row);
    if (faces[static_cast<std::size_t>(f)].flip) std::reverse(row, row + k);
  }
  return rows;
}

} // namespace

DistGlobalMesh build_dist_global_mesh(const dist::Comm& comm, const MeshSlice& s,
                                      const PrepOptions& opts, PrepReport* report) {
  DistGlobalMesh g;
  const SliceLayout layout(comm, s);
  validate_slices(comm, s);
  BucketFaces bf;
  run_phase(report, "building faces", [&] { bf = match_faces(comm, s, layout, opts.faces); });
  g.patches = bf.faces.patches;
  g.extrusion = s.part.extrusion;
  g.nCells = s.nCells;
  g.cells = dist::Blocks{g.nCells, comm.size()};
  run_phase(report, "ordering cells", [&] {
    g.cellMesh = dist_cell_order(comm, s, layout, opts.renumber);
    g.newCell = invert(g.cellMesh, static_cast<std::size_t>(g.nCells));
  });
  dist::Ranges matchedIds; // build_faces() ids of the faces each rank matched
  Csr matchedNodes;        // and the node loops of this rank's
  run_phase(report, "renumbering faces and nodes", [&] {
    std::vector<DistFace> owned = faces_to_owners(comm, bf, g);
    const std::vector<std::int64_t> firsts = comm.all_gather(std::int64_t(bf.first));
    matchedIds.first.assign(firsts.begin(), firsts.end());
    matchedIds.first.push_back(comm.sum(std::int64_t(bf.faces.nFaces())));
    matchedNodes = std::move(bf.faces.faceNodes);
    bf = BucketFaces();
    number_faces(comm, owned, g);
    migrate_cells(comm, s, g);
    number_nodes(comm, s, g);
    gather_block_faces(comm, std::move(owned), g);
  });
  run_phase(report, "renumbered blocks", [&] {
    g.faceNodes = fetch_face_nodes(comm, matchedIds, matchedNodes, g.faces);
    matchedNodes = Csr();
    materialize_block(comm, s, layout, g);
  });
  run_phase(report, "computing geometry", [&] { block_geometry(comm, s, layout, opts, g); });
  run_phase(report, "wall distance", [&] { block_wall_distance(comm, s.part, opts, g); });
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

void materialize_block(const dist::Comm& comm, const MeshSlice& s, const SliceLayout& layout,
                       DistGlobalMesh& g) {
  // nodes: every node of the block's cells (their faces' nodes are among them)
  IdSet nodes(g.nNodes);
  {
    const auto& cn = g.blockCellNodes.indices();
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < cn.size(); ++k)
      nodes.insert(g.newNode[static_cast<std::size_t>(cn[k])]);
  }
  nodes.freeze();
  g.blockNodes = nodes.ids();
  std::vector<idx_t> source(g.blockNodes.size());
#pragma omp parallel for schedule(static)
  for (std::size_t v = 0; v < g.blockNodes.size(); ++v)
    source[v] = g.nodeMesh[static_cast<std::size_t>(g.blockNodes[v])];
  g.blockNodeXyz = fetch_source_xyz(comm, s, layout, source);
  std::vector<idx_t>().swap(source);
  // cells and faces in block node ids
  for (Csr* rows : {&g.blockCellNodes, &g.faceNodes}) {
    idx_t* v = rows->indices().data();
#pragma omp parallel for schedule(static)
    for (idx_t k = 0; k < rows->nnz(); ++k)
      v[k] = static_cast<idx_t>(nodes.rank(g.newNode[static_cast<std::size_t>(v[k])]));
  }
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
