#include "prep/faces.hpp"

#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "common/relaxed_atomics.hpp"
#include "prep/mesh_ids.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <sstream>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

namespace {

// A "face entry" is one cell face (cell << 16 | local face, >= 0) or one boundary face of the
// file (~b, negative). Entries are bucketed by their smallest node and sorted by their sorted
// node list inside the bucket; equal runs are one face.
using Entry = FaceEntry;
constexpr int kLocalFaceBits = 16;
constexpr Entry kLocalFaceMask = (Entry(1) << kLocalFaceBits) - 1;

Entry cell_entry(idx_t c, int lf) {
  return (Entry(c) << kLocalFaceBits) | Entry(lf);
}
bool is_bface(Entry e) {
  return e < 0;
}
idx_t entry_cell(Entry e) {
  return static_cast<idx_t>(e >> kLocalFaceBits);
}
int entry_local(Entry e) {
  return static_cast<int>(e & kLocalFaceMask);
}
idx_t entry_bface(Entry e) {
  return static_cast<idx_t>(~e);
}

int face_count_of(const Mesh& m, idx_t c) {
  const CellType t = m.cellType[static_cast<std::size_t>(c)];
  if (t != CellType::Polyhedron) return cell_face_count(t);
  return m.polyCellFaces.size(m.polyCell[static_cast<std::size_t>(c)]);
}

// Removes cyclic consecutive repeats (collapsed edges) from a face's node loop.
void drop_repeats(std::vector<idx_t>& v) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (n == 0 || v[n - 1] != v[i]) v[n++] = v[i];
  while (n > 1 && v[n - 1] == v[0])
    --n;
  v.resize(n);
}

// Nodes of an entry, outward for cell faces, as read for boundary faces.
void entry_nodes(const Mesh& m, Entry e, std::vector<idx_t>& out) {
  out.clear();
  if (is_bface(e)) {
    const idx_t b = entry_bface(e);
    out.assign(m.bfaceNodes.row(b), m.bfaceNodes.row(b) + m.bfaceNodes.size(b));
  } else {
    const idx_t c = entry_cell(e);
    const int lf = entry_local(e);
    const CellType t = m.cellType[static_cast<std::size_t>(c)];
    if (t != CellType::Polyhedron) {
      const LocalFace& f = cell_face(t, lf);
      const idx_t* cn = m.cellNodes.row(c);
      for (int k = 0; k < f.n; ++k)
        out.push_back(cn[f.v[k]]);
    } else {
      const idx_t k = m.polyCell[static_cast<std::size_t>(c)];
      const idx_t ref = m.polyCellFaces.row(k)[lf];
      const idx_t pf = ref >= 0 ? ref : ~ref;
      out.assign(m.polyFaceNodes.row(pf), m.polyFaceNodes.row(pf) + m.polyFaceNodes.size(pf));
      if (ref < 0) std::reverse(out.begin(), out.end());
    }
  }
  drop_repeats(out);
}

std::string node_list(const std::vector<idx_t>& v) {
  std::ostringstream os;
  for (std::size_t i = 0; i < v.size(); ++i)
    os << (i ? " " : "") << v[i] + 1;
  return os.str();
}

// Leading part of a face key: {length, 2nd, 3rd, 4th smallest node} (the smallest is the
// bucket). Complete for faces of up to 4 nodes.
struct SmallKey {
  std::array<idx_t, 4> v;
};

// First error found by any thread, kept by smallest bucket so the message is deterministic.
struct FirstError {
  idx_t bucket = std::numeric_limits<idx_t>::max();
  std::string msg;
  void set(idx_t b, std::string m) {
    if (b < bucket) {
      bucket = b;
      msg = std::move(m);
    }
  }
};

} // namespace

FaceEntry cell_face_entry(idx_t c, int lf) {
  return cell_entry(c, lf);
}
int mesh_cell_face_count(const Mesh& m, idx_t c) {
  return face_count_of(m, c);
}
void face_entry_nodes(const Mesh& m, FaceEntry e, std::vector<idx_t>& out) {
  entry_nodes(m, e, out);
}
FaceLoop4 face_loop4(const std::vector<idx_t>& nodes) {
  FaceLoop4 l{{kNone, kNone, kNone, kNone}};
  if (nodes.size() > 4) {
    l.v[0] = FaceLoop4::kLongLoop;
  } else {
    std::copy(nodes.begin(), nodes.end(), l.v);
  }
  return l;
}

MeshFaceEntries::MeshFaceEntries(const Mesh& m) : m_(m), name_(mesh_name(m)) {}
void MeshFaceEntries::nodes(FaceEntry e, idx_t, std::vector<idx_t>& out) const {
  entry_nodes(m_, e, out);
}
idx_t MeshFaceEntries::bface_patch(FaceEntry e, idx_t) const {
  return m_.bfacePatch[static_cast<std::size_t>(entry_bface(e))];
}
std::string MeshFaceEntries::cell_label(idx_t c) const {
  return fv::cell_label(m_, c);
}
std::string MeshFaceEntries::bface_label(FaceEntry e, idx_t) const {
  return fv::bface_label(m_, entry_bface(e));
}

idx_t FaceSet::nBoundaryFaces() const {
  idx_t n = 0;
  for (idx_t v : neighbour)
    n += v == kNone;
  return n;
}

void validate_mesh_arrays(const Mesh& m) {
  FV_VERIFY(m.xyz.size() % 3 == 0, mesh_name(m) << ": node coordinate array size " << m.xyz.size()
                                                << " is not a multiple of 3");
  validate_cell_arrays(m, m.nNodes());
  validate_bface_arrays(m, m.nNodes());
}

void validate_cell_arrays(const Mesh& m, idx_t nn) {
  const std::string name = mesh_name(m);
  const idx_t nc = m.nCells();
  FV_VERIFY(m.cellNodes.rows() == nc,
            name << ": " << nc << " cell types but " << m.cellNodes.rows() << " cell node lists");
  m.cellNodes.check((name + ": cell nodes").c_str());
  bool anyPoly = false;
  for (idx_t c = 0; c < nc; ++c) {
    const CellType t = m.cellType[static_cast<std::size_t>(c)];
    const idx_t* row = m.cellNodes.row(c);
    for (idx_t k = 0; k < m.cellNodes.size(c); ++k)
      FV_VERIFY(row[k] >= 0 && row[k] < nn, name << ": " << cell_label(m, c) << " refers to node "
                                                 << row[k] + 1 << " but the mesh has " << nn
                                                 << " nodes");
    if (t == CellType::Polyhedron) {
      anyPoly = true;
      FV_VERIFY(static_cast<std::size_t>(c) < m.polyCell.size() &&
                    m.polyCell[static_cast<std::size_t>(c)] >= 0 &&
                    m.polyCell[static_cast<std::size_t>(c)] < m.polyCellFaces.rows(),
                name << ": " << cell_label(m, c) << " has no polyhedron face list");
      const idx_t k = m.polyCell[static_cast<std::size_t>(c)];
      FV_VERIFY(m.polyCellFaces.size(k) >= 4 && m.polyCellFaces.size(k) <= kLocalFaceMask,
                name << ": " << cell_label(m, c) << " has " << m.polyCellFaces.size(k)
                     << " faces (expected 4 to " << kLocalFaceMask << ")");
      for (idx_t j = 0; j < m.polyCellFaces.size(k); ++j) {
        const idx_t ref = m.polyCellFaces.row(k)[j];
        const idx_t pf = ref >= 0 ? ref : ~ref;
        FV_VERIFY(pf < m.polyFaceNodes.rows(), name << ": " << cell_label(m, c)
                                                    << " refers to polyhedron face " << pf + 1
                                                    << " of " << m.polyFaceNodes.rows());
      }
    } else {
      FV_VERIFY(m.cellNodes.size(c) == cell_node_count(t),
                name << ": " << cell_label(m, c) << " has " << m.cellNodes.size(c)
                     << " nodes, expected " << cell_node_count(t));
    }
  }
  if (anyPoly) {
    m.polyCellFaces.check((name + ": polyhedron cell faces").c_str());
    m.polyFaceNodes.check((name + ": polyhedron face nodes").c_str(), nn);
  }
}

void validate_bface_arrays(const Mesh& m, idx_t nn) {
  const std::string name = mesh_name(m);
  const idx_t nb = m.nBoundaryFaces();
  m.bfaceNodes.check((name + ": boundary face nodes").c_str());
  FV_VERIFY(static_cast<idx_t>(m.bfacePatch.size()) == nb,
            name << ": " << nb << " boundary faces but " << m.bfacePatch.size()
                 << " boundary patch indices");
  for (idx_t b = 0; b < nb; ++b) {
    FV_VERIFY(m.bfaceNodes.size(b) >= 3,
              name << ": " << bface_label(m, b) << " has " << m.bfaceNodes.size(b) << " nodes");
    for (idx_t k = 0; k < m.bfaceNodes.size(b); ++k) {
      const idx_t v = m.bfaceNodes.row(b)[k];
      FV_VERIFY(v >= 0 && v < nn, name << ": " << bface_label(m, b) << " refers to node " << v + 1
                                       << " but the mesh has " << nn << " nodes");
    }
    const idx_t p = m.bfacePatch[static_cast<std::size_t>(b)];
    FV_VERIFY(p >= 0 && static_cast<std::size_t>(p) < m.patches.size(),
              name << ": " << bface_label(m, b) << " has patch index " << p << " but there are "
                   << m.patches.size() << " patches");
  }
}

FaceSet build_faces(const Mesh& m, const FaceOptions& opts) {
  validate_mesh_arrays(m);
  const std::string name = mesh_name(m);
  const idx_t nn = m.nNodes(), nc = m.nCells(), nb = m.nBoundaryFaces();

  // ---- bucket every entry by its smallest node: the smallest node of each entry (in parallel,
  //      entries numbered cell by cell, then the file's boundary faces), counts, and a fill by
  //      atomic slots. The order inside a bucket does not matter: pass 1 sorts every bucket
  //      into a total order (key, then entry).
  std::vector<idx_t> entryOff(static_cast<std::size_t>(nc) + 1, 0);
  {
    std::int64_t total = 0;
    for (idx_t c = 0; c < nc; ++c) {
      total += face_count_of(m, c);
      FV_VERIFY(total + nb < std::numeric_limits<idx_t>::max(),
                name << ": more cell faces than the 32-bit index range holds");
      entryOff[static_cast<std::size_t>(c) + 1] = static_cast<idx_t>(total);
    }
  }
  const idx_t nCellEntries = entryOff[static_cast<std::size_t>(nc)];
  const idx_t nEntries = nCellEntries + nb;
  std::vector<idx_t> minNode(static_cast<std::size_t>(nEntries));
  std::vector<idx_t> bucketOff(static_cast<std::size_t>(nn) + 1, 0);
  auto smallest = [](const std::vector<idx_t>& nodes) {
    return nodes.empty() ? idx_t(0) : *std::min_element(nodes.begin(), nodes.end());
  };
#pragma omp parallel
  {
    std::vector<idx_t> nodes;
#pragma omp for schedule(static)
    for (idx_t c = 0; c < nc; ++c)
      for (idx_t k = entryOff[c]; k < entryOff[c + 1]; ++k) {
        entry_nodes(m, cell_entry(c, static_cast<int>(k - entryOff[c])), nodes);
        minNode[k] = smallest(nodes);
      }
#pragma omp for schedule(static)
    for (idx_t b = 0; b < nb; ++b) {
      entry_nodes(m, ~Entry(b), nodes);
      minNode[nCellEntries + b] = smallest(nodes);
    }
#pragma omp for schedule(static)
    for (idx_t k = 0; k < nEntries; ++k) {
      fetch_increment(bucketOff[static_cast<std::size_t>(minNode[k]) + 1]);
    }
  }
  for (idx_t v = 0; v < nn; ++v)
    bucketOff[v + 1] += bucketOff[v];
  std::vector<FaceBucketItem> items(static_cast<std::size_t>(nEntries));
  {
    std::vector<idx_t> fill(bucketOff.begin(), bucketOff.end() - 1);
#pragma omp parallel
    {
      std::vector<idx_t> nodes;
#pragma omp for schedule(static)
      for (idx_t c = 0; c < nc; ++c)
        for (idx_t k = entryOff[c]; k < entryOff[c + 1]; ++k) {
          const idx_t slot = fetch_increment(fill[static_cast<std::size_t>(minNode[k])]);
          const Entry e = cell_entry(c, static_cast<int>(k - entryOff[c]));
          entry_nodes(m, e, nodes);
          items[static_cast<std::size_t>(slot)] = {e, face_loop4(nodes), kNone};
        }
#pragma omp for schedule(static)
      for (idx_t b = 0; b < nb; ++b) {
        const idx_t slot =
            fetch_increment(fill[static_cast<std::size_t>(minNode[nCellEntries + b])]);
        entry_nodes(m, ~Entry(b), nodes);
        items[static_cast<std::size_t>(slot)] = {~Entry(b), face_loop4(nodes), kNone};
      }
    }
  }
  std::vector<idx_t>().swap(minNode);
  std::vector<idx_t>().swap(entryOff);

  // Patch of faces that no file boundary face covers.
  FaceBucketResult r = match_face_buckets(MeshFaceEntries(m), 0, nn, bucketOff, items, opts);
  if (r.defaultPatchAdded && !r.defaultPatchUsed) r.faces.patches.pop_back();
  return std::move(r.faces);
}

FaceBucketResult match_face_buckets(const FaceEntrySource& src, idx_t nodeLo, idx_t nodeHi,
                                    const std::vector<idx_t>& bucketOff,
                                    std::vector<FaceBucketItem>& items, const FaceOptions& opts) {
  const std::string& name = src.name();
  const idx_t nn = nodeHi - nodeLo; // buckets of this call: nodes nodeLo + v
  FV_VERIFY(static_cast<idx_t>(bucketOff.size()) == nn + 1 &&
                static_cast<std::size_t>(bucketOff[static_cast<std::size_t>(nn)]) == items.size(),
            name << ": inconsistent face buckets");
  const idx_t nEntries = bucketOff[static_cast<std::size_t>(nn)];
  auto slot_of = [&](idx_t i) { return items[static_cast<std::size_t>(i)].slot; };
  // The node loop of items[i]: from its FaceLoop4 unless longer.
  auto loop_of = [&](idx_t i, std::vector<idx_t>& out) {
    const FaceBucketItem& it = items[static_cast<std::size_t>(i)];
    if (it.loop.v[0] == FaceLoop4::kLongLoop) return src.nodes(it.entry, it.slot, out);
    out.clear();
    for (int k = 0; k < 4 && it.loop.v[k] != kNone; ++k)
      out.push_back(it.loop.v[k]);
  };
  std::vector<Patch> patches = src.patches();
  idx_t defaultPatch = -1;
  if (!opts.defaultPatch.empty()) {
    for (std::size_t p = 0; p < patches.size(); ++p)
      if (patches[p].name == opts.defaultPatch) defaultPatch = static_cast<idx_t>(p);
    if (defaultPatch < 0) {
      defaultPatch = static_cast<idx_t>(patches.size());
      patches.push_back(Patch{opts.defaultPatch, "UserDefined"});
    }
  }

  // ---- pass 1: sort each bucket by face key, mark run starts (1: a face, 2: a collapsed face
  //      that is skipped), count faces and face nodes. Pass 1 validated every run, so a face's
  //      run is its owner (lowest cell), then its neighbour cell or the file's boundary face.
  std::vector<std::uint8_t> runStart(static_cast<std::size_t>(nEntries), 0);
  std::vector<idx_t> bucketFaces(static_cast<std::size_t>(nn), 0);
  std::vector<std::int64_t> bucketFaceNodes(static_cast<std::size_t>(nn), 0);
  FirstError firstError;

#pragma omp parallel
  {
    FirstError myError;
    std::vector<idx_t> keys, nodes;
    std::vector<std::int64_t> keyOff;
    std::vector<idx_t> order;
    std::vector<FaceBucketItem> sorted;
    std::vector<SmallKey> small;
#pragma omp for schedule(dynamic, 4096)
    for (idx_t v = 0; v < nn; ++v) {
      const idx_t b0 = bucketOff[v], b1 = bucketOff[v + 1];
      if (b1 == b0) continue;
      const idx_t n = b1 - b0;
      keys.clear();
      keyOff.assign(1, 0);
      for (idx_t i = b0; i < b1; ++i) {
        loop_of(i, nodes);
        std::sort(nodes.begin(), nodes.end());
        keys.insert(keys.end(), nodes.begin(), nodes.end());
        keyOff.push_back(static_cast<std::int64_t>(keys.size()));
      }
      // Fast key: (length, 2nd..4th smallest node) decides for faces of up to 4 nodes.
      small.resize(static_cast<std::size_t>(n));
      for (idx_t i = 0; i < n; ++i) {
        const std::int64_t o = keyOff[i], l = keyOff[i + 1] - o;
        small[i].v = {static_cast<idx_t>(l), l > 1 ? keys[o + 1] : kNone,
                      l > 2 ? keys[o + 2] : kNone, l > 3 ? keys[o + 3] : kNone};
      }
      auto key_less = [&](idx_t a, idx_t b) {
        const SmallKey &sa = small[a], &sb = small[b];
        if (sa.v != sb.v) return sa.v < sb.v;
        if (sa.v[0] <= 4) return false;
        return std::lexicographical_compare(keys.begin() + keyOff[a], keys.begin() + keyOff[a + 1],
                                            keys.begin() + keyOff[b], keys.begin() + keyOff[b + 1]);
      };
      auto key_eq = [&](idx_t a, idx_t b) { return !key_less(a, b) && !key_less(b, a); };
      order.resize(static_cast<std::size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      // Within a key: cell entries by cell (ascending), then boundary faces of the file.
      std::sort(order.begin(), order.end(), [&](idx_t a, idx_t b) {
        if (key_less(a, b)) return true;
        if (key_less(b, a)) return false;
        const Entry ea = items[b0 + a].entry, eb = items[b0 + b].entry;
        if (is_bface(ea) != is_bface(eb)) return !is_bface(ea);
        return is_bface(ea) ? ea > eb : ea < eb;
      });
      idx_t faces = 0;
      std::int64_t faceNodes = 0;
      for (idx_t r0 = 0; r0 < n;) {
        idx_t r1 = r0 + 1;
        while (r1 < n && key_eq(order[r0], order[r1]))
          ++r1;
        const idx_t len = static_cast<idx_t>(keyOff[order[r0] + 1] - keyOff[order[r0]]);
        int ncell = 0, nbf = 0;
        for (idx_t i = r0; i < r1; ++i)
          (is_bface(items[b0 + order[i]].entry) ? nbf : ncell)++;
        const Entry first = items[b0 + order[r0]].entry;
        const bool twoCells = ncell == 2 && nbf == 0 &&
                              entry_cell(first) != entry_cell(items[b0 + order[r0 + 1]].entry);
        const bool ok = len < 3 ? nbf == 0
                                : (ncell == 1 && nbf == 1) || twoCells ||
                                      (ncell == 1 && nbf == 0 && defaultPatch >= 0);
        std::string message;
        if (!ok) {
          const std::vector<idx_t> key(keys.begin() + keyOff[order[r0]],
                                       keys.begin() + keyOff[order[r0] + 1]);
          std::ostringstream err;
          if (len < 3) {
            if (nbf > 0)
              err << name << ": "
                  << src.bface_label(items[b0 + order[r1 - 1]].entry, slot_of(b0 + order[r1 - 1]))
                  << " has fewer than 3 distinct nodes (" << node_list(key) << ")";
          } else if (ncell == 0) {
            err << name << ": " << src.bface_label(first, slot_of(b0 + order[r0]))
                << " matches no face of any cell (nodes " << node_list(key) << ")";
          } else if (ncell > 2) {
            err << name << ": non-manifold face (nodes " << node_list(key) << ") shared by "
                << ncell << " cells:";
            for (idx_t i = r0; i < r0 + std::min(ncell, 4); ++i)
              err << (i > r0 ? "," : "") << " "
                  << src.cell_label(entry_cell(items[b0 + order[i]].entry));
          } else if (ncell == 2 &&
                     entry_cell(first) == entry_cell(items[b0 + order[r0 + 1]].entry)) {
            err << name << ": " << src.cell_label(entry_cell(first)) << " has two coinciding faces "
                << "(nodes " << node_list(key) << ")";
          } else if (ncell == 2 && nbf > 0) {
            err << name << ": "
                << src.bface_label(items[b0 + order[r0 + 2]].entry, slot_of(b0 + order[r0 + 2]))
                << " is an interior face between " << src.cell_label(entry_cell(first)) << " and "
                << src.cell_label(entry_cell(items[b0 + order[r0 + 1]].entry));
          } else if (ncell == 1 && nbf > 1) {
            const Entry ba = items[b0 + order[r0 + 1]].entry, bb = items[b0 + order[r0 + 2]].entry;
            const idx_t sa = slot_of(b0 + order[r0 + 1]), sb = slot_of(b0 + order[r0 + 2]);
            const bool same = src.bface_patch(ba, sa) == src.bface_patch(bb, sb);
            err << name << ": " << src.bface_label(ba, sa) << " and " << src.bface_label(bb, sb)
                << " are the same face (nodes " << node_list(key) << ")"
                << (same ? ", listed twice" : ", listed in two patches");
          } else if (ncell == 1 && nbf == 0 && defaultPatch < 0) {
            err << name << ": face " << entry_local(first) + 1 << " of "
                << src.cell_label(entry_cell(first)) << " (nodes " << node_list(key)
                << ") lies on the boundary but no boundary patch covers it (use --default-patch "
                   "NAME to collect such faces)";
          }
          message = err.str();
        }
        if (!ok) {
          myError.set(v, message);
        } else if (len >= 3) {
          runStart[static_cast<std::size_t>(b0 + r0)] = 1;
          ++faces;
          faceNodes += len;
        } else {
          runStart[static_cast<std::size_t>(b0 + r0)] = 2; // collapsed face: not a face
        }
        r0 = r1;
      }
      // Write the bucket back in sorted order.
      sorted.resize(static_cast<std::size_t>(n));
      for (idx_t i = 0; i < n; ++i)
        sorted[i] = items[static_cast<std::size_t>(b0 + order[i])];
      std::copy(sorted.begin(), sorted.end(), items.begin() + b0);
      bucketFaces[v] = faces;
      bucketFaceNodes[v] = faceNodes;
    }
#pragma omp critical(fv_faces_error)
    firstError.set(myError.bucket, myError.msg);
  }
  if (!firstError.msg.empty()) FV_THROW(firstError.msg);
  (void)nodeLo;

  // ---- prefix sums: first face and first face-node slot of each bucket.
  std::vector<idx_t> faceBase(static_cast<std::size_t>(nn) + 1, 0);
  std::vector<std::int64_t> nodeBase(static_cast<std::size_t>(nn) + 1, 0);
  for (idx_t v = 0; v < nn; ++v) {
    faceBase[v + 1] = faceBase[v] + bucketFaces[v];
    nodeBase[v + 1] = nodeBase[v] + bucketFaceNodes[v];
  }
  const idx_t nFaces = faceBase[nn];
  FV_VERIFY(nodeBase[nn] < std::numeric_limits<idx_t>::max(),
            name << ": " << nodeBase[nn] << " face nodes exceed the 32-bit index range");
  std::vector<idx_t>().swap(bucketFaces);
  std::vector<std::int64_t>().swap(bucketFaceNodes);

  FaceSet fs;
  std::vector<idx_t> fOff(static_cast<std::size_t>(nFaces) + 1, 0);
  std::vector<idx_t> fNodes(static_cast<std::size_t>(nodeBase[nn]));
  fs.owner.assign(static_cast<std::size_t>(nFaces), kNone);
  fs.neighbour.assign(static_cast<std::size_t>(nFaces), kNone);
  fs.patch.assign(static_cast<std::size_t>(nFaces), -1);
  fs.bface.assign(static_cast<std::size_t>(nFaces), -1);
  std::vector<std::uint8_t> usedDefault(static_cast<std::size_t>(nn), 0);

  // ---- pass 2: one face per marked run; the owner's outward node loop is the face's.
#pragma omp parallel
  {
    std::vector<idx_t> nodes;
#pragma omp for schedule(dynamic, 4096)
    for (idx_t v = 0; v < nn; ++v) {
      const idx_t b0 = bucketOff[v], b1 = bucketOff[v + 1];
      idx_t f = faceBase[v];
      std::int64_t slot = nodeBase[v];
      for (idx_t i = b0; i < b1; ++i) {
        if (runStart[static_cast<std::size_t>(i)] != 1) continue;
        // Run layout (validated in pass 1): owner cell, then a neighbour cell or a boundary face.
        const Entry own = items[i].entry;
        loop_of(i, nodes);
        fs.owner[f] = entry_cell(own);
        fOff[static_cast<std::size_t>(f) + 1] = static_cast<idx_t>(nodes.size());
        std::copy(nodes.begin(), nodes.end(), fNodes.begin() + slot);
        slot += static_cast<std::int64_t>(nodes.size());
        const bool hasNext = i + 1 < b1 && runStart[static_cast<std::size_t>(i) + 1] == 0;
        const Entry next = hasNext ? items[static_cast<std::size_t>(i) + 1].entry : Entry(0);
        if (hasNext && !is_bface(next)) {
          fs.neighbour[f] = entry_cell(next);
        } else if (hasNext) {
          fs.bface[f] = entry_bface(next);
          fs.patch[f] = src.bface_patch(next, slot_of(i + 1));
        } else {
          fs.patch[f] = defaultPatch;
          usedDefault[v] = 1;
        }
        ++f;
      }
    }
  }
  for (std::size_t k = 0; k < fOff.size() - 1; ++k)
    fOff[k + 1] += fOff[k];
  fs.faceNodes = Csr(Array<idx_t>(std::move(fOff)), Array<idx_t>(std::move(fNodes)));
  FaceBucketResult out;
  out.defaultPatchUsed =
      std::any_of(usedDefault.begin(), usedDefault.end(), [](auto u) { return u; });
  out.defaultPatchAdded =
      defaultPatch >= 0 && defaultPatch == static_cast<idx_t>(src.patches().size());
  fs.patches = std::move(patches);
  out.faces = std::move(fs);
  return out;
}

} // namespace fv
