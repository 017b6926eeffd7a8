#pragma once
/// \file chain_zones.hpp
/// Synthetic zones for MPI tests: a 1-D chain of n unit hexahedra along x, split into
/// contiguous parts, each part a fv::Zone built by hand with the numbering rules of
/// common/zone.hpp (interior cells, then interface cells, then halo cells; nodes by first
/// touch) and exchange lists for cells (one halo layer) and nodes (the shared planes).
///
/// Global numbering: cell g spans x in [g, g+1]; node 4*i + j is corner j of the plane x = i
/// (j: (y,z) = (0,0), (1,0), (1,1), (0,1)); hex g has nodes 4g..4g+3, 4g+4..4g+7 (CGNS order,
/// positively oriented).
#include "common/zone.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace fv::testing {

/// First global cell of part p when n cells are split into `parts` contiguous blocks.
inline gidx_t chain_part_begin(gidx_t n, int parts, int p) {
  return n * p / parts;
}

/// Zone `part` of a chain of n cells split into `parts` blocks (needs n >= 2 * parts).
inline Zone make_chain_zone(gidx_t n, int parts, int part) {
  const gidx_t b = chain_part_begin(n, parts, part), e = chain_part_begin(n, parts, part + 1);
  Zone z;
  z.zoneId = part;
  // Owned cells: interior first (reverse order, to make local != global order), then interface.
  std::vector<gidx_t> interior, interface_cells, halo;
  for (gidx_t g = b; g < e; ++g) {
    const bool iface = (g == b && part > 0) || (g == e - 1 && part < parts - 1);
    (iface ? interface_cells : interior).push_back(g);
  }
  std::reverse(interior.begin(), interior.end());
  if (part > 0) halo.push_back(b - 1);
  if (part < parts - 1) halo.push_back(e);
  std::vector<gidx_t> cells = interior;
  cells.insert(cells.end(), interface_cells.begin(), interface_cells.end());
  const idx_t n_owned = static_cast<idx_t>(cells.size());
  cells.insert(cells.end(), halo.begin(), halo.end());
  z.nCells = n_owned;
  z.nInteriorCells = static_cast<idx_t>(interior.size());
  z.nHaloCells = static_cast<idx_t>(halo.size());
  std::map<gidx_t, idx_t> cell_local;
  for (std::size_t i = 0; i < cells.size(); ++i)
    cell_local[cells[i]] = static_cast<idx_t>(i);

  std::vector<std::int8_t> types(cells.size(), static_cast<std::int8_t>(CellType::Hex));
  std::vector<real_t> centroid, volume(cells.size(), 1.0);
  for (gidx_t g : cells)
    centroid.insert(centroid.end(), {g + 0.5, 0.5, 0.5});
  z.cellGlobalId = Array<gidx_t>(std::vector<gidx_t>(cells));
  z.cellType = Array<std::int8_t>(std::move(types));
  z.cellCentroid = Array<real_t>(std::move(centroid));
  z.cellVolume = Array<real_t>(std::move(volume));

  // Nodes by first touch over owned cells.
  std::map<gidx_t, idx_t> node_local;
  std::vector<gidx_t> node_gid;
  std::vector<idx_t> offsets{0}, conn;
  for (idx_t c = 0; c < n_owned; ++c) {
    for (int k = 0; k < 8; ++k) {
      const gidx_t gn = 4 * cells[c] + k;
      auto it = node_local.find(gn);
      if (it == node_local.end()) {
        it = node_local.emplace(gn, static_cast<idx_t>(node_gid.size())).first;
        node_gid.push_back(gn);
      }
      conn.push_back(it->second);
    }
    offsets.push_back(static_cast<idx_t>(conn.size()));
  }
  static constexpr real_t kCorner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  std::vector<real_t> xyz;
  for (gidx_t gn : node_gid)
    xyz.insert(xyz.end(), {static_cast<real_t>(gn / 4), kCorner[gn % 4][0], kCorner[gn % 4][1]});
  z.nNodes = static_cast<idx_t>(node_gid.size());
  z.nodeGlobalId = Array<gidx_t>(std::move(node_gid));
  z.nodeXyz = Array<real_t>(std::move(xyz));
  z.cellNodes = Csr(Array<idx_t>(std::move(offsets)), Array<idx_t>(std::move(conn)));

  // Exchange lists: neighbours ascending; rows sorted by global id.
  std::vector<std::int32_t> nbrs;
  std::vector<idx_t> cs_off{0}, cs, cr_off{0}, cr, ns_off{0}, ns;
  auto add_neighbour = [&](int q, gidx_t send_cell, gidx_t recv_cell, gidx_t plane) {
    nbrs.push_back(q);
    cs.push_back(cell_local.at(send_cell));
    cs_off.push_back(static_cast<idx_t>(cs.size()));
    cr.push_back(cell_local.at(recv_cell));
    cr_off.push_back(static_cast<idx_t>(cr.size()));
    for (int j = 0; j < 4; ++j)
      ns.push_back(node_local.at(4 * plane + j));
    ns_off.push_back(static_cast<idx_t>(ns.size()));
  };
  if (part > 0) add_neighbour(part - 1, b, b - 1, b);
  if (part < parts - 1) add_neighbour(part + 1, e - 1, e, e);
  z.cellExchange.neighbours = Array<std::int32_t>(std::vector<std::int32_t>(nbrs));
  z.cellExchange.send = Csr(Array<idx_t>(std::move(cs_off)), Array<idx_t>(std::move(cs)));
  z.cellExchange.recv = Csr(Array<idx_t>(std::move(cr_off)), Array<idx_t>(std::move(cr)));
  z.nodeExchange.neighbours = Array<std::int32_t>(std::move(nbrs));
  z.nodeExchange.send =
      Csr(Array<idx_t>(std::vector<idx_t>(ns_off)), Array<idx_t>(std::vector<idx_t>(ns)));
  z.nodeExchange.recv = Csr(Array<idx_t>(std::move(ns_off)), Array<idx_t>(std::move(ns)));
  return z;
}

/// Adds the boundary faces of zone `part` (only those: nFaces = nBoundaryFaces, no interior
/// faces) in two patches: patch 0 "wall" = the 4 side faces of every owned cell (global face id
/// 4g + s; s: y=0, y=1, z=0, z=1), patch 1 "ends" = x = 0 (id 4n) and x = n (id 4n + 1).
/// Area vectors point out of the chain, |S| = 1 m^2.
inline void add_chain_boundary_faces(Zone& z, gidx_t n) {
  static constexpr real_t kSide[4][6] = {// centroid (y, z), normal (x, y, z)
                                         {0, 0.5, 0, -1, 0},
                                         {1, 0.5, 0, 1, 0},
                                         {0.5, 0, 0, 0, -1},
                                         {0.5, 1, 0, 0, 1}};
  std::vector<gidx_t> ids;
  std::vector<real_t> centroid, area;
  std::vector<idx_t> owner;
  for (idx_t c = 0; c < z.nCells; ++c) {
    const gidx_t g = z.cellGlobalId[c];
    for (int s = 0; s < 4; ++s) {
      ids.push_back(4 * g + s);
      centroid.insert(centroid.end(), {g + 0.5, kSide[s][0], kSide[s][1]});
      area.insert(area.end(), {kSide[s][2], kSide[s][3], kSide[s][4]});
      owner.push_back(c);
    }
  }
  const idx_t n_wall = static_cast<idx_t>(ids.size());
  for (idx_t c = 0; c < z.nCells; ++c) {
    const gidx_t g = z.cellGlobalId[c];
    if (g == 0) {
      ids.push_back(4 * n);
      centroid.insert(centroid.end(), {0.0, 0.5, 0.5});
      area.insert(area.end(), {-1.0, 0.0, 0.0});
      owner.push_back(c);
    }
    if (g == n - 1) {
      ids.push_back(4 * n + 1);
      centroid.insert(centroid.end(), {static_cast<real_t>(n), 0.5, 0.5});
      area.insert(area.end(), {1.0, 0.0, 0.0});
      owner.push_back(c);
    }
  }
  z.nBoundaryFaces = z.nFaces = static_cast<idx_t>(ids.size());
  z.patchFaceOffsets = Array<idx_t>{0, n_wall, z.nFaces};
  z.faceGlobalId = Array<gidx_t>(std::move(ids));
  z.faceCentroid = Array<real_t>(std::move(centroid));
  z.faceArea = Array<real_t>(std::move(area));
  z.faceOwner = Array<idx_t>(std::move(owner));
  z.faceNeighbour = Array<idx_t>(static_cast<std::size_t>(z.nFaces), kNone);
}

} // namespace fv::testing
