// fvbench: GPU/CPU benchmark of fvrun's kernels on one zone of a zone file (docs/performance.md).
//
//   fvbench mesh.zones.h5 [--device auto|cpu|cuda] [--kernels all|auto|gather|atomic|colour|
//           fused-atomic|fused-colour|smem] [--repeats N] [--warmup N] [--runs N] [--csv FILE]
//           [--label NAME] [--batched 1,4,8]
//   fvbench --batched-model [mesh.zones.h5] [--krylov-its M]
#include "bench/fvbench/batched_model.hpp"
#include "bench/fvbench/benchmark.hpp"
#include "common/error.hpp"
#include "common/main.hpp"
#include "common/version.hpp"
#include "formats/zone_file_reader.hpp"
#include "runtime/backend/select.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
  return fv::run_main("fvbench", [&] {
    CLI::App app{"fvbench: time fvrun's kernels (ceilings, per-kernel bandwidth, residual-assembly "
                 "variants, whole RK stage) on one zone of a zone file"};
    app.set_version_flag("--version", std::string("fvkit ") + fv::kVersion);
    std::string path, device = "auto", kernelsOpt = "all", csv, label, cache, flux = "roe";
    int zoneId = 0, order = 2, runs = 1;
    fv::bench::BenchOptions o;
    bool noChecksum = false;
    app.add_option("zonefile", path,
                   "zone file written by fvprep (required but with --batched-model)");
    app.add_option("--zone", zoneId, "zone to benchmark (default 0)");
    app.add_option("--device", device, "auto, cpu or cuda (default auto)");
    app.add_option("--kernels", kernelsOpt,
                   "residual assembly of the whole stage: all (measure every variant; default), "
                   "auto (fastest, cached per mesh UUID and device), gather, smem, atomic, "
                   "colour, fused-atomic, fused-colour");
    app.add_option("--cache", cache, "kernel-choice cache file for --kernels auto");
    app.add_option("--repeats", o.repeats, "timed repeats per kernel (median; default 20)");
    app.add_option("--warmup", o.warmup, "untimed runs before (default 3)");
    app.add_option("--runs", runs,
                   "complete measurements (default 1); with 2 or more the table and CSV give "
                   "each row's deviation between runs and flag those above 5 %");
    app.add_option("--ceiling-mib", o.ceilingMiB,
                   "array size of the copy/triad ceilings (default 512 GPU, 128 CPU)");
    app.add_option("--order", order, "1 or 2 (default 2: gradients, limiter, MUSCL)");
    app.add_option("--flux", flux,
                   fv::join_enum_names(fv::kernels::kFluxNames, " or ") + " (default roe)");
    std::string model = "euler";
    app.add_option("--model", model,
                   fv::join_enum_names(fv::phys::kModelNames) +
                       ": the equations of the whole-stage measurement (default euler; "
                       "navier_stokes adds the viscous fluxes, Re 1e6; rans_sa also the "
                       "Spalart-Allmaras variable, and needs a zone file with the wall distance, "
                       "fvprep --walls)");
    app.add_option("--csv", csv, "append the rows to this CSV file");
    app.add_option("--label", label, "mesh name in the output (default: file name)");
    app.add_flag("--no-checksum", noChecksum, "skip the zone checksum pass when mapping");
    bool batchedModel = false;
    int krylovIts = 40;
    app.add_option("--batched", o.batched,
                   "batch sizes K (1, 2, 4, 8, 16; e.g. 1,4,8): measure the ceilings and the "
                   "batched flow conditions only (the flux sum and the Green-Gauss gradient of K "
                   "states in one pass against K passes; bench/fvbench/batched_conditions.hpp)")
        ->delimiter(',');
    app.add_flag("--batched-model", batchedModel,
                 "print the batched byte model (bytes per cell per state of an explicit stage "
                 "and a Newton-Krylov GMRES iteration for K states in one pass) for a wing of "
                 "tetrahedra, a box of hexahedra and the zone file's zone if given, and exit");
    app.add_option("--krylov-its", krylovIts,
                   "--batched-model: GMRES iterations per Newton iteration (default 40)");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    if (batchedModel) {
      FV_VERIFY_USAGE(krylovIts >= 1, "--krylov-its must be >= 1, got " << krylovIts);
      fv::bench::print_batched_model("wing, tetrahedra (counts of the issue's wing)",
                                     fv::bench::wing_tet_sizes(), krylovIts, std::cout);
      fv::bench::print_batched_model("box of 100^3 hexahedra", fv::bench::box_hex_sizes(100),
                                     krylovIts, std::cout);
      if (!path.empty()) {
        const fv::ZoneFile file = fv::open_zone_file(path);
        FV_VERIFY_USAGE(zoneId >= 0 && zoneId < file.nZones(), "--zone " << zoneId << ": " << path
                                                                         << " has " << file.nZones()
                                                                         << " zones");
        fv::MapOptions mo;
        mo.verifyChecksums = !noChecksum;
        const fv::Zone zone = fv::map_zone(file, zoneId, mo);
        fv::bench::print_batched_model(
            (label.empty() ? std::filesystem::path(path).filename().string() : label) + " zone " +
                std::to_string(zoneId),
            fv::bench::zone_sizes(zone, 0), krylovIts, std::cout);
      }
      return 0;
    }
    FV_VERIFY_USAGE(!path.empty(), "a zone file is required (but with --batched-model)");
    FV_VERIFY_USAGE(o.repeats >= 1 && o.warmup >= 0, "--repeats must be >= 1, --warmup >= 0");
    FV_VERIFY_USAGE(runs >= 1 && runs <= 10, "--runs must be 1 to 10, got " << runs);
    FV_VERIFY_USAGE(order == 1 || order == 2, "--order must be 1 or 2, got " << order);
    FV_VERIFY_USAGE(fv::parse_enum(fv::kernels::kFluxNames, flux, o.flux),
                    "--flux must be " << fv::join_enum_names(fv::kernels::kFluxNames, " or "));
    fv::phys::ModelKind kind{};
    FV_VERIFY_USAGE(fv::parse_enum(fv::phys::kModelNames, model, kind),
                    "--model must be one of " << fv::join_enum_names(fv::phys::kModelNames));
    o.viscous = kind == fv::phys::ModelKind::NavierStokes;
    o.rans = kind == fv::phys::ModelKind::RansSa;
    o.secondOrder = order == 2;
    o.cachePath = cache;
    if (kernelsOpt == "all")
      o.choice = fv::bench::KernelChoice::All;
    else if (kernelsOpt == "auto")
      o.choice = fv::bench::KernelChoice::Auto;
    else {
      o.choice = fv::bench::KernelChoice::One;
      o.variant = fv::bench::parse_flux_sum_variant(kernelsOpt);
    }

    const std::string dev = fv::select_device(fv::parse_device_request(device));
    std::cerr << "fvbench: device " << dev << "\n";
    const fv::ZoneFile file = fv::open_zone_file(path);
    FV_VERIFY_USAGE(zoneId >= 0 && zoneId < file.nZones(),
                    "--zone " << zoneId << ": " << path << " has " << file.nZones() << " zones");
    fv::MapOptions mo;
    mo.verifyChecksums = !noChecksum;
    const fv::Zone zone = fv::map_zone(file, zoneId, mo);
    if (label.empty()) label = std::filesystem::path(path).filename().string();
    if (file.nZones() > 1) label += " zone " + std::to_string(zoneId);
    std::vector<fv::bench::BenchReport> reps;
    for (int r = 0; r < runs; ++r) {
      if (runs > 1) std::cerr << "fvbench: run " << r + 1 << " of " << runs << "\n";
      reps.push_back(fv::bench::run_benchmark(zone, file.header(), label, o));
    }
    const fv::bench::BenchReport rep = fv::bench::merge_runs(std::move(reps));
    if (!csv.empty()) fv::bench::append_csv(rep, csv);
    fv::bench::print_report(rep, std::cout);
    return 0;
  });
}
