// lusgs_bench: the LU-SGS benchmark of issue 8 without the file pipeline. Generates a channel
// with a bump in-process (generate_mesh -> build_zones, one zone), runs explicit SSP-RK3 and
// LU-SGS with cell colours and with hyperplanes (on the GPU also with plain launches) to a
// residual drop of --orders orders or --maxit iterations, and prints iterations, wall time to
// convergence and time per iteration (cf. Figure 14 of the hyperplane LU-SGS paper); --csv
// writes the table. --compare-cpu K runs K LU-SGS iterations on the active device and on the
// CPU and prints the largest relative difference of the states (GPU-vs-CPU check).
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/main.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/config/case_config.hpp"
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

std::string case_text(double mach, const std::string& timeKeys, int maxit, double orders,
                      const std::string& device) {
  std::ostringstream s;
  s << "[freestream]\nnondimensional = true\nmach = " << mach << "\nlift_axis = y\n"
    << "[scheme]\nlimiter = venkat\n[time]\n"
    << timeKeys << "iterations = " << maxit << "\nconvergence = " << orders << "\n"
    << "[monitor]\noutput_interval = 100000\n[run]\ndevice = " << device << "\n"
    << "[patch inlet]\ntype = farfield\n[patch outlet]\ntype = farfield\n"
    << "[patch lower_wall]\ntype = slip_wall\n[patch upper_wall]\ntype = slip_wall\n"
    << "[patch side1]\ntype = symmetry\n[patch side2]\ntype = symmetry\n";
  return s.str();
}

} // namespace

int main(int argc, char** argv) {
  return fv::run_main("lusgs_bench", [&] {
    CLI::App app{"lusgs_bench: RK vs LU-SGS (colour, hyperplane) on a generated channel bump"};
    std::string n = "96,32,1", device = "cpu", csv, only;
    double mach = 0.8, bump = 0.03, orders = 6, cflMax = 1000;
    int maxit = 20000, sweeps = 4, compare = 0;
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
        r = fv::run_case(s, false);
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
