#pragma once
/// \file xdmf_cells.hpp
/// Cell shapes in XDMF "Mixed" topology streams: shape codes and the node-order conversion
/// between CGNS (fvkit's order) and XDMF/VTK.
///
/// XDMF codes: tetrahedron 6, pyramid 7, wedge 8, hexahedron 9, polyhedron 16.
/// Tetrahedron, pyramid and hexahedron corners are numbered the same in CGNS and XDMF/VTK.
/// The wedge is not: CGNS PENTA_6's triangle (0,1,2) has its right-hand normal pointing towards
/// (3,4,5), VTK's wedge (which ParaView's XDMF reader uses unchanged) has it pointing away, so
/// each triangle is reversed: xdmf = cgns[0,2,1,3,5,4] (the map is its own inverse).
#include "common/zone.hpp"
#include "formats/solution_file.hpp"

#include <string>
#include <vector>

namespace fv::xdmf {

/// XDMF topology code of a cell shape.
int shape_code(CellType t);
/// "tetrahedron", "pyramid", "wedge", "hexahedron", "polyhedron".
const char* shape_name(CellType t);

/// Index into the CGNS node list of XDMF corner k of a cell of shape t.
int cgns_corner(CellType t, int k);

/// The Mixed topology stream of a mesh (codes + node ids in XDMF order).
std::vector<gidx_t> mixed_topology(const SolutionMesh& mesh);

/// Decodes a Mixed topology stream of `n_cells` cells into mesh.cellType / cellNodeOffsets /
/// cellNodes (CGNS order); throws naming `what` and the cell on a malformed stream.
void parse_mixed_topology(const std::vector<gidx_t>& stream, gidx_t n_cells,
                          const std::string& what, SolutionMesh& mesh);

/// Checks a polyhedron face stream (nFaces, then per face n, ids) of `len` entries.
void check_polyhedron_stream(const gidx_t* s, gidx_t len, gidx_t n_nodes, const std::string& what,
                             gidx_t cell);

} // namespace fv::xdmf
