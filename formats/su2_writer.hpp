#pragma once
/// \file su2_writer.hpp
/// write_su2(): writes an fv::Mesh as an SU2 native ASCII mesh (NDIME= 3).
///
/// Elements use VTK type ids (10 tetra, 12 hexahedron, 13 prism, 14 pyramid; boundary 5
/// triangle, 9 quadrilateral) and 0-based node ids, each element line ending with its index.
/// SU2 follows VTK node order: tetra, pyramid and hexahedron equal CGNS order; a CGNS
/// PENTA_6 (0,1,2,3,4,5) is written as the VTK wedge (0,2,1,3,5,4) (codes and node order
/// from the shape table, common/cell_shapes.hpp). Coordinates are written
/// in the shortest form that reads back to the same double. One marker per patch, in patch
/// order (MARKER_TAG = patch name; SU2 files carry no BC types). Written through
/// fv::AtomicFile (temporary + rename).
#include "formats/mesh.hpp"

#include <string>

namespace fv {

/// Writes `m` to `path` as SU2 ASCII. Throws fv::Error naming the file on I/O failure, on
/// polyhedral cells and on boundary polygons of more than 4 nodes.
void write_su2(const Mesh& m, const std::string& path);

} // namespace fv
