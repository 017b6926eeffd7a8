// The solver on zones made by the real pipeline: meshes read from ../shared/meshes or made by
// generate_mesh, zones from prep's build_zones, and a zone file round trip (what fvrun maps).
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/zones.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using fv::real_t;

namespace {

fv::Zone single_zone(const fv::Mesh& mesh) {
  std::vector<fv::idx_t> part(mesh.nCells(), 0);
  std::vector<fv::Zone> zones = fv::build_zones(mesh, part, 1, fv::PrepOptions{});
  return std::move(zones.at(0));
}

std::string all_patches(const std::vector<fv::Patch>& patches, const std::string& type) {
  std::ostringstream s;
  for (const auto& p : patches)
    s << "[patch " << p.name << "]\ntype = " << type << "\n";
  return s.str();
}

real_t max_deviation(const fv::EulerSolver& s) {
  const auto& f = s.config().freestream;
  const auto W = s.primitive();
  const fv::idx_t n = s.zone().nTotalCells();
  const real_t V = std::sqrt(f[1] * f[1] + f[2] * f[2] + f[3] * f[3]);
  const real_t scale[5] = {f[0], V, V, V, f[4]};
  real_t dev = 0;
  for (int k = 0; k < 5; ++k)
    for (fv::idx_t c = 0; c < s.zone().nCells; ++c)
      dev = std::max(dev, std::fabs(W[k * n + c] - f[k]) / scale[k]);
  return dev;
}

} // namespace

TEST(Pipeline, FreeStreamOnSharedMeshes) {
  const auto meshes = fv::testing::shared_mesh_list();
  if (meshes.empty()) GTEST_SKIP() << "../shared/meshes not available";
  int ran = 0;
  for (const auto& rel : meshes) {
    SCOPED_TRACE(rel);
    const fv::Mesh mesh = fv::read_mesh(fv::testing::shared_mesh(rel));
    if (mesh.nCells() > 60000) continue; // keep the suite fast
    const fv::Zone zone = single_zone(mesh);
    const std::string text =
        "[freestream]\nmach = 0.6\naoa = 8\nsideslip = 5\n" + all_patches(mesh.patches, "farfield");
    const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, rel), mesh.patches);
    fv::EulerSolver solver(zone, cfg);
    solver.initialise();
    for (int i = 0; i < 5; ++i)
      solver.step();
    const real_t dev = max_deviation(solver);
    EXPECT_LT(dev, 1e-12) << rel << " (" << zone.nCells << " cells)";
    std::printf("free stream on %s (%d cells): max deviation %.2e\n", rel.c_str(), zone.nCells,
                dev);
    ++ran;
  }
  EXPECT_GT(ran, 0);
}

TEST(Pipeline, GeneratedWedgeThroughZoneFile) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Wedge;
  o.cells = fv::GenCells::Mixed;
  o.n = {40, 28, 1};
  o.extent = {1.4, 1.0, 0.03};
  o.wedgeAngleDeg = 10;
  o.rampStart = 0.3;
  o.perturb = 0.1;
  o.shuffle = true;
  const fv::Mesh mesh = fv::generate_mesh(o);
  const fv::Zone memZone = single_zone(mesh);
  fv::ZoneFileHeader h;
  h.nZones = 1;
  h.nGlobalCells = memZone.nCells;
  h.nGlobalFaces = memZone.nFaces;
  h.nGlobalNodes = memZone.nNodes;
  h.patches = mesh.patches;
  const std::string path = fv::testing::scratch_dir() + "/wedge.zones.h5";
  fv::write_zone_file(path, h, {memZone});
  const fv::ZoneFile file = fv::open_zone_file(path);
  const fv::Zone fileZone = fv::map_zone(file, 0);

  const std::string text = R"(
[freestream]
mach = 2.5
lift_axis = y
[time]
integrator = ssprk3
cfl = 1.5
cfl_start = 0.5
cfl_ramp_iterations = 50
iterations = 1500
convergence = 4
[monitor]
output_interval = 500
[patch inlet]
type = supersonic_inflow
[patch outlet]
type = supersonic_outflow
[patch lower_wall]
type = slip_wall
[patch upper]
type = farfield
[patch side1]
type = symmetry
[patch side2]
type = symmetry
)";
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(text, "wedge.ini"), file.header().patches);
  // the mapped zone file gives bitwise the same run as the zone in memory
  std::vector<real_t> early[2];
  for (int run = 0; run < 2; ++run) {
    fv::EulerSolver solver(run == 0 ? memZone : fileZone, cfg);
    solver.initialise();
    for (int i = 0; i < 30; ++i)
      solver.step();
    early[run] = solver.conservative();
  }
  ASSERT_EQ(early[0].size(), early[1].size());
  for (std::size_t i = 0; i < early[0].size(); ++i)
    ASSERT_EQ(early[0][i], early[1][i]) << i;

  std::vector<real_t> result[2];
  {
    fv::EulerSolver solver(fileZone, cfg);
    solver.initialise();
    const fv::RunSummary s = fv::run_case(solver, false);
    EXPECT_TRUE(s.converged);
    result[1] = solver.primitive();
  }
  // post-shock pressure on the ramp (oblique-shock theory: M 2.5, 10 deg -> p2/p1 = 1.8639)
  const real_t p1 = cfg.freestream[4];
  const real_t pi = std::acos(-1.0), theta = 10 * pi / 180, beta = 31.851 * pi / 180;
  const real_t x0 = 0.3 * 1.4;
  const fv::idx_t n = fileZone.nTotalCells();
  real_t ps = 0, vs = 0;
  for (fv::idx_t c = 0; c < fileZone.nCells; ++c) {
    const real_t x = fileZone.cellCentroid[3 * c], y = fileZone.cellCentroid[3 * c + 1];
    const real_t yb = (x - x0) * std::tan(theta), ys = (x - x0) * std::tan(beta);
    if (x > x0 + 0.3 && x < 1.3 && y > yb + 0.04 && y < ys - 0.08) {
      ps += result[1][4 * n + c] * fileZone.cellVolume[c];
      vs += fileZone.cellVolume[c];
    }
  }
  ASSERT_GT(vs, 0.0);
  std::printf("generated mixed wedge: p2/p1 = %.4f (theory 1.8639)\n", ps / vs / p1);
  EXPECT_NEAR(ps / vs / p1, 1.8639, 0.01 * 1.8639);
}
