// fvrun: runs a compressible Euler case on a prepared zone file, on the GPU when there is one
// (or with --device cpu on the CPU through OpenMP, from the same kernels).
//
//   [mpirun -np N] fvrun mesh.zones.h5 -c case.ini [--set section.key=value]... [--iterations N]
//         [--cfl X] [--device auto|cpu|cuda] [--output-dir DIR] [--restart FILE]
//         [--no-overlap] [--comm-timing] [--cuda-aware-mpi] [--profile] [--quiet]
// One zone per MPI rank (N = the zone count of the file). The shortcuts of case keys
// (--iterations ... --profile) are declared by the keys' schema entries (CaseKey::cli): their
// text is the key's value, parsed and checked as a case file's would be.
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/version.hpp"
#include "formats/zone_file_reader.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/parallel/solution_output.hpp"
#include "runtime/parallel/zone_mapping.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "runtime/solver/solution_output.hpp"
#include "runtime/solver/state_model.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>

int main(int argc, char** argv) {
  return fv::parallel::run_mpi_main("fvrun", argc, argv, [&]() -> int {
    CLI::App app{"fvrun: run a compressible Euler, Navier-Stokes or RANS (Spalart-Allmaras) case "
                 "on a prepared zone file (fvprep)"};
    app.set_version_flag("--version", std::string("fvkit ") + fv::kVersion);
    app.add_flag_callback(
        "--keys",
        [] {
          std::cout << fv::case_keys_markdown();
          throw CLI::Success();
        },
        "print every case-file key (section, key, type, unit, default, meaning) as a Markdown "
        "table");
    std::string zonePath, casePath;
    std::vector<std::string> sets;
    bool quiet = false, verbose = false, noChecksums = false;
    std::string restartPath;
    app.add_option("zones", zonePath, "zone file written by fvprep (mesh.zones.h5)")->required();
    app.add_option("-c,--case", casePath, "case file (INI; see README for every key)")->required();
    app.add_option("--set", sets,
                   "override a case key: section.key=value (repeatable), e.g. "
                   "--set 'patch wall.type=slip_wall'");
    // the case keys' own options: the value text goes to the key as given (or the flag's value)
    struct Shortcut {
      const fv::CaseKey* key;
      std::string value;
      CLI::Option* option = nullptr;
    };
    std::vector<Shortcut> shortcuts;
    shortcuts.reserve(fv::case_keys().size()); // `value` is bound by address
    for (const fv::CaseKey& k : fv::case_keys()) {
      if (!k.cli.name) continue;
      Shortcut& sc = shortcuts.emplace_back(Shortcut{&k, {}});
      const std::string set = std::string(" (same as --set ") + k.section + "." + k.key + "=";
      const std::string name = k.cli.name;
      if (k.cli.flagValue) {
        const std::string help = std::string(k.cli.help) + set + k.cli.flagValue + ")";
        sc.option = app.add_flag(name, help);
      } else
        sc.option =
            app.add_option(name, sc.value, k.meaning + set + "VALUE)")->type_name(k.type_text());
    }
    app.add_flag("-q,--quiet", quiet, "only warnings and errors");
    app.add_flag("-v,--verbose", verbose,
                 "also a line per iteration (CFL, linear iterations and residual, relaxation)");
    app.add_option("--restart", restartPath,
                   "start from a restart file (restart.h5 of a run on any number of ranks of the "
                   "same mesh)");
    app.add_flag("--no-checksums", noChecksums, "skip verifying the zone file's checksums");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    if (quiet) fv::log::set_level(fv::log::Level::Warn);
    if (verbose && !quiet) fv::log::set_level(fv::log::Level::Debug);

    const MPI_Comm comm = MPI_COMM_WORLD;
    const int rank = fv::parallel::comm_rank(comm), size = fv::parallel::comm_size(comm);
    if (rank != 0) fv::log::set_level(fv::log::Level::Warn); // one progress log per job

    // ---- case file and overrides (command line wins)
    fv::IniFile ini = fv::IniFile::read(casePath);
    for (const auto& s : sets)
      ini.set_override(s);
    for (const Shortcut& sc : shortcuts) // given, even empty: resolve_case judges the text
      if (sc.option->count() > 0)
        ini.set(sc.key->section, sc.key->key,
                sc.key->cli.flagValue ? std::string(sc.key->cli.flagValue) : sc.value);

    // ---- mesh
    fv::Zone zone;
    fv::ZoneFileHeader header;
    {
      fv::log::Phase p("mapping " + zonePath);
      fv::ZoneFile file = fv::open_zone_file(zonePath);
      // the partitioning with one zone per rank (`fvprep partition add` puts several in a file)
      const std::vector<int> held = file.partitionings();
      if (file.nZones() != size && std::find(held.begin(), held.end(), size) != held.end()) {
        file = fv::open_zone_file(zonePath, size);
        std::string list;
        for (int n : held)
          list += (list.empty() ? "" : ", ") + std::to_string(n);
        FV_LOG_INFO("fvrun: " << zonePath << ": the partitioning of " << size
                              << " zones (the file holds " << list
                              << "), added by: " << file.header().commandLine);
      }
      header = file.header();
      // on a rank-count mismatch, name the part counts prepared for this mesh: the file's own
      // partitionings and the zone files next to it
      std::vector<int> available;
      if (file.nZones() != size) {
        available = held;
        namespace fs = std::filesystem;
        std::error_code ec;
        const fs::path dir = fs::path(zonePath).parent_path().empty()
                                 ? fs::path(".")
                                 : fs::path(zonePath).parent_path();
        for (const auto& e : fs::directory_iterator(dir, ec)) {
          const std::string name = e.path().filename().string();
          if (name.size() < 9 || name.compare(name.size() - 9, 9, ".zones.h5") != 0) continue;
          try {
            const fv::ZoneFile other = fv::open_zone_file(e.path().string());
            if (other.header().meshUuid == header.meshUuid)
              available.insert(available.end(), other.partitionings().begin(),
                               other.partitionings().end());
          } catch (const std::exception&) { // not a readable zone file: not a candidate
          }
        }
        std::sort(available.begin(), available.end());
        available.erase(std::unique(available.begin(), available.end()), available.end());
      }
      const int zoneId = fv::parallel::zone_of_rank(comm, zonePath, file.nZones(), available);
      fv::MapOptions mo;
      mo.verifyChecksums = !noChecksums;
      zone = fv::map_zone(file, zoneId, mo);
    }
    const fv::CaseConfig cfg = fv::resolve_case(ini, header.patches);
    const std::string where = fv::select_device(cfg.run.device);
    // the transport is chosen on one rank too, so that an impossible request fails the same
    const std::unique_ptr<fv::backend::Communicator> communicator =
        fv::backend::make_communicator(comm, cfg.run.transport);
    fv::ParallelSetup par;
    if (size > 1) {
      par.comm = communicator.get();
      par.overlap = cfg.run.overlap;
      par.commTiming = cfg.run.commTiming;
    }
    const fv::gidx_t maxHalo = fv::parallel::max_all<fv::gidx_t>(comm, zone.nHaloCells);
    FV_LOG_INFO("fvkit " << fv::kVersion << " fvrun: " << header.nGlobalCells << " cells in "
                         << size << " zone" << (size > 1 ? "s" : "") << " (rank 0: " << zone.nCells
                         << " cells, " << zone.nHaloCells << " halo; largest halo " << maxHalo
                         << "), " << zone.nPatches() << " patches; device: " << where
                         << (size > 1 ? std::string("; transport ") + communicator->name() +
                                            (par.overlap ? ", overlapped" : ", not overlapped")
                                      : std::string()));

    // ---- solve
    std::unique_ptr<fv::EulerSolver> solver;
    {
      fv::log::Phase p("copying the zone to the device");
      solver = std::make_unique<fv::EulerSolver>(zone, cfg, par);
      solver->initialise();
      fv::backend::synchronize();
      p.note(std::to_string(fv::backend::bytes_allocated() >> 20) + " MiB on the device");
    }
    fv::parallel::SolutionOutput out(comm, zone, header.nGlobalNodes, header.nGlobalCells,
                                     header.meshUuid);
    const fv::idx_t nt = zone.nTotalCells();
    const fv::StateModel& sm = solver->state();
    const int nv = sm.nVars;
    if (!restartPath.empty()) {
      fv::log::Phase p("reading restart " + restartPath);
      std::vector<fv::real_t> owned(static_cast<std::size_t>(zone.nCells) * nv);
      int held = nv;
      // a mean-flow restart (Euler, laminar) may start a RANS run: nu-tilde of the free stream
      const fv::SolutionInfo at =
          out.read_restart(restartPath, owned.data(), nv, fv::phys::kNumEq, &held);
      const std::vector<fv::real_t> inf = sm.freestream(cfg.flow);
      std::vector<fv::real_t> U(static_cast<std::size_t>(nt) * nv, 0.0);
      for (fv::idx_t c = 0; c < zone.nCells; ++c)
        for (int k = 0; k < nv; ++k) {
          const fv::real_t* u = &owned[static_cast<std::size_t>(c) * nv];
          U[static_cast<std::size_t>(k) * nt + c] = k < held ? u[k] : u[0] * inf[k];
        }
      if (held < nv)
        FV_LOG_INFO("restart " << restartPath << " holds the mean flow only: "
                               << sm.conservative[static_cast<std::size_t>(held)]
                               << " starts from the free stream");
      solver->set_conservative(U);
      solver->set_progress(static_cast<int>(at.iteration), at.time);
      p.note("iteration " + std::to_string(at.iteration));
    }
    {
      const fv::AssemblyChoice a = solver->choose_assembly(header.meshUuid);
      FV_LOG_INFO("residual assembly: " << a.note);
      FV_LOG_INFO("node interpolation: " << a.nodeLoop);
    }
    const fv::SolutionWriter volume = fv::volume_solution_writer(comm, header);
    const fv::SolutionWriter writer = [&](const fv::EulerSolver& s, const std::string& reason) {
      // benchmarks: history/profile only
      if (!cfg.monitor.writeSolution && reason == "final") return;
      volume(s, reason);
      if (reason != "final") return; // a diverged state never replaces the last good restart
      const std::vector<fv::real_t> U = s.conservative();
      std::vector<fv::real_t> owned(static_cast<std::size_t>(zone.nCells) * nv);
      for (fv::idx_t c = 0; c < zone.nCells; ++c)
        for (int k = 0; k < nv; ++k)
          owned[static_cast<std::size_t>(c) * nv + k] = U[static_cast<std::size_t>(k) * nt + c];
      // surface CSV of every monitored wall patch: pressure of the wall cells and Cp
      {
        const std::vector<fv::real_t> W = s.primitive();
        const fv::real_t pInf = cfg.flow.freestream[4];
        fv::real_t q = cfg.flow.dynamic_pressure();
        if (!(q > 0)) q = 1.0;
        std::vector<fv::idx_t> patches;
        std::vector<std::string> names;
        for (fv::idx_t p = 0; p < zone.nPatches(); ++p)
          if (std::find(cfg.monitor.forcePatches.begin(), cfg.monitor.forcePatches.end(),
                        cfg.patches[p].name) != cfg.monitor.forcePatches.end()) {
            patches.push_back(p);
            names.push_back(cfg.patches[p].name);
          }
        // Navier-Stokes: skin friction (vector and magnitude), wall heat flux and y+
        const std::vector<fv::real_t> wv =
            cfg.flow.viscous() ? s.wall_viscous_data() : std::vector<fv::real_t>();
        const std::size_t nb = static_cast<std::size_t>(zone.nBoundaryFaces);
        out.write_surfaces(cfg.monitor.outputDir + "/surface", patches, names, [&](fv::idx_t p) {
          std::vector<fv::SurfaceColumn> cols = {{"p", {}}, {"Cp", {}}};
          if (cfg.flow.viscous())
            for (const char* c : {"Cf_x", "Cf_y", "Cf_z", "Cf", "heat_flux", "y_plus"})
              cols.push_back({c, {}});
          for (fv::idx_t f = zone.patchFaceOffsets[p]; f < zone.patchFaceOffsets[p + 1]; ++f) {
            const fv::real_t pc = W[static_cast<std::size_t>(4) * nt + zone.faceOwner[f]];
            cols[0].values.push_back(pc);
            cols[1].values.push_back((pc - pInf) / q);
            if (!cfg.flow.viscous()) continue;
            const fv::real_t* S = &zone.faceArea[3 * static_cast<std::size_t>(f)];
            const fv::real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
            const std::size_t i = static_cast<std::size_t>(f);
            fv::real_t cf2 = 0;
            for (int k = 0; k < 3; ++k) {
              const fv::real_t cf = wv[k * nb + i] / (area * q);
              cols[2 + k].values.push_back(cf);
              cf2 += cf * cf;
            }
            cols[5].values.push_back(std::sqrt(cf2));
            cols[6].values.push_back(wv[3 * nb + i]);
            cols[7].values.push_back(wv[4 * nb + i]);
          }
          return cols;
        });
      }
      if (header.meshUuid.empty()) { // a restart must name its mesh; fvprep always sets it
        FV_LOG_INFO("no restart written: " << zonePath
                                           << " has no mesh UUID (write it with fvprep)");
        return;
      }
      const std::string path = cfg.monitor.outputDir + "/restart.h5";
      out.write_restart(path, owned.data(), sm.conservative, s.iteration(), s.time(),
                        cfg.resolvedIni);
      FV_LOG_INFO("wrote " << path << " (iteration " << s.iteration() << ")");
    };
    solver->reset_comm_times();
    const fv::RunSummary sum = fv::run_case(*solver, rank == 0, writer);
    const auto& last = sum.history.back();
    FV_LOG_INFO("fvrun: " << sum.stopReason << " after " << sum.iterations << " iterations in "
                          << sum.wallSeconds << " s (" << sum.nsPerCellIteration
                          << " ns per cell per iteration); CL " << last.coeff.CL << ", CD "
                          << last.coeff.CD << "; outputs in " << cfg.monitor.outputDir);
    // time per iteration and its split (the slowest rank's value of each part): single zone,
    // all compute; several zones, measured with --comm-timing, else unknown (nan)
    const double iter = sum.wallSeconds / std::max(1, sum.iterations);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    double compute = size > 1 ? nan : iter, packUnpack = size > 1 ? nan : 0.0,
           wait = size > 1 ? nan : 0.0;
    if (size > 1 && cfg.run.commTiming) {
      const fv::CommTimes t = solver->comm_times();
      const double per = 1.0 / std::max(1, sum.iterations);
      std::vector<double> v = {t.pack * per, t.wait * per, t.unpack * per,
                               iter - (t.pack + t.wait + t.unpack) * per};
      std::vector<double> mx = v, mn = v;
      fv::parallel::max_all(comm, mx);
      fv::parallel::min_all(comm, mn);
      compute = mx[3];
      packUnpack = mx[0] + mx[2];
      wait = mx[1];
      char buf[512];
      std::snprintf(buf, sizeof buf,
                    "fvrun: time per iteration %.3f ms: compute %.3f ms (min over ranks %.3f), "
                    "pack+unpack %.3f ms, wait %.3f ms (max over ranks; %ld exchanges per rank)",
                    1e3 * iter, 1e3 * compute, 1e3 * mn[3], 1e3 * packUnpack, 1e3 * wait,
                    t.exchanges);
      FV_LOG_INFO(buf);
    } else if (size > 1) {
      FV_LOG_INFO("fvrun: time per iteration " << 1e3 * iter
                                               << " ms (--comm-timing splits it into compute, "
                                                  "pack/unpack and wait)");
    }
    // machine-readable line for the bench scripts (mpi_scaling.sh, gpu_vs_cpu.sh)
    if (rank == 0)
      std::printf("FVRUN_TIMING ranks=%d cells=%lld iterations=%d time_per_iter_s=%.6e "
                  "compute_s=%.6e pack_unpack_s=%.6e wait_s=%.6e\n",
                  size, static_cast<long long>(header.nGlobalCells), sum.iterations, iter, compute,
                  packUnpack, wait);
    return 0;
  });
}
