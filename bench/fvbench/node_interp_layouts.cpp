// Layout variants of the node interpolation (node_interp_layouts.hpp).
#include "bench/fvbench/node_interp_layouts.hpp"

#include "common/error.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/pair_access.hpp"
#include "runtime/kernels/node_sum_k.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace fv::bench {
namespace layouts {
constexpr int N = 5;

/// Pitch of the padded interleaved copy: each cell's record 16-byte aligned.
constexpr int P = 6;

/// W (blocked, stride `stride`) interleaved at `pitch` >= N values per cell (padding 0).
void interleave(idx_t n, idx_t stride, int pitch, const real_t* in, real_t* out) {
  forall("interleave", n, [=] FV_HOST_DEVICE(idx_t i) {
    real_t* o = out + static_cast<std::size_t>(pitch) * i;
    for (int k = 0; k < pitch; ++k)
      o[k] = k < N ? in[k * stride + i] : 0.0;
  });
}

/// The CSR node loop (each thread walks its own entries), W blocked (aos false) or interleaved.
void interp_csr(idx_t nNodes, const idx_t* off, const idx_t* cells, const real_t* wts, idx_t nt,
                const real_t* Win, bool aosIn, real_t* Wn) {
  forall("interp_csr", nNodes, [=] FV_HOST_DEVICE(idx_t n) {
    real_t q[N];
    for (int k = 0; k < N; ++k)
      q[k] = 0.0;
    for (idx_t j = off[n]; j < off[n + 1]; ++j) {
      const idx_t c = cells[j];
      const real_t wt = wts[j];
      for (int k = 0; k < N; ++k)
        q[k] += wt * (aosIn ? Win[N * static_cast<std::size_t>(c) + k] : Win[k * nt + c]);
    }
    for (int k = 0; k < N; ++k)
      Wn[k * nNodes + n] = q[k];
  });
}

/// The solver's sliced node loop with W interleaved at pitch P, read as two 128-bit loads and
/// one 64-bit load per entry (three L1 requests per thread instead of five).
void interp_sell_padded(const ZoneView& z, const real_t* Wp, real_t* Wn) {
  const ZoneView v = z;
  const idx_t nNodes = z.nNodes;
  forall<256>("interp_sell_padded", nNodes, [=] FV_HOST_DEVICE(idx_t n) {
    real_t q[N];
    auto load = [&](idx_t c, real_t(&w)[N]) {
      const real_t* p = Wp + static_cast<std::size_t>(P) * c;
      backend::load_pair(p, w[0], w[1]);
      backend::load_pair(p + 2, w[2], w[3]);
      w[4] = p[4];
    };
    kernels::detail::node_sum<N>(v, n, load, q);
    for (int k = 0; k < N; ++k)
      Wn[k * nNodes + n] = q[k];
  });
}

/// The solver's sliced node loop with W interleaved (pitch N, scalar loads).
void interp_sell_aos(const ZoneView& z, const real_t* Wa, real_t* Wn) {
  const ZoneView v = z;
  const idx_t nNodes = z.nNodes;
  forall("interp_sell_aos", nNodes, [=] FV_HOST_DEVICE(idx_t n) {
    real_t q[N];
    auto load = [&](idx_t c, real_t(&w)[N]) {
      for (int k = 0; k < N; ++k)
        w[k] = Wa[N * static_cast<std::size_t>(c) + k];
    };
    kernels::detail::node_sum<N>(v, n, load, q);
    for (int k = 0; k < N; ++k)
      Wn[k * nNodes + n] = q[k];
  });
}

} // namespace layouts

namespace {
/// Largest |a - b| over the arrays (0: bitwise equal up to signed zeros).
double max_diff(const std::vector<real_t>& a, const std::vector<real_t>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    d = std::max(d, std::fabs(a[i] - b[i]));
  return a.size() == b.size() ? d : 1e300;
}
} // namespace

std::vector<BenchRow> node_interp_layouts(
    const Zone& z, const ZoneView& v, const real_t* W, const real_t* Wn,
    const std::function<std::pair<double, double>(const std::function<void()>&)>& timer) {
  using layouts::N;
  const idx_t nt = z.nTotalCells(), nn = z.nNodes, nc = z.nCells;
  const auto nts = static_cast<std::size_t>(nt), nns = static_cast<std::size_t>(nn);
  std::vector<real_t> WnRef(N * nns);
  backend::synchronize();
  backend::copy_to_host(active_device(), WnRef.data(), Wn, WnRef.size() * sizeof(real_t));

  DeviceArray<real_t> Wa(N * nts, "W interleaved"), Wn2(N * nns, "Wn layout");
  layouts::interleave(nt, nt, N, W, Wa.data());
  // the zone file's CSR relation, as the solver's kernel read it before the slices
  DeviceArray<idx_t> off(z.nodeCells.offsets(), "node cells offsets"),
      cells(z.nodeCells.indices(), "node cells");
  DeviceArray<real_t> wts(z.nodeCellWeight, "node cell weights");

  std::vector<BenchRow> rows;
  const double I = 4, R = 8, nnc = static_cast<double>(z.nodeCells.indices().size());
  const double interpBytes = (nn + 1) * I + nnc * (I + R) + 5 * nc * R + 5 * nn * R;
  auto row = [&](const char* kernel, const char* variant, const std::function<void()>& f,
                 double bytes, const std::string& note) {
    const auto t = timer(f);
    BenchRow r{"layout", kernel, variant, t.first, t.second, bytes, 0, 0, 0, 0, note};
    r.gbs = bytes > 0 ? bytes / (t.first * 1e6) : 0;
    r.nsPerCell = t.first * 1e6 / std::max<double>(1, nc);
    rows.push_back(r);
  };
  auto check = [&]() {
    std::ostringstream o;
    o << "max |diff| to the solver's kernel " << std::scientific << std::setprecision(1)
      << max_diff(Wn2.to_host(), WnRef);
    return o.str();
  };
  row(
      "interleave", "aos_in", [&] { layouts::interleave(nt, nt, N, W, Wa.data()); }, 10.0 * nt * R,
      "W -> interleaved copy");
  for (const bool aos : {false, true}) {
    const real_t* in = aos ? Wa.data() : W;
    auto f = [&, in, aos] {
      layouts::interp_csr(nn, off.data(), cells.data(), wts.data(), nt, in, aos, Wn2.data());
    };
    f();
    row("interpolate_to_nodes", aos ? "csr_aos_in" : "csr", f, interpBytes, check());
  }
  layouts::interp_sell_aos(v, Wa.data(), Wn2.data());
  row(
      "interpolate_to_nodes", "sliced_aos_in",
      [&] { layouts::interp_sell_aos(v, Wa.data(), Wn2.data()); }, interpBytes, check());
  // the padded copy and the node loop reading it with 128-bit loads
  DeviceArray<real_t> Wp(layouts::P * nts, "W interleaved, padded");
  row(
      "interleave", "padded_in", [&] { layouts::interleave(nt, nt, layouts::P, W, Wp.data()); },
      (N + layouts::P) * nt * R, "W -> interleaved copy, pitch 6");
  layouts::interp_sell_padded(v, Wp.data(), Wn2.data());
  row(
      "interpolate_to_nodes", "sliced_padded_in",
      [&] { layouts::interp_sell_padded(v, Wp.data(), Wn2.data()); }, interpBytes, check());
  return rows;
}

} // namespace fv::bench
