#pragma once
/// \file lusgs_zones.hpp
/// Single zones of generated meshes built by the real prep pipeline (generate_mesh ->
/// build_zones with RCM), so that they carry cellColours and hyperplanes, for the LU-SGS tests.
#include "common/zone.hpp"
#include "prep/generate_mesh.hpp"

#include <string>
#include <vector>

namespace fv::testing {

/// A generated mesh as one zone, with the mesh's patches (in zone patch order).
struct TestZone {
  Zone zone;
  std::vector<Patch> patches;
};

/// The transonic channel of the implicit-scheme tests: fvgen's channel with a 3 % bump, 48 x 16
/// hexahedra in one layer (at M 0.8 a supersonic pocket up to about M 1.18 and a weak shock).
GenOptions transonic_channel_options();

/// generate_mesh(o), then build_zones (RCM renumbering) into `parts` parts by contiguous ranges
/// of the generated cell order; returns zone `zone`.
TestZone generated_zone(const GenOptions& o, int parts = 1, int zone = 0);

/// Case-file [patch] sections of fvgen's channel: inlet and outlet of the given types, slip
/// walls (lower_wall, upper_wall), symmetry sides (side1, side2); append to the other sections.
std::string channel_patches(const std::string& inlet = "farfield",
                            const std::string& outlet = "farfield");

/// Largest |a - b| over owned cells and the 5 components, relative to the largest |a|;
/// infinity when any value is not finite.
double max_relative_difference(const Zone& z, const std::vector<double>& a,
                               const std::vector<double>& b);

} // namespace fv::testing
