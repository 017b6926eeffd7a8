// Generated meshes through fvkit's own readers and face builder: read_mesh(write_cgns(m)) and
// read_mesh(write_su2(m)) reproduce m, and prep's build_faces() accepts every family and
// cell kind with the expected face counts.
#include "common/cell_shapes.hpp"
#include "common/log.hpp"
#include "formats/cgns_writer.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/su2_writer.hpp"
#include "prep/faces.hpp"
#include "prep/generate_mesh.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

namespace fv {
namespace {

Mesh make(MeshFamily f, GenCells c, std::array<std::int64_t, 3> n) {
  log::set_level(log::Level::Warn); // the readers' phase lines are noise here
  GenOptions o;
  o.family = f;
  o.cells = c;
  o.n = n;
  o.shuffle = true;
  o.perturb = 0.2;
  o.seed = 11;
  return generate_mesh(o);
}

/// Cells, nodes, boundary faces and patches of a and b are identical (same numbering).
void expect_same(const Mesh& a, const Mesh& b) {
  EXPECT_EQ(a.xyz, b.xyz);
  EXPECT_EQ(a.cellType, b.cellType);
  EXPECT_TRUE(a.cellNodes == b.cellNodes);
  EXPECT_TRUE(a.bfaceNodes == b.bfaceNodes);
  EXPECT_EQ(a.bfacePatch, b.bfacePatch);
  ASSERT_EQ(a.patches.size(), b.patches.size());
  for (std::size_t p = 0; p < a.patches.size(); ++p)
    EXPECT_EQ(a.patches[p].name, b.patches[p].name);
}

TEST(ReaderRoundTrip, CgnsKeepsTheMesh) {
  for (GenCells c :
       {GenCells::Hex, GenCells::Tet, GenCells::Prism, GenCells::Pyramid, GenCells::Mixed}) {
    SCOPED_TRACE(to_string(c));
    const Mesh m = make(MeshFamily::Channel, c, {8, 3, 2});
    const std::string path = testing::scratch_dir() + "/m.cgns";
    CgnsWriteOptions o;
    o.mixedSection = true; // keeps the cell order of mixed meshes
    write_cgns(m, path, o);
    const Mesh r = read_mesh(path);
    expect_same(m, r);
    for (std::size_t p = 0; p < m.patches.size(); ++p)
      EXPECT_EQ(m.patches[p].bcType, r.patches[p].bcType);
    // the file ids the generator promises are the ones the file has
    EXPECT_EQ(m.cellFileId, r.cellFileId);
    EXPECT_EQ(m.bfaceFileId, r.bfaceFileId);
  }
}

TEST(ReaderRoundTrip, CgnsSectionsPerTypeGroupCells) {
  const Mesh m = make(MeshFamily::Wedge, GenCells::Mixed, {8, 3, 2});
  const std::string path = testing::scratch_dir() + "/m.cgns";
  write_cgns(m, path);
  const Mesh r = read_mesh(path);
  ASSERT_EQ(r.nCells(), m.nCells());
  EXPECT_EQ(r.xyz, m.xyz);
  EXPECT_TRUE(r.bfaceNodes == m.bfaceNodes);
  // cells come back grouped by type (Tet, Pyramid, Prism, Hex), in mesh order within a type
  idx_t k = 0;
  for (CellType t : {CellType::Tet, CellType::Pyramid, CellType::Prism, CellType::Hex})
    for (idx_t c = 0; c < m.nCells(); ++c) {
      if (m.cellType[static_cast<std::size_t>(c)] != t) continue;
      ASSERT_EQ(r.cellType[static_cast<std::size_t>(k)], t);
      for (idx_t v = 0; v < m.cellNodes.size(c); ++v)
        ASSERT_EQ(r.cellNodes.row(k)[v], m.cellNodes.row(c)[v]);
      ++k;
    }
  EXPECT_EQ(k, r.nCells());
}

TEST(ReaderRoundTrip, Su2KeepsTheMesh) {
  for (GenCells c : {GenCells::Prism, GenCells::Mixed}) {
    SCOPED_TRACE(to_string(c));
    const Mesh m = make(MeshFamily::Box, c, {8, 2, 3});
    const std::string path = testing::scratch_dir() + "/m.su2";
    write_su2(m, path);
    expect_same(m, read_mesh(path));
  }
}

TEST(ReaderRoundTrip, FaceBuilderAcceptsEveryCase) {
  for (MeshFamily f : {MeshFamily::Box, MeshFamily::Channel, MeshFamily::Wedge})
    for (GenCells c :
         {GenCells::Hex, GenCells::Tet, GenCells::Prism, GenCells::Pyramid, GenCells::Mixed}) {
      SCOPED_TRACE(std::string(to_string(f)) + " " + to_string(c));
      const Mesh m = make(f, c, {8, 4, 3});
      const FaceSet fs = build_faces(m);
      long cellFaces = 0;
      for (CellType t : m.cellType)
        cellFaces += cell_face_count(t);
      EXPECT_EQ(fs.nBoundaryFaces(), m.nBoundaryFaces());
      EXPECT_EQ(2L * fs.nFaces() - fs.nBoundaryFaces(), cellFaces);
      std::vector<int> seen(static_cast<std::size_t>(m.nBoundaryFaces()), 0);
      for (idx_t b : fs.bface)
        if (b >= 0) ++seen[static_cast<std::size_t>(b)];
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), m.nBoundaryFaces());
    }
}

} // namespace
} // namespace fv
