#include "bench/fvbench/batched_model.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

namespace fv::bench {

namespace {
constexpr double I = 4, R = 8, S = 1; // idx_t, real_t, int8 sign (as byte_model.cpp)

/// Lower (upper) entries of the ILU's neighbour lists (kernels::IluOrder): each interior cell
/// face is a lower entry of one side and an upper one of the other. The blocks ordering leaves
/// out the faces between its blocks; the model keeps them (a few per cent of the entries, all
/// per-state blocks: the share of the shared bytes is, if anything, smaller).
double ilu_entries(const ZoneSizes& s) {
  return 0.5 * (s.ncf - s.nb);
}
} // namespace

ByteSplit kernel_bytes_split(const std::string& k, const ZoneSizes& s, int krylovJ) {
  const double cellFaceOffsets = s.uniformCells ? 0 : (s.nc + 1) * I;
  const double ni = s.nf - s.nb;
  const double scatterR = 15 * s.nc * R; // the scatter variants' R: zeroed, read + written once
  if (k == "primitives") return {0, 10 * s.nc * R};
  // row lengths, sliced entries and weights / W in, Wn out
  if (k == "interpolate_to_nodes")
    return {(s.nn + 1) * I + s.nnc * (I + R), 5 * s.nc * R + 5 * s.nn * R};
  const double faceNodesRead = s.nfn * I + (s.uniformFaces ? 0 : (s.nf + 1) * I);
  const double slotsRead = s.nSlotNodes * I + s.ncf * 2;
  // cellFaces + signs, face nodes (slots), face areas, volumes / Wn in, grad out
  if (k == "green_gauss_gradient" || k == "green_gauss_gradient_face_nodes")
    return {cellFaceOffsets + s.ncf * (I + S) +
                (s.nSlotNodes > 0 && k == "green_gauss_gradient" ? slotsRead : faceNodesRead) +
                3 * s.nf * R + s.nc * R,
            5 * s.nn * R + 15 * s.nc * R};
  // cellFaces + signs, face offsets, volumes, cellCells / grad, W of the cell and its
  // neighbours in, phi out
  if (k == "limiter")
    return {cellFaceOffsets + s.ncf * (I + S) + 6 * s.nf * R + s.nc * R + (s.nc + 1) * I +
                s.ncc * I,
            15 * s.nc * R + 5 * s.nt * R + 5 * s.nc * R};
  if (k == "gradient_and_limiter") {
    ByteSplit b = kernel_bytes_split(
        s.fusedSlots ? "green_gauss_gradient" : "green_gauss_gradient_face_nodes", s);
    b += kernel_bytes_split("limiter", s);
    b.shared -= cellFaceOffsets + s.ncf * (I + S) + s.nc * R; // read once
    b.perState -= 15 * s.nc * R;                              // grad not read back
    return b;
  }
  if (k == "gradient_limiter_states") {
    ByteSplit b = kernel_bytes_split("gradient_and_limiter", s);
    // the slot-ordered face offsets and neighbours are geometry
    if (s.slotGeometry) b.shared += s.ncf * (3 * R + I) - 6 * s.nf * R - (s.nc + 1) * I - s.ncc * I;
    b.perState += 5 * s.ncf * R - 20 * s.nc * R; // the face states instead of grad and phi
    return b;
  }
  // the two slots and the area vector / the two stored states, the flux
  if (k == "interior_state_fluxes") return {ni * (2 * I + 3 * R), ni * 15 * R};
  if (k == "boundary_state_fluxes") return {s.nb * (I + 3 * R), s.nb * 10 * R};
  // owner, neighbour, both deltas, the area vector / W, grad, phi of both sides, the flux
  if (k == "interior_fluxes") return {ni * (2 * I + 9 * R), 25 * s.nt * R + 5 * ni * R};
  if (k == "boundary_fluxes") return {s.nb * (I + 6 * R), 25 * s.nbOwners * R + 5 * s.nb * R};
  // cellFaces + signs / the face fluxes in, R out
  if (k == "flux_sum") return {cellFaceOffsets + s.ncf * (I + S), 5 * s.nf * R + 5 * s.nc * R};
  if (k == "flux_sum_smem") return {(s.nc + 1) * I + s.ncf * (I + S), 5 * s.nf * R + 5 * s.nc * R};
  if (k == "flux_sum_atomic") return {s.nf * 2 * I, 5 * s.nf * R + scatterR};
  if (k == "flux_sum_colour") return {s.nf * 3 * I, 5 * s.nf * R + scatterR};
  if (k == "fused_flux_atomic")
    return {ni * (2 * I + 9 * R) + s.nb * 2 * I, 25 * s.nt * R + s.nb * 5 * R + scatterR};
  if (k == "fused_flux_colour")
    return {s.nf * I + ni * (2 * I + 9 * R) + s.nb * 2 * I,
            25 * s.nt * R + s.nb * 5 * R + scatterR};
  // the volume is geometry; dt (it depends on the state), U0, U, R, Unew are the state's
  if (k == "rk_stage") return {s.nc * R, 21 * s.nc * R};
  if (k == "rk_stage_primitives") return {s.nc * R, 26 * s.nc * R};
  if (k == "flux_sum_rk_stage") {
    ByteSplit b = kernel_bytes_split("flux_sum", s);
    b.shared += s.nc * R;
    b.perState += 16 * s.nc * R - 5 * s.nc * R;
    return b;
  }
  if (k == "flux_sum_rk_primitives") {
    ByteSplit b = kernel_bytes_split("flux_sum_rk_stage", s);
    b.perState += 5 * s.nc * R;
    return b;
  }
  if (k == "halo_pack" || k == "halo_unpack") return {s.nHalo * I, s.nHalo * 10 * R};

  // ---- Newton-Krylov (runtime/solver/newton_krylov.cpp, gmres.cpp, block_preconditioner.cpp)
  const double nL = ilu_entries(s), nU = ilu_entries(s);
  const double vec = 5 * s.nc * R; // one Krylov vector (owned cells)
  // the Jacobian-free product's vector work around its residual evaluation: |x| (x once),
  // U+ = U, U+ += eps x, jfnk_combine (V shared; dt, x, R1, R0 in, y out)
  if (k == "jfnk_vectors") return {s.nc * R, vec + 2 * vec + 3 * vec + s.nc * R + 4 * vec};
  // GMRES iteration j: the j + 2 products with V_0..V_{j+1} in one launch, w -= sum h_i V_i
  // (j + 1 basis vectors and w in, w out), w /= |w| (in, out): no shared byte (the 5 weights)
  if (k == "krylov_dots_combine") return {0, (2.0 * krylovJ + 7) * vec};
  // row c of M: cellFaceOffsets, cellFaces + signs, area vectors, owner or neighbour, V / W of
  // the cell and its neighbours, dt in, D (25 R) and the interior entries' O (25 R) out
  if (k == "assemble_block_jacobian")
    return {(s.nc + 1) * I + s.ncf * (I + S) + 3 * s.nf * R + 2 * ni * I + s.nc * R,
            5 * s.nt * R + s.nc * R + 25 * s.nc * R + 25 * (s.ncf - s.nb) * R};
  // the off-diagonal blocks copied into sweep order through the entries' cellFaces slots
  if (k == "ilu_gather_blocks") return {(nL + nU) * I, 2 * 25 * (nL + nU) * R};
  // per position: the lower list (3 ids an entry), the cell / D, O_cj and O_jc of every lower
  // entry in, D~^-1 out (the lower neighbours' D~^-1 are this pass's own output)
  if (k == "ilu_factor")
    return {(s.nc + 1) * I + 3 * nL * I + s.nc * I,
            25 * s.nc * R + 2 * 25 * nL * R + 25 * s.nc * R};
  // forward: the lower list (its 3 interleaved ids come through the cache together), the cell
  // / b, D~^-1, O_cj in, x out (the neighbours' x: this sweep's own output)
  if (k == "ilu_forward")
    return {(s.nc + 1) * I + 3 * nL * I + s.nc * I,
            5 * s.nc * R + 25 * s.nc * R + 25 * nL * R + 5 * s.nc * R};
  // backward: the upper list, the cell / x (own and neighbours', halo included), D~^-1, O_cj
  // in, x out
  if (k == "ilu_backward")
    return {(s.nc + 1) * I + nU * I + s.nc * I,
            5 * s.nt * R + 25 * s.nc * R + 25 * nU * R + 5 * s.nc * R};
  FV_THROW("batched byte model: unknown kernel '" << k << "'");
}

std::vector<BatchedModelRow> batched_model(const ZoneSizes& s, int m) {
  FV_VERIFY_USAGE(m >= 1, "batched model: GMRES iterations must be >= 1, got " << m);
  std::vector<BatchedModelRow> rows;
  auto group = [&](const std::string& name, const std::vector<std::string>& kernels) {
    ByteSplit sum;
    for (const std::string& k : kernels) {
      const ByteSplit b = kernel_bytes_split(k, s);
      rows.push_back({name, k, b});
      sum += b;
    }
    rows.push_back({name, "total", sum});
    return sum;
  };
  // (a) a later SSP-RK3 stage (SpatialOperator::evaluate_and_update, rk_stage_total), and the
  // residual evaluation of the Jacobian-free product (SpatialOperator::evaluate)
  group("explicit stage",
        {"interpolate_to_nodes", "gradient_limiter_states", "interior_state_fluxes",
         "boundary_state_fluxes", "flux_sum_rk_primitives"});
  const ByteSplit residual =
      group("residual evaluation", {"primitives", "interpolate_to_nodes", "gradient_limiter_states",
                                    "interior_state_fluxes", "boundary_state_fluxes", "flux_sum"});
  // (b) one GMRES iteration: P v (ILU forward + backward), A P v (JFNK: a residual evaluation
  // and its vectors), the orthogonalisation averaged over j = 0..m-1, and the work of the
  // Newton iteration spread over its m GMRES iterations
  const std::string g = "newton per GMRES it.";
  ByteSplit total;
  auto add = [&](const std::string& item, const ByteSplit& b) {
    rows.push_back({g, item, b});
    total += b;
  };
  add("jfnk residual evaluation", residual);
  add("jfnk_vectors", kernel_bytes_split("jfnk_vectors", s));
  const ByteSplit fwd = kernel_bytes_split("ilu_forward", s),
                  bwd = kernel_bytes_split("ilu_backward", s);
  add("ilu_forward", fwd);
  add("ilu_backward", bwd);
  ByteSplit ortho;
  for (int j = 0; j < m; ++j)
    ortho += (1.0 / m) * kernel_bytes_split("krylov_dots_combine", s, j);
  add("krylov_dots_combine (mean)", ortho);
  // per Newton iteration: R0 = R, rhs = -R, |U| (prepare), the assembly and the ILU
  // factorisation; x = 0, r = b, |b|, r /= |r|; after the cycle x = P (V y) (m basis vectors
  // in, one out; an ILU solve; x += P V y), the relaxation (U, dU), U += a dU and the residual
  // of the new state
  const double vec = 5 * s.nc * R;
  ByteSplit newton = kernel_bytes_split("assemble_block_jacobian", s);
  newton += kernel_bytes_split("ilu_gather_blocks", s);
  newton += kernel_bytes_split("ilu_factor", s);
  newton.perState += (2 + 2 + 1) * vec + 5 * s.nt * R + (2 + 1 + 2) * vec;
  newton.perState += (m + 1) * vec + 3 * vec + 2 * vec + 3 * vec;
  newton += fwd;
  newton += bwd;
  newton += residual;
  add("per Newton it. / m", (1.0 / m) * newton);
  rows.push_back({g, "total", total});
  return rows;
}

ZoneSizes wing_tet_sizes() {
  ZoneSizes s;
  s.nc = 729580;
  s.nt = s.nc;
  s.ncf = 4 * s.nc;
  s.nb = 0.03 * s.nc; // assumed: the wing's surface and the far field
  s.nbOwners = s.nb;
  s.nf = 0.5 * (s.ncf + s.nb); // ~2 nc: every interior face counted by its two cells
  s.nn = s.nc / 5.5;
  s.nnc = 4 * s.nc;
  s.ncc = s.ncf - s.nb;
  s.nfn = 3 * s.nf;
  s.uniformFaces = s.uniformCells = true;
  s.nSlotNodes = 4 * s.nc; // kernels::kSlotNodes of tetrahedra
  s.fusedSlots = true;     // kernels::kFusedGradientBySlots
  s.slotGeometry = false;  // kernels::kSlotGeometry: hexahedra only
  return s;
}

ZoneSizes box_hex_sizes(int n) {
  const double c = n, c3 = c * c * c;
  ZoneSizes s;
  s.nc = s.nt = c3;
  s.nb = 6 * c * c;
  s.nbOwners = c3 - std::pow(std::max(0.0, c - 2), 3); // the cells on the box's surface
  s.ncf = 6 * c3;
  s.nf = 0.5 * (s.ncf + s.nb);
  s.nn = (c + 1) * (c + 1) * (c + 1);
  s.nnc = 8 * c3;
  s.ncc = s.ncf - s.nb;
  s.nfn = 4 * s.nf;
  s.uniformFaces = s.uniformCells = true;
  s.nSlotNodes = 8 * c3;
  s.fusedSlots = false;
  s.slotGeometry = true;
  return s;
}

void print_batched_model(const std::string& title, const ZoneSizes& s, int m, std::ostream& os) {
  const double nc = std::max(1.0, s.nc);
  os << "\nbatched byte model: " << title << " (" << std::fixed << std::setprecision(0) << s.nc
     << " cells, " << s.nf << " faces, " << s.nn << " nodes; GMRES iterations per Newton "
     << "iteration m = " << m << ")\n"
     << std::left << std::setw(22) << "group" << std::setw(28) << "kernel" << std::right
     << std::setw(9) << "shared" << std::setw(9) << "state" << std::setw(8) << "shared%"
     << std::setw(8) << "K=1" << std::setw(8) << "K=2" << std::setw(8) << "K=4" << std::setw(8)
     << "K=8" << std::setw(7) << "x K=4" << std::setw(7) << "x K=8"
     << "\n";
  for (const BatchedModelRow& r : batched_model(s, m)) {
    const ByteSplit& b = r.bytes;
    os << std::left << std::setw(22) << r.group << std::setw(28) << r.item << std::right
       << std::setprecision(1) << std::setw(9) << b.shared / nc << std::setw(9) << b.perState / nc
       << std::setw(8) << (b.total() > 0 ? 100 * b.shared / b.total() : 0.0);
    for (int k : {1, 2, 4, 8})
      os << std::setw(8) << b.per_state(k) / nc;
    os << std::setprecision(3) << std::setw(7) << b.speedup(4) << std::setw(7) << b.speedup(8)
       << "\n";
  }
  os << "(bytes per owned cell: shared = connectivity and geometry, read once per pass; state = "
        "per flow condition;\n K=n: bytes per cell per state of one pass over n states, shared / "
        "n + state; x K=n: the speed-up per state\n of that pass over n sequential passes if "
        "the kernels are bandwidth-bound: (shared + state) / (shared / n + state))\n";
}

} // namespace fv::bench
