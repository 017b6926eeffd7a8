#pragma once
/// \file node_interp_layouts.hpp
/// fvbench's comparison of data layouts for the cell -> node interpolation, the node loop that
/// gathers ~23 cells per node on tetrahedra (issue: the node interpolation at the bandwidth of a
/// gather). Every layout computes the same sums in the same order as the solver's
/// kernels::interpolate_to_nodes (checked against it); only where the values come from differs:
///   csr            the node -> cell relation as the zone file's CSR (each thread walks its own
///                  entries: the index and weight loads of a warp are scattered), W blocked
///   csr_aos_in     the same with W interleaved per cell (one 40-byte record per entry)
///   sliced_aos_in  the solver's SELL-32 slices with W interleaved
///   sliced_padded_in  the slices with W interleaved at pitch 6 (16-byte aligned records),
///                  read with two 128-bit loads and one 64-bit load per entry
/// plus "interleave", the cost of writing the interleaved copies of W. (The solver's kernel row
/// "interpolate_to_nodes" is the sliced relation with W blocked.)
#include "bench/fvbench/benchmark.hpp"
#include "common/zone.hpp"
#include "runtime/kernels/zone_view.hpp"

#include <functional>
#include <vector>

namespace fv::bench {

/// Rows (section "layout") for the zone z whose device view is v, with the primitive state W
/// (5 x nTotalCells, device) and the node values Wn the solver's kernel made of it (device);
/// `timer(f)` returns (median, min) ms of f.
std::vector<BenchRow> node_interp_layouts(
    const Zone& z, const ZoneView& v, const real_t* W, const real_t* Wn,
    const std::function<std::pair<double, double>(const std::function<void()>&)>& timer);

} // namespace fv::bench
