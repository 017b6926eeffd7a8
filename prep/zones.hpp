#pragma once
/// \file zones.hpp
/// Zone building: splits the renumbered global mesh into fv::Zone (common/zone.hpp) by a cell
/// partition, each with local numbering, one halo layer, every connectivity, geometry,
/// colourings, LU-SGS hyperplanes and exchange lists.
#include "common/zone.hpp"
#include "formats/mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/prep_options.hpp"
#include "prep/prep_report.hpp"

#include <functional>
#include <vector>

namespace fv {

/// Zones of a global mesh. cellPart gives the part in [0, nParts) of every cell in the ORIGINAL
/// fv::Mesh order (as METIS returns it; all zeros for one part). Zones are independent and are
/// built in parallel (OpenMP); memory: the zones plus ~8 bytes per global cell and node per
/// thread. Per zone:
///   - owned cells ordered by RCM of the zone's own adjacency (opts.renumber), interior cells
///     first then interface cells; halo cells after them, by (neighbour zone, global id);
///   - faces: boundary faces by patch (then local owner), then interior and interface faces in
///     Algorithm-2 order (loop over local cells, faces by the cell across them);
///   - nodes of owned cells by first touch in local cell order;
///   - global ids are the ids of the renumbered global mesh (independent of the partitioning).
/// Throws fv::Error on a bad part vector (size, range, empty part).
std::vector<Zone> build_zones(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report = nullptr);

/// The same, handing each zone to `sink` (called on the calling thread, in zone order) instead of
/// keeping them: zones are built in batches of one per OpenMP thread, so at most that many are
/// in memory at once (fvprep streams them into the zone file).
void build_zones_each(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                      const PrepOptions& opts, const std::function<void(Zone&&)>& sink,
                      PrepReport* report = nullptr);

/// Convenience: build_global_mesh() then build_zones() (report gets every phase).
std::vector<Zone> build_zones(const Mesh& mesh, const std::vector<idx_t>& cellPart, int nParts,
                              const PrepOptions& opts, PrepReport* report = nullptr);

/// Converts a part vector in the renumbered global order (e.g. partition_cells(g.cellCells))
/// to the fv::Mesh order build_zones() takes: result[g.cellMesh[c]] = partGlobal[c].
std::vector<idx_t> parts_in_mesh_order(const GlobalMesh& g, const std::vector<idx_t>& partGlobal);

/// The file header for the zones of g: counts, patches, source mesh, creator and the mesh UUID
/// (formats/mesh_uuid.hpp over g's renumbered nodes and cells: it depends on the mesh and the
/// renumbering, not on the partitioning). commandLine/options are left for fvprep to fill.
ZoneFileHeader make_zone_header(const Mesh& mesh, const GlobalMesh& g, int nZones);

} // namespace fv
