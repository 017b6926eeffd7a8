#pragma once
/// \file residual_assembly.hpp
/// The solver's two ways of assembling the residual R[k][cell] = sum over the cell's faces of
/// sign * flux[k][face] from the stored face fluxes ([scheme] assembly); both add the same
/// terms in the same order, so the residual is bitwise the same:
///
///   Gather  interior_fluxes() stores face fluxes; flux_sum() (kernels.hpp) gathers them per
///           cell over cellFaces with cellFaceSign (the default; deterministic, no atomics).
///   Smem    the same two passes with the cell reduction staged in on-chip memory (FlowStar
///           §4.3): a block of kSmemCells consecutive cells first loads the signed fluxes of all
///           its cell-face entries (contiguous in cellFaces) into CUDA shared memory with
///           coalesced entry-parallel loads, then each thread sums its cell's entries from there
///           (fv::forall_blocks). Blocks with more than kSmemEntries entries read global memory
///           directly.
///
/// Both write R of owned cells only (halo cells get no residual). fvbench's other variants
/// (atomics, face colouring, fused face loops: bench/fvbench/assembly_variants.hpp) are not
/// part of the solver.
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {

enum class ResidualAssembly { Gather, Smem };

/// The assemblies' names ([scheme] assembly, fvbench --kernels), in the order above.
inline constexpr EnumName<ResidualAssembly> kResidualAssemblyNames[] = {
    {ResidualAssembly::Gather, "gather"}, {ResidualAssembly::Smem, "smem"}};

/// The name of a (kResidualAssemblyNames).
const char* to_string(ResidualAssembly a);

/// Cells per block (= threads per block) and staged cell-face entries per block of the Smem
/// assembly (5 reals each: 40 KiB of shared memory).
inline constexpr int kSmemCells = 128;
inline constexpr int kSmemEntries = 1024;

/// Cell gather of stored face fluxes (all faces' in `flux`) staged through shared memory per
/// block of cells (Smem): bitwise flux_sum<5>() for the mean flow (Euler).
void flux_sum_shared(const ZoneView& z, const real_t* flux, real_t* R);

} // namespace fv::kernels
