#pragma once
/// \file cgns_writer.hpp
/// write_cgns(): writes an fv::Mesh as a CGNS/HDF5 file through the CGNS mid-level library.
///
/// Layout of the file: one base "Base" (cell and physical dimension 3) with one unstructured
/// zone "Zone"; coordinates CoordinateX/Y/Z (RealDouble); the volume cells as one Elements_t
/// section per cell type (TETRA_4, PYRA_5, PENTA_6, HEXA_8, in that order; cells keep their
/// relative order inside a section) or, with `mixedSection`, one MIXED section in mesh order
/// (a mesh of one cell type always keeps its order); then one section per patch holding its
/// boundary faces (TRI_3, QUAD_4, or MIXED when the patch has both) numbered after the cells;
/// and one ZoneBC BC_t per patch: name = patch name, BCType from Patch::bcType (UserDefined
/// when unknown), PointRange over the patch's element ids, GridLocation FaceCenter.
/// A Descriptor_t "GeneratedBy" under the base holds `generatedBy`.
///
/// The file is written to a temporary next to `path` and renamed over it when complete
/// (fv::AtomicFile), so a failed write never leaves a truncated mesh behind.
#include "formats/mesh.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace fv {

/// Options of write_cgns().
struct CgnsWriteOptions {
  /// Write all volume cells as one MIXED section in mesh order instead of one section per
  /// cell type. Needs one extra buffer of (nodes + 1) entries per cell.
  bool mixedSection = false;
  /// Elements / nodes written per partial-write call (bounds the temporary buffers).
  std::int64_t chunk = 1 << 20;
  /// Text of the Descriptor_t "GeneratedBy" under the base.
  std::string generatedBy = "fvkit";
  /// Called with the open file (CGNS file, base and zone indices) after the mesh and BCs are
  /// written and before the file is closed and renamed into place: more nodes in the same
  /// atomic write (e.g. a FlowSolution). Throws to abandon the file.
  std::function<void(int fn, int B, int Z)> extra;
};

/// What write_cgns() wrote (for reports).
struct CgnsWriteInfo {
  int volumeSections = 0;
  int boundarySections = 0;
  std::int64_t fileBytes = 0;
};

/// Writes `m` to `path` (CGNS, HDF5 container). Throws fv::Error naming the file on failure:
/// polyhedral cells, boundary polygons of more than 4 nodes, counts beyond the CGNS library's
/// cgsize_t, or any CGNS library error.
CgnsWriteInfo write_cgns(const Mesh& m, const std::string& path,
                         const CgnsWriteOptions& options = {});

} // namespace fv
