#pragma once
/// \file prep_options.hpp
/// Options of the fvprep pipeline (faces, renumbering, checks).
#include "common/types.hpp"
#include "prep/faces.hpp"

#include <string>
#include <vector>

namespace fv {

/// Cell ordering applied globally and inside each zone.
enum class Renumber {
  Rcm, ///< reverse Cuthill-McKee (Boost.Graph), pseudo-peripheral start per component
  None ///< keep the mesh file's cell order
};

/// Parses "rcm" / "none" (usage error otherwise).
Renumber parse_renumber(const std::string& text);
const char* renumber_name(Renumber r);

/// Options of build_global_mesh() / build_zones().
struct PrepOptions {
  Renumber renumber = Renumber::Rcm;
  FaceOptions faces;        ///< default patch for uncovered boundary faces
  real_t closureTol = 1e-8; ///< max |sum ownNgb S| / sum |S| of a cell before it is an error
  bool checkVolumes = true; ///< error on cells with non-positive volume
  /// Order each zone's interior and interface cells by LU-SGS hyperplane (keeping the sweep's
  /// dependencies), so every hyperplane is at most two contiguous runs of cell ids. Off by
  /// default: it interleaves BFS levels and raises the bandwidth (e.g. 1600 -> 14236 on a
  /// 40^3 hex slab zone), which costs the face loops more than it gains the sweeps.
  bool contiguousHyperplanes = false;
  /// With Renumber::Rcm, number each zone's cells BFS level by level (from the interface),
  /// each level colour class by colour class (prep/wavefront_order.hpp), where that cuts the
  /// zone's LU-SGS hyperplanes by at least a quarter (far fewer, nearly contiguous groups for
  /// ~1.5x the RCM bandwidth); otherwise the zone keeps its RCM order.
  bool wavefrontOrder = true;
  /// Patches whose faces are walls for the cells' wall distance (fvprep --walls). Empty: the
  /// patches whose CGNS BC type is a viscous wall (BCWall, BCWallViscous,
  /// BCWallViscousHeatFlux, BCWallViscousIsothermal). A name that is no patch is an error.
  std::vector<std::string> walls;
};

} // namespace fv
