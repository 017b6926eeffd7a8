#pragma once
/// \file assembly_choice.hpp
/// fvrun's choice of the residual assembly ([scheme] assembly, kernels/flux_sum_variants.hpp):
/// a named variant is taken as is; `auto` times the variants whose residual equals the gather's
/// bitwise (gather, smem) and `auto_any` all of them, once per (mesh UUID, device), on the
/// state the run starts from, and caches the fastest (solver/kernel_choice_cache.hpp). Several
/// zones, the viscous models and the CPU backend (for auto) use the gather.
#include "runtime/kernels/flux_sum_variants.hpp"

#include <string>

namespace fv {

class SpatialOperator;

/// What choose_assembly() did: the variant now set on the operator and a line for the log.
struct AssemblyChoice {
  kernels::FluxSumVariant variant = kernels::FluxSumVariant::Gather;
  std::string note;
  std::string nodeLoop; ///< choose_node_loop()'s line (EulerSolver::choose_assembly)
};

/// Applies [scheme] assembly (op.scheme().assembly) to `op` with the conservative state U (device,
/// owned cells) for the timing; `meshUuid` and `cachePath` (empty: default_kernel_cache_path()) key
/// the cache. Times each candidate over a few residual evaluations (the operator's results are
/// overwritten by the next evaluate()).
AssemblyChoice choose_assembly(SpatialOperator& op, const real_t* U, const std::string& meshUuid,
                               const std::string& cachePath = "");

/// On the CUDA backend, times residual evaluations at U (owned cells) with the node
/// interpolation on one thread per node and on one per (node, component) and keeps the faster
/// on `op` (the residual is bitwise the same: only the speed differs, with the mesh: the split
/// wins where nodes gather many cells, tetrahedra, and loses where they gather few,
/// hexahedra); no cache: a few evaluations, each zone for itself. On the CPU backend one thread
/// per node. Returns a line for the log. First-order evaluations do not interpolate: nothing
/// is timed then.
std::string choose_node_loop(SpatialOperator& op, const real_t* U);

} // namespace fv
