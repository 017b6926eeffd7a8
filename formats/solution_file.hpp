#pragma once
/// \file solution_file.hpp
/// Volume solution output: one HDF5 file holding the global mesh and cell fields in GLOBAL cell
/// order (independent of the partitioning), plus an XDMF file next to it (same name, extension
/// .xmf) that ParaView/VisIt open ("Xdmf3 Reader"). Both are written with fv::AtomicFile
/// (temporary + rename), the HDF5 file first, so a reader never sees a half-written pair.
///
/// HDF5 layout (see docs/output-files.md):
///   /mesh/nodes        nNodes x 3 float64, m
///   /mesh/topology     XDMF "Mixed" stream, int64: per cell its XDMF shape code then its node
///                      ids in XDMF/VTK order (polyhedra: 16, nFaces, then per face n, ids...)
///   /mesh/cellType     nCells int8, fv::CellType
///   /fields/<name>     nCells (scalar) or nCells x K (vector) float64
///   root attributes    format="fvkit-solution", formatVersion, iteration, time, meshUuid,
///                      config (fully resolved configuration text), creator
#include "common/types.hpp"
#include "common/zone.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fv {

inline constexpr int kSolutionFormatVersion = 1;

/// The whole mesh in global numbering, as rank 0 assembles it for output (owns its data).
/// Cell c's nodes are cellNodes[cellNodeOffsets[c] .. cellNodeOffsets[c+1]) in CGNS node order
/// (global node ids). For a Polyhedron the row is a face stream instead:
/// nFaces, then for each face its node count and node ids, ordered so the normal points out.
struct SolutionMesh {
  std::vector<real_t> nodeXyz;         ///< 3 per global node, interleaved, m
  std::vector<CellType> cellType;      ///< one per global cell
  std::vector<gidx_t> cellNodeOffsets; ///< nCells + 1
  std::vector<gidx_t> cellNodes;       ///< global node ids (see above)

  gidx_t nNodes() const { return static_cast<gidx_t>(nodeXyz.size() / 3); }
  gidx_t nCells() const { return static_cast<gidx_t>(cellType.size()); }
  /// Throws fv::Error if sizes disagree or a node id is out of range (`what` names the source).
  void check(const std::string& what) const;
};

/// A named cell field in global cell order: `components` values per cell (1 scalar, 3 vector,
/// other counts are written as XDMF "Matrix"). Units are the caller's (documented per name).
struct CellField {
  std::string name;           ///< dataset and ParaView array name: [A-Za-z0-9_.+-]+, e.g. "rho"
  int components = 1;         ///< values per cell
  std::vector<real_t> values; ///< nCells * components, interleaved
};

/// Provenance stored with every solution and restart file.
struct SolutionInfo {
  std::int64_t iteration = 0; ///< solver iteration the data belongs to
  double time = 0.0;          ///< physical time, s (0 for steady runs)
  std::string meshUuid;       ///< ZoneFileHeader::meshUuid of the mesh the run used
  std::string config;         ///< fully resolved configuration text
  double cfl = 0;             ///< restart: the CFL the run reached (0: not recorded)
};

/// The XDMF file that accompanies solution file `h5_path`: same path with extension ".xmf".
std::string xdmf_path_for(const std::string& h5_path);

/// Writes `h5_path` and its XDMF companion. Throws fv::Error (naming the field/cell) on
/// inconsistent sizes; the previous files are left untouched on any failure.
void write_solution(const std::string& h5_path, const SolutionMesh& mesh,
                    const std::vector<CellField>& fields, const SolutionInfo& info);

/// A solution file read back (tests, post-processing tools).
struct SolutionData {
  SolutionMesh mesh; ///< cellNodes back in CGNS order
  std::vector<CellField> fields;
  SolutionInfo info;
  int formatVersion = 0;
};

/// Reads a file written by write_solution(); refuses other files with a clear message.
SolutionData read_solution(const std::string& h5_path);

} // namespace fv
