#pragma once
/// \file testing.hpp
/// Helpers shared by fvkit's tests: paths to the shared real meshes (skipping when absent) and
/// per-test scratch directories.
#include "common/error.hpp"
#include "common/zone.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fv::testing {

/// Directory of the shared real meshes (../shared/meshes), or "" when it is absent.
std::string shared_meshes_dir();

/// Full path of a shared mesh, e.g. shared_mesh("cgns/wedge_2d_quads.cgns"); "" when absent.
std::string shared_mesh(const std::string& relative);

/// All shared mesh files (relative paths like "su2/mesh_brick_hex_ffd.su2"); empty when absent.
std::vector<std::string> shared_mesh_list();

/// A fresh empty scratch directory for the current test, under the build tree.
std::string scratch_dir();

/// Raw bytes of every dataset of a zone, by dataset path ("cells/volume",
/// "conn/cellFaces/offsets", ...), from the zone schema's visitor.
std::map<std::string, std::string> zone_dataset_bytes(const Zone& z);

/// The [patch] sections of a supersonic case on fvgen's wedge (prep/generate_mesh.hpp: inlet,
/// outlet, lower_wall, upper, side1, side2): supersonic inflow and outflow, a slip wall, far
/// field and two symmetry planes.
inline constexpr const char* kSupersonicWedgePatches = R"(
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

/// The message of the fv::Error f() throws, or "" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

} // namespace fv::testing

/// Skips the current test when ../shared/meshes (or the given mesh) is not there.
#define FV_REQUIRE_SHARED_MESH(path_var, relative)                                                 \
  const std::string path_var = ::fv::testing::shared_mesh(relative);                               \
  if (path_var.empty()) GTEST_SKIP() << "shared mesh " << (relative) << " not available"
