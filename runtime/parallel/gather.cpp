#include "runtime/parallel/gather.hpp"
#include "runtime/parallel/reduce.hpp"

#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace fv::parallel {
namespace {

enum Tag : int { kTagIds = 7101, kTagValues, kTagXyz, kTagCells, kTagScatter };

/// First error seen on root while assembling; later ones are dropped (one clear message).
struct FirstError {
  std::string msg;
  template <class F>
  void set(F&& describe) {
    if (!msg.empty()) return;
    std::ostringstream o;
    describe(o);
    msg = o.str();
  }
  bool ok() const { return msg.empty(); }
};

void check_zone_cells(MPI_Comm comm, const Zone& zone, int k, const char* what) {
  std::ostringstream o;
  bool ok = true;
  if (k < 1) {
    ok = false;
    o << what << ": " << k << " components per cell";
  } else if (zone.nCells < 0 || zone.cellGlobalId.size() < static_cast<std::size_t>(zone.nCells)) {
    ok = false;
    o << what << ": zone " << zone.zoneId << " has " << zone.cellGlobalId.size()
      << " cell global ids for " << zone.nCells << " owned cells";
  }
  check_all(comm, ok, o.str());
}

std::vector<gidx_t> owned_cell_ids(const Zone& zone) {
  return std::vector<gidx_t>(zone.cellGlobalId.begin(), zone.cellGlobalId.begin() + zone.nCells);
}

/// Root receives (ids, values) of every rank in turn and hands them to `use(rank, ids, vals)`;
/// other ranks send theirs.
template <class Use>
void collect(MPI_Comm comm, int root, const std::vector<gidx_t>& ids,
             const std::vector<real_t>& vals, Use&& use) {
  if (comm_rank(comm) != root) {
    send_vector(comm, ids, root, kTagIds);
    send_vector(comm, vals, root, kTagValues);
    return;
  }
  for (int r = 0; r < comm_size(comm); ++r) {
    if (r == root) {
      use(r, ids, vals);
    } else {
      const auto rid = recv_vector<gidx_t>(comm, r, kTagIds);
      const auto rval = recv_vector<real_t>(comm, r, kTagValues);
      use(r, rid, rval);
    }
  }
}

} // namespace

std::vector<real_t> gather_cells(MPI_Comm comm, const Zone& zone, const real_t* owned, int k,
                                 gidx_t n_global_cells, int root) {
  check_zone_cells(comm, zone, k, "gather_cells");
  const std::vector<gidx_t> ids = owned_cell_ids(zone);
  const std::vector<real_t> vals(owned, owned + static_cast<std::size_t>(zone.nCells) * k);
  std::vector<real_t> out;
  std::vector<char> seen;
  FirstError err;
  gidx_t filled = 0;
  if (comm_rank(comm) == root) {
    out.assign(static_cast<std::size_t>(n_global_cells) * k, 0.0);
    seen.assign(static_cast<std::size_t>(n_global_cells), 0);
  }
  collect(comm, root, ids, vals,
          [&](int r, const std::vector<gidx_t>& rid, const std::vector<real_t>& rval) {
            for (std::size_t i = 0; i < rid.size(); ++i) {
              const gidx_t g = rid[i];
              if (g < 0 || g >= n_global_cells) {
                err.set([&](auto& o) {
                  o << "gather_cells: rank " << r << ": owned cell " << i << " has global id " << g
                    << " outside [0, " << n_global_cells << ")";
                });
                continue;
              }
              if (seen[g]++) {
                err.set([&](auto& o) {
                  o << "gather_cells: global cell " << g << " is owned by more than one zone "
                    << "(again on rank " << r << ", local cell " << i << ")";
                });
                continue;
              }
              ++filled;
              std::copy_n(rval.data() + i * k, k, out.data() + g * k);
            }
          });
  if (comm_rank(comm) == root && err.ok() && filled != n_global_cells) {
    const auto it = std::find(seen.begin(), seen.end(), 0);
    err.set([&](auto& o) {
      o << "gather_cells: global cell " << (it - seen.begin()) << " is owned by no zone (" << filled
        << " of " << n_global_cells << " cells gathered)";
    });
  }
  check_all(comm, err.ok(), err.msg);
  return out;
}

void scatter_cells(MPI_Comm comm, const Zone& zone, const real_t* global, int k,
                   gidx_t n_global_cells, real_t* owned, int root) {
  check_zone_cells(comm, zone, k, "scatter_cells");
  const int rank = comm_rank(comm), size = comm_size(comm);
  const std::vector<gidx_t> ids = owned_cell_ids(zone);
  FirstError err;
  std::vector<std::vector<gidx_t>> all_ids;
  if (rank != root) {
    send_vector(comm, ids, root, kTagIds);
  } else {
    all_ids.resize(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) {
      all_ids[r] = r == root ? ids : recv_vector<gidx_t>(comm, r, kTagIds);
      for (std::size_t i = 0; i < all_ids[r].size(); ++i) {
        const gidx_t g = all_ids[r][i];
        if (g < 0 || g >= n_global_cells)
          err.set([&](auto& o) {
            o << "scatter_cells: rank " << r << ": owned cell " << i << " has global id " << g
              << " outside the " << n_global_cells << " cells of the global data";
          });
      }
    }
  }
  check_all(comm, err.ok(), err.msg);
  if (rank == root) {
    for (int r = 0; r < size; ++r) {
      std::vector<real_t> buf(all_ids[r].size() * k);
      for (std::size_t i = 0; i < all_ids[r].size(); ++i)
        std::copy_n(global + all_ids[r][i] * k, k, buf.data() + i * k);
      if (r == root)
        std::copy(buf.begin(), buf.end(), owned);
      else
        send_vector(comm, buf, r, kTagScatter);
    }
  } else {
    const auto buf = recv_vector<real_t>(comm, root, kTagScatter);
    FV_VERIFY(buf.size() == ids.size() * k,
              "scatter_cells: received " << buf.size() << " values for " << ids.size() << " cells");
    std::copy(buf.begin(), buf.end(), owned);
  }
}

SortedValues gather_sorted(MPI_Comm comm, const gidx_t* ids, const real_t* values, idx_t n, int k,
                           int root) {
  check_all(comm, k >= 1 && n >= 0, "gather_sorted: bad count or component count");
  const std::vector<gidx_t> my_ids(ids, ids + n);
  const std::vector<real_t> my_vals(values, values + static_cast<std::size_t>(n) * k);
  std::vector<gidx_t> all_ids;
  std::vector<real_t> all_vals;
  collect(comm, root, my_ids, my_vals,
          [&](int, const std::vector<gidx_t>& rid, const std::vector<real_t>& rval) {
            all_ids.insert(all_ids.end(), rid.begin(), rid.end());
            all_vals.insert(all_vals.end(), rval.begin(), rval.end());
          });
  SortedValues out;
  FirstError err;
  if (comm_rank(comm) == root) {
    std::vector<std::size_t> order(all_ids.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return all_ids[a] < all_ids[b]; });
    out.ids.reserve(order.size());
    out.values.reserve(all_vals.size());
    for (std::size_t i : order) {
      if (!out.ids.empty() && out.ids.back() == all_ids[i])
        err.set([&](auto& o) { o << "gather_sorted: id " << all_ids[i] << " given twice"; });
      out.ids.push_back(all_ids[i]);
      out.values.insert(out.values.end(), all_vals.begin() + i * k, all_vals.begin() + (i + 1) * k);
    }
  }
  check_all(comm, err.ok(), err.msg);
  return out;
}

SurfacePatchData gather_surface(MPI_Comm comm, const Zone& z, idx_t patch,
                                const std::string& patch_name,
                                const std::vector<SurfaceColumn>& columns, int root) {
  std::ostringstream bad;
  bool ok = patch >= 0 && patch < z.nPatches();
  if (!ok) bad << "gather_surface: zone " << z.zoneId << " has no patch " << patch;
  const idx_t b = ok ? z.patchFaceOffsets[patch] : 0, e = ok ? z.patchFaceOffsets[patch + 1] : 0;
  if (ok && (b < 0 || e < b || e > z.nBoundaryFaces ||
             z.faceGlobalId.size() < static_cast<std::size_t>(e) ||
             z.faceCentroid.size() < 3 * static_cast<std::size_t>(e) ||
             z.faceArea.size() < 3 * static_cast<std::size_t>(e))) {
    ok = false;
    bad << "gather_surface: zone " << z.zoneId << ": patch " << patch_name << " faces [" << b
        << ", " << e << ") do not fit the face arrays";
  }
  const idx_t n = e - b;
  for (const SurfaceColumn& c : columns)
    if (ok && c.values.size() != static_cast<std::size_t>(n)) {
      ok = false;
      bad << "gather_surface: zone " << z.zoneId << ": column " << c.name << " has "
          << c.values.size() << " values for the " << n << " faces of patch " << patch_name;
    }
  check_all(comm, ok, bad.str());
  // per face: centroid, area, the columns, then its corner count and corners (padded to the
  // largest count of any rank's face)
  const bool corners =
      z.faceNodes.rows() >= e && z.nodeXyz.size() >= 3 * static_cast<std::size_t>(z.nNodes);
  idx_t maxCorners = 0;
  for (idx_t f = b; corners && f < e; ++f)
    maxCorners = std::max(maxCorners, z.faceNodes.size(f));
  maxCorners = max_all<idx_t>(comm, maxCorners);
  const int nc = static_cast<int>(columns.size());
  const int k = 6 + nc + 1 + 4 * maxCorners; // corners: x, y, z, global node id
  std::vector<gidx_t> ids(z.faceGlobalId.begin() + b, z.faceGlobalId.begin() + e);
  std::vector<real_t> vals;
  vals.reserve(static_cast<std::size_t>(n) * k);
  for (idx_t f = b; f < e; ++f) {
    vals.insert(vals.end(), z.faceCentroid.begin() + 3 * f, z.faceCentroid.begin() + 3 * f + 3);
    vals.insert(vals.end(), z.faceArea.begin() + 3 * f, z.faceArea.begin() + 3 * f + 3);
    for (const SurfaceColumn& c : columns)
      vals.push_back(c.values[f - b]);
    const idx_t m = corners ? z.faceNodes.size(f) : 0;
    vals.push_back(static_cast<real_t>(m));
    for (idx_t j = 0; j < maxCorners; ++j) {
      const idx_t node = j < m ? z.faceNodes.row(f)[j] : kNone;
      for (int d = 0; d < 3; ++d)
        vals.push_back(node != kNone ? z.nodeXyz[3 * static_cast<std::size_t>(node) + d] : 0.0);
      // global ids are exact in a double up to 2^53
      vals.push_back(node != kNone && z.nodeGlobalId.size() > static_cast<std::size_t>(node)
                         ? static_cast<real_t>(z.nodeGlobalId[node])
                         : -1.0);
    }
  }
  SortedValues s = gather_sorted(comm, ids.data(), vals.data(), n, k, root);
  SurfacePatchData out;
  if (comm_rank(comm) != root) return out;
  out.patch = patch_name;
  out.faceGlobalId = std::move(s.ids);
  const std::size_t m = out.faceGlobalId.size();
  out.centroid.resize(3 * m);
  out.area.resize(3 * m);
  out.columns = columns;
  for (auto& c : out.columns)
    c.values.resize(m);
  out.cornerOffsets.assign(1, 0);
  for (std::size_t i = 0; i < m; ++i) {
    const real_t* v = s.values.data() + i * k;
    std::copy_n(v, 3, out.centroid.data() + 3 * i);
    std::copy_n(v + 3, 3, out.area.data() + 3 * i);
    for (std::size_t c = 0; c < columns.size(); ++c)
      out.columns[c].values[i] = v[6 + c];
    const auto count = static_cast<std::int64_t>(v[6 + nc]);
    for (std::int64_t j = 0; j < count; ++j) {
      const real_t* corner = v + 7 + nc + 4 * j;
      out.cornerXyz.insert(out.cornerXyz.end(), corner, corner + 3);
      out.cornerNode.push_back(static_cast<gidx_t>(corner[3]));
    }
    out.cornerOffsets.push_back(out.cornerOffsets.back() + count);
  }
  return out;
}

SolutionMesh gather_mesh(MPI_Comm comm, const Zone& z, gidx_t n_global_nodes, gidx_t n_global_cells,
                         int root) {
  const int rank = comm_rank(comm), size = comm_size(comm);
  // ---- local: nodes and a cell stream [globalId, type, length, entries...] per owned cell
  std::ostringstream bad;
  bool ok = z.nodeGlobalId.size() == static_cast<std::size_t>(z.nNodes) &&
            z.nodeXyz.size() == 3 * static_cast<std::size_t>(z.nNodes) &&
            z.cellGlobalId.size() >= static_cast<std::size_t>(z.nCells) &&
            z.cellType.size() >= static_cast<std::size_t>(z.nCells) &&
            z.cellNodes.rows() == z.nCells;
  if (!ok)
    bad << "gather_mesh: zone " << z.zoneId << ": node or cell arrays do not match its counts";
  std::vector<gidx_t> stream;
  for (idx_t c = 0; ok && c < z.nCells; ++c) {
    const CellType t = static_cast<CellType>(z.cellType[c]);
    stream.push_back(z.cellGlobalId[c]);
    stream.push_back(static_cast<gidx_t>(t));
    const std::size_t len_at = stream.size();
    stream.push_back(0);
    auto node = [&](idx_t n) -> gidx_t {
      if (n < 0 || n >= z.nNodes) {
        if (ok)
          bad << "gather_mesh: zone " << z.zoneId << ": cell " << c << ": local node " << n
              << " out of range";
        ok = false;
        return 0;
      }
      return z.nodeGlobalId[n];
    };
    if (t == CellType::Polyhedron) {
      if (z.cellFaces.rows() != z.nCells || z.faceNodes.rows() != z.nFaces ||
          z.cellFaceSign.size() != static_cast<std::size_t>(z.cellFaces.nnz())) {
        ok = false;
        bad << "gather_mesh: zone " << z.zoneId << ": polyhedron cell " << c
            << " needs cellFaces, cellFaceSign and faceNodes";
        break;
      }
      stream.push_back(z.cellFaces.size(c));
      for (idx_t j = z.cellFaces.begin(c); j < z.cellFaces.end(c); ++j) {
        const idx_t f = z.cellFaces.indices()[j];
        const idx_t n = z.faceNodes.size(f);
        stream.push_back(n);
        const idx_t* fn = z.faceNodes.row(f);
        // faceNodes' normal points owner -> neighbour: out of the cell when it owns the face.
        for (idx_t m = 0; m < n; ++m)
          stream.push_back(node(z.cellFaceSign[j] > 0 ? fn[m] : fn[n - 1 - m]));
      }
    } else {
      for (idx_t j = z.cellNodes.begin(c); j < z.cellNodes.end(c); ++j)
        stream.push_back(node(z.cellNodes.indices()[j]));
    }
    stream[len_at] = static_cast<gidx_t>(stream.size() - len_at - 1);
  }
  check_all(comm, ok, bad.str());

  const std::vector<gidx_t> node_ids(z.nodeGlobalId.begin(), z.nodeGlobalId.end());
  const std::vector<real_t> xyz(z.nodeXyz.begin(), z.nodeXyz.end());
  SolutionMesh mesh;
  FirstError err;
  if (rank != root) {
    send_vector(comm, node_ids, root, kTagIds);
    send_vector(comm, xyz, root, kTagXyz);
    send_vector(comm, stream, root, kTagCells);
  } else {
    mesh.nodeXyz.assign(static_cast<std::size_t>(n_global_nodes) * 3, 0.0);
    std::vector<char> node_seen(static_cast<std::size_t>(n_global_nodes), 0);
    std::vector<std::vector<gidx_t>> streams(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) {
      const auto rid = r == root ? node_ids : recv_vector<gidx_t>(comm, r, kTagIds);
      const auto rxyz = r == root ? xyz : recv_vector<real_t>(comm, r, kTagXyz);
      streams[r] = r == root ? stream : recv_vector<gidx_t>(comm, r, kTagCells);
      for (std::size_t i = 0; i < rid.size(); ++i) {
        const gidx_t g = rid[i];
        if (g < 0 || g >= n_global_nodes) {
          err.set([&](auto& o) {
            o << "gather_mesh: rank " << r << ": node " << i << " has global id " << g
              << " outside [0, " << n_global_nodes << ")";
          });
          continue;
        }
        real_t* dst = mesh.nodeXyz.data() + 3 * g;
        const real_t* src = rxyz.data() + 3 * i;
        if (node_seen[g] && !std::equal(src, src + 3, dst))
          err.set([&](auto& o) {
            o << "gather_mesh: global node " << g << " has different coordinates on rank " << r
              << " than on another rank";
          });
        node_seen[g] = 1;
        std::copy_n(src, 3, dst);
      }
    }
    if (err.ok() && std::find(node_seen.begin(), node_seen.end(), 0) != node_seen.end())
      err.set([&](auto& o) {
        o << "gather_mesh: global node "
          << (std::find(node_seen.begin(), node_seen.end(), 0) - node_seen.begin())
          << " belongs to no zone";
      });
    // Pass 1: cell types and row lengths by global id.
    mesh.cellType.assign(static_cast<std::size_t>(n_global_cells), CellType::Tet);
    std::vector<gidx_t> len(static_cast<std::size_t>(n_global_cells), -1);
    for (int r = 0; r < size && err.ok(); ++r) {
      const auto& s = streams[r];
      for (std::size_t p = 0; p < s.size(); p += 3 + s[p + 2]) {
        const gidx_t g = s[p];
        if (g < 0 || g >= n_global_cells || len[g] >= 0) {
          err.set([&](auto& o) {
            o << "gather_mesh: rank " << r << ": global cell " << g
              << (g < 0 || g >= n_global_cells ? " is out of range" : " is owned twice");
          });
          break;
        }
        mesh.cellType[g] = static_cast<CellType>(s[p + 1]);
        len[g] = s[p + 2];
      }
    }
    if (err.ok()) {
      mesh.cellNodeOffsets.assign(static_cast<std::size_t>(n_global_cells) + 1, 0);
      for (gidx_t g = 0; g < n_global_cells && err.ok(); ++g) {
        if (len[g] < 0)
          err.set([&](auto& o) { o << "gather_mesh: global cell " << g << " belongs to no zone"; });
        mesh.cellNodeOffsets[g + 1] = mesh.cellNodeOffsets[g] + std::max<gidx_t>(len[g], 0);
      }
    }
    if (err.ok()) { // pass 2: rows
      mesh.cellNodes.assign(static_cast<std::size_t>(mesh.cellNodeOffsets.back()), 0);
      for (const auto& s : streams)
        for (std::size_t p = 0; p < s.size(); p += 3 + s[p + 2])
          std::copy_n(s.data() + p + 3, s[p + 2],
                      mesh.cellNodes.data() + mesh.cellNodeOffsets[s[p]]);
    }
  }
  if (rank == root && err.ok()) {
    try {
      mesh.check("gather_mesh");
    } catch (const Error& e) {
      err.msg = e.what();
    }
  }
  check_all(comm, err.ok(), err.msg);
  return mesh;
}

} // namespace fv::parallel
