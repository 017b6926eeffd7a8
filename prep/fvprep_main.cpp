// fvprep: offline mesh preparation.
//
//   fvprep MESH [--parts N] -o OUT     prepare a zone file (import, validate, renumber, build
//                                      connectivity/geometry/orderings, partition, write)
//   mpirun -np R fvprep MESH --parts N -o OUT
//                                      the same on R processes (prep/dist_prepare.hpp)
//   fvprep info FILE [--json]          summarise a mesh (import + validate) or a zone file
//   fvprep check ZONES                 verify a zone file (checksums, exchange lists, geometry)
//   fvprep partition add|list|remove ZONES [--parts N]
//                                      several partitionings in one zone file
//
// Reader options (--base, --zone, --merge-tol, --extrude, --bc, --default-patch) and verbosity
// (-v/-q) are accepted by every command. Usage errors exit 2, runtime errors 1.
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/main.hpp"
#include "common/version.hpp"
#include "formats/hdf5_file.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/mesh_slice.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/dist_prepare.hpp"
#include "prep/huge_pages.hpp"
#include "prep/mesh_info.hpp"
#include "prep/prepare.hpp"
#include "prep/repartition.hpp"
#include "prep/validate.hpp"
#include "prep/zone_check.hpp"
#include "prep/zone_info.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mpi.h>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {

/// Options shared by every fvprep command that reads a mesh.
struct ImportOptions {
  fv::ReadOptions read;
  fv::ValidateOptions validate;
  std::vector<std::string> renames; ///< --rename-patch OLD=NEW, into read.renamePatches
};

void add_import_options(CLI::App& app, ImportOptions& o) {
  app.add_option("--base", o.read.base, "CGNS base to read (default: the only one)");
  app.add_option(
      "--zone", o.read.zone,
      "zone to read: a CGNS zone name or an SU2 zone number (default: all zones, merged)");
  app.add_option("--merge-tol", o.read.mergeTolerance,
                 "distance below which nodes of different CGNS zones or Plot3D blocks are glued "
                 "(default: 1e-8 x bounding-box diagonal)");
  app.add_option("--extrude", o.read.extrudeThickness,
                 "thickness of the cell layer 2D meshes are extruded into (default: 1/100 of "
                 "the largest extent)");
  app.add_option("--bc", o.read.bcFile,
                 "Plot3D: boundary-condition side file (default: GRID.bc next to GRID.x)");
  app.add_option("--rename-patch", o.renames,
                 "rename a patch as it is read: OLD=NEW, OLD as the mesh file writes it (runs "
                 "of spaces included; repeatable)")
      ->type_name("OLD=NEW");
  app.add_option("--default-patch", o.validate.defaultPatch,
                 "patch for boundary faces the file assigns to none (default: error)");
  app.add_option("--closure-tol", o.validate.closureTol,
                 "largest |sum S|/sum|S| accepted for a cell (default 1e-8)");
}

/// Usage errors of reader options a command was given: --extrude finite and positive (how
/// thin a 2D mesh can be extruded is checked against its coordinates: extrude_2d()).
void verify_import_options(const CLI::App& app, ImportOptions& o) {
  for (const std::string& r : o.renames) {
    const std::size_t eq = r.rfind('=');
    FV_VERIFY_USAGE(eq != std::string::npos && eq > 0,
                    "--rename-patch '" << r << "': expected OLD=NEW");
    o.read.renamePatches.emplace_back(r.substr(0, eq), r.substr(eq + 1));
  }
  if (app.count("--extrude") > 0)
    FV_VERIFY_USAGE(std::isfinite(o.read.extrudeThickness) && o.read.extrudeThickness > 0,
                    "--extrude " << o.read.extrudeThickness
                                 << ": the thickness must be a finite number > 0");
}

/// The output of a prepare must not replace an input (the mesh, a Plot3D side file; a link or
/// another name of one too) nor anything but a regular file: the zone file is renamed over
/// `out`, which would replace a device node such as /dev/null with a regular file.
void verify_output(const std::string& out, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(out, ec);
  if (!fs::exists(st)) return;
  FV_VERIFY_USAGE(fs::is_regular_file(st),
                  "-o " << out << ": exists and is not a regular file (a directory, device or "
                        << "pipe); give the path of a zone file to write");
  for (const std::string& in : inputs)
    FV_VERIFY_USAGE(in.empty() || !fs::equivalent(out, in, ec),
                    "-o " << out << ": is the input " << in
                          << " (the zone file would replace it); give another output path");
}

struct Imported {
  fv::Mesh mesh;
  fv::ValidationReport report;
};

Imported import_mesh(const std::string& path, const ImportOptions& o) {
  Imported im;
  {
    fv::log::Phase p("reading " + path);
    im.mesh = fv::read_mesh(path, o.read);
    p.note(std::to_string(im.mesh.nCells()) + " cells, " + std::to_string(im.mesh.nNodes()) +
           " nodes");
  }
  im.report = fv::validate_mesh(im.mesh, o.validate);
  return im;
}

/// glibc serves an allocation from its per-thread heaps once a block of that size has been
/// freed (the mmap threshold rises to the largest freed block, up to 32 MiB), and memory freed
/// there is rarely returned. Zone building frees and allocates arrays of a few MiB on 16+
/// threads, so a fixed threshold of 1 MiB keeps the peak lower; fresh mappings cost a few more
/// page faults (measured: bench/results/prep_scale_h100host_20261125.md). A
/// user's MALLOC_MMAP_THRESHOLD_ wins.
void keep_large_blocks_returnable() {
#if defined(__GLIBC__)
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

/// True when an MPI launcher (Open MPI's mpirun, a PMI/PMIx launcher) started this process:
/// fvprep initialises MPI only then, so that a plain `fvprep` stays a serial program.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

/// MPI for the lifetime of main() when launched by mpirun: rank and size, finalised at exit.
struct MpiSession {
  bool on = false;
  int rank = 0, size = 1;
  MpiSession(int& argc, char**& argv) {
    if (!launched_by_mpi()) return;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    on = true;
    share_cores();
  }
  /// Without OMP_NUM_THREADS, the processes of one node share its cores: each takes
  /// cores / (processes on the node) OpenMP threads (at least one), not all of them.
  static void share_cores() {
#if defined(_OPENMP)
    if (std::getenv("OMP_NUM_THREADS") != nullptr) return;
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int local = 1;
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    omp_set_num_threads(std::max(1, omp_get_num_procs() / local));
#endif
  }
  ~MpiSession() {
    if (on) MPI_Finalize();
  }
};

} // namespace

int main(int argc, char** argv) {
  fv::reexec_with_huge_pages(argv); // first: it starts the program again (prep/huge_pages.hpp)
  // before any thread starts: a SIGTERM while METIS runs (which sets its own handler) must
  // still remove the zone file's temporary and end fvprep with one line
  fv::take_stop_signals_on_a_thread("fvprep");
  keep_large_blocks_returnable();
  // fvprep reads untrusted files: the CGNS library leaves HDF5 objects open when it fails on a
  // corrupt CGNS/HDF5 file
  fv::h5::skip_library_shutdown();
  MpiSession mpi(argc, argv);
  const bool distributed = mpi.size > 1;
  return fv::run_main("fvprep", [&]() -> int {
    try {
      return [&]() -> int {
        CLI::App app{"fvprep: prepare an unstructured mesh for fvrun"};
        app.set_version_flag("--version", std::string("fvkit ") + fv::kVersion);
        app.require_subcommand(0, 1);
        int verbose = 0;
        bool quiet = false;
        app.add_flag("-v,--verbose", verbose, "more messages (-vv: debug)");
        app.add_flag("-q,--quiet", quiet,
                     "only errors (info, check and partition list still print their result)");

        // prepare (default command)
        ImportOptions prepOpts;
        std::string meshPath, outPath;
        int parts = 1;
        app.add_option("mesh", meshPath,
                       "mesh file (CGNS, SU2, Gmsh, Plot3D) or OpenFOAM polyMesh/case directory");
        app.add_option("-o,--output", outPath, "zone file to write");
        app.add_option("--parts", parts, "number of zones (MPI ranks)")->check(CLI::PositiveNumber);
        add_import_options(app, prepOpts);
        std::string renumber = "rcm", objective = "cut";
        fv::PartitionOptions partOpts;
        app.add_option("--renumber", renumber,
                       "cell ordering: rcm (reverse Cuthill-McKee) or none");
        std::string zoneOrder = "wavefront";
        app.add_option(
            "--zone-order", zoneOrder,
            "order of each zone's cells with --renumber rcm: wavefront (BFS levels from the "
            "interface, colour by colour, where it cuts the LU-SGS hyperplanes by a "
            "quarter; default) or rcm (the zone's RCM order: smallest bandwidth)");
        std::vector<std::string> walls;
        app.add_option(
               "--walls", walls,
               "patches whose faces are walls for the cells' wall distance, comma-separated "
               "(default: the patches of CGNS BC type BCWall, BCWallViscous*)")
            ->delimiter(',');
        app.add_option("--imbalance", partOpts.imbalance,
                       "largest zone / average zone allowed to METIS (default 1.03)");
        app.add_option("--objective", objective, "METIS objective: cut (edge cut) or vol");
        app.add_option("--seed", partOpts.seed, "METIS random seed (default 0)");
        bool perZone = false;
        app.add_flag("--per-zone", perZone, "print one partition line per zone");
        std::string partitioner;
        app.add_option("--partitioner", partitioner,
                       "under mpirun: ptscotch (PT-Scotch on every process, the default) or metis "
                       "(METIS on the first process: the serial prepare's partition and file)");

        // info
        CLI::App* info =
            app.add_subcommand("info", "summarise a mesh (read + validate) or a zone file");
        ImportOptions infoOpts;
        std::string infoPath;
        bool json = false;
        info->add_option(
                "file", infoPath,
                "mesh file (CGNS, SU2, Gmsh, Plot3D), OpenFOAM polyMesh/case directory or zone "
                "file")
            ->required();
        info->add_flag("--json", json, "print the summary as JSON on stdout");
        add_import_options(*info, infoOpts);
        info->fallthrough();

        // check
        CLI::App* check = app.add_subcommand("check", "check a zone file end to end");
        std::string checkPath;
        fv::ZoneCheckOptions checkOpts;
        bool noChecksums = false, noUuid = false;
        check->add_option("zones", checkPath, "zone file (.zones.h5)")->required();
        check->add_flag("--no-checksums", noChecksums, "skip recomputing dataset checksums");
        check->add_flag("--no-uuid", noUuid, "skip recomputing the mesh UUID");
        check->add_option("--max-messages", checkOpts.maxMessages, "problems printed in full");
        check->add_option("--parts", checkOpts.parts,
                          "check only the partitioning of this many zones (default: every one)");
        check->fallthrough();

        // partition add | list | remove
        CLI::App* partition = app.add_subcommand(
            "partition", "add, list or remove partitionings of a zone file (one per part count)");
        partition->require_subcommand(1);
        std::string partPath;
        int partParts = 0;
        fv::PartitionOptions addOpts;
        std::string addObjective = "cut";
        CLI::App* partAdd = partition->add_subcommand(
            "add", "partition the mesh of a zone file again, from the zone file alone");
        partAdd->add_option("zones", partPath, "zone file (.zones.h5)")->required();
        partAdd->add_option("--parts", partParts, "number of zones of the new partitioning")
            ->required()
            ->check(CLI::PositiveNumber);
        partAdd->add_option("--imbalance", addOpts.imbalance,
                            "largest zone / average zone allowed to METIS (default 1.03)");
        partAdd->add_option("--objective", addObjective, "METIS objective: cut (edge cut) or vol");
        partAdd->add_option("--seed", addOpts.seed, "METIS random seed (default 0)");
        partAdd->add_flag("--per-zone", perZone, "print one partition line per zone");
        CLI::App* partList =
            partition->add_subcommand("list", "list the partitionings of a zone file");
        partList->add_option("zones", partPath, "zone file (.zones.h5)")->required();
        CLI::App* partRemove =
            partition->add_subcommand("remove", "remove a partitioning from a zone file");
        partRemove->add_option("zones", partPath, "zone file (.zones.h5)")->required();
        partRemove->add_option("--parts", partParts, "part count of the partitioning to remove")
            ->required();
        for (CLI::App* a : {partition, partAdd, partList, partRemove})
          a->fallthrough();

        try {
          app.parse(argc, argv);
        } catch (const CLI::CallForHelp& e) {
          return app.exit(e);
        } catch (const CLI::CallForAllHelp& e) {
          return app.exit(e);
        } catch (const CLI::CallForVersion& e) {
          return app.exit(e);
        } catch (const CLI::ParseError& e) {
          FV_VERIFY_USAGE(false, e.what() << " (see fvprep --help)");
        }
        fv::log::set_level(quiet          ? fv::log::Level::Quiet
                           : verbose >= 2 ? fv::log::Level::Debug
                           : verbose == 1 ? fv::log::Level::Info
                                          : fv::log::Level::Warn);
        if (mpi.rank != 0) fv::log::set_level(fv::log::Level::Quiet);
        FV_LOG_INFO(fv::huge_pages_state());
        FV_VERIFY_USAGE(
            !distributed || (!partition->parsed() && !check->parsed() && !info->parsed()),
            "only the prepare command runs on several processes (run fvprep info, check "
            "and partition without mpirun)");
        FV_VERIFY_USAGE(distributed || partitioner.empty() || partitioner == "metis",
                        "--partitioner " << partitioner
                                         << " needs several processes (mpirun -np N "
                                            "fvprep ...); one process partitions with METIS");

        if (partition->parsed()) {
          std::string commandLine;
          for (int i = 0; i < argc; ++i)
            commandLine += (i ? " " : "") + std::string(argv[i]);
          if (partAdd->parsed()) {
            addOpts.objective = fv::parse_partition_objective(addObjective);
            const fv::RepartitionSummary r =
                fv::add_partitioning(partPath, partParts, addOpts, commandLine);
            if (quiet) return 0; // -q: errors only
            fv::print_prep_report(std::cout, r.report);
            if (partParts > 1) fv::print_partition_report(std::cout, r.partition, perZone);
            std::cout << "added to " << partPath << ": a partitioning of " << partParts
                      << " zone(s)\n";
          } else if (partRemove->parsed()) {
            fv::remove_partitioning(partPath, partParts);
            if (!quiet)
              std::cout << "removed from " << partPath << ": the partitioning of " << partParts
                        << " zone(s)\n";
          } else {
            fv::print_partitionings(std::cout, partPath);
          }
          return 0;
        }
        if (check->parsed()) {
          checkOpts.verifyChecksums = !noChecksums;
          checkOpts.checkUuid = !noUuid;
          return fv::run_zone_check(checkPath, checkOpts);
        }
        if (info->parsed() && fv::is_zone_file(infoPath)) {
          fv::print_zone_info(infoPath, json);
          return 0;
        }
        if (info->parsed()) {
          verify_import_options(*info, infoOpts);
          Imported im = import_mesh(infoPath, infoOpts);
          const fv::MeshSummary s = fv::summarize_mesh(im.mesh, im.report);
          if (json)
            fv::print_summary_json(std::cout, s);
          else
            fv::print_summary_text(std::cout, s);
          return 0;
        }

        FV_VERIFY_USAGE(!meshPath.empty(), "no mesh given (usage: fvprep MESH [--parts N] -o OUT, "
                                           "fvprep info MESH; see --help)");
        FV_VERIFY_USAGE(!outPath.empty(), "no output file given (-o OUT)");
        verify_import_options(app, prepOpts);
        verify_output(outPath, {meshPath, prepOpts.read.bcFile});
        fv::PrepareOptions po;
        po.parts = parts;
        po.partition = partOpts;
        po.partition.objective = fv::parse_partition_objective(objective);
        po.prep.renumber = fv::parse_renumber(renumber);
        FV_VERIFY_USAGE(zoneOrder == "wavefront" || zoneOrder == "rcm",
                        "--zone-order " << zoneOrder << ": not wavefront or rcm");
        po.prep.wavefrontOrder = zoneOrder == "wavefront";
        po.prep.faces.defaultPatch = prepOpts.validate.defaultPatch;
        po.prep.closureTol = prepOpts.validate.closureTol;
        po.prep.walls = walls;
        prepOpts.validate.geometry = false; // computed and checked once, by the prepare
        std::string commandLine;
        for (int i = 0; i < argc; ++i)
          commandLine += (i ? " " : "") + std::string(argv[i]);
        fv::PrepareSummary prepared;
        if (distributed) {
          const fv::dist::Comm comm(MPI_COMM_WORLD);
          const fv::DistPartitioner who =
              fv::parse_dist_partitioner(partitioner.empty() ? "ptscotch" : partitioner);
          fv::MeshSlice slice;
          fv::dist::run_collectively(comm, [&] {
            fv::log::Phase p("reading " + meshPath);
            slice = fv::read_mesh_slice(meshPath, prepOpts.read, comm.rank(), comm.size());
            p.note(std::to_string(slice.nCells) + " cells, " + std::to_string(slice.nNodes) +
                   (slice.partialRead ? " nodes, a slice on each of "
                                      : " nodes, read whole and cut on each of ") +
                   std::to_string(comm.size()) + " processes");
          });
          prepared = fv::prepare_zone_file_distributed(comm, std::move(slice), po, who, outPath,
                                                       commandLine);
          struct rusage ru {};
          getrusage(RUSAGE_SELF, &ru);
          const std::int64_t kib = ru.ru_maxrss;
          const std::int64_t maxKib = comm.max(kib), sumKib = comm.sum(kib);
          if (comm.rank() != 0 || quiet) return 0;
          std::printf(
              "processes: %d; peak memory per process max %.2f GiB, all processes %.2f GiB\n",
              comm.size(), maxKib / 1048576.0, sumKib / 1048576.0);
        } else {
          Imported im = import_mesh(meshPath, prepOpts);
          prepared = fv::prepare_zone_file(std::move(im.mesh), std::move(im.report.faces), po,
                                           outPath, commandLine);
        }
        if (quiet) return 0; // -q: errors only
        fv::print_prep_report(std::cout, prepared.report);
        if (po.parts > 1) fv::print_partition_report(std::cout, prepared.partition, perZone);
        std::cout << "wrote " << outPath << ": " << po.parts << " zone(s), mesh "
                  << prepared.header.meshUuid << "\n";
        return 0;
      }();
    } catch (const fv::Error& e) {
      // A distributed prepare fails on every rank with the same error: rank 0 reports it.
      if (mpi.rank != 0) return e.exit_code();
      throw;
    }
  });
}
