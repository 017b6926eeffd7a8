// fvbench measurements: ceilings, per-kernel times, residual-assembly variants, whole stage.
#include "bench/fvbench/benchmark.hpp"
#include "runtime/solver/state_model.hpp"

#include "bench/fvbench/batched_conditions.hpp"
#include "bench/fvbench/byte_model.hpp"
#include "bench/fvbench/node_interp_layouts.hpp"
#include "bench/fvbench/operator_variants.hpp"
#include "common/error.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/timer.hpp"
#include "runtime/kernels/face_state_arrays.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/kernel_choice_cache.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <utility>

namespace fv::bench {
/// The per-kernel benchmark measures the mean-flow (Euler) kernels: five variables.
constexpr int kNumVars = phys::EulerModel::kNumVars;

// Device loops of the benchmark (a named namespace: nvcc's extended lambdas need an enclosing
// function with external linkage).
namespace loops {
void stream_copy(idx_t n, real_t* a, const real_t* b) {
  forall("stream_copy", n, [=] FV_HOST_DEVICE(idx_t i) { a[i] = b[i]; });
}
void triad(idx_t n, real_t* a, const real_t* b, const real_t* c, real_t s) {
  forall("stream_triad", n, [=] FV_HOST_DEVICE(idx_t i) { a[i] = b[i] + s * c[i]; });
}
void fill(idx_t n, real_t* a, real_t v) {
  forall("fill", n, [=] FV_HOST_DEVICE(idx_t i) { a[i] = v; });
}
/// Halo pack as parallel/halo_exchange does it: entity-major, 5 values per list entry.
void pack(idx_t ns, const idx_t* list, const real_t* field, idx_t stride, real_t* buf) {
  forall("halo_pack", 5 * ns, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t e = i / 5, k = i - 5 * e;
    buf[i] = field[k * stride + list[e]];
  });
}
void unpack(idx_t ns, const idx_t* list, const real_t* buf, idx_t stride, real_t* field) {
  forall("halo_unpack", 5 * ns, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t e = i / 5, k = i - 5 * e;
    field[k * stride + list[e]] = buf[i];
  });
}
} // namespace loops

namespace {

struct Timing {
  double median = 0, min = 0;
};

Timing time_it(const std::function<void()>& f, int warmup, int repeats) {
  backend::KernelTimer t;
  for (int i = 0; i < warmup; ++i) {
    t.start();
    f();
    (void)t.stop_ms();
  }
  std::vector<double> v;
  for (int i = 0; i < std::max(1, repeats); ++i) {
    t.start();
    f();
    v.push_back(t.stop_ms());
  }
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  Timing r;
  r.median = v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
  r.min = v.front();
  return r;
}

std::string option_value(const std::string& opts, const std::string& key) {
  const auto p = opts.find(key + "=");
  if (p == std::string::npos) return "?";
  const auto b = p + key.size() + 1;
  return opts.substr(b, opts.find(';', b) - b);
}

std::string csv_field(const std::string& s) {
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

/// The case of the whole-stage measurement: the benchmark's free stream on every patch (far
/// field), Roe or Rusanov, second order with the classical Venkatakrishnan limiter (K = 5) or
/// first order, the zone's own node weights (as the per-kernel measurements use); the Euler
/// or (--model navier_stokes) the Navier-Stokes model at Re 1e6, or (--model rans_sa) RANS with
/// Spalart-Allmaras (the zone file must hold the wall distance).
CaseConfig bench_case(const ZoneFileHeader& h, const real_t (&fs)[5], const BenchOptions& o,
                      bool mixed = false) {
  std::ostringstream ini;
  ini << "[freestream]\nnondimensional = true\nreynolds = 1e6\n[physics]\nmodel = "
      << enum_name(phys::kModelNames, o.rans      ? phys::ModelKind::RansSa
                                      : o.viscous ? phys::ModelKind::NavierStokes
                                                  : phys::ModelKind::Euler)
      << "\n[scheme]\nflux = " << enum_name(kernels::kFluxNames, o.flux)
      << "\norder = " << (o.secondOrder ? 2 : 1)
      << "\nlimiter = venkat\nvenkat_k = 5\nnode_weights = inverse_distance\n"
      << "precision = " << (mixed ? "mixed" : "double") << "\n";
  for (const Patch& p : h.patches)
    ini << "[patch " << p.name << "]\ntype = farfield\n";
  CaseConfig c = resolve_case(IniFile::parse(ini.str(), "fvbench case"), h.patches);
  for (int k = 0; k < 5; ++k) {
    c.flow.freestream[k] = fs[k];
    for (PatchConfig& p : c.patches)
      p.params.ref[k] = fs[k];
  }
  return c;
}

/// The BenchRow of a whole-stage timing over nc owned cells.
BenchRow stage_row(const char* kernel, const std::string& variant, const Timing& t, idx_t nc,
                   const std::string& extra) {
  BenchRow r{"stage", kernel, variant, t.median, t.min, 0, 0, 0, 0, 0, ""};
  r.nsPerCell = t.median * 1e6 / nc;
  std::ostringstream note;
  note << std::fixed << std::setprecision(2) << 1e-3 * nc / t.median << " Mcell-stages/s" << extra;
  r.note = note.str();
  return r;
}

/// A later Runge-Kutta stage as ExplicitRk runs it: evaluate_and_update of the state the
/// previous stage wrote, whose primitives that stage stored (RkUpdate::storePrimitives), storing
/// those of its own result. Each call advances the state by one stage, from (*from) into
/// (*to), then swaps the two (U0 stays fixed, so the states stay bounded); the first call
/// computes the primitives (an untimed warm-up run).
struct LaterStage {
  SpatialOperator& op;
  const real_t* dt;
  const real_t* U0;
  real_t* from;
  real_t* to;
  void operator()() {
    op.evaluate_and_update(RkUpdate{0.5, 0.5, 1.0, dt, -1.0, U0, from, to, true});
    std::swap(from, to);
  }
};

/// Section 6 of run_benchmark(): the whole stage as the solver's later Runge-Kutta stages run
/// it (SpatialOperator::evaluate_and_update: the gather's flux sum and the update fused, the
/// primitives stored by the stage before: LaterStage) with each residual-assembly variant,
/// FP64; for the gather also the stage computing its primitives ("rk_stage_total_primitives":
/// the later stages before the stored primitives) and the stage as a first stage runs it
/// (evaluate, then rk_stage: "rk_stage_total_unfused").
void measure_stages(const Zone& z, const ZoneFileHeader& h, const real_t (&fs)[5],
                    const BenchOptions& o, const std::vector<FluxSumVariant>& stageVariants,
                    const FaceColouring& colours, const std::vector<real_t>& Uh,
                    DeviceArray<real_t>& U, DeviceArray<real_t>& Unew, DeviceArray<real_t>& dt,
                    double stageSum, ComponentMapping nodeLoop, BenchReport& rep) {
  const idx_t nt = z.nTotalCells(), nc = z.nCells;
  SpatialOperator op(z, bench_case(h, fs, o), ParallelSetup{});
  op.set_node_loop(nodeLoop); // as fvrun's choose_node_loop() chose for the kernel row
  // RANS: the state gains rho nu-tilde, 1000 times the free stream's (a boundary layer's)
  DeviceArray<real_t> U6, Unew6;
  std::vector<real_t> uStart(Uh);
  if (o.rans) {
    const real_t nt6 = 1000 * op.flow().nuTildeFreestream;
    for (idx_t c = 0; c < nt; ++c)
      uStart.push_back(Uh[c] * nt6);
    U6 = DeviceArray<real_t>(uStart, "U (RANS)");
    Unew6 = DeviceArray<real_t>(uStart.size(), "U new (RANS)");
  }
  // the later stages' two states (LaterStage)
  DeviceArray<real_t> Ua(uStart, "stage state a"), Ub(uStart, "stage state b");
  const real_t* U0 = o.rans ? U6.data() : U.data();
  auto unfused = [&] {
    if (o.rans) {
      op.evaluate(U6.data());
      kernels::rk_stage<phys::SaModel::kNumVars>(op.view(), 0.5, 0.5, 1.0, dt.data(), -1.0,
                                                 U6.data(), U6.data(), op.residual(), Unew6.data());
      return;
    }
    op.evaluate(U.data());
    kernels::rk_stage<kNumVars>(op.view(), 0.5, 0.5, 1.0, dt.data(), -1.0, U.data(), U.data(),
                                op.residual(), Unew.data());
  };
  for (FluxSumVariant var : stageVariants) {
    set_variant(op, var, colours);
    LaterStage stage{op, dt.data(), U0, Ua.data(), Ub.data()};
    std::ostringstream extra;
    if (var == FluxSumVariant::Gather)
      extra << "; sum of kernel medians " << std::fixed << std::setprecision(3) << stageSum
            << " ms";
    rep.rows.push_back(stage_row("rk_stage_total", to_string(var),
                                 time_it(stage, o.warmup, o.repeats), nc, extra.str()));
    if (var != FluxSumVariant::Gather) continue;
    auto withPrimitives = [&] { // the state of U0 evaluated anew every time
      if (o.rans)
        op.evaluate_and_update(
            RkUpdate{0.5, 0.5, 1.0, dt.data(), -1.0, U6.data(), U6.data(), Unew6.data()});
      else
        op.evaluate_and_update(
            RkUpdate{0.5, 0.5, 1.0, dt.data(), -1.0, U.data(), U.data(), Unew.data()});
    };
    rep.rows.push_back(stage_row("rk_stage_total_primitives", to_string(var),
                                 time_it(withPrimitives, o.warmup, o.repeats), nc,
                                 "; with the primitives pass (no primitives stored before)"));
    rep.rows.push_back(stage_row("rk_stage_total_unfused", to_string(var),
                                 time_it(unfused, o.warmup, o.repeats), nc,
                                 "; evaluate, then rk_stage (a first stage)"));
    if (!op.stores_face_states()) continue;
    op.set_face_states(false);
    rep.rows.push_back(stage_row("rk_stage_total_gradient", to_string(var),
                                 time_it(stage, o.warmup, o.repeats), nc,
                                 "; without face states: the face loops reconstruct from the "
                                 "stored gradient"));
    op.set_face_states(true);
  }
}

/// The whole stage with [scheme] precision = mixed (Euler model, gather; its own
/// SpatialOperator with the FP32 geometry copies): row kernel "rk_stage_total_mixed".
void measure_mixed_stage(const Zone& z, const ZoneFileHeader& h, const real_t (&fs)[5],
                         const BenchOptions& o, DeviceArray<real_t>& U, DeviceArray<real_t>& Unew,
                         DeviceArray<real_t>& dt, ComponentMapping nodeLoop, BenchReport& rep) {
  SpatialOperator op(z, bench_case(h, fs, o, true), ParallelSetup{});
  op.set_node_loop(nodeLoop);
  DeviceArray<real_t> Ua(U.to_host(), "stage state a"), Ub(U.to_host(), "stage state b");
  LaterStage stage{op, dt.data(), U.data(), Ua.data(), Ub.data()};
  rep.rows.push_back(
      stage_row("rk_stage_total_mixed", "gather", time_it(stage, o.warmup, o.repeats), z.nCells,
                "; precision = mixed (FP32 face-centroid offsets and node weights)"));
}

} // namespace

BenchReport run_benchmark(const Zone& z, const ZoneFileHeader& h, const std::string& meshLabel,
                          const BenchOptions& o) {
  const backend::DeviceInfo info = backend::device_info();
  const bool gpu = active_device() == Device::Cuda;
  BenchReport rep;
  rep.device = info.name;
  rep.driver = info.driver;
  rep.mesh = meshLabel;
  rep.uuid = h.meshUuid;
  rep.renumber = option_value(h.options, "renumber");
  rep.date = utc_timestamp();
  rep.cells = z.nCells;
  rep.faces = z.nFaces;
  rep.nodes = z.nNodes;
  const double nc = std::max<double>(1, z.nCells);

  // ---- 1. streaming ceilings
  {
    const double mib = o.ceilingMiB > 0 ? o.ceilingMiB : (gpu ? 512 : 128);
    const auto n = static_cast<idx_t>(mib * 1024 * 1024 / sizeof(real_t));
    DeviceArray<real_t> a(n, "ceiling a"), b(n, "ceiling b"), c(n, "ceiling c");
    loops::fill(n, b.data(), 1.0);
    loops::fill(n, c.data(), 2.0);
    const double bytesCopy = 2.0 * n * sizeof(real_t), bytesTriad = 3.0 * n * sizeof(real_t);
    Timing tc;
    std::string copyName;
    if (gpu) {
      copyName = "memcpy_d2d";
      tc = time_it([&] { a.assign(b); }, o.warmup, o.repeats);
    } else {
      copyName = "stream_copy";
      tc = time_it([&] { loops::stream_copy(n, a.data(), b.data()); }, o.warmup, o.repeats);
    }
    const Timing tt =
        time_it([&] { loops::triad(n, a.data(), b.data(), c.data(), 3.0); }, o.warmup, o.repeats);
    const double gc = bytesCopy / (tc.median * 1e6), gt = bytesTriad / (tt.median * 1e6);
    rep.ceilingGBs = std::max(gc, gt);
    std::ostringstream arr;
    arr << mib << " MiB arrays";
    rep.rows.push_back({"ceiling", copyName, "", tc.median, tc.min, bytesCopy, gc, 0, 0, 0,
                        arr.str() + (gpu ? ", cudaMemcpy D2D, read+write" : ", OpenMP")});
    rep.rows.push_back({"ceiling", "stream_triad", "", tt.median, tt.min, bytesTriad, gt, 0, 0, 0,
                        arr.str() + ", fv::forall a = b + s c"});
    if (info.peakGBs > 0) {
      std::ostringstream nt;
      nt << "theoretical " << std::fixed << std::setprecision(0) << info.peakGBs << " GB/s";
      rep.rows.push_back({"ceiling", "theoretical", "", 0, 0, 0, info.peakGBs, 0, 0, 0, nt.str()});
    }
  }

  // ---- 2. the zone and a smooth, non-uniform state on the device
  const DeviceZone dz(z);
  const ZoneView& v = dz.view();
  auto timer = [&](const std::function<void()>& f) {
    const Timing t = time_it(f, o.warmup, o.repeats);
    return std::make_pair(t.median, t.min);
  };
  if (!o.batched.empty()) { // --batched: the batched-conditions section alone
    for (const BenchRow& r : batched_conditions(z, v, o.batched, rep.ceilingGBs, timer))
      rep.rows.push_back(r);
    rep.selectedVariant = "-";
    rep.selectionNote = "--batched: ceilings and batched conditions only";
    return rep;
  }
  const idx_t nt = z.nTotalCells();
  const real_t gamma = 1.4;
  const real_t fs[5] = {1.0, 0.5 * std::sqrt(gamma), 0.1, 0.05, 1.0}; // M ~ 0.5, c = sqrt(g p/rho)
  real_t lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (idx_t c = 0; c < nt; ++c)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], z.cellCentroid[3 * c + d]);
      hi[d] = std::max(hi[d], z.cellCentroid[3 * c + d]);
    }
  std::vector<real_t> Uh(5 * static_cast<std::size_t>(nt));
  for (idx_t c = 0; c < nt; ++c) {
    real_t x[3];
    for (int d = 0; d < 3; ++d)
      x[d] = (z.cellCentroid[3 * c + d] - lo[d]) / std::max(hi[d] - lo[d], 1e-300);
    const real_t s = std::sin(6.283185307179586 * x[0]) * std::cos(3.141592653589793 * x[1]) +
                     0.5 * std::sin(6.283185307179586 * x[2]);
    real_t W[5] = {fs[0] * (1 + 0.1 * s), fs[1] * (1 + 0.2 * s), fs[2] + 0.05 * s, fs[3],
                   fs[4] * (1 + 0.15 * s)};
    real_t u[5];
    phys::prim_to_cons(W, u, gamma);
    for (int k = 0; k < 5; ++k)
      Uh[k * static_cast<std::size_t>(nt) + c] = u[k];
  }
  const auto n5 = 5 * static_cast<std::size_t>(nt);
  DeviceArray<real_t> U(Uh, "U"), Unew(n5, "U new"), W(n5, "W"), R(n5, "R"), dt(nt, "dt"),
      flux(5 * static_cast<std::size_t>(z.nFaces), "face flux"),
      Wn(5 * static_cast<std::size_t>(std::max<idx_t>(z.nNodes, 1)), "node values"),
      grad(15 * static_cast<std::size_t>(nt), "gradients"), phi(n5, "limiter");
  const kernels::FaceStateArrays states =
      o.secondOrder ? kernels::FaceStateArrays(z, v, kNumVars) : kernels::FaceStateArrays();
  const kernels::FaceStateStore& store = states.view();
  // the solver's second-order Euler stage stores face states (SpatialOperator::
  // stores_face_states): their kernels are the stage's, the gradient's face loops variants
  const bool faceStates = o.secondOrder && !o.viscous && !o.rans;
  kernels::FluxSettings fsSet;
  fsSet.flux = o.flux;
  fsSet.gamma = gamma;
  fsSet.secondOrder = o.secondOrder;
  kernels::LimiterScales scales;
  const real_t speed = std::sqrt(fs[1] * fs[1] + fs[2] * fs[2] + fs[3] * fs[3]);
  for (int k = 0; k < 5; ++k)
    scales.s[k] = k == 0 ? fs[0] : (k == 4 ? fs[4] : speed);
  std::vector<phys::BcParams> bcs(static_cast<std::size_t>(z.nPatches()));
  for (auto& b : bcs) {
    b.type = phys::BcType::Farfield;
    b.gamma = gamma;
    for (int k = 0; k < 5; ++k)
      b.ref[k] = fs[k];
  }
  const DeviceFaceColouring deviceColours(z);
  const FaceColouring& colours = deviceColours.view();

  // halo list: the zone's cell send lists, or (one zone) the owners of the boundary faces
  std::vector<idx_t> haloList;
  std::string haloNote;
  if (!z.cellExchange.send.indices().empty()) {
    haloList.assign(z.cellExchange.send.indices().begin(), z.cellExchange.send.indices().end());
    haloNote = "the zone's cell send lists";
  } else {
    std::vector<char> seen(static_cast<std::size_t>(z.nCells), 0);
    for (idx_t f = 0; f < z.nBoundaryFaces; ++f)
      if (!seen[z.faceOwner[f]]) {
        seen[z.faceOwner[f]] = 1;
        haloList.push_back(z.faceOwner[f]);
      }
    haloNote = "1 zone: stand-in list = boundary-face owners";
  }
  const auto ns = static_cast<idx_t>(haloList.size());
  DeviceArray<idx_t> haloDev(haloList, "halo list");
  DeviceArray<real_t> haloBuf(5 * haloList.size(), "halo buffer"), haloField(n5, "halo field");

  const ZoneSizes sizes = zone_sizes(z, ns);
  auto bytes = [&](const char* k) { return kernel_bytes(k, sizes); };

  // the kernels of one explicit stage, as SpatialOperator::evaluate + rk_stage run them
  auto k_prim = [&] { kernels::primitives<phys::EulerModel>(nt, nt, gamma, U.data(), W.data()); };
  ComponentMapping interpMapping = gpu ? ComponentMapping::Split : ComponentMapping::PerEntity;
  auto k_interp = [&] {
    kernels::interpolate_to_nodes<kNumVars>(v, W.data(), Wn.data(), interpMapping);
  };
  auto k_grad = [&] { kernels::green_gauss_gradient<kNumVars>(v, Wn.data(), grad.data()); };
  auto k_lim = [&] {
    kernels::limiter<kNumVars>(v, o.secondOrder ? kernels::Limiter::Venkat : kernels::Limiter::None,
                               5.0, scales, W.data(), grad.data(), nullptr,
                               phi.data()); // every cell: the limiter's full cost
  };
  auto k_gradlim = [&] {
    kernels::gradient_and_limiter<kNumVars>(
        v, Wn.data(), o.secondOrder ? kernels::Limiter::Venkat : kernels::Limiter::None, 5.0,
        scales, W.data(), nullptr, grad.data(), phi.data());
  };
  auto k_gradlim_states = [&] {
    kernels::gradient_limiter_states<kNumVars>(v, Wn.data(), kernels::Limiter::Venkat, 5.0, scales,
                                               W.data(), nullptr,
                                               {nullptr, nullptr, false, v.nCells}, store);
  };
  auto k_iflux_states = [&] {
    kernels::interior_state_fluxes<phys::EulerModel>(v, fsSet, store, flux.data());
  };
  auto k_iflux = [&] {
    kernels::interior_fluxes<phys::EulerModel>(v, fsSet, W.data(), grad.data(), phi.data(),
                                               flux.data());
  };
  const kernels::PatchTable patches(
      std::vector<idx_t>(z.patchFaceOffsets.begin(), z.patchFaceOffsets.end()), bcs);
  auto k_bflux = [&] {
    kernels::boundary_fluxes<phys::EulerModel>(v, patches.view(), fsSet, W.data(), grad.data(),
                                               phi.data(), flux.data());
  };
  auto k_bflux_states = [&] {
    kernels::boundary_state_fluxes<phys::EulerModel>(v, patches.view(), fsSet, store, flux.data());
  };
  auto k_sum = [&] { kernels::flux_sum<kNumVars>(v, flux.data(), R.data()); };
  auto k_rk = [&] {
    kernels::rk_stage<kNumVars>(v, 0.5, 0.5, 1.0, dt.data(), -1.0, U.data(), U.data(), R.data(),
                                Unew.data());
  };
  auto k_sum_rk = [&] {
    kernels::flux_sum_rk_stage<kNumVars>(v, flux.data(), 0.5, 0.5, 1.0, dt.data(), -1.0, U.data(),
                                         U.data(), Unew.data());
  };
  DeviceArray<real_t> Wnew(n5, "W new"); // flux_sum_rk_primitives' output
  auto k_sum_rk_prim = [&] {
    kernels::flux_sum_rk_primitives<phys::EulerModel>(v, flux.data(), 0.5, 0.5, 1.0, dt.data(),
                                                      -1.0, U.data(), U.data(), Unew.data(), gamma,
                                                      Wnew.data());
  };

  // one evaluation to fill every field, then the time step (not timed: once per iteration)
  k_prim();
  if (o.secondOrder) {
    k_interp();
    k_grad();
  }
  k_lim();
  k_iflux();
  k_bflux();
  k_sum();
  kernels::local_time_step(v, gamma, 0.5, W.data(), dt.data());
  haloField.assign(W);
  backend::synchronize();
  const std::vector<real_t> Rref = R.to_host();

  // ---- 3. per-kernel times (the default stage: gather)
  struct K {
    const char* name;
    std::function<void()> f;
    bool inStage;
  };
  std::vector<BenchRow> mappingRows;
  // the node interpolation's two thread mappings (fv::forall_components; same sums): the
  // faster is the kernel row, as fvrun's choose_node_loop() picks it, the other a variant row
  if (o.secondOrder) {
    const auto mappingName = [](ComponentMapping m) {
      return m == ComponentMapping::Split ? "split" : "per_entity";
    };
    Timing t[2];
    const ComponentMapping m[2] = {ComponentMapping::PerEntity, ComponentMapping::Split};
    for (int i = 0; i < 2; ++i) {
      interpMapping = m[i];
      t[i] = time_it(k_interp, o.warmup, o.repeats);
    }
    const int best = gpu && t[1].median < t[0].median ? 1 : 0; // the CPU: per node, as fvrun
    interpMapping = m[best];
    const Timing& to = t[1 - best];
    const char* name = "interpolate_to_nodes";
    BenchRow r{"variant", name, mappingName(m[1 - best]), to.median, to.min, bytes(name), 0, 0, 0,
               0,         ""};
    r.note =
        std::string("thread mapping not chosen (the kernel row: ") + mappingName(m[best]) + ")";
    r.gbs = r.bytes / (r.medianMs * 1e6);
    r.pctCeiling = 100 * r.gbs / rep.ceilingGBs;
    r.nsPerCell = r.medianMs * 1e6 / nc;
    mappingRows.push_back(r);
  }
  std::vector<K> ks;
  ks.push_back({"primitives", k_prim, true});
  if (o.secondOrder) {
    ks.push_back({"interpolate_to_nodes", k_interp, true});
    // the solver's fused pass: with face states, or with the gradient stored
    ks.push_back({"gradient_limiter_states", k_gradlim_states, faceStates});
    ks.push_back({"gradient_and_limiter", k_gradlim, !faceStates});
    ks.push_back({"green_gauss_gradient", k_grad, false}); // the two halves alone
    ks.push_back({"limiter", k_lim, false});
    ks.push_back({"interior_state_fluxes", k_iflux_states, faceStates});
    ks.push_back({"boundary_state_fluxes", k_bflux_states, faceStates});
  }
  ks.push_back({"interior_fluxes", k_iflux, !faceStates});
  ks.push_back({"boundary_fluxes", k_bflux, !faceStates});
  ks.push_back({"flux_sum", k_sum, true});
  ks.push_back({"rk_stage", k_rk, true});
  ks.push_back({"flux_sum_rk_stage", k_sum_rk, false}); // the two fused (the last RK stage)
  // and storing the new state's primitives (the other later stages)
  ks.push_back({"flux_sum_rk_primitives", k_sum_rk_prim, false});
  if (ns > 0) {
    ks.push_back({"halo_pack",
                  [&] { loops::pack(ns, haloDev.data(), haloField.data(), nt, haloBuf.data()); },
                  false});
    ks.push_back({"halo_unpack",
                  [&] { loops::unpack(ns, haloDev.data(), haloBuf.data(), nt, haloField.data()); },
                  false});
  }
  double stageSum = 0;
  const std::size_t firstKernel = rep.rows.size();
  for (const K& k : ks) {
    const Timing t = time_it(k.f, o.warmup, o.repeats);
    BenchRow r{"kernel", k.name, "", t.median, t.min, bytes(k.name), 0, 0, 0, 0, ""};
    r.gbs = r.bytes / (t.median * 1e6);
    r.pctCeiling = 100 * r.gbs / rep.ceilingGBs;
    r.nsPerCell = t.median * 1e6 / nc;
    if (k.inStage) stageSum += t.median;
    if (std::string(k.name).rfind("halo_", 0) == 0) r.note = haloNote;
    if (std::string(k.name) == "boundary_fluxes" || std::string(k.name) == "boundary_state_fluxes")
      r.note = std::to_string(z.nPatches()) + " patches, one launch";
    if (std::string(k.name) == "interpolate_to_nodes")
      r.note = interpMapping == ComponentMapping::Split ? "one thread per (node, component)"
                                                        : "one thread per node";
    rep.rows.push_back(r);
  }
  for (std::size_t i = 0; i < ks.size(); ++i)
    if (ks[i].inStage)
      rep.rows[firstKernel + i].sharePct = 100 * rep.rows[firstKernel + i].medianMs / stageSum;

  for (const BenchRow& r : mappingRows)
    rep.rows.push_back(r);

  // ---- 3b. data layouts of the node interpolation (same sums, same order)
  if (o.secondOrder) {
    k_interp();
    const auto rows = node_interp_layouts(z, v, W.data(), Wn.data(), timer);
    for (BenchRow r : rows) {
      r.pctCeiling = 100 * r.gbs / rep.ceilingGBs;
      rep.rows.push_back(r);
    }
  }

  // ---- 4. residual-assembly variants (interior fluxes + summation)
  const std::vector<FluxSumVariant> variants = supported_variants(colours);
  auto max_rel_diff = [&](const std::vector<real_t>& a) {
    real_t worst = 0;
    for (int k = 0; k < 5; ++k) {
      real_t scale = 0, d = 0;
      for (idx_t c = 0; c < z.nCells; ++c) {
        const std::size_t i = static_cast<std::size_t>(k) * nt + c;
        scale = std::max(scale, std::fabs(Rref[i]));
        d = std::max(d, std::fabs(a[i] - Rref[i]));
      }
      worst = std::max(worst, scale > 0 ? d / scale : d);
    }
    return worst;
  };
  double bestMs = 1e300;
  FluxSumVariant fastest = FluxSumVariant::Gather;
  for (FluxSumVariant var : variants) {
    const std::string name = to_string(var);
    if (!is_fused(var)) { // the summation alone
      std::function<void()> f = k_sum;
      const char* bname = "flux_sum";
      if (var == FluxSumVariant::Atomic) {
        f = [&] { flux_sum_atomic(v, flux.data(), R.data()); };
        bname = "flux_sum_atomic";
      } else if (var == FluxSumVariant::Colour) {
        f = [&] { flux_sum_coloured(v, colours, flux.data(), R.data()); };
        bname = "flux_sum_colour";
      } else if (var == FluxSumVariant::Smem) {
        f = [&] { kernels::flux_sum_shared(v, flux.data(), R.data()); };
        bname = "flux_sum_smem";
      }
      const Timing t = time_it(f, o.warmup, o.repeats);
      BenchRow r{"variant", "flux_sum", name, t.median, t.min, bytes(bname), 0, 0, 0, 0, ""};
      r.gbs = r.bytes / (t.median * 1e6);
      r.pctCeiling = 100 * r.gbs / rep.ceilingGBs;
      r.nsPerCell = t.median * 1e6 / nc;
      if (var == FluxSumVariant::Colour)
        r.note = std::to_string(colours.nColours()) + " colours, one launch each";
      rep.rows.push_back(r);
    }
    k_bflux(); // boundary fluxes in the face-flux array, as in the stage
    const Timing t = time_it(
        [&] {
          residual_with(var, v, colours, fsSet, W.data(), grad.data(), phi.data(), flux.data(),
                        R.data());
        },
        o.warmup, o.repeats);
    double b = 0;
    switch (var) {
    case FluxSumVariant::Gather:
      b = bytes("interior_fluxes") + bytes("flux_sum");
      break;
    case FluxSumVariant::Atomic:
      b = bytes("interior_fluxes") + bytes("flux_sum_atomic");
      break;
    case FluxSumVariant::Colour:
      b = bytes("interior_fluxes") + bytes("flux_sum_colour");
      break;
    case FluxSumVariant::Smem:
      b = bytes("interior_fluxes") + bytes("flux_sum_smem");
      break;
    case FluxSumVariant::FusedAtomic:
      b = bytes("fused_flux_atomic");
      break;
    case FluxSumVariant::FusedColour:
      b = bytes("fused_flux_colour");
      break;
    }
    BenchRow r{"variant", "residual_assembly", name, t.median, t.min, b, 0, 0, 0, 0, ""};
    r.gbs = b / (t.median * 1e6);
    r.pctCeiling = 100 * r.gbs / rep.ceilingGBs;
    r.nsPerCell = t.median * 1e6 / nc;
    std::ostringstream note;
    note << "max rel. diff to gather " << std::scientific << std::setprecision(1)
         << max_rel_diff(R.to_host());
    r.note = note.str();
    rep.rows.push_back(r);
    if (t.median < bestMs) {
      bestMs = t.median;
      fastest = var;
    }
  }

  // ---- 5. choice of the variant for the whole stage
  std::vector<FluxSumVariant> stageVariants;
  if (o.choice == KernelChoice::All) {
    stageVariants = variants;
    rep.selectedVariant = "gather";
    rep.selectionNote = "default (solver); whole stage measured with every variant";
  } else if (o.choice == KernelChoice::One) {
    stageVariants = {o.variant};
    rep.selectedVariant = to_string(o.variant);
    rep.selectionNote = "--kernels " + rep.selectedVariant;
  } else {
    const std::string cache = o.cachePath.empty() ? default_kernel_cache_path() : o.cachePath;
    const auto hit = lookup_kernel_choice(cache, rep.uuid, rep.device);
    FluxSumVariant chosen = fastest;
    if (hit) {
      chosen = parse_flux_sum_variant(*hit);
      rep.selectionNote = "auto: cached in " + cache;
    } else {
      store_kernel_choice(cache, rep.uuid, rep.device, to_string(fastest), bestMs, rep.date);
      rep.selectionNote = "auto: fastest residual assembly now, stored in " + cache;
    }
    rep.selectedVariant = to_string(chosen);
    stageVariants = {chosen};
  }

  // ---- 6. whole explicit stage: the solver's SpatialOperator (one zone, no halo exchange) on
  //         the same state and boundary conditions, then the Runge-Kutta update
  if (o.viscous || o.rans) stageVariants = {FluxSumVariant::Gather}; // variants: Euler only
  measure_stages(z, h, fs, o, stageVariants, colours, Uh, U, Unew, dt, stageSum, interpMapping,
                 rep);
  if (!o.viscous && !o.rans) measure_mixed_stage(z, h, fs, o, U, Unew, dt, interpMapping, rep);
  return rep;
}

BenchReport merge_runs(std::vector<BenchReport> runs) {
  FV_VERIFY(!runs.empty(), "merge_runs: no runs");
  BenchReport out = std::move(runs.front());
  out.runs = static_cast<int>(runs.size());
  out.spread.assign(out.rows.size(), RunSpread{});
  if (runs.size() == 1) {
    out.spread.clear();
    return out;
  }
  for (std::size_t k = 1; k < runs.size(); ++k) {
    const BenchReport& r = runs[k];
    FV_VERIFY(r.rows.size() == out.rows.size(), "merge_runs: run "
                                                    << k + 1 << " has " << r.rows.size()
                                                    << " rows, run 1 " << out.rows.size());
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      const BenchRow &a = out.rows[i], &b = r.rows[i];
      FV_VERIFY(a.section == b.section && a.kernel == b.kernel && a.variant == b.variant,
                "merge_runs: row " << i << " of run " << k + 1 << " is " << b.section << "/"
                                   << b.kernel << "/" << b.variant << ", run 1 has " << a.section
                                   << "/" << a.kernel << "/" << a.variant);
      out.spread[i].medianMs.push_back(b.medianMs);
    }
  }
  for (std::size_t i = 0; i < out.rows.size(); ++i) {
    double lo = out.rows[i].medianMs, hi = lo;
    for (double m : out.spread[i].medianMs) {
      lo = std::min(lo, m);
      hi = std::max(hi, m);
    }
    out.spread[i].devPct = lo > 0 ? 100.0 * (hi - lo) / lo : 0.0;
  }
  return out;
}

void print_report(const BenchReport& r, std::ostream& os) {
  os << "\nfvbench: " << r.mesh << " (" << r.cells << " cells, " << r.faces << " faces, " << r.nodes
     << " nodes; renumber=" << r.renumber << "; uuid " << r.uuid << ")\n"
     << "device: " << r.device << " [" << r.driver << "], " << r.date << "\n"
     << "ceiling (best streaming): " << std::fixed << std::setprecision(1) << r.ceilingGBs
     << " GB/s; FP64; residual assembly for the stage: " << r.selectedVariant << " ("
     << r.selectionNote << ")\n\n";
  os << std::left << std::setw(8) << "section" << std::setw(24) << "kernel" << std::setw(13)
     << "variant" << std::right << std::setw(11) << "median ms" << std::setw(9) << "GB/s"
     << std::setw(8) << "%ceil" << std::setw(10) << "ns/cell" << std::setw(8) << "share%";
  const bool spread = r.runs > 1 && r.spread.size() == r.rows.size();
  if (spread) os << std::setw(11) << "run2 ms" << std::setw(8) << "dev%";
  os << "  note\n";
  int flagged = 0;
  double worst = 0;
  std::string worstName;
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const BenchRow& w = r.rows[i];
    os << std::left << std::setw(8) << w.section << std::setw(24) << w.kernel << std::setw(13)
       << (w.variant.empty() ? "-" : w.variant) << std::right << std::fixed << std::setw(11)
       << std::setprecision(4) << w.medianMs << std::setw(9) << std::setprecision(1) << w.gbs
       << std::setw(8) << std::setprecision(1) << w.pctCeiling << std::setw(10)
       << std::setprecision(2) << w.nsPerCell << std::setw(8) << std::setprecision(1) << w.sharePct;
    if (spread) {
      const RunSpread& s = r.spread[i];
      const bool bad = s.devPct > kReproduciblePct;
      os << std::setw(11) << std::setprecision(4) << s.medianMs.front() << std::setw(7)
         << std::setprecision(1) << s.devPct << (bad ? "!" : " ");
      if (bad) ++flagged;
      if (s.devPct > worst) {
        worst = s.devPct;
        worstName = w.kernel + (w.variant.empty() ? "" : " " + w.variant);
      }
    }
    os << "  " << w.note << "\n";
  }
  os << "(share%: of the sum of the default stage's kernel medians; ns/cell: per owned cell "
     << "(section batched: per owned cell and state);\n"
     << " GB/s: byte model of docs/performance.md / median time";
  if (spread)
    os << ";\n run2 ms: median of the second complete measurement; dev%: (max - min) / min of the "
       << r.runs << " runs' medians, '!' above " << kReproduciblePct << " %";
  os << ")\n";
  if (spread)
    os << "reproducibility: " << flagged << " of " << r.rows.size() << " rows deviate more than "
       << std::setprecision(0) << kReproduciblePct << " % between the " << r.runs << " runs (worst "
       << std::setprecision(1) << worst << " %" << (worstName.empty() ? "" : ", " + worstName)
       << ")\n";
}

void append_csv(const BenchReport& r, const std::string& path) {
  static const char* header =
      "date,device,driver,mesh,uuid,renumber,cells,faces,nodes,section,kernel,variant,"
      "median_ms,min_ms,bytes,GBs,pct_ceiling,ns_per_cell,share_pct,note,runs,run2_median_ms,"
      "run_dev_pct,reproducible";
  std::error_code ec;
  const bool fresh =
      !std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0;
  if (!fresh) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    FV_VERIFY(first == header, "CSV file " << path
                                           << " has other columns (an older fvbench?); append to "
                                              "a new file instead");
  }
  std::ofstream out(path, std::ios::app);
  FV_VERIFY(out, "cannot write CSV file " << path);
  if (fresh) out << header << '\n';
  const bool spread = r.runs > 1 && r.spread.size() == r.rows.size();
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const BenchRow& w = r.rows[i];
    out << r.date << ',' << csv_field(r.device) << ',' << csv_field(r.driver) << ','
        << csv_field(r.mesh) << ',' << r.uuid << ',' << r.renumber << ',' << r.cells << ','
        << r.faces << ',' << r.nodes << ',' << w.section << ',' << w.kernel << ',' << w.variant
        << ',' << std::setprecision(6) << w.medianMs << ',' << w.minMs << ','
        << std::setprecision(12) << w.bytes << ',' << std::setprecision(6) << w.gbs << ','
        << w.pctCeiling << ',' << w.nsPerCell << ',' << w.sharePct << ',' << csv_field(w.note)
        << ',' << r.runs << ',';
    // empty spread columns for a single run: no claim either way
    if (spread)
      out << r.spread[i].medianMs.front() << ',' << r.spread[i].devPct << ','
          << (r.spread[i].devPct <= kReproduciblePct ? "yes" : "no");
    else
      out << ",,";
    out << '\n';
  }
  FV_VERIFY(out.good(), "cannot write CSV file " << path);
}

} // namespace fv::bench
