// The mesh stream that hands a CGNS/ADF mesh from the reading child to fvprep
// (formats/mesh_transfer.hpp): every field of fv::Mesh survives the round trip, and a truncated
// or foreign stream is an error, not a crash.
#include "common/error.hpp"
#include "formats/mesh_transfer.hpp"
#include "prep/generate_mesh.hpp"
#include "tests/readers/mesh_compare.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

/// A generated mixed mesh with every optional field of fv::Mesh filled in.
fv::Mesh full_mesh() {
  fv::GenOptions g{fv::MeshFamily::Channel, fv::GenCells::Mixed, {6, 3, 2}};
  g.perturb = 0.1;
  fv::Mesh m = fv::generate_mesh(g);
  m.polyCell.assign(static_cast<std::size_t>(m.nCells()), -1);
  m.polyCell[1] = 0;
  const fv::idx_t faces[] = {0, 1, 2};
  m.polyCellFaces = fv::Csr::from_counts({3});
  std::copy(faces, faces + 3, m.polyCellFaces.row(0));
  m.polyFaceNodes = fv::Csr::from_counts({3, 3, 4});
  for (fv::idx_t k = 0; k < m.polyFaceNodes.nnz(); ++k)
    m.polyFaceNodes.indices()[k] = k;
  m.nodeSetPatches.push_back({1, {0, 4, 9}});
  m.cellFileId.assign(static_cast<std::size_t>(m.nCells()), 7);
  m.bfaceFileId.assign(static_cast<std::size_t>(m.nBoundaryFaces()), -1);
  m.path = "mesh.cgns";
  m.format = "CGNS/ADF";
  m.writer = "a writer";
  m.warnings = {"one warning", ""};
  m.nodeFileId.assign(static_cast<std::size_t>(m.nNodes()), 3);
  m.fileZones = {"zone A", "zone B"};
  m.cellFileZone.assign(static_cast<std::size_t>(m.nCells()), 1);
  m.bfaceFileZone.assign(static_cast<std::size_t>(m.nBoundaryFaces()), 0);
  m.extrusion = {0.125, {0.6, 0, 0.8}};
  return m;
}

std::string stream_of(const fv::Mesh& m) {
  std::FILE* f = std::tmpfile();
  EXPECT_TRUE(fv::write_mesh_stream(f, m));
  std::string bytes(static_cast<std::size_t>(std::ftell(f)), '\0');
  std::rewind(f);
  EXPECT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  return bytes;
}

TEST(MeshTransfer, RoundTripKeepsEveryField) {
  const fv::Mesh m = full_mesh();
  const std::string bytes = stream_of(m);
  const fv::Mesh r = fv::read_mesh_stream(bytes.data(), bytes.size(), "test");
  fv::testing::expect_same_mesh(r, m);
  ASSERT_EQ(r.nodeSetPatches.size(), 1u);
  EXPECT_EQ(r.nodeSetPatches[0].patch, 1);
  // a field added to fv::Mesh must be added to the stream too: this size changes with it
  EXPECT_EQ(sizeof(fv::Mesh), 760u) << "fv::Mesh changed: update formats/mesh_transfer.cpp and "
                                       "this test";
}

TEST(MeshTransfer, TruncatedOrForeignStreamsAreErrors) {
  const std::string bytes = stream_of(full_mesh());
  for (std::size_t keep :
       {std::size_t{0}, std::size_t{7}, std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
    try {
      (void)fv::read_mesh_stream(bytes.data(), keep, "cut");
      ADD_FAILURE() << "a stream cut at " << keep << " bytes was accepted";
    } catch (const fv::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("cut: ", 0), 0u) << e.what();
    }
  }
  std::string foreign = bytes;
  foreign[0] = 'X';
  EXPECT_THROW((void)fv::read_mesh_stream(foreign.data(), foreign.size(), "x"), fv::Error);
  std::string longer = bytes + "extra";
  EXPECT_THROW((void)fv::read_mesh_stream(longer.data(), longer.size(), "x"), fv::Error);
  // a count far beyond the stream's end
  std::string huge = bytes;
  for (int k = 8; k < 16; ++k)
    huge[static_cast<std::size_t>(k)] = '\x7f';
  EXPECT_THROW((void)fv::read_mesh_stream(huge.data(), huge.size(), "x"), fv::Error);
}

} // namespace
