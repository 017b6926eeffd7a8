// Plot3D reader: the blocks of a grid file (formats/plot3d_grid.hpp) become hexahedra
// (quadrilaterals in 2D, extruded later), coincident boundary nodes of all blocks are glued
// (between blocks and within one, e.g. a C-grid's wake cut), boundary faces that then match
// another boundary face become interior faces, and the rest get the patches of the BC side
// file (formats/plot3d_bc.hpp) or one patch per block side.
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/mesh_builder.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/node_match.hpp"
#include "formats/plot3d_bc.hpp"
#include "formats/plot3d_grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>

namespace fv {

namespace {

/// Where each builder boundary face comes from.
struct FaceOrigin {
  std::int32_t block = 0;
  BlockFace face;
  std::size_t index = 0; ///< position in block_boundary_faces() of its block
};

/// The BC side file to read: opts.bcFile, else GRID.bc next to GRID.x when it exists.
std::string bc_file_of(const std::string& path, const ReadOptions& opts) {
  if (!opts.bcFile.empty()) return opts.bcFile;
  std::error_code ec;
  const std::string side = std::filesystem::path(path).replace_extension(".bc").string();
  return side != path && std::filesystem::is_regular_file(side, ec) ? side : std::string();
}

/// Adds the cells and boundary faces of every block; returns the origin of each face.
std::vector<FaceOrigin> add_blocks(MeshBuilder& b, const Plot3dGrid& g) {
  std::vector<FaceOrigin> origin;
  for (std::size_t z = 0; z < g.blocks.size(); ++z) {
    const Plot3dBlock& blk = g.blocks[z];
    const idx_t offset = b.nNodes();
    FV_VERIFY(blk.shape.n_nodes() < (std::int64_t{1} << 31) - 1 - offset,
              b.path << ": block " << z + 1 << ": too many nodes for 32-bit indices");
    b.xyz.insert(b.xyz.end(), blk.xyz.begin(), blk.xyz.end());
    b.zoneNames.push_back("block" + std::to_string(z + 1));
    const std::vector<std::int64_t> conn =
        block_cells(blk.shape, block_is_left_handed(blk.shape, blk.xyz));
    const int per = g.dim == 3 ? 8 : 4;
    idx_t nodes[8];
    for (std::int64_t c = 0; c < blk.shape.n_cells(); ++c) {
      for (int k = 0; k < per; ++k)
        nodes[k] = offset + static_cast<idx_t>(conn[static_cast<std::size_t>(c * per + k)]);
      b.add_cell(CellType::Hex, nodes, per, c + 1);
      b.cellZone.push_back(static_cast<std::int32_t>(z));
    }
    const std::vector<BlockFace> faces = block_boundary_faces(blk.shape);
    std::int64_t fn[4];
    for (std::size_t f = 0; f < faces.size(); ++f) {
      const int n = block_face_nodes(blk.shape, faces[f], fn);
      for (int k = 0; k < n; ++k)
        nodes[k] = offset + static_cast<idx_t>(fn[k]);
      b.add_bface(nodes, n, static_cast<gidx_t>(f + 1), kNone);
      b.bZone.push_back(static_cast<std::int32_t>(z));
      origin.push_back({static_cast<std::int32_t>(z), faces[f], f});
    }
  }
  return origin;
}

/// Warns once when a block blanks nodes (iblank 0): holes are not cut, every cell is kept.
void check_iblank(MeshBuilder& b, const Plot3dGrid& g) {
  for (std::size_t z = 0; z < g.blocks.size(); ++z) {
    const auto& ib = g.blocks[z].iblank;
    const auto holes = std::count(ib.begin(), ib.end(), 0);
    if (holes)
      b.warn("block " + std::to_string(z + 1) + ": " + std::to_string(holes) +
             " nodes have iblank 0 (overset hole); overset grids are not supported, every cell "
             "is kept");
  }
}

/// Applies the BC file: each line names faces of one block side (later lines win).
void apply_bcs(MeshBuilder& b, const Plot3dGrid& g, const std::vector<FaceOrigin>& origin,
               const std::string& bcPath) {
  const std::vector<Plot3dBc> bcs = read_plot3d_bc_file(bcPath, g.dim);
  std::vector<std::size_t> firstFace(g.blocks.size() + 1, 0);
  for (std::size_t f = 0; f < origin.size(); ++f)
    firstFace[static_cast<std::size_t>(origin[f].block) + 1] = f + 1;
  for (const Plot3dBc& bc : bcs) {
    FV_VERIFY(static_cast<std::size_t>(bc.block) <= g.blocks.size(),
              bc.where << ": block " << bc.block << " does not exist (the grid has "
                       << g.blocks.size() << ")");
    const std::size_t z = static_cast<std::size_t>(bc.block - 1);
    const StructuredBlock& shape = g.blocks[z].shape;
    const std::vector<char> named = plot3d_bc_faces(bc, shape, block_boundary_faces(shape));
    const idx_t p = b.patch(bc.name, bc.type);
    std::size_t count = 0;
    for (std::size_t f = 0; f < named.size(); ++f)
      if (named[f]) {
        b.bPatch[firstFace[z] + f] = p;
        ++count;
      }
    if (!count) b.warn(bc.where + ": names no face of block " + std::to_string(bc.block));
  }
}

/// Shortest edge at every node of every block (block order, before gluing).
std::vector<double> shortest_edges(const Plot3dGrid& g) {
  std::vector<double> h;
  for (const Plot3dBlock& blk : g.blocks) {
    const StructuredBlock& s = blk.shape;
    const std::size_t first = h.size();
    h.resize(first + static_cast<std::size_t>(s.n_nodes()), 1e300);
    const std::int64_t stride[3] = {1, s.nv[0], s.nv[0] * s.nv[1]};
    for (std::int64_t v = 0; v < s.n_nodes(); ++v) {
      const std::int64_t ijk[3] = {v % s.nv[0], v / s.nv[0] % s.nv[1], v / stride[2]};
      for (int d = 0; d < s.dim; ++d) {
        if (ijk[d] + 1 >= s.nv[d]) continue;
        const std::int64_t w = v + stride[d];
        double len = 0;
        for (int c = 0; c < 3; ++c)
          len = std::max(len, std::fabs(blk.xyz[static_cast<std::size_t>(3 * w + c)] -
                                        blk.xyz[static_cast<std::size_t>(3 * v + c)]));
        double& hv = h[first + static_cast<std::size_t>(v)];
        double& hw = h[first + static_cast<std::size_t>(w)];
        hv = std::min(hv, len);
        hw = std::min(hw, len);
      }
    }
  }
  return h;
}

/// Glues coincident boundary nodes (all blocks, and a block with itself) within the merge
/// tolerance, but never two nodes closer than half the shortest edge at either of them apart
/// (C-grids cluster their wake lines far below a tolerance relative to the far field);
/// renumbers the nodes, and drops the boundary faces that then meet another one.
void glue(MeshBuilder& b, std::vector<FaceOrigin>& origin, const Plot3dGrid& g,
          const ReadOptions& opts) {
  const idx_t nn = b.nNodes();
  std::vector<idx_t> onSide;
  {
    std::vector<char> mark(static_cast<std::size_t>(nn), 0);
    for (idx_t v : b.bConn)
      mark[static_cast<std::size_t>(v)] = 1;
    for (idx_t v = 0; v < nn; ++v)
      if (mark[static_cast<std::size_t>(v)]) onSide.push_back(v);
  }
  std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  std::vector<real_t> sub;
  sub.reserve(3 * onSide.size());
  for (idx_t v : onSide)
    for (int d = 0; d < 3; ++d) {
      const double x = b.xyz[static_cast<std::size_t>(3 * v + d)];
      sub.push_back(x);
      lo[d] = std::min(lo[d], x);
      hi[d] = std::max(hi[d], x);
    }
  double diag2 = 0;
  for (int d = 0; d < 3; ++d)
    diag2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  const double tol =
      opts.mergeTolerance > 0 ? opts.mergeTolerance : kDefaultMergeFraction * std::sqrt(diag2);
  const std::vector<double> h = shortest_edges(g);
  std::vector<std::pair<idx_t, idx_t>> pairs;
  for (auto [i, j] : find_coincident_nodes(sub, tol)) {
    const idx_t a = onSide[static_cast<std::size_t>(i)], c = onSide[static_cast<std::size_t>(j)];
    double dist = 0;
    for (int d = 0; d < 3; ++d)
      dist = std::max(dist, std::fabs(b.xyz[static_cast<std::size_t>(3 * a + d)] -
                                      b.xyz[static_cast<std::size_t>(3 * c + d)]));
    if (dist <= 0.5 * std::min(h[static_cast<std::size_t>(a)], h[static_cast<std::size_t>(c)]))
      pairs.emplace_back(a, c);
  }
  const std::vector<idx_t> rep = merge_representatives(nn, pairs);
  std::vector<idx_t> newId(static_cast<std::size_t>(nn));
  std::vector<real_t> xyz;
  idx_t next = 0;
  for (idx_t v = 0; v < nn; ++v)
    if (rep[static_cast<std::size_t>(v)] == v) {
      newId[static_cast<std::size_t>(v)] = next++;
      xyz.insert(xyz.end(), &b.xyz[3 * static_cast<std::size_t>(v)],
                 &b.xyz[3 * static_cast<std::size_t>(v)] + 3);
    }
  for (idx_t v = 0; v < nn; ++v)
    newId[static_cast<std::size_t>(v)] =
        newId[static_cast<std::size_t>(rep[static_cast<std::size_t>(v)])];
  b.xyz = std::move(xyz);
  for (idx_t& v : b.cellConn)
    v = newId[static_cast<std::size_t>(v)];
  for (idx_t& v : b.bConn)
    v = newId[static_cast<std::size_t>(v)];
  FV_LOG_INFO("  glued " << nn - next << " coincident block-boundary nodes (tolerance " << tol
                         << ")");

  // faces seen twice are interfaces
  const idx_t nb = b.nBFaces();
  std::map<std::vector<idx_t>, idx_t> byNodes;
  std::vector<char> drop(static_cast<std::size_t>(nb), 0);
  for (idx_t f = 0; f < nb; ++f) {
    std::vector<idx_t> key(b.bConn.begin() + b.bOff[f], b.bConn.begin() + b.bOff[f + 1]);
    std::sort(key.begin(), key.end());
    auto [it, fresh] = byNodes.emplace(std::move(key), f);
    if (fresh) continue;
    FV_VERIFY(!drop[static_cast<std::size_t>(it->second)],
              b.path << ": block " << origin[static_cast<std::size_t>(f)].block + 1 << " side "
                     << block_side_name(origin[static_cast<std::size_t>(f)].face.side)
                     << ": boundary face " << b.bFileId[f]
                     << " coincides with the faces of two other blocks");
    drop[static_cast<std::size_t>(f)] = drop[static_cast<std::size_t>(it->second)] = 1;
  }
  std::size_t withBc = 0;
  for (idx_t f = 0; f < nb; ++f)
    withBc += drop[static_cast<std::size_t>(f)] && b.bPatch[f] != kNone;
  const std::vector<idx_t> kept = b.drop_bfaces(drop);
  keep_rows(origin, kept);
  FV_LOG_INFO("  " << nb - static_cast<idx_t>(kept.size())
                   << " block-interface faces became interior faces");
  if (withBc)
    b.warn(std::to_string(withBc) + " faces named in the BC file are block interfaces (glued); "
                                    "they became interior faces");
}

/// Cells whose corners were glued together (collapsed edges, poles) are not supported.
void check_cells_distinct(const MeshBuilder& b) {
  for (idx_t c = 0; c < b.nCells(); ++c) {
    bool distinct = true;
    for (idx_t i = b.cellOff[c]; i < b.cellOff[c + 1]; ++i)
      for (idx_t j = i + 1; j < b.cellOff[c + 1]; ++j)
        distinct &= b.cellConn[i] != b.cellConn[j];
    FV_VERIFY(distinct, b.path << ": block " << b.cellZone[static_cast<std::size_t>(c)] + 1
                               << " cell " << b.cellFileId[c]
                               << " has coincident corners after gluing (collapsed edge or pole, "
                                  "or --merge-tol too large); degenerate cells are not supported");
  }
}

/// Faces left without a patch: one patch per block side ("block1_imin", ...).
void name_unpatched(MeshBuilder& b, const std::vector<FaceOrigin>& origin, std::size_t nBlocks) {
  std::map<std::pair<std::int32_t, int>, idx_t> patchOf;
  std::size_t orphans = 0;
  for (idx_t f = 0; f < b.nBFaces(); ++f) {
    if (b.bPatch[f] != kNone) continue;
    const FaceOrigin& o = origin[static_cast<std::size_t>(f)];
    auto it = patchOf.find({o.block, o.face.side});
    if (it == patchOf.end()) {
      const std::string name =
          (nBlocks > 1 ? "block" + std::to_string(o.block + 1) + "_" : std::string()) +
          block_side_name(o.face.side);
      it =
          patchOf.emplace(std::make_pair(o.block, o.face.side), b.patch(name, "UserDefined")).first;
    }
    b.bPatch[f] = it->second;
    ++orphans;
  }
  if (orphans)
    FV_LOG_INFO("  " << orphans << " boundary faces without a BC form one patch per block side");
}

} // namespace

Mesh read_plot3d(const std::string& path, const ReadOptions& opts) {
  const Plot3dGrid g = read_plot3d_grid(path);
  MeshBuilder b;
  b.path = path;
  b.dim = g.dim;
  b.format = "Plot3D (" + g.variant + ")";
  std::vector<FaceOrigin> origin = add_blocks(b, g);
  check_iblank(b, g);
  const std::string bcPath = bc_file_of(path, opts);
  if (!bcPath.empty()) apply_bcs(b, g, origin, bcPath);
  glue(b, origin, g, opts);
  check_cells_distinct(b);
  name_unpatched(b, origin, g.blocks.size());
  return b.finish(opts);
}

} // namespace fv
