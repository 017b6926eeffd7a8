// Slices of a mesh for the distributed fvprep (formats/mesh_slice.hpp): the CGNS reader's
// sliced read (partial reads of the volume elements and coordinates) gives every process
// exactly the slice that cutting the whole mesh gives, on generated and shared meshes; slices
// of a whole mesh put back together are the mesh; a bad element found in a slice gets the
// whole read's error.
#include "formats/cgns_writer.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/mesh_slice.hpp"
#include "prep/generate_mesh.hpp"
#include "tests/readers/mesh_compare.hpp"
#include "tests/testing/testing.hpp"

#include <cgnslib.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

void expect_same_slice(const fv::MeshSlice& a, const fv::MeshSlice& b) {
  EXPECT_EQ(a.nCells, b.nCells);
  EXPECT_EQ(a.nNodes, b.nNodes);
  EXPECT_EQ(a.nBoundaryFaces, b.nBoundaryFaces);
  EXPECT_EQ(a.cellFirst, b.cellFirst);
  EXPECT_EQ(a.bfaceFirst, b.bfaceFirst);
  EXPECT_EQ(a.nodeFirst, b.nodeFirst);
  EXPECT_EQ(a.xyz, b.xyz); // bitwise: the same doubles from the same file
  EXPECT_TRUE(a.part.xyz.empty());
  fv::testing::expect_same_mesh(a.part, b.part);
}

/// Sliced read against the whole read cut, for every rank of several process counts.
/// Returns whether the file was read in slices.
bool check_cgns_slices(const std::string& path, const std::vector<int>& counts = {2, 7}) {
  bool partial = false;
  const fv::Mesh whole = fv::read_mesh(path);
  for (int parts : counts) {
    for (int rank = 0; rank < parts; ++rank) {
      SCOPED_TRACE(path + ": rank " + std::to_string(rank) + " of " + std::to_string(parts));
      fv::Mesh copy = whole;
      const fv::MeshSlice cut = fv::slice_mesh(std::move(copy), rank, parts);
      const fv::MeshSlice s = fv::read_mesh_slice(path, {}, rank, parts);
      expect_same_slice(s, cut);
      partial |= s.partialRead;
    }
  }
  return partial;
}

fv::Mesh channel(fv::GenCells cells) {
  fv::GenOptions g{fv::MeshFamily::Channel, cells, {9, 5, 4}};
  g.perturb = 0.2;
  g.shuffle = true;
  return fv::generate_mesh(g);
}

TEST(MeshSlice, CgnsSlicedReadEqualsTheWholeReadCut) {
  const std::string dir = fv::testing::scratch_dir();
  for (fv::GenCells cells : {fv::GenCells::Tet, fv::GenCells::Hex, fv::GenCells::Mixed}) {
    const std::string path = dir + "/channel.cgns";
    fv::write_cgns(channel(cells), path);
    EXPECT_TRUE(check_cgns_slices(path)) << "one section per cell type: read in slices";
    if (cells != fv::GenCells::Mixed) continue; // one cell type: the writer's section is not MIXED
    fv::CgnsWriteOptions mixed;
    mixed.mixedSection = true;
    fv::write_cgns(channel(cells), path, mixed);
    EXPECT_FALSE(check_cgns_slices(path)) << "cells in a MIXED section: read whole";
  }
}

/// The shared CGNS files (most are CGNS/ADF, read whole; the CGNS/HDF5 ones are structured or
/// 2D, read whole) give every process the slice of the whole read; the 3D unstructured ones,
/// rewritten as CGNS/HDF5 with a section per cell type, are read in slices.
TEST(MeshSlice, SharedCgnsMeshesSliceAsTheWholeRead) {
  const std::vector<std::string> names = fv::testing::shared_mesh_list();
  if (names.empty()) GTEST_SKIP() << "../shared/meshes is absent";
  const std::string dir = fv::testing::scratch_dir();
  int partial = 0;
  for (const std::string& name : names) {
    if (name.rfind("cgns/", 0) != 0) continue;
    const std::string path = fv::testing::shared_mesh(name);
    check_cgns_slices(path, {3});
    const fv::Mesh m = fv::read_mesh(path);
    if (m.fileZones.size() > 1 || !m.polyCell.empty() || name.find("2d") != std::string::npos ||
        name.find("structured") != std::string::npos)
      continue;
    const std::string hdf5 = dir + "/rewritten.cgns";
    fv::write_cgns(m, hdf5);
    partial += check_cgns_slices(hdf5, {3});
  }
  EXPECT_GT(partial, 0) << "no shared CGNS mesh was read in slices";
}

TEST(MeshSlice, SlicesOfAWholeMeshPutBackTogetherAreTheMesh) {
  for (fv::GenCells cells : {fv::GenCells::Tet, fv::GenCells::Mixed}) {
    const fv::Mesh whole = channel(cells);
    const int parts = 4;
    std::vector<fv::idx_t> cellNodes, bfaceNodes;
    std::vector<double> xyz;
    std::vector<fv::gidx_t> cellIds;
    for (int r = 0; r < parts; ++r) {
      fv::Mesh copy = whole;
      const fv::MeshSlice s = fv::slice_mesh(std::move(copy), r, parts);
      EXPECT_EQ(s.cellFirst, static_cast<fv::gidx_t>(cellIds.size()));
      cellNodes.insert(cellNodes.end(), s.part.cellNodes.indices().begin(),
                       s.part.cellNodes.indices().end());
      bfaceNodes.insert(bfaceNodes.end(), s.part.bfaceNodes.indices().begin(),
                        s.part.bfaceNodes.indices().end());
      xyz.insert(xyz.end(), s.xyz.begin(), s.xyz.end());
      cellIds.insert(cellIds.end(), s.part.cellFileId.begin(), s.part.cellFileId.end());
      EXPECT_EQ(s.part.patches.size(), whole.patches.size());
    }
    EXPECT_EQ(cellNodes, std::vector<fv::idx_t>(whole.cellNodes.indices().begin(),
                                                whole.cellNodes.indices().end()));
    EXPECT_EQ(bfaceNodes, std::vector<fv::idx_t>(whole.bfaceNodes.indices().begin(),
                                                 whole.bfaceNodes.indices().end()));
    EXPECT_EQ(xyz, whole.xyz);
    EXPECT_EQ(cellIds, whole.cellFileId);
  }
}

TEST(MeshSlice, BadElementInASliceGetsTheWholeReadsError) {
  const std::string path = fv::testing::scratch_dir() + "/bad.cgns";
  fv::CgnsWriteOptions o;
  // element 40 of the first volume section names a node beyond the zone's
  o.extra = [](int fn, int B, int Z) {
    cgsize_t conn[4] = {1, 2, 3, 100000};
    ASSERT_EQ(cg_elements_partial_write(fn, B, Z, 1, 40, 40, conn), CG_OK) << cg_get_error();
  };
  fv::write_cgns(channel(fv::GenCells::Tet), path, o);
  const std::string expected = fv::testing::error_of([&] { fv::read_mesh(path); });
  ASSERT_NE(expected.find("refers to node 100000"), std::string::npos) << expected;
  int found = 0;
  for (int rank = 0; rank < 3; ++rank) {
    const std::string got = fv::testing::error_of([&] { fv::read_cgns_slice(path, {}, rank, 3); });
    if (got.empty()) continue;
    ++found;
    EXPECT_EQ(got, expected);
  }
  EXPECT_EQ(found, 1) << "only the process whose slice holds the element finds it";
}

} // namespace
