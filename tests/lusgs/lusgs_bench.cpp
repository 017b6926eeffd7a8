// lusgs_bench: the LU-SGS benchmark of issue 8 without the file pipeline. Generates a channel
// with a bump in-process (generate_mesh -> build_zones, one zone), runs explicit SSP-RK3 and
// LU-SGS with cell colours and with hyperplanes (on the GPU also with plain launches) to a
// residual drop of --orders orders or --maxit iterations, and prints iterations, wall time to
// convergence and time per iteration (cf. Figure 14 of the hyperplane LU-SGS paper); --csv
// writes the table. --compare-cpu K runs K LU-SGS iterations on the active device and on the
// CPU and prints the largest relative difference of the states (GPU-vs-CPU check).
// --launch-modes R compares the GPU launch modes of the sweeps (lusgs_launch = plain, graph,
// persistent, hybrid) instead: for hyperplanes and colours, ms per LusgsSolver::solve (the
// sweeps alone) and per full LU-SGS iteration, us per group, and whether dU and the state after
// R iterations are bitwise identical to plain launches; SSP-RK3 per iteration for scale; and
// "empty us/group": the same group schedule swept with a trivial body (x[i] += 1), i.e. the
// launch/barrier cost per group alone.
#include "bench/fvbench/group_sweep_overhead.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/main.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/lusgs.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

using fv::idx_t;

std::string case_text(double mach, const std::string& timeKeys, int maxit, double orders,
                      const std::string& device) {
  std::ostringstream s;
  s << "[freestream]\nnondimensional = true\nmach = " << mach << "\nlift_axis = y\n"
    << "[scheme]\nlimiter = venkat\n[time]\n"
    << timeKeys << "iterations = " << maxit << "\nconvergence = " << orders << "\n"
    << "[monitor]\noutput_interval = 100000\n[run]\ndevice = " << device << "\n"
    << fv::testing::channel_patches();
  return s.str();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// --launch-modes: every lusgs_launch mode on the same inputs (see the file comment).
void launch_modes(const fv::testing::TestZone& tz, double mach, const std::string& ramp, int reps) {
  const fv::Zone& zone = tz.zone;
  const idx_t nt = zone.nTotalCells();
  const char* modes[] = {"plain", "graph", "persistent", "hybrid"};
  // SSP-RK3 for scale
  {
    const fv::CaseConfig cfg = fv::resolve_case(
        fv::IniFile::parse(case_text(mach, "integrator = ssprk3\ncfl = 1.5\n", reps, 0, "auto"),
                           "bench"),
        tz.patches);
    fv::EulerSolver s(zone, cfg);
    s.initialise();
    s.step();
    fv::backend::synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i)
      s.step();
    fv::backend::synchronize();
    std::printf("ssprk3: %.3f ms per iteration\n", 1e3 * seconds_since(t0) / reps);
  }
  std::printf("%-11s %-11s %8s %12s %10s %16s %12s %10s %14s\n", "ordering", "launch", "groups",
              "ms/solve", "us/group", "empty us/group", "ms/iteration", "dU==plain",
              "state==plain");
  for (const char* ordering : {"hyperplane", "colour"}) {
    const std::string keys = ramp + "lusgs_ordering = " + ordering + "\n";
    // inputs of one solve: free stream with a smooth perturbation, its residual and local dt
    const fv::CaseConfig cfg = fv::resolve_case(
        fv::IniFile::parse(case_text(mach, keys, reps, 0, "auto"), "bench"), tz.patches);
    fv::EulerSolver e(zone, cfg);
    e.initialise();
    std::vector<double> U = e.conservative();
    for (idx_t c = 0; c < nt; ++c) {
      const double* x = &zone.cellCentroid[3 * static_cast<std::size_t>(c)];
      const double f = 1.0 + 0.05 * std::sin(3.0 * x[0]) * std::cos(4.0 * x[1] + x[2]);
      U[c] *= f;
      U[4 * static_cast<std::size_t>(nt) + c] *= f * f;
    }
    e.set_conservative(U);
    const fv::DeviceZone dz(zone);
    const fv::DeviceArray<double> W(e.primitive(), "W"), R(e.residual(), "R");
    fv::DeviceArray<double> dt(static_cast<std::size_t>(nt), "dt");
    fv::kernels::local_time_step(dz.view(), cfg.flow.gamma, 50.0, W.data(), dt.data());
    std::vector<double> dUplain, Uplain;
    const fv::Csr& groupCsr =
        std::string(ordering) == "colour" ? zone.cellColours : zone.hyperplanes;
    const std::vector<idx_t> hostOff(groupCsr.offsets().data(),
                                     groupCsr.offsets().data() + groupCsr.offsets().size());
    const fv::DeviceArray<idx_t> devOff(hostOff, "group offsets");
    fv::DeviceArray<double> scratch(static_cast<std::size_t>(zone.nCells), "scratch");
    const fv::GroupSchedule sched{groupCsr.rows(), hostOff.data(), devOff.data()};
    for (const char* mode : modes) {
      fv::LusgsSettings st = fv::lusgs_settings(cfg);
      for (fv::LusgsLaunch l : {fv::LusgsLaunch::Persistent, fv::LusgsLaunch::Hybrid,
                                fv::LusgsLaunch::Graph, fv::LusgsLaunch::Plain})
        if (std::string(fv::to_string(l)) == mode) st.launch = l;
      double msSolve = 0, msIter = 0;
      idx_t groups = 0;
      std::vector<double> dU, Uend;
      {
        fv::LusgsSolver l(zone, dz.view(), st);
        groups = l.group_count();
        for (int i = 0; i < 2; ++i) // warm-up (graph capture, cooperative shapes)
          l.solve(W.data(), R.data(), dt.data(), -1.0);
        fv::backend::synchronize();
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i)
          l.solve(W.data(), R.data(), dt.data(), -1.0);
        fv::backend::synchronize();
        msSolve = 1e3 * seconds_since(t0) / reps;
        dU = l.delta().to_host();
      }
      {
        const fv::CaseConfig c2 = fv::resolve_case(
            fv::IniFile::parse(
                case_text(mach, keys + "lusgs_launch = " + mode + "\n", reps, 0, "auto"), "bench"),
            tz.patches);
        fv::EulerSolver s(zone, c2);
        s.initialise();
        s.step(); // warm-up
        fv::backend::synchronize();
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i)
          s.step();
        fv::backend::synchronize();
        msIter = 1e3 * seconds_since(t0) / reps;
        Uend = s.conservative();
      }
      if (std::string(mode) == "plain") {
        dUplain = dU;
        Uplain = Uend;
      }
      const double perGroup = 1e3 * msSolve / (2.0 * st.sweeps * std::max<idx_t>(groups, 1));
      fv::GroupLaunch gl = fv::GroupLaunch::PerGroup;
      if (st.launch == fv::LusgsLaunch::Persistent) gl = fv::GroupLaunch::Persistent;
      if (st.launch == fv::LusgsLaunch::Hybrid) gl = fv::GroupLaunch::Hybrid;
      const double emptyPerGroup =
          1e3 *
          fv::bench::group_sweep_ms(sched, gl, st.launch == fv::LusgsLaunch::Graph, scratch.data(),
                                    reps) /
          std::max<idx_t>(groups, 1);
      std::printf("%-11s %-11s %8d %12.3f %10.2f %16.2f %12.3f %10s %14s\n", ordering, mode, groups,
                  msSolve, perGroup, emptyPerGroup, msIter, dU == dUplain ? "yes" : "NO",
                  Uend == Uplain ? "yes" : "NO");
      std::fflush(stdout);
    }
  }
}

} // namespace

int main(int argc, char** argv) {
  return fv::run_main("lusgs_bench", [&] {
    CLI::App app{"lusgs_bench: RK vs LU-SGS (colour, hyperplane) on a generated channel bump"};
    std::string n = "96,32,1", device = "cpu", csv, only;
    double mach = 0.8, bump = 0.03, orders = 6, cflMax = 1000;
    int maxit = 20000, sweeps = 4, compare = 0, launchReps = 0;
    app.add_option("--n", n, "block cells ni,nj,nk of the channel (hexahedra)");
    app.add_option("--mach", mach, "free-stream Mach number");
    app.add_option("--bump", bump, "bump height / channel height");
    app.add_option("--device", device, "cpu | cuda");
    app.add_option("--orders", orders, "residual drop to converge (orders of magnitude)");
    app.add_option("--maxit", maxit, "iteration limit per scheme");
    app.add_option("--sweeps", sweeps, "lusgs_sweeps");
    app.add_option("--cfl", cflMax,
                   "LU-SGS largest CFL (ramp, or adaptive law for colours, from 5)");
    app.add_option("--only", only, "comma-separated subset: rk3,colour,hyperplane,natural,plain");
    app.add_option("--csv", csv, "write the table as CSV to this file");
    app.add_option("--compare-cpu", compare, "run K LU-SGS iterations on device and CPU, compare");
    app.add_option("--launch-modes", launchReps,
                   "compare lusgs_launch modes over R timed repetitions (and nothing else)");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    const std::string where = fv::select_device(fv::parse_device_request(device));
    const bool gpu = fv::active_device() == fv::Device::Cuda;
    fv::GenOptions o;
    o.family = fv::MeshFamily::Channel;
    o.cells = fv::GenCells::Hex;
    {
      std::istringstream in(n);
      std::string item;
      for (int k = 0; k < 3 && std::getline(in, item, ','); ++k)
        o.n[k] = std::stoll(item);
    }
    o.extent = {3, 1, static_cast<double>(o.n[2]) / static_cast<double>(o.n[1])};
    o.bumpHeight = bump;
    const fv::testing::TestZone tz = fv::testing::generated_zone(o);
    const fv::Zone& zone = tz.zone;
    std::printf("# channel bump %s: %d hex cells, %d hyperplanes, %d cell colours, M %.3g, bump "
                "%.3g, %s\n",
                n.c_str(), zone.nCells, zone.hyperplanes.rows(), zone.cellColours.rows(), mach,
                bump, where.c_str());
    // the recommended settings (docs/numerics.md): hyperplane/natural with the Roe matrix as
    // implicit dissipation and a CFL ramp from 5 over 30 iterations; colours with the scalar
    // dissipation and the adaptive CFL law from 5 (red-black sweeps diverge with the Roe
    // operator and can stall at a large fixed CFL)
    char ramp[200];
    std::snprintf(ramp, sizeof ramp,
                  "integrator = lusgs\ncfl_start = 5\ncfl = %g\nlusgs_sweeps = %d\n"
                  "lusgs_dissipation = roe\ncfl_ramp_iterations = 30\n",
                  cflMax, sweeps);
    char scalar[160];
    std::snprintf(scalar, sizeof scalar,
                  "integrator = lusgs\ncfl_start = 5\ncfl = %g\nlusgs_sweeps = %d\n"
                  "cfl_law = adaptive\n",
                  cflMax, sweeps);

    if (launchReps > 0) {
      launch_modes(tz, mach, ramp, launchReps);
      return 0;
    }
    if (compare > 0) {
      const std::string keys = std::string(ramp) + "lusgs_ordering = hyperplane\n";
      auto run_on = [&](fv::Device d) {
        fv::set_active_device(d);
        const fv::CaseConfig cfg = fv::resolve_case(
            fv::IniFile::parse(case_text(mach, keys, compare, 0, "auto"), "bench"), tz.patches);
        fv::EulerSolver s(zone, cfg);
        s.initialise();
        for (int i = 0; i < compare; ++i)
          s.step();
        return s.conservative();
      };
      const fv::Device dev = fv::active_device();
      const auto a = run_on(dev);
      const auto b = run_on(fv::Device::Cpu);
      const double d = fv::testing::max_relative_difference(zone, b, a);
      std::printf("compare: %d LU-SGS hyperplane iterations, max |U_device - U_cpu| / max |U| = "
                  "%.3e\n",
                  compare, d);
      fv::set_active_device(dev);
    }

    struct Scheme {
      const char* name;
      std::string keys;
    };
    std::vector<Scheme> schemes = {
        {"rk3", "integrator = ssprk3\ncfl = 1.5\n"},
        {"colour", std::string(scalar) + "lusgs_ordering = colour\n"},
        {"hyperplane", std::string(ramp) + "lusgs_ordering = hyperplane\n"}};
    if (!gpu) // the sequential reference: same iterations as hyperplane, one thread
      schemes.push_back({"natural", std::string(ramp) + "lusgs_ordering = natural\n"});
    if (gpu)
      schemes.push_back(
          {"plain", std::string(ramp) + "lusgs_ordering = hyperplane\nlusgs_launch = plain\n"});
    std::ostringstream table;
    table << "scheme,cells,device,iterations,converged,wall_s,ms_per_iteration,orders\n";
    std::printf("%-12s %10s %10s %10s %14s %8s\n", "scheme", "iterations", "converged", "wall s",
                "ms/iteration", "orders");
    for (const auto& sc : schemes) {
      if (!only.empty() &&
          ("," + only + ",").find("," + std::string(sc.name) + ",") == std::string::npos)
        continue;
      const fv::CaseConfig cfg = fv::resolve_case(
          fv::IniFile::parse(case_text(mach, sc.keys, maxit, orders, "auto"), "bench"), tz.patches);
      fv::EulerSolver s(zone, cfg);
      s.initialise();
      fv::RunSummary r;
      try {
        r = fv::run_case(s);
      } catch (const fv::Error& e) {
        std::printf("%-12s failed: %s\n", sc.name, e.what());
        continue;
      }
      const auto& last = r.history.back().logResidual;
      const double drop = -std::max(last[0], last[4]);
      std::printf("%-12s %10d %10s %10.2f %14.3f %8.2f\n", sc.name, r.iterations,
                  r.converged ? "yes" : "no", r.wallSeconds, 1e3 * r.wallSeconds / r.iterations,
                  drop);
      std::fflush(stdout);
      table << sc.name << "," << zone.nCells << "," << (gpu ? "cuda" : "cpu") << "," << r.iterations
            << "," << (r.converged ? "yes" : "no") << "," << r.wallSeconds << ","
            << 1e3 * r.wallSeconds / r.iterations << "," << drop << "\n";
    }
    if (!csv.empty()) {
      std::ofstream f(csv);
      FV_VERIFY(f.good(), "cannot write '" << csv << "'");
      f << table.str();
    }
    return 0;
  });
}
