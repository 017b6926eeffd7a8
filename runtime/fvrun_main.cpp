// fvrun: runs a compressible Euler case on a prepared zone file, on the GPU when there is one
// (or with --device cpu on the CPU through OpenMP, from the same kernels).
//
//   fvrun mesh.zones.h5 -c case.ini [--set section.key=value]... [--iterations N] [--cfl X]
//         [--device auto|cpu|cuda] [--output-dir DIR] [--quiet]
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/version.hpp"
#include "formats/zone_file_reader.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "runtime/solver/solution_output.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  return fv::parallel::run_mpi_main("fvrun", argc, argv, [&]() -> int {
    CLI::App app{"fvrun: run a compressible Euler case on a prepared zone file (fvprep)"};
    app.set_version_flag("--version", std::string("fvkit ") + fv::kVersion);
    std::string zonePath, casePath, device, outputDir;
    std::vector<std::string> sets;
    int iterations = -1;
    double cfl = -1;
    bool quiet = false, noChecksums = false;
    app.add_option("zones", zonePath, "zone file written by fvprep (mesh.zones.h5)")->required();
    app.add_option("-c,--case", casePath, "case file (INI; see README for every key)")->required();
    app.add_option("--set", sets,
                   "override a case key: section.key=value (repeatable), e.g. "
                   "--set 'patch wall.type=slip_wall'");
    app.add_option("--iterations", iterations, "same as --set time.iterations=N");
    app.add_option("--cfl", cfl, "same as --set time.cfl=X");
    app.add_option("--device", device, "same as --set run.device=auto|cpu|cuda");
    app.add_option("--output-dir", outputDir, "same as --set monitor.output_dir=DIR");
    app.add_flag("-q,--quiet", quiet, "only warnings and errors");
    app.add_flag("--no-checksums", noChecksums, "skip verifying the zone file's checksums");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    if (quiet) fv::log::set_level(fv::log::Level::Warn);

    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    FV_VERIFY_USAGE(size == 1, "fvrun runs one zone per process and this build runs single-zone "
                               "cases only; start it without mpirun (got "
                                   << size << " ranks)");

    // ---- case file and overrides (command line wins)
    fv::IniFile ini = fv::IniFile::read(casePath);
    for (const auto& s : sets)
      ini.set_override(s);
    if (iterations >= 0) ini.set("time", "iterations", std::to_string(iterations));
    if (cfl > 0) ini.set("time", "cfl", std::to_string(cfl));
    if (!device.empty()) ini.set("run", "device", device);
    if (!outputDir.empty()) ini.set("monitor", "output_dir", outputDir);

    // ---- mesh
    fv::Zone zone;
    fv::ZoneFileHeader header;
    {
      fv::log::Phase p("mapping " + zonePath);
      const fv::ZoneFile file = fv::open_zone_file(zonePath);
      header = file.header();
      FV_VERIFY_USAGE(file.nZones() == 1,
                      zonePath << " holds " << file.nZones()
                               << " zones; this fvrun runs single-zone files only (prepare the "
                                  "mesh with fvprep --parts 1)");
      fv::MapOptions mo;
      mo.verifyChecksums = !noChecksums;
      zone = fv::map_zone(file, 0, mo);
    }
    const fv::CaseConfig cfg = fv::resolve_case(ini, header.patches);
    const std::string where = fv::select_device(fv::parse_device_request(cfg.device));
    FV_LOG_INFO("fvkit " << fv::kVersion << " fvrun: " << zone.nCells << " cells, " << zone.nFaces
                         << " faces, " << zone.nNodes << " nodes, " << zone.nPatches()
                         << " patches; device: " << where);

    // ---- solve
    std::unique_ptr<fv::EulerSolver> solver;
    {
      fv::log::Phase p("copying the zone to the device");
      solver = std::make_unique<fv::EulerSolver>(zone, cfg);
      solver->initialise();
      fv::backend::synchronize();
      p.note(std::to_string(fv::backend::bytes_allocated() >> 20) + " MiB on the device");
    }
    const fv::RunSummary sum =
        fv::run_case(*solver, true, fv::volume_solution_writer(MPI_COMM_WORLD, header));
    const auto& last = sum.history.back();
    FV_LOG_INFO("fvrun: " << sum.stopReason << " after " << sum.iterations << " iterations in "
                          << sum.wallSeconds << " s (" << sum.nsPerCellIteration
                          << " ns per cell per iteration); CL " << last.coeff.CL << ", CD "
                          << last.coeff.CD << "; outputs in " << cfg.outputDir);
    return 0;
  });
}
