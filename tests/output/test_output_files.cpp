// Output files of fvrun (solution + XDMF, restart, surface CSV, history): round trips through
// the files, XDMF well-formedness against the HDF5 datasets it references, refusals, and the
// temporary + rename behaviour.
#include "common/error.hpp"
#include "formats/hdf5_file.hpp"
#include "formats/history_file.hpp"
#include "formats/restart_file.hpp"
#include "formats/solution_file.hpp"
#include "formats/surface_file.hpp"
#include "formats/xdmf_cells.hpp"
#include "tests/output/mini_xml.hpp"
#include "tests/testing/testing.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <csignal>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace fv;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> dir_listing(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// One cell of each shape: tet, pyramid, wedge, hex (CGNS order, positively oriented) and a
/// unit cube as a polyhedron (outward faces). Distinct nodes per cell, offset along x.
SolutionMesh mixed_mesh() {
  SolutionMesh m;
  m.cellNodeOffsets = {0};
  auto add_cell = [&](CellType t, const std::vector<std::array<real_t, 3>>& pts, real_t dx) {
    const gidx_t base = m.nNodes();
    for (const auto& p : pts)
      m.nodeXyz.insert(m.nodeXyz.end(), {p[0] + dx, p[1], p[2]});
    m.cellType.push_back(t);
    for (std::size_t k = 0; k < pts.size(); ++k)
      m.cellNodes.push_back(base + static_cast<gidx_t>(k));
    m.cellNodeOffsets.push_back(static_cast<gidx_t>(m.cellNodes.size()));
  };
  add_cell(CellType::Tet, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 0);
  add_cell(CellType::Pyramid, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1}}, 2);
  add_cell(CellType::Prism, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}, 4);
  add_cell(CellType::Hex,
           {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
           6);
  // Polyhedron: a cube on 8 new nodes, as a face stream with outward faces (hex face table).
  const gidx_t b = m.nNodes();
  for (const auto& p : std::vector<std::array<real_t, 3>>{
           {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}})
    m.nodeXyz.insert(m.nodeXyz.end(), {p[0] + 8, p[1], p[2]});
  const int faces[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                           {2, 3, 7, 6}, {0, 4, 7, 3}, {4, 5, 6, 7}};
  m.cellType.push_back(CellType::Polyhedron);
  m.cellNodes.push_back(6);
  for (const auto& f : faces) {
    m.cellNodes.push_back(4);
    for (int v : f)
      m.cellNodes.push_back(b + v);
  }
  m.cellNodeOffsets.push_back(static_cast<gidx_t>(m.cellNodes.size()));
  return m;
}

std::vector<CellField> some_fields(gidx_t n) {
  std::vector<CellField> f = {{"rho", 1, {}},  {"velocity", 3, {}}, {"p", 1, {}},
                              {"Mach", 1, {}}, {"Cp", 1, {}},       {"U", 5, {}}};
  for (std::size_t i = 0; i < f.size(); ++i)
    for (gidx_t c = 0; c < n * f[i].components; ++c)
      f[i].values.push_back(1.0 + static_cast<real_t>(i) * 100.0 + 0.25 * static_cast<real_t>(c));
  return f;
}

SolutionInfo some_info() {
  SolutionInfo info;
  info.iteration = 1234;
  info.time = 0.125;
  info.meshUuid = "3f2a9c1e-uuid";
  // A long configuration (> 64 KiB: HDF5 needs dense attribute storage) with XML-hostile text.
  info.config = "[solver]\ncfl = 5 # \"quoted\" <tag> & more\n";
  while (info.config.size() < 70000)
    info.config += "comment = padding line of the config\n";
  return info;
}

std::array<real_t, 3> node(const SolutionMesh& m, gidx_t n) {
  return {m.nodeXyz[3 * n], m.nodeXyz[3 * n + 1], m.nodeXyz[3 * n + 2]};
}

} // namespace

TEST(SolutionFile, RoundTripKeepsMeshFieldsAndAttributes) {
  const std::string path = fv::testing::scratch_dir() + "/flow.h5";
  const SolutionMesh mesh = mixed_mesh();
  const auto fields = some_fields(mesh.nCells());
  const SolutionInfo info = some_info();
  write_solution(path, mesh, fields, info);

  const SolutionData back = read_solution(path);
  EXPECT_EQ(back.formatVersion, kSolutionFormatVersion);
  EXPECT_EQ(back.info.iteration, info.iteration);
  EXPECT_EQ(back.info.time, info.time);
  EXPECT_EQ(back.info.meshUuid, info.meshUuid);
  EXPECT_EQ(back.info.config, info.config);
  EXPECT_EQ(back.mesh.nodeXyz, mesh.nodeXyz);
  EXPECT_EQ(back.mesh.cellType, mesh.cellType);
  EXPECT_EQ(back.mesh.cellNodeOffsets, mesh.cellNodeOffsets);
  EXPECT_EQ(back.mesh.cellNodes, mesh.cellNodes);
  ASSERT_EQ(back.fields.size(), fields.size());
  for (const CellField& f : fields) {
    const auto it = std::find_if(back.fields.begin(), back.fields.end(),
                                 [&](const CellField& b) { return b.name == f.name; });
    ASSERT_NE(it, back.fields.end()) << f.name;
    EXPECT_EQ(it->components, f.components) << f.name;
    EXPECT_EQ(it->values, f.values) << f.name;
  }
}

TEST(SolutionFile, TopologyUsesXdmfCodesAndVtkWedgeOrientation) {
  const std::string path = fv::testing::scratch_dir() + "/flow.h5";
  const SolutionMesh mesh = mixed_mesh();
  write_solution(path, mesh, {}, some_info());
  const auto topo = h5::File::open_read(path, "solution").read_int64("mesh/topology");
  // Walk the stream: codes 6, 7, 8, 9, 16 in cell order.
  std::size_t p = 0;
  std::vector<std::int64_t> codes;
  std::vector<std::int64_t> wedge;
  for (gidx_t c = 0; c < mesh.nCells(); ++c) {
    codes.push_back(topo[p]);
    const CellType t = mesh.cellType[c];
    if (t == CellType::Prism) wedge.assign(topo.begin() + p + 1, topo.begin() + p + 7);
    if (t == CellType::Polyhedron) {
      std::size_t q = p + 2;
      for (std::int64_t f = 0; f < topo[p + 1]; ++f)
        q += 1 + topo[q];
      p = q;
    } else {
      p += 1 + fv::cell_node_count(t);
    }
  }
  EXPECT_EQ(p, topo.size());
  EXPECT_EQ(codes, (std::vector<std::int64_t>{6, 7, 8, 9, 16}));
  // VTK/XDMF wedge: the right-hand normal of triangle (0,1,2) points AWAY from (3,4,5).
  ASSERT_EQ(wedge.size(), 6u);
  const auto a = node(mesh, wedge[0]), b = node(mesh, wedge[1]), c = node(mesh, wedge[2]);
  const auto top = node(mesh, wedge[3]);
  const std::array<real_t, 3> u{b[0] - a[0], b[1] - a[1], b[2] - a[2]},
      v{c[0] - a[0], c[1] - a[1], c[2] - a[2]}, w{top[0] - a[0], top[1] - a[1], top[2] - a[2]};
  const std::array<real_t, 3> n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                                u[0] * v[1] - u[1] * v[0]};
  EXPECT_LT(n[0] * w[0] + n[1] * w[1] + n[2] * w[2], 0.0);
}

TEST(SolutionFile, XdmfIsWellFormedAndMatchesTheDatasets) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = dir + "/flow_000100.h5";
  const SolutionMesh mesh = mixed_mesh();
  const auto fields = some_fields(mesh.nCells());
  write_solution(path, mesh, fields, some_info());
  ASSERT_EQ(xdmf_path_for(path), dir + "/flow_000100.xmf");
  const auto root = fv::testing::xml::parse(slurp(xdmf_path_for(path)));
  ASSERT_EQ(root->name, "Xdmf");
  EXPECT_EQ(root->attr("Version"), "3.0");
  const auto& grid = root->one("Domain").one("Grid");
  EXPECT_EQ(std::stod(grid.one("Time").attr("Value")), 0.125);
  bool has_iteration = false;
  for (const auto* i : grid.all("Information"))
    has_iteration |= i->attr("Name") == "iteration" && i->attr("Value") == "1234";
  EXPECT_TRUE(has_iteration);

  const auto& topo = grid.one("Topology");
  EXPECT_EQ(topo.attr("TopologyType"), "Mixed");
  EXPECT_EQ(std::stoll(topo.attr("NumberOfElements")), mesh.nCells());
  EXPECT_EQ(grid.one("Geometry").attr("GeometryType"), "XYZ");

  // Every DataItem: HDF reference "file:/dataset" relative to the .xmf, to an existing dataset
  // whose shape equals Dimensions, with the declared number type.
  h5::File h5 = h5::File::open_read(path, "solution");
  std::vector<const fv::testing::xml::Element*> items = {&topo.one("DataItem"),
                                                         &grid.one("Geometry").one("DataItem")};
  const auto attributes = grid.all("Attribute");
  ASSERT_EQ(attributes.size(), fields.size());
  for (const auto* a : attributes) {
    EXPECT_EQ(a->attr("Center"), "Cell");
    const auto& f = *std::find_if(fields.begin(), fields.end(),
                                  [&](const CellField& x) { return x.name == a->attr("Name"); });
    EXPECT_EQ(a->attr("AttributeType"), f.components == 1   ? "Scalar"
                                        : f.components == 3 ? "Vector"
                                                            : "Matrix");
    items.push_back(&a->one("DataItem"));
  }
  for (const auto* item : items) {
    EXPECT_EQ(item->attr("Format"), "HDF");
    EXPECT_EQ(item->attr("Precision"), "8");
    const std::string& ref = item->text;
    const auto colon = ref.find(':');
    ASSERT_NE(colon, std::string::npos) << ref;
    EXPECT_TRUE(fs::exists(fs::path(dir) / ref.substr(0, colon))) << ref;
    EXPECT_EQ(ref.substr(0, colon), "flow_000100.h5");
    const std::string dataset = ref.substr(colon + 1);
    ASSERT_TRUE(h5.exists(dataset)) << dataset;
    std::istringstream dims(item->attr("Dimensions"));
    std::vector<std::uint64_t> d;
    for (std::uint64_t x; dims >> x;)
      d.push_back(x);
    EXPECT_EQ(d, h5.shape(dataset)) << dataset;
  }
}

TEST(SolutionFile, BadInputIsRefusedAndKeepsThePreviousFiles) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = dir + "/flow.h5";
  const SolutionMesh mesh = mixed_mesh();
  write_solution(path, mesh, some_fields(mesh.nCells()), some_info());
  const std::string h5_before = slurp(path), xmf_before = slurp(xdmf_path_for(path));
  const auto listing = dir_listing(dir);

  auto short_field = some_fields(mesh.nCells());
  short_field[1].values.pop_back();
  EXPECT_THROW(write_solution(path, mesh, short_field, some_info()), Error);
  auto bad_name = some_fields(mesh.nCells());
  bad_name[0].name = "rho/2";
  EXPECT_THROW(write_solution(path, mesh, bad_name, some_info()), Error);
  SolutionMesh bad_mesh = mesh;
  bad_mesh.cellNodes[3] = 999; // node id out of range
  try {
    write_solution(path, bad_mesh, {}, some_info());
    ADD_FAILURE() << "bad node id accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cell 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), h5_before);
  EXPECT_EQ(slurp(xdmf_path_for(path)), xmf_before);
  EXPECT_EQ(dir_listing(dir), listing) << "a temporary file was left behind";
  EXPECT_THROW(write_solution(dir + "/missing-dir/flow.h5", mesh, {}, some_info()), Error);
}

TEST(RestartFile, RoundTripAndRefusals) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = dir + "/restart.h5";
  RestartData d;
  d.info = some_info();
  for (int i = 0; i < 7 * 5; ++i)
    d.state.push_back(0.5 + i);
  write_restart(path, d);

  const RestartData back = read_restart(path, d.info.meshUuid, 7);
  EXPECT_EQ(back.state, d.state);
  EXPECT_EQ(back.nVars, 5);
  EXPECT_EQ(back.variables, d.variables);
  EXPECT_EQ(back.info.iteration, d.info.iteration);
  EXPECT_EQ(back.info.time, d.info.time);
  EXPECT_EQ(back.info.config, d.info.config);
  EXPECT_EQ(back.nCells(), 7);

  try {
    read_restart(path, "another-mesh-uuid");
    ADD_FAILURE() << "a restart of another mesh was accepted";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(d.info.meshUuid), std::string::npos) << msg;
    EXPECT_NE(msg.find("another-mesh-uuid"), std::string::npos) << msg;
  }
  EXPECT_THROW(read_restart(path, d.info.meshUuid, 8), Error);
  EXPECT_THROW(read_restart(dir + "/none.h5", d.info.meshUuid), Error);
  std::ofstream(dir + "/text.h5") << "not hdf5";
  EXPECT_THROW(read_restart(dir + "/text.h5", d.info.meshUuid), Error);

  // A restart of a future format version is refused by version, naming both versions.
  {
    h5::File f = h5::File::create(dir + "/future.h5");
    f.attr("format", std::string("fvkit-restart"));
    f.attr("formatVersion", std::int64_t{kRestartFormatVersion + 1});
    f.attr("meshUuid", d.info.meshUuid);
  }
  try {
    read_restart(dir + "/future.h5", d.info.meshUuid);
    ADD_FAILURE() << "a future restart version was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("version " + std::to_string(kRestartFormatVersion + 1)),
              std::string::npos)
        << e.what();
  }
  // A solution file is not a restart.
  const SolutionMesh mesh = mixed_mesh();
  write_solution(dir + "/flow.h5", mesh, {}, d.info);
  EXPECT_THROW(read_restart(dir + "/flow.h5", d.info.meshUuid), Error);
}

TEST(RestartFile, NonFiniteStateIsRefusedAndThePreviousRestartKept) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = dir + "/restart.h5";
  RestartData d;
  d.info = some_info();
  d.state.assign(10, 1.0);
  write_restart(path, d);
  const std::string before = slurp(path);
  d.state[7] = std::numeric_limits<real_t>::quiet_NaN();
  try {
    write_restart(path, d);
    ADD_FAILURE() << "NaN state written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rhoV in global cell 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), before);
  EXPECT_EQ(dir_listing(dir), std::vector<std::string>{"restart.h5"});
}

// A full disk, as a file-size limit (RLIMIT_FSIZE: writes past it fail with EFBIG) at 100
// levels from a few bytes to more than the files need: every write either completes (the new
// file, whole and readable) or fails with an error, leaving the previous good file and no
// temporary; never a partial file under the final name.
TEST(OutputFiles, AFullDiskKeepsThePreviousFiles) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string restart = dir + "/restart.h5", solution = dir + "/flow.h5";
  const SolutionMesh mesh = mixed_mesh();
  RestartData old, next;
  old.info = next.info = some_info();
  old.state.assign(5 * 2000, 1.0);
  next.state.assign(5 * 4000, 2.0);
  next.info.iteration = 99;
  const auto fields = some_fields(mesh.nCells());
  write_restart(restart, old);
  write_solution(solution, mesh, {}, old.info);
  std::string oldRestart = slurp(restart), oldSolution = slurp(solution);
  int failed = 0, completed = 0;
  for (int level = 0; level < 100; ++level) {
    const rlim_t limit = 64 + static_cast<rlim_t>(level) * 3000; // up to ~300 kB: all complete
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) { // child: 0 if both writes failed with an error, 1 if both completed
      std::signal(SIGXFSZ, SIG_IGN);
      const rlimit r{limit, limit};
      setrlimit(RLIMIT_FSIZE, &r);
      int done = 0;
      try {
        write_restart(restart, next);
        ++done;
      } catch (const Error&) {
      }
      try {
        write_solution(solution, mesh, fields, next.info);
        ++done;
      } catch (const Error&) {
      }
      _exit(done);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "the writer crashed at a limit of " << limit << " bytes";
    // each file is either the previous one, byte for byte, or the whole new one
    const std::string r = slurp(restart), s = slurp(solution);
    if (r != oldRestart) {
      EXPECT_EQ(read_restart(restart, next.info.meshUuid).state, next.state) << limit;
      ++completed;
    } else {
      ++failed;
    }
    if (s != oldSolution) {
      EXPECT_EQ(read_solution(solution).fields.size(), fields.size()) << limit;
    }
    for (const std::string& f : dir_listing(dir))
      EXPECT_EQ(f.find(".tmp."), std::string::npos) << f << " left at a limit of " << limit;
    write_restart(restart, old); // the previous good files again
    write_solution(solution, mesh, {}, old.info);
    oldRestart = slurp(restart); // (HDF5 records the objects' modification times)
    oldSolution = slurp(solution);
  }
  EXPECT_GT(failed, 10);    // the limits below the files' sizes were met
  EXPECT_GT(completed, 10); // and those above them
}

// A restart's counters and state come from outside (another run, a hand-edited file): an
// iteration no run reaches, a time that is no time, a non-finite value are refused by name.
TEST(RestartFile, AttributesARunCannotHaveAreRefused) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string uuid = "3f2a9c1e-uuid";
  auto write = [&](const std::string& name, std::int64_t iteration, double time, real_t value) {
    const std::string path = dir + "/" + name;
    h5::File f = h5::File::create(path);
    f.attr("format", std::string("fvkit-restart"));
    f.attr("formatVersion", std::int64_t{kRestartFormatVersion});
    f.attr("nVars", std::int64_t{2});
    f.attr("variables", std::string("rho,rhoE"));
    f.attr("iteration", iteration);
    f.attr("time", time);
    f.attr("meshUuid", uuid);
    f.attr("config", std::string());
    const real_t state[6] = {1.0, 2.0, value, 2.0, 1.0, 2.0}; // 3 cells x (rho, rhoE)
    f.write("state", state, 3, 2);
    f.close();
    return path;
  };
  auto refused = [&](const std::string& path, const std::string& why) {
    try {
      read_restart(path, uuid);
      ADD_FAILURE() << path << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  EXPECT_EQ(read_restart(write("good.h5", 12, 0.5, 2.0), uuid).info.iteration, 12);
  refused(write("wraps.h5", 2147483647, 0, 1), "iteration = 2147483647 is outside");
  refused(write("huge.h5", std::int64_t{1} << 40, 0, 1), "iteration = 1099511627776");
  refused(write("negative.h5", -1, 0, 1), "iteration = -1");
  refused(write("nan_time.h5", 1, std::nan(""), 1), "time = nan");
  refused(write("nan_state.h5", 1, 0, std::nan("")), "rho of global cell 1 is not finite");
  refused(write("inf_state.h5", 1, 0, HUGE_VAL), "rho of global cell 1 is not finite");
}

TEST(SurfaceFile, CsvRowsSortedByFaceIdWithExactValues) {
  const std::string dir = fv::testing::scratch_dir();
  EXPECT_EQ(surface_file_path(dir + "/surface", "wing upper/1"), dir + "/surface_wing_upper_1.csv");
  SurfacePatchData d;
  d.patch = "wall";
  d.faceGlobalId = {42, 7, 19};
  d.centroid = {4.2, 0.1, 0.2, 0.7, 0.1, 0.2, 1.9, 0.1, 0.2};
  d.area = {0, 0, 1.0 / 3.0, 0, 0, -2e-7, 0, 1e300, 0};
  d.columns = {{"Cp", {0.42, 0.07, -1.0 / 7.0}}, {"p", {101325.0, 90000.5, 1e5}}};
  const std::string path = surface_file_path(dir + "/surface", d.patch);
  write_surface_csv(path, d);
  std::istringstream in(slurp(path));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "faceId,x,y,z,Sx,Sy,Sz,Cp,p");
  const std::size_t expected_order[3] = {1, 2, 0}; // ids 7, 19, 42
  for (std::size_t r = 0; r < 3; ++r) {
    ASSERT_TRUE(std::getline(in, line));
    std::istringstream row(line);
    std::vector<double> v;
    for (std::string cell; std::getline(row, cell, ',');)
      v.push_back(std::stod(cell));
    ASSERT_EQ(v.size(), 9u);
    const std::size_t i = expected_order[r];
    EXPECT_EQ(v[0], static_cast<double>(d.faceGlobalId[i]));
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(v[1 + k], d.centroid[3 * i + k]);
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(v[4 + k], d.area[3 * i + k]);
    EXPECT_EQ(v[7], d.columns[0].values[i]);
    EXPECT_EQ(v[8], d.columns[1].values[i]);
  }
  EXPECT_FALSE(std::getline(in, line));
  d.columns[1].values.pop_back();
  EXPECT_THROW(write_surface_csv(path, d), Error);
}

TEST(HistoryFile, RewrittenAtomicallyAndResumedAtARestart) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = dir + "/history.csv";
  {
    HistoryFile h(path, {"res_rho", "CL", "CD", "wall_time"});
    for (int it = 1; it <= 5; ++it)
      h.add(it * 10, {1e-3 / it, 0.1 * it, 0.01 * it, 1.5 * it});
    h.flush();
    EXPECT_THROW(h.add(50, {1, 2, 3, 4}), Error) << "iterations must increase";
    EXPECT_THROW(h.add(60, {1, 2, 3}), Error) << "column count";
  }
  std::istringstream in(slurp(path));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "iteration,res_rho,CL,CD,wall_time");
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    EXPECT_EQ(line.substr(0, line.find(',')), std::to_string(rows * 10));
  }
  EXPECT_EQ(rows, 5);

  // A restart at iteration 30 keeps rows 10..30, then continues.
  HistoryFile h(path, {"res_rho", "CL", "CD", "wall_time"});
  EXPECT_EQ(h.resume(30), 3u);
  h.add(40, {9, 9, 9, 9});
  h.flush();
  const std::string text = slurp(path);
  EXPECT_NE(text.find("\n30,"), std::string::npos);
  EXPECT_NE(text.find("\n40,9,9,9,9\n"), std::string::npos);
  EXPECT_EQ(text.find("\n50,"), std::string::npos);
  EXPECT_EQ(dir_listing(dir), std::vector<std::string>{"history.csv"});

  HistoryFile other(path, {"res_rho", "CL"});
  EXPECT_THROW(other.resume(30), Error) << "different columns";
  std::ofstream(dir + "/torn.csv") << "iteration,a\n1,0.5\n2,x\n";
  HistoryFile torn(dir + "/torn.csv", {"a"});
  try {
    torn.resume(10);
    ADD_FAILURE() << "malformed history accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
  }
}

TEST(SurfaceFile, VtpPolygonsAndCellDataInFaceIdOrder) {
  const std::string dir = fv::testing::scratch_dir();
  EXPECT_EQ(surface_vtp_path(dir + "/surface", "wing upper/1"), dir + "/surface_wing_upper_1.vtp");
  SurfacePatchData d;
  d.patch = "wall";
  d.faceGlobalId = {9, 3}; // a quad (id 9) and a triangle (id 3): written triangle first
  d.centroid = {0.5, 0.5, 0, 0.3, 0.3, 1};
  d.area = {0, 0, -1, 0, 0, 0.5};
  d.columns = {{"Cp", {0.9, 0.3}}};
  d.cornerOffsets = {0, 4, 7};
  d.cornerXyz = {0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1};
  const std::string path = surface_vtp_path(dir + "/surface", d.patch);
  write_surface_vtp(path, d);
  const std::string text = slurp(path);
  EXPECT_NE(text.find("<VTKFile type=\"PolyData\""), std::string::npos);
  EXPECT_NE(text.find("NumberOfPoints=\"7\""), std::string::npos);
  EXPECT_NE(text.find("NumberOfPolys=\"2\""), std::string::npos);
  // offsets: the triangle's 3 corners, then the quad's 4
  EXPECT_NE(text.find("Name=\"offsets\" format=\"ascii\">\n3\n7\n</DataArray>"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Name=\"faceId\" format=\"ascii\">\n3\n9\n</DataArray>"), std::string::npos);
  EXPECT_NE(text.find("Name=\"Cp\" format=\"ascii\">\n0.3 \n0.9 \n</DataArray>"),
            std::string::npos);
  // the triangle's corners come first in the points
  EXPECT_NE(text.find("format=\"ascii\">\n0 0 1 \n1 0 1 \n0 1 1 \n0 0 0 \n"), std::string::npos);
  d.cornerOffsets = {0, 4};
  EXPECT_THROW(write_surface_vtp(path, d), Error);
}
