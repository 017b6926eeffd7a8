#pragma once
/// \file global_mesh_checks.hpp
/// Property checks (gtest assertions) on a renumbered global mesh: permutations, cellFaces and
/// signs, face order (Algorithm 2), first-touch nodes, transposes, closed cells, total volume
/// equal to the volume the boundary encloses, node weights summing to 1.
#include "formats/mesh.hpp"
#include "prep/global_mesh.hpp"

namespace fv::testing {

void check_global_mesh(const Mesh& mesh, const GlobalMesh& g);

} // namespace fv::testing
