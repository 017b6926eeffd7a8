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

#include <cstdint>
#include <functional>
#include <vector>

namespace fv {

/// Zones of a global mesh. cellPart gives the part in [0, nParts) of every cell in the ORIGINAL
/// fv::Mesh order (as METIS returns it; all zeros for one part). Zones are independent and are
/// built in parallel (OpenMP); memory: the zones in flight plus a zone-sized lookup table per
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

/// The same, handing each zone to `sink` instead of keeping them (fvprep streams them into the
/// zone file). The sink is called in zone order, one call at a time, from whichever OpenMP
/// thread is free, while the other threads go on building: at most one zone per thread plus one
/// wait in memory. A failing zone or sink stops the pipeline; the error of the lowest zone id
/// is thrown.
void build_zones_each(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                      const PrepOptions& opts, const std::function<void(Zone&&)>& sink,
                      PrepReport* report = nullptr);

/// How many threads build zones at once: at most `threads` and `nParts`, and, when `available`
/// and `zoneBytes` are known (non-zero), no more than let the zones in memory (threads + 1, see
/// build_zones_each()) fit in `available` bytes at `zoneBytes` each. At least 1.
int zone_build_threads(int threads, int nParts, std::uint64_t available, std::uint64_t zoneBytes);

/// What a streaming sink leaves to do for a zone after its sink call, in two parts, either of
/// which may be empty: `prepare` runs at once on the thread that called the sink, beside
/// other zones' work (e.g. the checksums of the zone's bytes after
/// ZoneFileWriter::place_zone()); `write` runs after its zone's prepare, one zone at a time
/// and in zone order (e.g. writing those bytes to the file).
struct ZoneTail {
  std::function<void()> prepare;
  std::function<void()> write;
  explicit operator bool() const { return prepare || write; }
};

/// build_zones_each() whose sink returns a tail: each tail's prepare runs on the sinking thread
/// (after which another thread may already call the sink for the next zone), and the writes
/// are queued and run one at a time, in zone order, by whichever thread is free (the others go
/// on building zones and calling the sink). A zone counts against the memory window until its
/// write has run. A failing prepare or write stops the pipeline like a failing sink.
void build_zones_streamed(const GlobalMesh& g, const std::vector<idx_t>& cellPart, int nParts,
                          const PrepOptions& opts, const std::function<ZoneTail(Zone&&)>& sink,
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
