// Batched flow conditions: the flux sum and the Green-Gauss gradient of K states in one pass
// (batched_conditions.hpp), against K passes of the solver's kernels.
#include "bench/fvbench/batched_conditions.hpp"

#include "bench/fvbench/batched_model.hpp"
#include "common/error.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/backend/thread_scratch.hpp"
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/kernels.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <type_traits>

namespace fv::bench {

bool is_batch_size(int k) {
  return std::find(std::begin(kBatchSizes), std::end(kBatchSizes), k) != std::end(kBatchSizes);
}

// Device loops (a named namespace: nvcc's extended lambdas need an enclosing function with
// external linkage).
namespace batched_loops {
constexpr int N = 5; // the mean flow's variables, as the solver's kernels measured here

/// kernels::detail::cell_flux_sum for every state of a batch of KS: the same terms in the same
/// order. perCell false: one thread per (cell, state); true: one per cell, its KS states in the
/// innermost loop (contiguous: the CPU vectorises it).
template <int KS, class S>
void flux_sum_inner(const ZoneView& z, const real_t* flux, real_t* R, bool perCell) {
  const ZoneView v = z;
  if (!perCell) {
    forall("flux_sum_batched", z.nCells * KS, [=] FV_HOST_DEVICE(idx_t i) {
      const idx_t c = i / KS, s = i - c * KS;
      real_t r[N];
      for (int k = 0; k < N; ++k)
        r[k] = 0.0;
      for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
        const idx_t f = v.cellFaces[j];
        const real_t sign = static_cast<real_t>(v.cellFaceSign[j]);
        for (int k = 0; k < N; ++k)
          r[k] += sign * flux[(static_cast<std::size_t>(k) * v.nFaces + f) * KS + s];
      }
      for (int k = 0; k < N; ++k)
        R[(static_cast<std::size_t>(k) * v.nTotalCells + c) * KS + s] = r[k];
    });
    return;
  }
  forall("flux_sum_batched_cell", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t r[N][KS];
    for (int k = 0; k < N; ++k)
      for (int s = 0; s < KS; ++s)
        r[k][s] = 0.0;
    for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
      const idx_t f = v.cellFaces[j];
      const real_t sign = static_cast<real_t>(v.cellFaceSign[j]);
      for (int k = 0; k < N; ++k) {
        const real_t* q = flux + (static_cast<std::size_t>(k) * v.nFaces + f) * KS;
        for (int s = 0; s < KS; ++s)
          r[k][s] += sign * q[s];
      }
    }
    for (int k = 0; k < N; ++k)
      for (int s = 0; s < KS; ++s)
        R[(static_cast<std::size_t>(k) * v.nTotalCells + c) * KS + s] = r[k][s];
  });
}

/// The same over KS solver arrays side by side, one thread per cell: each cell face's index and
/// sign loaded once for the KS states.
template <int KS, class S>
void flux_sum_outer(const ZoneView& z, const real_t* flux, std::size_t fluxStride, real_t* R,
                    std::size_t rStride) {
  const ZoneView v = z;
  forall("flux_sum_batched_outer", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t r[KS][N];
    for (int s = 0; s < KS; ++s)
      for (int k = 0; k < N; ++k)
        r[s][k] = 0.0;
    for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
      const idx_t f = v.cellFaces[j];
      const real_t sign = static_cast<real_t>(v.cellFaceSign[j]);
      for (int s = 0; s < KS; ++s)
        for (int k = 0; k < N; ++k)
          r[s][k] += sign * flux[s * fluxStride + static_cast<std::size_t>(k) * v.nFaces + f];
    }
    for (int s = 0; s < KS; ++s)
      for (int k = 0; k < N; ++k)
        R[s * rStride + static_cast<std::size_t>(k) * v.nTotalCells + c] = r[s][k];
  });
}

/// A cell's face geometry for cell_gradient_by_slots: node ids, signed area vectors / K, slots.
template <class Shape>
struct SlotGeometry {
  static constexpr int F = Shape::kCellFaces, K = Shape::kFaceNodes, U = kernels::kSlotNodes<Shape>;
  idx_t node[U];
  real_t S[3 * F];
  unsigned slots[F];
  real_t inv;
  FV_HOST_DEVICE FV_FORCEINLINE SlotGeometry(const ZoneView& v, idx_t c) {
    for (int u = 0; u < U; ++u)
      node[u] = v.cellLocalNodes[U * c + u];
    for (int j = 0; j < F; ++j) {
      const idx_t f = v.cellFaces[F * c + j];
      const real_t sg = static_cast<real_t>(v.cellFaceSign[F * c + j]) / static_cast<real_t>(K);
      S[3 * j] = v.faceArea[3 * f] * sg;
      S[3 * j + 1] = v.faceArea[3 * f + 1] * sg;
      S[3 * j + 2] = v.faceArea[3 * f + 2] * sg;
      slots[j] = v.cellFaceNodeSlots[F * c + j];
    }
    inv = 1.0 / v.cellVolume[c];
  }
  /// Component k's gradient (g0, g1, g2) / V from the cell's U node values: the solver's sums.
  template <class Value>
  FV_HOST_DEVICE FV_FORCEINLINE void gradient(const Value& value, real_t& g0, real_t& g1,
                                              real_t& g2) const {
    g0 = 0.0;
    g1 = 0.0;
    g2 = 0.0;
    for (int j = 0; j < F; ++j) {
      real_t qf = 0.0;
      for (int m = 0; m < K; ++m)
        qf += value(static_cast<int>((slots[j] >> (4 * m)) & 15u));
      g0 += qf * S[3 * j];
      g1 += qf * S[3 * j + 1];
      g2 += qf * S[3 * j + 2];
    }
    g0 *= inv;
    g1 *= inv;
    g2 *= inv;
  }
};

/// kernels::detail::cell_gradient_by_slots for every state of a batch of KS (Shape with node
/// slots): the same terms in the same order, the node values and the gradient batched. perCell
/// as for flux_sum_inner.
template <int KS, class Shape>
void gradient_inner(const ZoneView& z, const real_t* Wn, real_t* grad, bool perCell) {
  const ZoneView v = z;
  const std::size_t plane = static_cast<std::size_t>(z.nTotalCells) * KS; // one component
  if (!perCell) {
    forall("green_gauss_gradient_batched", z.nCells * KS, [=] FV_HOST_DEVICE(idx_t i) {
      const idx_t c = i / KS, s = i - c * KS;
      const SlotGeometry<Shape> geo(v, c);
      ThreadScratch<real_t, SlotGeometry<Shape>::U> value;
      for (int k = 0; k < N; ++k) {
        for (int u = 0; u < SlotGeometry<Shape>::U; ++u)
          value[u] = Wn[(static_cast<std::size_t>(k) * v.nNodes + geo.node[u]) * KS + s];
        real_t g0, g1, g2;
        geo.gradient([&](int u) { return value[u]; }, g0, g1, g2);
        real_t* g = grad + 3 * k * plane + static_cast<std::size_t>(c) * KS + s;
        g[0] = g0;
        g[plane] = g1;
        g[2 * plane] = g2;
      }
    });
    return;
  }
  forall("green_gauss_gradient_batched_cell", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const SlotGeometry<Shape> geo(v, c);
    constexpr int U = SlotGeometry<Shape>::U;
    for (int k = 0; k < N; ++k) {
      real_t value[U][KS];
      for (int u = 0; u < U; ++u) {
        const real_t* q = Wn + (static_cast<std::size_t>(k) * v.nNodes + geo.node[u]) * KS;
        for (int s = 0; s < KS; ++s)
          value[u][s] = q[s];
      }
      for (int s = 0; s < KS; ++s) {
        real_t g0, g1, g2;
        geo.gradient([&](int u) { return value[u][s]; }, g0, g1, g2);
        real_t* g = grad + 3 * k * plane + static_cast<std::size_t>(c) * KS + s;
        g[0] = g0;
        g[plane] = g1;
        g[2 * plane] = g2;
      }
    }
  });
}

/// Distinct values of (state s, component k, entity i), the same in both layouts.
void fill(idx_t n, int ncomp, int KS, bool batched, real_t* a) {
  forall("fill_states", n * ncomp * KS, [=] FV_HOST_DEVICE(idx_t t) {
    // t runs over the batched layout: ((k n + i) KS + s)
    const idx_t s = t % KS, ki = t / KS, i = ki % n, k = ki / n;
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ static_cast<unsigned>(k) * 40503u ^
                 static_cast<unsigned>(s) * 97531u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    const real_t x = static_cast<real_t>(h & 0xffffu) / 65536.0; // [0, 1)
    const real_t value = (1.0 + k) * (1.0 + 0.25 * s) * (x - 0.3);
    const std::size_t at =
        batched ? static_cast<std::size_t>(t)
                : (static_cast<std::size_t>(s) * ncomp + k) * static_cast<std::size_t>(n) + i;
    a[at] = value;
  });
}

/// Largest |a - b| and whether any value differs (a != b), over the owned entities [0, n) of
/// ncomp components of KS states: a batched (stride `stride`), b as KS solver arrays.
void compare(idx_t n, idx_t stride, int ncomp, int KS, const real_t* a, const real_t* b,
             real_t (&out)[2]) {
  reduce<2>(
      "compare_states", n * ncomp * KS, ReduceOp::Max,
      [=] FV_HOST_DEVICE(idx_t t, real_t * acc) {
        const idx_t i = t % n, sk = t / n, k = sk % ncomp, s = sk / ncomp;
        const real_t x = a[(static_cast<std::size_t>(k) * stride + i) * KS + s];
        const real_t y = b[(static_cast<std::size_t>(s) * ncomp + k) * stride + i];
        const real_t d = x - y < 0 ? y - x : x - y;
        acc[0] = acc[0] > d ? acc[0] : d;
        const real_t differs = x == y ? 0.0 : 1.0;
        acc[1] = acc[1] > differs ? acc[1] : differs;
      },
      out);
}
} // namespace batched_loops

namespace {
/// fn(std::integral_constant<int, K>{}) for batch size k (kBatchSizes).
template <class Fn>
void with_batch(int k, Fn&& fn) {
  switch (k) {
  case 1:
    return fn(std::integral_constant<int, 1>{});
  case 2:
    return fn(std::integral_constant<int, 2>{});
  case 4:
    return fn(std::integral_constant<int, 4>{});
  case 8:
    return fn(std::integral_constant<int, 8>{});
  case 16:
    return fn(std::integral_constant<int, 16>{});
  default:
    FV_VERIFY_USAGE(false, "batch size " << k
                                         << ": the batched kernels are compiled for 1, 2, 4, "
                                            "8, 16");
  }
}

bool per_entity(BatchMapping m) {
  return m == BatchMapping::PerEntity ||
         (m == BatchMapping::ByDevice && active_device() != Device::Cuda);
}

void check_index_range(const ZoneView& v, int k, int ncomp) {
  const double entries =
      static_cast<double>(std::max({v.nTotalCells, v.nFaces, v.nNodes})) * ncomp * k;
  FV_VERIFY_USAGE(entries < 2147483647.0, "a batch of " << k << " states of this zone has "
                                                        << entries
                                                        << " values: beyond the 32-bit loop index");
}
} // namespace

void flux_sum_batched(const ZoneView& v, int k, const real_t* flux, real_t* R, BatchMapping m) {
  check_index_range(v, k, 5);
  const bool perCell = per_entity(m);
  with_batch(k, [&](auto kc) {
    kernels::visit_cell_shape(v, [&](auto shape) {
      batched_loops::flux_sum_inner<decltype(kc)::value, decltype(shape)>(v, flux, R, perCell);
    });
  });
}

void flux_sum_batched_outer(const ZoneView& v, int k, const real_t* flux, std::size_t fluxStride,
                            real_t* R, std::size_t rStride) {
  with_batch(k, [&](auto kc) {
    kernels::visit_cell_shape(v, [&](auto shape) {
      batched_loops::flux_sum_outer<decltype(kc)::value, decltype(shape)>(v, flux, fluxStride, R,
                                                                          rStride);
    });
  });
}

bool green_gauss_gradient_batched(const ZoneView& v, int k, const real_t* Wn, real_t* grad,
                                  BatchMapping m) {
  check_index_range(v, k, 15);
  const bool perCell = per_entity(m);
  bool done = false;
  with_batch(k, [&](auto kc) {
    kernels::visit_cell_shape(v, [&](auto shape) {
      using S = decltype(shape);
      if constexpr (kernels::kSlotNodes < S >> 0) {
        if (!v.cellLocalNodes) return;
        batched_loops::gradient_inner<decltype(kc)::value, S>(v, Wn, grad, perCell);
        done = true;
      }
    });
  });
  return done;
}

void fill_states(idx_t n, int ncomp, int k, bool batched, real_t* a) {
  batched_loops::fill(n, ncomp, k, batched, a);
}

std::vector<BenchRow> batched_conditions(
    const Zone& z, const ZoneView& v, const std::vector<int>& ks, double ceiling,
    const std::function<std::pair<double, double>(const std::function<void()>&)>& timer) {
  std::vector<BenchRow> rows;
  if (ks.empty()) return rows;
  for (int k : ks)
    FV_VERIFY_USAGE(is_batch_size(k), "--batched " << k << ": batch sizes are 1, 2, 4, 8, 16");
  const int kMax = *std::max_element(ks.begin(), ks.end());
  check_index_range(v, kMax, 15); // before the largest batch is filled
  const ZoneSizes sizes = zone_sizes(z, 0);
  const idx_t nc = z.nCells, nt = z.nTotalCells(), nf = z.nFaces, nn = z.nNodes;
  const auto ntS = static_cast<std::size_t>(nt);

  auto row = [&](const char* kernel, const std::string& variant, int k,
                 const std::function<void()>& f, double bytes, double seqMs,
                 const std::string& check) {
    const auto t = timer(f);
    BenchRow r{"batched", kernel, variant, t.first, t.second, bytes, 0, 0, 0, 0, ""};
    r.gbs = bytes / (t.first * 1e6);
    r.pctCeiling = ceiling > 0 ? 100 * r.gbs / ceiling : 0;
    r.nsPerCell = t.first * 1e6 / (std::max<double>(1, nc) * k); // per cell and state
    std::ostringstream note;
    note << "K=" << k << ", ns/cell per state";
    if (seqMs > 0)
      note << "; x" << std::fixed << std::setprecision(2) << seqMs / t.first << " vs seq";
    note << check;
    r.note = note.str();
    rows.push_back(r);
    return t.first;
  };
  auto equal_note = [](const real_t(&d)[2]) {
    std::ostringstream o;
    o << "; " << (d[1] == 0.0 ? "bitwise equal to seq" : "DIFFERS from seq") << " (max |diff| "
      << std::scientific << std::setprecision(1) << d[0] << ")";
    return o.str();
  };
  auto model_note = [](const ByteSplit& b, int k) {
    std::ostringstream o;
    o << "; model x" << std::fixed << std::setprecision(2) << b.speedup(k);
    return o.str();
  };

  // ---- the flux sum (kernels::flux_sum<5>): K solver arrays of face fluxes, R per state
  {
    const ByteSplit b = kernel_bytes_split("flux_sum", sizes);
    const std::size_t fluxStride = 5 * static_cast<std::size_t>(nf), rStride = 5 * ntS;
    DeviceArray<real_t> fluxSeq(kMax * fluxStride, "batched: face fluxes, K arrays"),
        fluxBat(kMax * fluxStride, "batched: face fluxes, batched"),
        rSeq(kMax * rStride, "batched: R, K arrays"), rBat(kMax * rStride, "batched: R, batched");
    fill_states(nf, 5, kMax, false, fluxSeq.data());
    for (int k : ks) {
      auto seq = [&] {
        for (int s = 0; s < k; ++s)
          kernels::flux_sum<5>(v, fluxSeq.data() + s * fluxStride, rSeq.data() + s * rStride);
      };
      const double seqMs = row("flux_sum", "seq", k, seq, k * b.total(), 0, "");
      fill_states(nf, 5, k, true, fluxBat.data());
      for (const BatchMapping m : {BatchMapping::PerState, BatchMapping::PerEntity}) {
        const auto bat = [&] { flux_sum_batched(v, k, fluxBat.data(), rBat.data(), m); };
        bat();
        real_t d[2];
        batched_loops::compare(nc, nt, 5, k, rBat.data(), rSeq.data(), d);
        row("flux_sum", m == BatchMapping::PerState ? "batched" : "batched_cell", k, bat,
            b.shared + k * b.perState, seqMs, model_note(b, k) + equal_note(d));
      }
      // the K solver arrays in one pass: into rBat as K arrays, compared with rSeq
      const auto outer = [&] {
        flux_sum_batched_outer(v, k, fluxSeq.data(), fluxStride, rBat.data(), rStride);
      };
      outer();
      real_t e[2];
      batched_loops::compare(nc, nt, 5 * k, 1, rBat.data(), rSeq.data(), e);
      row("flux_sum", "outer", k, outer, b.shared + k * b.perState, seqMs, equal_note(e));
    }
  }

  // ---- the Green-Gauss gradient (kernels::green_gauss_gradient<5>) through the node slots
  if (v.cellLocalNodes) {
    const ByteSplit b = kernel_bytes_split("green_gauss_gradient", sizes);
    const std::size_t wnStride = 5 * static_cast<std::size_t>(nn), gStride = 15 * ntS;
    DeviceArray<real_t> wnSeq(kMax * wnStride, "batched: node values, K arrays"),
        wnBat(kMax * wnStride, "batched: node values, batched"),
        gSeq(kMax * gStride, "batched: gradients, K arrays"),
        gBat(kMax * gStride, "batched: gradients, batched");
    fill_states(nn, 5, kMax, false, wnSeq.data());
    for (int k : ks) {
      auto seq = [&] {
        for (int s = 0; s < k; ++s)
          kernels::green_gauss_gradient<5>(v, wnSeq.data() + s * wnStride,
                                           gSeq.data() + s * gStride);
      };
      const double seqMs = row("green_gauss_gradient", "seq", k, seq, k * b.total(), 0, "");
      fill_states(nn, 5, k, true, wnBat.data());
      for (const BatchMapping m : {BatchMapping::PerState, BatchMapping::PerEntity}) {
        const auto bat = [&] {
          (void)green_gauss_gradient_batched(v, k, wnBat.data(), gBat.data(), m);
        };
        bat();
        real_t d[2];
        batched_loops::compare(nc, nt, 15, k, gBat.data(), gSeq.data(), d);
        row("green_gauss_gradient", m == BatchMapping::PerState ? "batched" : "batched_cell", k,
            bat, b.shared + k * b.perState, seqMs, model_note(b, k) + equal_note(d));
      }
    }
  }
  return rows;
}

} // namespace fv::bench
