#pragma once
/// \file mesh_compare.hpp
/// expect_same_mesh(): every field of two fv::Mesh equal (gtest expectations), for the tests
/// of what must give back the mesh a reader gave (the transfer stream, slices).
#include "formats/mesh.hpp"

#include <gtest/gtest.h>

namespace fv::testing {

inline void expect_same_mesh(const Mesh& a, const Mesh& b) {
  EXPECT_EQ(a.xyz, b.xyz);
  EXPECT_EQ(a.cellType, b.cellType);
  EXPECT_TRUE(a.cellNodes == b.cellNodes);
  EXPECT_EQ(a.polyCell, b.polyCell);
  EXPECT_TRUE(a.polyCellFaces == b.polyCellFaces);
  EXPECT_TRUE(a.polyFaceNodes == b.polyFaceNodes);
  EXPECT_TRUE(a.bfaceNodes == b.bfaceNodes);
  EXPECT_EQ(a.bfacePatch, b.bfacePatch);
  ASSERT_EQ(a.patches.size(), b.patches.size());
  for (std::size_t p = 0; p < a.patches.size(); ++p) {
    EXPECT_EQ(a.patches[p].name, b.patches[p].name);
    EXPECT_EQ(a.patches[p].bcType, b.patches[p].bcType);
  }
  ASSERT_EQ(a.nodeSetPatches.size(), b.nodeSetPatches.size());
  for (std::size_t p = 0; p < a.nodeSetPatches.size(); ++p) {
    EXPECT_EQ(a.nodeSetPatches[p].patch, b.nodeSetPatches[p].patch);
    EXPECT_EQ(a.nodeSetPatches[p].nodes, b.nodeSetPatches[p].nodes);
  }
  EXPECT_EQ(a.cellFileId, b.cellFileId);
  EXPECT_EQ(a.bfaceFileId, b.bfaceFileId);
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.writer, b.writer);
  EXPECT_EQ(a.warnings, b.warnings);
  EXPECT_EQ(a.nodeFileId, b.nodeFileId);
  EXPECT_EQ(a.fileZones, b.fileZones);
  EXPECT_EQ(a.cellFileZone, b.cellFileZone);
  EXPECT_EQ(a.bfaceFileZone, b.bfaceFileZone);
  EXPECT_EQ(a.extrusion.thickness, b.extrusion.thickness);
  EXPECT_EQ(a.extrusion.direction, b.extrusion.direction);
}

} // namespace fv::testing
