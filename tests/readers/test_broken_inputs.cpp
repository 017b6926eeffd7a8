// Broken inputs: the fvprep binary must print one clear error line and exit != 0, never crash.
#include "tests/readers/fvprep_run.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <cgnslib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <utility>

namespace {

using fv::testing::Box;
using fv::testing::expect_clean_error;
using fv::testing::run_fvprep;
using fv::testing::RunResult;

std::string slurp_binary(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string box_su2() {
  return fv::testing::su2_box(Box{});
}

std::string replace_line(std::string text, const std::string& from, const std::string& to) {
  const auto p = text.find(from);
  EXPECT_NE(p, std::string::npos);
  return text.replace(p, from.size(), to);
}

TEST(BrokenInputs, GoodFileSucceeds) {
  const std::string f = fv::testing::scratch_dir() + "/ok.su2";
  fv::testing::write_text(f, box_su2());
  const RunResult r = run_fvprep("info " + f);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("hexahedron"), std::string::npos);
  const RunResult j = run_fvprep("info --json " + f);
  EXPECT_EQ(j.exitCode, 0);
  EXPECT_EQ(j.out.front(), '{');
  EXPECT_NE(j.out.find("\"interior\": 12"), std::string::npos) << j.out;
}

TEST(BrokenInputs, UsageErrorsExit2) {
  expect_clean_error(run_fvprep("info"), {}, 2);
  expect_clean_error(run_fvprep("--bogus-option x"), {}, 2);
}

TEST(BrokenInputs, MissingFile) {
  expect_clean_error(run_fvprep("info /nonexistent/mesh.cgns"),
                     {"/nonexistent/mesh.cgns", "no such file"});
}

TEST(BrokenInputs, TruncatedSu2) {
  const std::string f = fv::testing::scratch_dir() + "/t.su2";
  const std::string s = box_su2();
  fv::testing::write_text(f, s.substr(0, s.find("NPOIN") + 40));
  expect_clean_error(run_fvprep("info " + f), {"t.su2:", "end of file"});
}

TEST(BrokenInputs, TruncatedCgns) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string f = dir + "/full.cgns", t = dir + "/trunc.cgns";
  fv::testing::write_box_cgns(f, Box{}, fv::testing::BcStyle::PointRangeFace);
  const std::string bytes = fv::testing::read_text(f);
  fv::testing::write_text(t, bytes.substr(0, bytes.size() / 2));
  expect_clean_error(run_fvprep("info " + t), {"trunc.cgns", "not a CGNS file"});
}

TEST(BrokenInputs, CgnsTruncatedOrCorruptGivesOneLine) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string f = dir + "/full.cgns", t = dir + "/cut.cgns";
  fv::testing::write_box_ngon_cgns(f, Box{});
  const std::string bytes = fv::testing::read_text(f);
  for (int k = 1; k < 16; ++k) {
    const std::size_t at = bytes.size() * static_cast<std::size_t>(k) / 16;
    // k odd: truncated there; k even: 16 bytes overwritten there (HDF5 metadata or data)
    fv::testing::write_text(t, k % 2 ? bytes.substr(0, at)
                                     : bytes.substr(0, at) + std::string(16, '\x55') +
                                           bytes.substr(at + 16));
    const RunResult r = run_fvprep("info " + t);
    expect_clean_error(r, {"cut.cgns"});
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "k = " << k << ": " << r.err;
  }
}

TEST(BrokenInputs, TruncatedGmshBinary) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string f = dir + "/full.msh", t = dir + "/trunc.msh";
  fv::testing::write_box_gmsh(f, Box{}, 4.1, true);
  const std::string bytes = fv::testing::read_text(f);
  fv::testing::write_text(t, bytes.substr(0, bytes.size() * 2 / 3));
  expect_clean_error(run_fvprep("info " + t), {"trunc.msh"});
}

TEST(BrokenInputs, WrongNodeIndex) {
  const std::string f = fv::testing::scratch_dir() + "/n.su2";
  const std::string s = replace_line(box_su2(), "12\t0\t1\t4\t3", "12\t0\t1\t4\t999");
  fv::testing::write_text(f, s);
  expect_clean_error(run_fvprep("info " + f), {"n.su2", "element 0", "999"});
}

TEST(BrokenInputs, InvertedCell) {
  const std::string f = fv::testing::scratch_dir() + "/i.su2";
  // cell 0 with bottom and top swapped: negative volume
  const std::string s =
      replace_line(box_su2(), "12\t0\t1\t4\t3\t9\t10\t13\t12", "12\t9\t10\t13\t12\t0\t1\t4\t3");
  fv::testing::write_text(f, s);
  expect_clean_error(run_fvprep("info " + f), {"i.su2", "element 0", "volume"});
}

TEST(BrokenInputs, OpenCell) {
  const std::string f = fv::testing::scratch_dir() + "/open.cgns";
  fv::testing::write_box_ngon_cgns(f, Box{1, 1, 1, 0}, /*dropFaceOfCell1=*/true);
  expect_clean_error(run_fvprep("info " + f), {"open.cgns", "element 6", "not closed"});
}

TEST(BrokenInputs, NonManifoldFace) {
  // hexahedra 0 and 1 share the face x = 1; hexahedron 2 is glued to the same face as well
  const std::string f = fv::testing::scratch_dir() + "/nm.su2";
  fv::testing::write_text(f, "NDIME= 3\nNELEM= 3\n12 0 1 4 3 6 7 10 9\n12 1 2 5 4 7 8 11 10\n"
                             "12 1 12 13 4 7 14 15 10\nNPOIN= 16\n0 0 0\n1 0 0\n2 0 0\n0 1 0\n"
                             "1 1 0\n2 1 0\n0 0 1\n1 0 1\n2 0 1\n0 1 1\n1 1 1\n2 1 1\n"
                             "2 0 0.2\n2 1 0.2\n2 0 1.2\n2 1 1.2\nNMARK= 0\n");
  expect_clean_error(run_fvprep("info --default-patch walls " + f),
                     {"nm.su2", "non-manifold", "3 cells", "element 2"});
}

TEST(BrokenInputs, UnknownElementType) {
  const std::string f = fv::testing::scratch_dir() + "/u.su2";
  fv::testing::write_text(f, replace_line(box_su2(), "12\t0\t1\t4\t3", "99\t0\t1\t4\t3"));
  expect_clean_error(run_fvprep("info " + f), {"u.su2:", "unknown element type 99"});
}

TEST(BrokenInputs, MissingBoundaryConditionUnlessDefaultPatch) {
  const std::string f = fv::testing::scratch_dir() + "/m.su2";
  std::string s = box_su2();
  // drop the last marker (zmax)
  const auto p = s.find("MARKER_TAG= zmax");
  s = s.substr(0, p) + s.substr(s.find("FFD_NBOX"));
  s = replace_line(s, "NMARK= 6", "NMARK= 5");
  fv::testing::write_text(f, s);
  expect_clean_error(run_fvprep("info " + f), {"m.su2"});
  const RunResult ok = run_fvprep("info --default-patch farfield " + f);
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
  EXPECT_NE(ok.out.find("farfield"), std::string::npos);
}

TEST(BrokenInputs, StructuredZoneWithoutCoordinates) {
  const std::string f = fv::testing::scratch_dir() + "/s.cgns";
  int fn, B, Z;
  ASSERT_EQ(cg_open(f.c_str(), CG_MODE_WRITE, &fn), CG_OK);
  ASSERT_EQ(cg_base_write(fn, "Base", 3, 3, &B), CG_OK);
  cgsize_t size[9] = {3, 3, 3, 2, 2, 2, 0, 0, 0};
  ASSERT_EQ(cg_zone_write(fn, B, "blockA", size, Structured, &Z), CG_OK);
  ASSERT_EQ(cg_close(fn), CG_OK);
  expect_clean_error(run_fvprep("info " + f), {"s.cgns", "'blockA'", "no Cartesian coordinates"});
}

TEST(BrokenInputs, StructuredInterfaceAndBcOutsideTheZone) {
  // a 1-to-1 interface whose donor range runs past the donor, and a BC range past the zone
  for (int broken = 0; broken < 2; ++broken) {
    const std::string f = fv::testing::scratch_dir() + "/s1.cgns";
    fv::testing::write_structured_cgns(f, false);
    int fn, I;
    ASSERT_EQ(cg_open(f.c_str(), CG_MODE_MODIFY, &fn), CG_OK);
    if (broken == 0) {
      cgsize_t r[6] = {1, 1, 1, 1, 3, 3}, d[6] = {1, 2, 1, 1, 4, 3};
      int t[3] = {1, 2, 3};
      ASSERT_EQ(cg_1to1_write(fn, 1, 1, "bad", "right", r, d, t, &I), CG_OK);
    } else {
      cgsize_t r[6] = {1, 1, 1, 1, 5, 3};
      ASSERT_EQ(cg_boco_write(fn, 1, 1, "bad", BCWall, PointRange, 2, r, &I), CG_OK);
    }
    ASSERT_EQ(cg_close(fn), CG_OK);
    if (broken == 0)
      expect_clean_error(run_fvprep("info " + f), {"s1.cgns", "'left'", "'bad'", "donor zone"});
    else
      expect_clean_error(run_fvprep("info " + f),
                         {"s1.cgns", "'left'", "'bad'", "outside the zone"});
  }
}

TEST(BrokenInputs, SeveralBasesNeedBase) {
  const std::string f = fv::testing::scratch_dir() + "/b.cgns";
  fv::testing::write_box_cgns(f, Box{}, fv::testing::BcStyle::PointRangeFace);
  int fn, B;
  ASSERT_EQ(cg_open(f.c_str(), CG_MODE_MODIFY, &fn), CG_OK);
  ASSERT_EQ(cg_base_write(fn, "Other", 3, 3, &B), CG_OK);
  ASSERT_EQ(cg_close(fn), CG_OK);
  expect_clean_error(run_fvprep("info " + f), {"--base", "'Base'", "'Other'"}, 2);
  EXPECT_EQ(run_fvprep("info --base Base " + f).exitCode, 0);
}

TEST(BrokenInputs, GarbageFile) {
  const std::string f = fv::testing::scratch_dir() + "/g.cgns";
  fv::testing::write_text(f, std::string(1000, '\x07'));
  expect_clean_error(run_fvprep("info " + f), {"g.cgns"});
}

} // namespace

// A corrupt sub-node table in a CGNS/ADF file: libcgns 3.4's ADF layer overflows a heap buffer
// (ADFI_read_sub_node_table, under cg_is_cgns/cgio_get_node_id: after cg_open succeeds, so the
// open probe does not see it; found by tests/fuzz/fuzz_cgns). fvprep reads ADF files in a
// forked child (formats/cgns_reader.cpp), so the overflow kills the child and fvprep says so in
// one line. The file: fvgen's one-hexahedron box converted to ADF by hdf2adf, with the four
// bytes the fuzzer changed (offsets in that file). Under AddressSanitizer (the sanitizer suite)
// the test insists on the child's death: if a change of fvgen's output moves the table, the
// offsets must be found again.
TEST(BrokenInputs, CorruptAdfSubNodeTableIsContained) {
  if (std::system("command -v hdf2adf >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "hdf2adf (Debian cgns-convert) not installed";
  const std::string dir = fv::testing::scratch_dir();
  const std::string hdf = dir + "/hex.cgns", adf = dir + "/hex_adf.cgns";
  ASSERT_EQ(
      std::system((std::string(FVGEN_EXE) + " box --n 1,1,1 -q -o " + hdf + " >/dev/null").c_str()),
      0);
  ASSERT_EQ(std::system(("hdf2adf " + hdf + " " + adf + " >/dev/null 2>&1").c_str()), 0);
  std::string bytes = slurp_binary(adf);
  ASSERT_GT(bytes.size(), 8889u);
  for (auto [pos, value] :
       {std::pair<std::size_t, int>{8204, 064}, {8206, 063}, {8207, 064}, {8889, 005}})
    bytes[pos - 1] = static_cast<char>(value);
  std::ofstream(adf, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const RunResult r = run_fvprep("info " + adf);
  ASSERT_FALSE(r.signalled) << r.err;
#if defined(__SANITIZE_ADDRESS__)
  // under AddressSanitizer the overflow always kills the reading child
  ASSERT_EQ(r.exitCode, 1) << r.err;
  expect_clean_error(r, {adf.c_str(), "corrupt CGNS file: the CGNS library crashed"});
#else
  // without it, reading past the buffer may or may not fault: a clean error or a mesh
  ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.exitCode << ": " << r.err;
  if (r.exitCode == 1) expect_clean_error(r, {adf.c_str()});
#endif
}

// Seeded mutations of real CGNS files (1-8 bytes flipped or overwritten at random places),
// ADF and HDF5: fvprep never crashes, and every failure is one error line. Debian's libcgns 3.4
// dies (SIGSEGV in cgi_read_section, inside cg_open) on a quarter of the ADF mutations; fvprep
// opens each file first in a forked probe (formats/cgns_reader.cpp) and reports those as
// corrupt, so the sweep must meet that message too.
TEST(BrokenInputs, MutatedCgnsFilesNeverCrash) {
  struct Target {
    const char* mesh;
    int mutations;
  };
  int probeCaught = 0;
  for (const Target t :
       {Target{"cgns/static_mixer_cfx_mixed.cgns", 120}, Target{"cgns/wedge_2d_quads.cgns", 80}}) {
    const std::string src = fv::testing::shared_mesh(t.mesh);
    if (src.empty()) GTEST_SKIP() << "../shared/meshes not available";
    const std::string original = slurp_binary(src);
    ASSERT_FALSE(original.empty());
    for (int seed = 0; seed < t.mutations; ++seed) {
      std::mt19937 rng(static_cast<unsigned>(seed));
      std::string bytes = original;
      const int edits = 1 + static_cast<int>(rng() % 8);
      for (int e = 0; e < edits; ++e) {
        const std::size_t pos = rng() % bytes.size();
        if (rng() % 2) {
          bytes[pos] = static_cast<char>(bytes[pos] ^ (1 << (rng() % 8)));
        } else {
          for (std::size_t k = 0, n = 1 + rng() % 8; k < n && pos + k < bytes.size(); ++k)
            bytes[pos + k] = static_cast<char>(rng() % 256);
        }
      }
      const std::string f = fv::testing::scratch_dir() + "/mutated.cgns";
      std::ofstream(f, std::ios::binary)
          .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      const RunResult r = run_fvprep("info " + f);
      SCOPED_TRACE(std::string(t.mesh) + " mutation " + std::to_string(seed));
      ASSERT_FALSE(r.signalled) << r.err;
      ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.exitCode << ": " << r.err;
      if (r.exitCode == 1) expect_clean_error(r, {f.c_str()});
      probeCaught += r.err.find("the CGNS library crashed") != std::string::npos;
    }
  }
  EXPECT_GT(probeCaught, 0) << "no mutation reached the probe: the sweep does not test it";
}
