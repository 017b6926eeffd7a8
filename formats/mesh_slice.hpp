#pragma once
/// \file mesh_slice.hpp
/// MeshSlice: the part of a mesh one process of the distributed fvprep holds after reading
/// (`mpirun -np P fvprep MESH ...`, prep/dist_mesh.hpp). Process r of P holds a block of the
/// cells, a block of the file's boundary faces and a block of the node coordinates, each the
/// r-th of P near-equal consecutive ranges (slice_first()). A CGNS/HDF5 file with one
/// unstructured 3D zone of standard linear elements is read in slices (cg_elements_partial_read,
/// cg_coord_read over a range: each process reads about 1/P of the file); any other file is read
/// whole on every process and then cut (slice_mesh()), which gives the same slice.
#include "formats/mesh.hpp"
#include "formats/mesh_reader.hpp"

#include <optional>
#include <string>
#include <vector>

namespace fv {

/// A slice of a mesh. Owns its data.
struct MeshSlice {
  /// Cells [cellFirst, cellFirst + part.nCells()) and file boundary faces [bfaceFirst,
  /// bfaceFirst + part.nBoundaryFaces()) of the whole mesh as rows 0, 1, ... (with their file ids,
  /// file zones, polyhedron face lists), their node ids those of the whole mesh; the whole
  /// mesh's patch table, provenance, warnings, file zone names and extrusion. part.xyz is empty and
  /// part.nodeFileId is not kept.
  Mesh part;
  std::vector<real_t> xyz; ///< coordinates of nodes [nodeFirst, nodeFirst + xyz.size() / 3)
  gidx_t nCells = 0, nNodes = 0, nBoundaryFaces = 0; ///< of the whole mesh
  gidx_t cellFirst = 0, bfaceFirst = 0, nodeFirst = 0;
  bool partialRead = false; ///< read in slices rather than whole and cut
};

/// First item of process r's block when n items are split over `parts` processes (the first
/// n % parts blocks hold one more item).
inline gidx_t slice_first(gidx_t n, int r, int parts) {
  return n / parts * r + std::min<gidx_t>(r, n % parts);
}

/// Process `rank`'s slice of a whole mesh (consumed).
MeshSlice slice_mesh(Mesh&& whole, int rank, int parts);

/// Process `rank`'s slice of the mesh file `path`: read in slices where the format allows
/// (read_cgns_slice()), else read_mesh() and slice_mesh(). Errors are read_mesh()'s.
MeshSlice read_mesh_slice(const std::string& path, const ReadOptions& opts, int rank, int parts);

/// The CGNS reader's sliced read (formats/cgns_reader.cpp): a CGNS/HDF5 file whose chosen base
/// is 3D and holds one unstructured zone whose volume elements are in sections of one standard
/// linear type (TETRA_4, PYRA_5, PENTA_6, HEXA_8). Every process reads the boundary sections
/// and BCs whole, and its blocks of the volume elements and of the coordinates. nullopt for
/// any other CGNS file (read it whole).
std::optional<MeshSlice> read_cgns_slice(const std::string& path, const ReadOptions& opts, int rank,
                                         int parts);

} // namespace fv
