#pragma once
/// \file mesh_uuid.hpp
/// The mesh UUID stored in zone files: a 128-bit hash of a mesh's geometry and connectivity in
/// its global (renumbered) numbering, independent of how it is partitioned into zones, so that
/// fvrun can tell whether a solution file belongs to a zone file's mesh whatever the part count.
///
/// Hashed, in this order (all little-endian): "fvkit-mesh-v1", nNodes and nCells (int64); the
/// node coordinates (3 float64 per node, global node order); then per cell in global cell order
/// its CellType (int8), node count (int64) and global node ids (int64 each, element order).
/// Two XXH64 streams with different seeds give the 128 bits, printed as an RFC 9562 version-8
/// ("custom") UUID, e.g. "3f2a...-....-8...-a...-............".
#include "common/csr.hpp"
#include "common/zone.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fv {

/// UUID of a global mesh: xyz (3 per node), one CellType per cell and the cells' global node ids.
/// Call it with the renumbered mesh whose ids the zones' *GlobalId arrays refer to.
std::string mesh_uuid(const std::vector<real_t>& xyz, const std::vector<CellType>& cellType,
                      const Csr& cellNodes);

/// The same UUID computed from the zones of a partition (any number of zones): owned cells and
/// their nodes are gathered by global id. Throws fv::Error if the zones do not cover global cells
/// 0..nGlobalCells-1 exactly once or leave a global node without coordinates.
std::string mesh_uuid(const std::vector<Zone>& zones, gidx_t nGlobalCells, gidx_t nGlobalNodes);

/// The same UUID fed piece by piece, for a mesh whose nodes and cells arrive in global order in
/// pieces (the distributed fvprep streams them rank by rank): construct with the counts, add
/// every node's coordinates in global node order, then every cell in global cell order.
class MeshUuidStream {
 public:
  MeshUuidStream(gidx_t nNodes, gidx_t nCells);
  ~MeshUuidStream();
  MeshUuidStream(const MeshUuidStream&) = delete;
  MeshUuidStream& operator=(const MeshUuidStream&) = delete;
  /// Coordinates of the next n nodes (3 per node).
  void add_nodes(const real_t* xyz, std::size_t n);
  /// The next cell: its type and global node ids (element order).
  void add_cell(CellType type, const gidx_t* nodes, std::size_t n);
  void add_cell(CellType type, const idx_t* nodes, std::size_t n);
  /// The next bytes of the stream as add_nodes() and add_cell() hash them (nodes: 3 float64
  /// each; cells: cell_bytes()), split anywhere.
  void add_bytes(const unsigned char* bytes, std::size_t n);
  /// The bytes add_cell() hashes for one cell: kCellHeadBytes + 8 per node.
  static constexpr std::size_t kCellHeadBytes = 9;
  static void cell_bytes(CellType type, const idx_t* nodes, std::size_t n, unsigned char* out);
  std::string uuid() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

} // namespace fv
