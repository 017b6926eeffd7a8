#pragma once
/// \file newton_cases.hpp
/// Zones and case files of the Newton-Krylov tests: the transonic channel bump made by
/// generate_mesh (always available) and SU2's NACA 0012 Euler mesh from ../shared/meshes
/// (extruded into one layer of prisms of span 1), both through the real prep pipeline (RCM,
/// colours, hyperplanes, METIS for several zones).
#include "common/zone.hpp"
#include "prep/prepare.hpp"

#include <string>

namespace fv::testing {

/// The zones of SU2's inv_NACA0012 mesh in `parts` parts, extruded by `span` (0: fvprep's
/// default thickness); empty zones when ../shared/meshes is absent.
const PreparedZones& naca0012_zones(int parts, double span = 1.0);

/// The zones of a 2D mesh of ../shared/meshes (path relative to it) extruded by `span`, in
/// `parts` parts (cached); empty zones when ../shared/meshes is absent.
const PreparedZones& shared_2d_zones(const std::string& rel, double span, int parts,
                                     const std::vector<std::string>& walls = {});

/// Case file of the NACA 0012 Euler case (M 0.8, AoA 1.25, lift along y) with only the free
/// stream, the patches and `extra` (more sections / keys).
std::string naca0012_case(const std::string& extra = "");

/// The text of the case file examples/NAME (the tests run exactly what the README shows).
std::string example_case(const std::string& name);

/// SU2 8.3's converged values on the same mesh with its tutorial config (inv_NACA0012.cfg: JST;
/// ../shared/meshes/README). Schemes differ by 1-2 % in CL on a mesh this coarse.
inline constexpr double kNacaCL = 0.32849, kNacaCD = 0.02148;

} // namespace fv::testing
