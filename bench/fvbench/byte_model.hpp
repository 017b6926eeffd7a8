#pragma once
/// \file byte_model.hpp
/// The byte model of fvbench: the fewest bytes each kernel must move between memory and the
/// processor if every input it reads is read once and every output written once (caches
/// perfect, no re-reads of a cell's values by its neighbours' threads). Effective bandwidth =
/// these bytes / measured time; a kernel at the device's streaming ceiling moves no byte
/// twice. Counts come from the zone (docs/performance.md lists the formulas).
#include "common/zone.hpp"

#include <string>

namespace fv::bench {

/// Entity and connectivity counts of a zone that the byte model needs.
struct ZoneSizes {
  double nc = 0;       ///< owned cells
  double nt = 0;       ///< owned + halo cells
  double nf = 0;       ///< all faces
  double nb = 0;       ///< boundary faces
  double nbOwners = 0; ///< distinct owner cells of boundary faces
  double nn = 0;       ///< nodes
  double ncf = 0;      ///< cellFaces entries
  double ncc = 0;      ///< cellCells entries
  double nfn = 0;      ///< faceNodes entries
  double nnc = 0;      ///< nodeCells entries
  double nHalo = 0;    ///< entries of the halo list used by pack/unpack
  /// Every face has the same node count (ZoneViewCommon::faceNodeCount): the gradient does not
  /// read faceNodeOffsets.
  bool uniformFaces = false;
  /// Every cell has the same face count as well (ZoneViewCommon::cellFaceCount, with
  /// uniformFaces a CellShape of its own): the cell loops do not read cellFaceOffsets.
  bool uniformCells = false;
  /// Node slots (ZoneViewCommon::cellLocalNodes: zones of tetrahedra or hexahedra), U per
  /// owned cell, that the stand-alone gradient reads instead of faceNodes (0: none)...
  double nSlotNodes = 0;
  /// ... and that the fused gradient + limiter reads as well (kernels::kFusedGradientBySlots)
  bool fusedSlots = false;
  /// The face states come with their face geometry in slot order (kernels::kSlotGeometry):
  /// the face-state pass reads it instead of the face offset arrays and cellCells
  bool slotGeometry = false;
};

ZoneSizes zone_sizes(const Zone& z, double haloListEntries);

/// Minimum bytes of the kernel named `kernel` (the labels fvbench prints: "primitives",
/// "interpolate_to_nodes", "green_gauss_gradient" (and "green_gauss_gradient_face_nodes": the
/// same through faceNodes, without node slots), "limiter", "gradient_and_limiter",
/// "gradient_limiter_states", "interior_state_fluxes", "boundary_state_fluxes",
/// "interior_fluxes", "boundary_fluxes", "flux_sum", "flux_sum_atomic", "flux_sum_colour",
/// "fused_flux_atomic", "fused_flux_colour", "rk_stage", "halo_pack", "halo_unpack").
/// Throws fv::Error for an unknown name.
double kernel_bytes(const std::string& kernel, const ZoneSizes& s);

} // namespace fv::bench
