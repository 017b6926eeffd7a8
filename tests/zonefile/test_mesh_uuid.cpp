#include "formats/mesh_uuid.hpp"
#include "synthetic_zones.hpp"

#include <gtest/gtest.h>

namespace {

using namespace fv::testing;

TEST(MeshUuid, IndependentOfThePartitioning) {
  const int nx = 64;
  const StripMesh m = strip_mesh(nx);
  const std::string global = fv::mesh_uuid(m.xyz, m.cellType, m.cellNodes);
  EXPECT_EQ(global.size(), 36u);
  EXPECT_EQ(global[14], '8'); // version-8 UUID
  const auto h = strip_header(nx, 1);
  for (int parts : {1, 2, 7, 64})
    EXPECT_EQ(fv::mesh_uuid(strip_zones(even_blocks(nx, parts)), h.nGlobalCells, h.nGlobalNodes),
              global)
        << parts << " parts";
  EXPECT_EQ(fv::mesh_uuid(strip_zones({1, 50, 13}), h.nGlobalCells, h.nGlobalNodes), global);
}

TEST(MeshUuid, ChangesWithGeometryOrConnectivity) {
  StripMesh m = strip_mesh(8);
  const std::string ref = fv::mesh_uuid(m.xyz, m.cellType, m.cellNodes);
  m.xyz[10] += 1e-12;
  EXPECT_NE(fv::mesh_uuid(m.xyz, m.cellType, m.cellNodes), ref);
  m = strip_mesh(8);
  std::swap(m.cellNodes.indices()[0], m.cellNodes.indices()[1]);
  EXPECT_NE(fv::mesh_uuid(m.xyz, m.cellType, m.cellNodes), ref);
  m = strip_mesh(8);
  m.cellType[3] = fv::CellType::Polyhedron;
  EXPECT_NE(fv::mesh_uuid(m.xyz, m.cellType, m.cellNodes), ref);
  EXPECT_NE(fv::mesh_uuid(strip_mesh(9).xyz, strip_mesh(9).cellType, strip_mesh(9).cellNodes), ref);
}

TEST(MeshUuid, RefusesZonesThatDoNotCoverTheMesh) {
  auto zones = strip_zones({4, 4});
  zones.pop_back();
  EXPECT_THROW(fv::mesh_uuid(zones, 8, 36), fv::Error);
}

} // namespace

TEST(MeshUuid, ValueIsPinned) {
  // Zone files carry this value and `fvprep check` recomputes it: a change of the hash (its
  // input layout, or how the input is fed) would make every existing zone file fail its check.
  const StripMesh m = strip_mesh(300);
  EXPECT_EQ(fv::mesh_uuid(m.xyz, m.cellType, m.cellNodes), "509c6d39-89c8-8d10-9d0d-9173a8a2dec1");
}
