#include "prep/prepare.hpp"

#include "common/log.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/concurrent_partition.hpp"
#include "prep/global_mesh.hpp"
#include "prep/stored_options.hpp"
#include "prep/zones.hpp"

#include <memory>
#include <sstream>

namespace fv {

std::function<ZoneTail(Zone&&)> stream_into(ZoneFileWriter& writer) {
  return [&writer](Zone&& z) -> ZoneTail {
    auto zone = std::make_shared<Zone>(std::move(z));
    auto placed = std::make_shared<ZoneFileWriter::PlacedZone>(writer.place_zone(*zone));
    // the checksums beside the other zones' work, the bytes one zone at a time
    return ZoneTail{[placed] { placed->checksum(); }, [zone, placed] { placed->write(); }};
  };
}

namespace {

/// The global mesh with its geometry; `metis` is started on the cell graph as soon as it exists
/// (after the cell order) and runs while the faces and nodes are renumbered and the
/// connectivity, geometry and wall distance are built. The caller finishes it.
GlobalMesh global_mesh_beside(ConcurrentPartition& metis, const Mesh& mesh, FaceSet&& faces,
                              const PrepareOptions& opts, PrepReport* report) {
  GlobalMesh g = build_global_topology(mesh, std::move(faces), opts.prep, report,
                                       [&metis](const Csr& cellCells) { metis.start(cellCells); });
  add_global_geometry(mesh, g, opts.prep, report);
  return g;
}

} // namespace

PrepareSummary prepare_zone_file(Mesh&& mesh, FaceSet&& faces, const PrepareOptions& opts,
                                 const std::string& path, const std::string& commandLine) {
  PrepareSummary out;
  ConcurrentPartition metis(opts.parts, opts.partition);
  GlobalMesh g = global_mesh_beside(metis, mesh, std::move(faces), opts, &out.report);
  // the header (its mesh UUID hashes every node and cell) does not depend on the partition
  out.header = make_zone_header(mesh, g, opts.parts);
  out.header.options = describe_prepare_options(opts);
  out.header.commandLine = commandLine;
  const std::vector<idx_t> partGlobal = metis.finish(&out.partition, &out.report);
  mesh = Mesh(); // the zones are built from g alone: the source mesh is no part of the peak
  release_unused_by_zones(g);
  ZoneFileWriter writer(path, out.header);
  build_zones_streamed(g, parts_in_mesh_order(g, partGlobal), opts.parts, opts.prep,
                       stream_into(writer), &out.report);
  FV_LOG_INFO("  zone bytes: " << writer.data_bytes() / 1048576 << " MiB, written in "
                               << writer.write_seconds() << " s while the zones were built");
  run_phase(&out.report, "writing", [&] { writer.commit(); });
  out.dataBytes = writer.data_bytes();
  return out;
}

PreparedZones prepare_zones(const Mesh& mesh, FaceSet&& faces, const PrepareOptions& opts) {
  PreparedZones out;
  ConcurrentPartition metis(opts.parts, opts.partition);
  GlobalMesh g = global_mesh_beside(metis, mesh, std::move(faces), opts, &out.report);
  out.header = make_zone_header(mesh, g, opts.parts);
  out.header.options = describe_prepare_options(opts);
  const std::vector<idx_t> partGlobal = metis.finish(&out.partition, &out.report);
  out.zones =
      build_zones(g, parts_in_mesh_order(g, partGlobal), opts.parts, opts.prep, &out.report);
  return out;
}

} // namespace fv
