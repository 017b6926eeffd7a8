#pragma once
/// \file batched_conditions.hpp
/// fvbench's prototype of batched flow conditions (issue 49): K states of one zone through
/// one pass over the mesh that reads its connectivity and geometry once, against K passes of
/// the solver's single-state kernel, to check the batched byte model (batched_model.hpp) on
/// real kernels. Benchmark code only: the solver has no batched path.
///
/// Layout of a batch: component k of entity i (face, node or cell) of state s at
///   (k * n + i) * K + s        (n: the single-state array's stride, K: the batch)
/// the solver's component-major layout with the state innermost. K = 1 is the solver's own
/// layout; one GPU thread per (entity, state), so that the K threads of an entity read and
/// write K consecutive values of each component (K >= 4: whole 32-byte sectors) and load the
/// entity's connectivity and geometry from the same addresses (one request for the warp).
/// The alternative, K solver arrays side by side ("outer": state s's array at s * stride), is
/// measured too, with one thread per entity looping over the states: the connectivity is read
/// once, but every state's values are a gather of their own.
///
/// Every batched kernel adds the same terms in the same order as the solver's kernel for one
/// state: the results are bitwise those of K sequential passes (checked in fvbench and in
/// tests/bench/test_batched_conditions.cpp).
#include "bench/fvbench/benchmark.hpp"
#include "common/zone.hpp"
#include "runtime/kernels/zone_view.hpp"

#include <cstddef>
#include <functional>
#include <vector>

namespace fv::bench {

/// Threads of a batched kernel: one per (entity, state), so that the K threads of an entity
/// read K consecutive values (the GPU's choice: coalesced), or one per entity looping over its K
/// states innermost (the CPU's: the loop vectorises); ByDevice picks by the active device.
/// Results never depend on it.
enum class BatchMapping { ByDevice, PerState, PerEntity };

/// Batch sizes the batched kernels are compiled for.
inline constexpr int kBatchSizes[] = {1, 2, 4, 8, 16};
bool is_batch_size(int k);

/// R of K states (batched layout, stride nTotalCells) from their face fluxes (batched layout,
/// stride nFaces): kernels::flux_sum<5> of every state in one pass.
void flux_sum_batched(const ZoneView& v, int k, const real_t* flux, real_t* R,
                      BatchMapping m = BatchMapping::ByDevice);

/// The same from K solver arrays side by side (flux of state s at flux + s * fluxStride, R at
/// R + s * rStride), one thread per cell looping over the states.
void flux_sum_batched_outer(const ZoneView& v, int k, const real_t* flux, std::size_t fluxStride,
                            real_t* R, std::size_t rStride);

/// The cell gradients (15 components, batched layout, stride nTotalCells) of K states' node
/// values Wn (batched layout, stride nNodes): kernels::green_gauss_gradient<5> of every state,
/// through the node slots. False (nothing done) where the zone has no node slots (neither all
/// tetrahedra nor all hexahedra).
bool green_gauss_gradient_batched(const ZoneView& v, int k, const real_t* Wn, real_t* grad,
                                  BatchMapping m = BatchMapping::ByDevice);

/// Fills K states of an N-component field of n entities (device) with distinct smooth
/// values: `batched` true in the batched layout of stride n, false as K solver arrays side by
/// side (state s at s * N * n). The same value of (state, component, entity) either way.
void fill_states(idx_t n, int ncomp, int k, bool batched, real_t* a);

/// Rows (section "batched") of the flux sum (and, on zones with node slots, the Green-Gauss
/// gradient) for each batch size of `ks`: K sequential solver passes ("seq"), one batched pass
/// with one thread per (cell, state) ("batched") and per cell ("batched_cell"), and, for the
/// flux sum, the K solver arrays in one pass ("outer"); bytes from the batched model
/// (K passes: K (shared + state); a batch: shared + K state); nsPerCell per cell and state.
/// The note says whether the batch's results equal the sequential ones (every value ==).
/// ceiling: GB/s for % ceiling; timer(f) gives (median, min) ms of f.
std::vector<BenchRow> batched_conditions(
    const Zone& z, const ZoneView& v, const std::vector<int>& ks, double ceiling,
    const std::function<std::pair<double, double>(const std::function<void()>&)>& timer);

} // namespace fv::bench
