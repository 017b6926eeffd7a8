#pragma once
/// \file assembly_choice.hpp
/// fvrun's choice of the residual assembly ([scheme] assembly, kernels/residual_assembly.hpp):
/// a named assembly is taken as is; `auto` times the two (gather, smem: bitwise the same
/// residual) once per (mesh UUID, device), on the state the run starts from, and caches the
/// faster (solver/kernel_choice_cache.hpp). Several zones, the viscous models and the CPU
/// backend use the gather. The timing and the cache are choose_fastest_assembly(), over any
/// list of candidates: fvbench times its benchmark variants with it too
/// (bench/fvbench/operator_variants.hpp).
#include "runtime/kernels/residual_assembly.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace fv {

class SpatialOperator;

/// What choose_assembly() did: the assembly now set on the operator and a line for the log.
struct AssemblyChoice {
  kernels::ResidualAssembly variant = kernels::ResidualAssembly::Gather;
  std::string note;
  std::string nodeLoop; ///< choose_node_loop()'s line (EulerSolver::choose_assembly)
};

/// Applies [scheme] assembly (op.scheme().assembly) to `op` with the conservative state U (device,
/// owned cells) for the timing; `meshUuid` and `cachePath` (empty: default_kernel_cache_path()) key
/// the cache. Times each candidate over a few residual evaluations (the operator's results are
/// overwritten by the next evaluate()).
AssemblyChoice choose_assembly(SpatialOperator& op, const real_t* U, const std::string& meshUuid,
                               const std::string& cachePath = "");

/// One candidate of choose_fastest_assembly(): its name (the log's and the cache's) and how it
/// is set on the operator.
struct AssemblyCandidate {
  std::string name;
  std::function<void(SpatialOperator&)> set;
};

/// What choose_fastest_assembly() did: the candidate now set on the operator (its index in the
/// list) and a line for the log.
struct FastestAssembly {
  std::size_t index = 0;
  std::string note;
};

/// Sets on `op` the fastest of `candidates` (at least one) for this mesh and device: the one
/// cached for (meshUuid, "<device name> (<owner> <mode>)") when the cache names one of them;
/// else each is set and timed over a few residual evaluations at U (device, owned cells), and
/// the fastest is set and stored in the cache (a cache that cannot be written is noted, not an
/// error). `mode` (fvrun's "auto") also heads the note's parenthesis. `cachePath` empty:
/// default_kernel_cache_path().
FastestAssembly choose_fastest_assembly(SpatialOperator& op, const real_t* U,
                                        const std::vector<AssemblyCandidate>& candidates,
                                        const std::string& owner, const std::string& mode,
                                        const std::string& meshUuid,
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
