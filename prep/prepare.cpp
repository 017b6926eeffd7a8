#include "prep/prepare.hpp"

#include "common/log.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/global_mesh.hpp"
#include "prep/prep_report.hpp"
#include "prep/zones.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <sstream>

namespace fv {

PrepareResult prepare_zones(const Mesh& mesh, ValidationReport validated,
                            const PrepareOptions& opts, std::ostream& log) {
  const auto t0 = std::chrono::steady_clock::now();
  FV_VERIFY_USAGE(opts.parts >= 1, "--parts must be at least 1 (got " << opts.parts << ")");
  FV_VERIFY_USAGE(!opts.output.empty(), "no output file given (-o OUT)");

  PrepReport report;
  GlobalMesh g = build_global_mesh(mesh, std::move(validated.faces), opts.prep, &report);

  // METIS works on the renumbered dual graph; build_zones takes parts in fv::Mesh cell order.
  std::vector<idx_t> partRenumbered(static_cast<std::size_t>(g.nCells()), 0);
  if (opts.parts > 1) {
    log::Phase p("partitioning into " + std::to_string(opts.parts) + " zones (METIS)");
    const auto tp = std::chrono::steady_clock::now();
    partRenumbered = partition_cells(g.cellCells, opts.parts, opts.partition);
    report.add_phase("partitioning",
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - tp).count());
  }
  std::vector<idx_t> part(static_cast<std::size_t>(mesh.nCells()), 0);
  for (idx_t c = 0; c < g.nCells(); ++c)
    part[static_cast<std::size_t>(g.cellMesh[static_cast<std::size_t>(c)])] =
        partRenumbered[static_cast<std::size_t>(c)];

  ZoneFileHeader header = make_zone_header(mesh, g, opts.parts);
  header.commandLine = opts.commandLine;
  {
    std::ostringstream o;
    o << "parts=" << opts.parts << "; renumber=" << renumber_name(opts.prep.renumber)
      << "; imbalance=" << opts.partition.imbalance << "; seed=" << opts.partition.seed
      << "; objective=" << partition_objective_name(opts.partition.objective)
      << "; default-patch=" << opts.prep.faces.defaultPatch;
    header.options = o.str();
  }
  const PartitionReport partReport = partition_report(g.cellCells, partRenumbered, opts.parts);

  std::vector<Zone> zones = build_zones(g, part, opts.parts, opts.prep, &report);
  g = GlobalMesh(); // release the global arrays before writing

  {
    log::Phase p("writing " + opts.output);
    const auto tw = std::chrono::steady_clock::now();
    write_zone_file(opts.output, header, zones);
    report.add_phase("writing zone file",
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - tw).count());
  }

  PrepareResult r;
  r.meshUuid = header.meshUuid;
  r.fileBytes = std::filesystem::file_size(opts.output);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  print_prep_report(log, report, opts.perZoneReport ? 1 << 30 : 16);
  if (opts.parts > 1) print_partition_report(log, partReport, opts.perZoneReport);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%d zone(s), %.2f MiB, mesh %s (%.2f s)", opts.parts,
                static_cast<double>(r.fileBytes) / (1024.0 * 1024.0), r.meshUuid.c_str(),
                r.seconds);
  log << "wrote " << opts.output << ": " << buf << "\n";
  return r;
}

} // namespace fv
