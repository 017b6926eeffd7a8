#include "prep/prepare.hpp"

#include "common/log.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/global_mesh.hpp"
#include "prep/zones.hpp"

#include <memory>
#include <sstream>

namespace fv {

std::string describe_prepare_options(const PrepareOptions& o) {
  std::ostringstream os;
  os << "renumber=" << renumber_name(o.prep.renumber) << "; parts=" << o.parts
     << "; imbalance=" << o.partition.imbalance
     << "; objective=" << partition_objective_name(o.partition.objective)
     << "; seed=" << o.partition.seed << "; default-patch=" << o.prep.faces.defaultPatch
     << "; closure-tol=" << o.prep.closureTol;
  if (!o.prep.wavefrontOrder) os << "; zone-order=rcm";
  if (!o.prep.walls.empty()) {
    os << "; walls=";
    for (std::size_t i = 0; i < o.prep.walls.size(); ++i)
      os << (i ? "," : "") << o.prep.walls[i];
  }
  return os.str();
}

std::function<ZoneTail(Zone&&)> stream_into(ZoneFileWriter& writer) {
  return [&writer](Zone&& z) -> ZoneTail {
    auto zone = std::make_shared<Zone>(std::move(z));
    auto placed = std::make_shared<ZoneFileWriter::PlacedZone>(writer.place_zone(*zone));
    return [zone, placed] { placed->write(); };
  };
}

PrepareSummary prepare_zone_file(Mesh&& mesh, FaceSet&& faces, const PrepareOptions& opts,
                                 const std::string& path, const std::string& commandLine) {
  PrepareSummary out;
  GlobalMesh g = build_global_topology(mesh, std::move(faces), opts.prep, &out.report);
  std::vector<idx_t> partGlobal;
  run_phase(&out.report, "partitioning", [&] {
    partGlobal = partition_cells(g.cellCells, opts.parts, opts.partition);
    out.partition = partition_report(g.cellCells, partGlobal, opts.parts);
  });
  add_global_geometry(mesh, g, opts.prep, &out.report);
  out.header = make_zone_header(mesh, g, opts.parts);
  out.header.options = describe_prepare_options(opts);
  out.header.commandLine = commandLine;
  mesh = Mesh(); // the zones are built from g alone: the source mesh is no part of the peak
  release_unused_by_zones(g);
  ZoneFileWriter writer(path, out.header);
  build_zones_streamed(g, parts_in_mesh_order(g, partGlobal), opts.parts, opts.prep,
                       stream_into(writer), &out.report);
  run_phase(&out.report, "writing", [&] { writer.commit(); });
  out.dataBytes = writer.data_bytes();
  return out;
}

PreparedZones prepare_zones(const Mesh& mesh, FaceSet&& faces, const PrepareOptions& opts) {
  PreparedZones out;
  GlobalMesh g = build_global_topology(mesh, std::move(faces), opts.prep, &out.report);
  std::vector<idx_t> partGlobal;
  run_phase(&out.report, "partitioning", [&] {
    partGlobal = partition_cells(g.cellCells, opts.parts, opts.partition);
    out.partition = partition_report(g.cellCells, partGlobal, opts.parts);
  });
  add_global_geometry(mesh, g, opts.prep, &out.report);
  out.zones =
      build_zones(g, parts_in_mesh_order(g, partGlobal), opts.parts, opts.prep, &out.report);
  out.header = make_zone_header(mesh, g, opts.parts);
  out.header.options = describe_prepare_options(opts);
  return out;
}

} // namespace fv
