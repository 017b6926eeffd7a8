#include "bench/fvbench/byte_model.hpp"

#include "common/error.hpp"
#include "runtime/kernels/cell_shape.hpp"

#include <vector>

namespace fv::bench {

ZoneSizes zone_sizes(const Zone& z, double haloListEntries) {
  ZoneSizes s;
  s.nc = z.nCells;
  s.nt = z.nTotalCells();
  s.nf = z.nFaces;
  s.nb = z.nBoundaryFaces;
  std::vector<char> seen(static_cast<std::size_t>(z.nCells), 0);
  for (idx_t f = 0; f < z.nBoundaryFaces; ++f) {
    const idx_t o = z.faceOwner[f];
    if (!seen[o]) s.nbOwners += 1;
    seen[o] = 1;
  }
  s.nn = z.nNodes;
  s.ncf = static_cast<double>(z.cellFaces.indices().size());
  s.ncc = static_cast<double>(z.cellCells.indices().size());
  s.nfn = static_cast<double>(z.faceNodes.indices().size());
  s.nnc = static_cast<double>(z.nodeCells.indices().size());
  s.nHalo = haloListEntries;
  // the counts DeviceZone sets, and the shape the kernels are dispatched on for them
  ZoneViewCommon counts;
  counts.faceNodeCount = z.faceNodes.uniform_row_size();
  counts.cellFaceCount = z.cellFaces.uniform_row_size();
  s.uniformFaces = counts.faceNodeCount > 0;
  kernels::visit_cell_shape(counts, [&](auto shape) {
    using S = decltype(shape);
    s.uniformCells = S::kCellFaces > 0;
    // the node slots DeviceZone builds (none where a cell is degenerate)
    s.nSlotNodes = kernels::kSlotNodes<S> * s.nc;
    s.fusedSlots = s.nSlotNodes > 0 && kernels::kFusedGradientBySlots<S>;
    s.slotGeometry = kernels::kSlotGeometry<S>;
  });
  return s;
}

double kernel_bytes(const std::string& k, const ZoneSizes& s) {
  constexpr double I = 4, R = 8, S = 1; // idx_t, real_t, int8 sign
  // cellFaceOffsets, read by the cell loops over faces where the cells' face counts differ
  const double cellFaceOffsets = s.uniformCells ? 0 : (s.nc + 1) * I;
  const double ni = s.nf - s.nb; // interior faces
  // residual accumulation of the scatter variants: zero R, then read + write it once
  const double scatterR = 15 * s.nc * R;
  if (k == "primitives") return 10 * s.nc * R;
  if (k == "interpolate_to_nodes")
    return (s.nn + 1) * I + s.nnc * (I + R) + 5 * s.nc * R + 5 * s.nn * R;
  // a cell's face nodes: through the node slots (U node ids per cell, a 16-bit slot word per
  // cell face) where the zone has them, else faceNodes (with its offsets only where the faces'
  // node counts differ)
  const double faceNodesRead = s.nfn * I + (s.uniformFaces ? 0 : (s.nf + 1) * I);
  const double slotsRead = s.nSlotNodes * I + s.ncf * 2;
  if (k == "green_gauss_gradient" || k == "green_gauss_gradient_face_nodes")
    return cellFaceOffsets + s.ncf * (I + S) +
           (s.nSlotNodes > 0 && k == "green_gauss_gradient" ? slotsRead : faceNodesRead) +
           3 * s.nf * R + 5 * s.nn * R + s.nc * R + 15 * s.nc * R;
  // the local extrema over cellCells in the same loop: neighbours' W read once from memory
  if (k == "limiter")
    return cellFaceOffsets + s.ncf * (I + S) + 6 * s.nf * R + s.nc * R + 15 * s.nc * R +
           (s.nc + 1) * I + s.ncc * I + 5 * s.nt * R + 5 * s.nc * R;
  // one cell loop: the gradient stays in registers (not read back), cellFaces, signs and the
  // volume are read once
  if (k == "gradient_and_limiter")
    return kernel_bytes(s.fusedSlots ? "green_gauss_gradient" : "green_gauss_gradient_face_nodes",
                        s) +
           kernel_bytes("limiter", s) - 15 * s.nc * R - cellFaceOffsets - s.ncf * (I + S) -
           s.nc * R;
  // the same pass storing each cell face's 5 reconstructed values instead of the gradient and
  // the limiter (the face offsets and W are read by the limiter already; phi is stored only
  // where the case may freeze the limiter, which fvbench's does not); with the slot geometry
  // it reads the offsets and neighbours in slot order (FaceStateStore::slotOffset,
  // slotNeighbour: 3 values and an id per cell face) instead of both faces' offset arrays and
  // cellCells with its offsets
  if (k == "gradient_limiter_states") {
    const double slotGeometry =
        s.slotGeometry ? s.ncf * (3 * R + I) - 6 * s.nf * R - (s.nc + 1) * I - s.ncc * I : 0;
    return kernel_bytes("gradient_and_limiter", s) - 20 * s.nc * R + 5 * s.ncf * R + slotGeometry;
  }
  // per face the two sides' slots, their stored states (5 + 5), the area vector (3) and the
  // flux (5)
  if (k == "interior_state_fluxes") return ni * (2 * I + 18 * R);
  if (k == "boundary_state_fluxes") return s.nb * (I + 13 * R); // the owner's slot only
  if (k == "interior_fluxes") return ni * (2 * I + 9 * R) + 25 * s.nt * R + 5 * ni * R;
  if (k == "boundary_fluxes") return s.nb * (I + 6 * R) + 25 * s.nbOwners * R + 5 * s.nb * R;
  // smem: the same global traffic as the gather (the staging is on chip)
  if (k == "flux_sum") return cellFaceOffsets + s.ncf * (I + S) + 5 * s.nf * R + 5 * s.nc * R;
  if (k == "flux_sum_smem") return (s.nc + 1) * I + s.ncf * (I + S) + 5 * s.nf * R + 5 * s.nc * R;
  if (k == "flux_sum_atomic") return s.nf * 2 * I + 5 * s.nf * R + scatterR;
  if (k == "flux_sum_colour") return s.nf * 3 * I + 5 * s.nf * R + scatterR;
  if (k == "fused_flux_atomic")
    return ni * (2 * I + 9 * R) + 25 * s.nt * R + s.nb * (2 * I + 5 * R) + scatterR;
  if (k == "fused_flux_colour")
    return s.nf * I + ni * (2 * I + 9 * R) + 25 * s.nt * R + s.nb * (2 * I + 5 * R) + scatterR;
  if (k == "rk_stage") return 22 * s.nc * R;
  if (k == "rk_stage_primitives") return 27 * s.nc * R; // + the new state's primitives W
  // the two in one cell loop: R neither written nor read back (flux_sum without its 5 nc R
  // store, then dt, V, U0, U / Unew)
  if (k == "flux_sum_rk_stage") return kernel_bytes("flux_sum", s) - 5 * s.nc * R + 17 * s.nc * R;
  // the same, storing the new state's primitives too (5 nc R)
  if (k == "flux_sum_rk_primitives") return kernel_bytes("flux_sum_rk_stage", s) + 5 * s.nc * R;
  if (k == "halo_pack" || k == "halo_unpack") return s.nHalo * (I + 10 * R);
  FV_THROW("byte model: unknown kernel '" << k << "'");
}

} // namespace fv::bench
