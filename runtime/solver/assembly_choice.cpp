#include "runtime/solver/assembly_choice.hpp"

#include "common/error.hpp"
#include "runtime/backend/timer.hpp"
#include "runtime/solver/kernel_choice_cache.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <vector>

namespace fv {
namespace {
/// Median ms of `repeats` residual evaluations at U (after one warm-up).
double time_evaluations(SpatialOperator& op, const real_t* U, int repeats) {
  op.evaluate(U);
  backend::KernelTimer t;
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    t.start();
    op.evaluate(U);
    ms.push_back(t.stop_ms());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
} // namespace

AssemblyChoice choose_assembly(SpatialOperator& op, const real_t* U, const std::string& meshUuid,
                               const std::string& cachePath) {
  using kernels::ResidualAssembly;
  const SchemeConfig& scheme = op.scheme();
  const AssemblyRequest& request = scheme.assembly;
  const std::string name = request.name();
  AssemblyChoice out;
  const bool automatic = request.automatic();
  if (scheme.mixedPrecision) { // smem reads the FP64 view (checked with the case file)
    out.note = "gather (precision = mixed: the only assembly)";
    op.set_assembly(ResidualAssembly::Gather);
    return out;
  }
  if (op.multi_zone() || op.flow().viscous()) {
    FV_VERIFY_USAGE(automatic || request.variant == ResidualAssembly::Gather,
                    "[scheme] assembly = "
                        << name << " is for one zone and the Euler "
                        << "model; this run has "
                        << (op.multi_zone() ? "several zones" : "a viscous model"));
    out.note = std::string("gather (") + (op.multi_zone() ? "several zones" : "viscous model") +
               ": the only assembly)";
    op.set_assembly(ResidualAssembly::Gather);
    return out;
  }
  if (!automatic) {
    out.variant = request.variant;
    op.set_assembly(out.variant);
    out.note = name + " ([scheme] assembly)";
    return out;
  }
  if (active_device() != Device::Cuda) {
    op.set_assembly(ResidualAssembly::Gather);
    out.note = "gather (auto on the CPU backend)";
    return out;
  }
  // the candidates: the solver's assemblies, bitwise equal
  std::vector<AssemblyCandidate> candidates;
  for (const auto& e : kernels::kResidualAssemblyNames)
    candidates.push_back({e.name, [a = e.value](SpatialOperator& o) { o.set_assembly(a); }});
  const FastestAssembly f =
      choose_fastest_assembly(op, U, candidates, "fvrun", name, meshUuid, cachePath);
  out.variant = kernels::kResidualAssemblyNames[f.index].value;
  out.note = f.note;
  return out;
}

FastestAssembly choose_fastest_assembly(SpatialOperator& op, const real_t* U,
                                        const std::vector<AssemblyCandidate>& candidates,
                                        const std::string& owner, const std::string& mode,
                                        const std::string& meshUuid, const std::string& cachePath) {
  FV_VERIFY(!candidates.empty(), "choose_fastest_assembly: no candidate");
  const backend::DeviceInfo info = backend::device_info();
  const std::string key = info.name + " (" + owner + " " + mode + ")";
  const std::string cache = cachePath.empty() ? default_kernel_cache_path() : cachePath;
  FastestAssembly out;
  if (const auto hit = lookup_kernel_choice(cache, meshUuid, key))
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].name == *hit) {
        candidates[i].set(op);
        out.index = i;
        out.note = *hit + " (" + mode + ": cached in " + cache + ")";
        return out;
      }
  std::ostringstream timings;
  double best = 1e300;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    candidates[i].set(op);
    const double ms = time_evaluations(op, U, 5);
    timings << (timings.tellp() > 0 ? ", " : "") << candidates[i].name << " " << std::fixed
            << std::setprecision(3) << ms << " ms";
    if (ms < best) {
      best = ms;
      out.index = i;
    }
  }
  const std::string& chosen = candidates[out.index].name;
  candidates[out.index].set(op);
  std::string stored = "; stored in " + cache;
  try {
    store_kernel_choice(cache, meshUuid, key, chosen, best, utc_timestamp());
  } catch (const Error& e) { // a read-only home does not stop a run
    stored = "; not cached: " + std::string(e.what());
  }
  out.note = chosen + " (" + mode + ": residual evaluation " + timings.str() + stored + ")";
  return out;
}

std::string choose_node_loop(SpatialOperator& op, const real_t* U) {
  if (op.scheme().order != 2 && !op.flow().viscous()) return "not used (first order, inviscid)";
  if (active_device() != Device::Cuda) {
    op.set_node_loop(ComponentMapping::PerEntity);
    return "one thread per node (CPU backend)";
  }
  // time the evaluations of the run proper, not those of a first-order start
  const bool firstOrder = op.first_order();
  op.set_first_order(false);
  double ms[2];
  const ComponentMapping m[2] = {ComponentMapping::PerEntity, ComponentMapping::Split};
  for (int i = 0; i < 2; ++i) {
    op.set_node_loop(m[i]);
    ms[i] = time_evaluations(op, U, 5);
  }
  op.set_first_order(firstOrder);
  const int best = ms[1] < ms[0] ? 1 : 0;
  op.set_node_loop(m[best]);
  std::ostringstream o;
  o << std::fixed << std::setprecision(3)
    << (best ? "one thread per (node, component)" : "one thread per node")
    << " (residual evaluation " << ms[best] << " ms against " << ms[1 - best] << " ms "
    << (best ? "per node" : "per (node, component)") << ")";
  return o.str();
}

} // namespace fv
