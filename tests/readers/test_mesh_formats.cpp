// The reader table (formats/mesh_reader.hpp): detection by content then extension, and the
// list of formats in the unknown-format error.
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <filesystem>
#include <string>

namespace {

std::string name_of(const std::string& path) {
  const fv::MeshFormat* f = fv::detect_mesh_format(path);
  return f ? f->name : "none";
}

TEST(MeshFormats, DetectedByContentBeforeExtension) {
  const std::string dir = fv::testing::scratch_dir();
  fv::testing::write_text(dir + "/box.msh", fv::testing::su2_box(fv::testing::Box{}));
  EXPECT_EQ(name_of(dir + "/box.msh"), "SU2"); // content wins over the extension
  fv::testing::write_box_gmsh(dir + "/g.dat", fv::testing::Box{}, 4.1, true);
  EXPECT_EQ(name_of(dir + "/g.dat"), "Gmsh");
  fv::testing::write_box_cgns(dir + "/c.bin", fv::testing::Box{}, fv::testing::BcStyle::None);
  EXPECT_EQ(name_of(dir + "/c.bin"), "CGNS");
  std::filesystem::create_directories(dir + "/case");
  EXPECT_EQ(name_of(dir + "/case"), "OpenFOAM");
}

TEST(MeshFormats, DetectedByExtension) {
  const std::string dir = fv::testing::scratch_dir();
  fv::testing::write_text(dir + "/empty.SU2", "");
  EXPECT_EQ(name_of(dir + "/empty.SU2"), "SU2");
  fv::testing::write_text(dir + "/empty.foam", "");
  EXPECT_EQ(name_of(dir + "/empty.foam"), "OpenFOAM");
  EXPECT_EQ(fv::detect_mesh_format_by_extension("x.cgn")->name, std::string("CGNS"));
  EXPECT_EQ(fv::detect_mesh_format_by_extension("x.txt"), nullptr);
}

TEST(MeshFormats, UnknownFormatListsTheTable) {
  const std::string f = fv::testing::scratch_dir() + "/mesh.txt";
  fv::testing::write_text(f, "hello\n");
  EXPECT_EQ(fv::detect_mesh_format(f), nullptr);
  try {
    fv::read_mesh(f);
    FAIL() << "no error";
  } catch (const fv::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("mesh.txt: unknown mesh format (supported: "), std::string::npos) << msg;
    for (const fv::MeshFormat& m : fv::mesh_formats())
      EXPECT_NE(msg.find(m.name), std::string::npos) << m.name << " in " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
}

} // namespace
