#pragma once
/// \file gather.hpp
/// Assembling distributed zone data in GLOBAL order on one rank (output) and the reverse
/// scatter (restart on any rank count). The global order is the renumbered mesh's
/// (zone.cellGlobalId, zone.nodeGlobalId), so files do not depend on the partitioning.
///
/// All functions are COLLECTIVE over `comm` (one zone per rank) and take HOST arrays (copy
/// device data to the host first). Inconsistent input (ids out of range, a global cell owned
/// twice or by nobody) is an fv::Error on every rank (parallel::check_all), never a hang.
/// Transfers are point-to-point to the root, one rank at a time, so no count or displacement
/// exceeds an int even for meshes with more than 2^31 values in total.
#include "common/zone.hpp"
#include "formats/solution_file.hpp"
#include "formats/surface_file.hpp"

#include <mpi.h>
#include <vector>

namespace fv::parallel {

/// Gathers `k` values per owned cell (owned[c*k + j], c in [0, zone.nCells)) into global cell
/// order on `root`: the result has n_global_cells * k values there and is empty elsewhere.
std::vector<real_t> gather_cells(MPI_Comm comm, const Zone& zone, const real_t* owned, int k,
                                 gidx_t n_global_cells, int root = 0);

/// Reverse of gather_cells(): `global` (n_global_cells * k values, read on root only) is
/// distributed so that owned[c*k + j] receives the value of global cell zone.cellGlobalId[c].
void scatter_cells(MPI_Comm comm, const Zone& zone, const real_t* global, int k,
                   gidx_t n_global_cells, real_t* owned, int root = 0);

/// Values keyed by sparse global ids (e.g. wall faces), gathered and sorted by id on root.
struct SortedValues {
  std::vector<gidx_t> ids;    ///< ascending (duplicates are an error)
  std::vector<real_t> values; ///< ids.size() * k
};

/// Gathers n (id, k values) pairs from every rank, sorted by id on root (empty elsewhere).
SortedValues gather_sorted(MPI_Comm comm, const gidx_t* ids, const real_t* values, idx_t n, int k,
                           int root = 0);

/// One patch's faces on root for write_surface_csv(): global face ids (ascending), centroids and
/// area vectors (out of the fluid) from the zone's boundary faces of patch `patch`, and the
/// caller's per-face columns (`columns[i].values` has one value per face of the patch in this
/// zone, in local face order; names and order must be the same on every rank). Other ranks
/// get an empty SurfacePatchData.
SurfacePatchData gather_surface(MPI_Comm comm, const Zone& zone, idx_t patch,
                                const std::string& patch_name,
                                const std::vector<SurfaceColumn>& columns, int root = 0);

/// Assembles the global mesh on root from every zone's owned cells and nodes: node
/// coordinates by nodeGlobalId, cell types and cellNodes (CGNS order) by cellGlobalId,
/// polyhedra as outward face streams (from cellFaces, cellFaceSign, faceNodes). Nodes shared
/// by zones must have identical coordinates. Other ranks get an empty SolutionMesh.
SolutionMesh gather_mesh(MPI_Comm comm, const Zone& zone, gidx_t n_global_nodes,
                         gidx_t n_global_cells, int root = 0);

} // namespace fv::parallel
