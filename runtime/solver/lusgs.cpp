#include "runtime/solver/lusgs.hpp"
#include "runtime/solver/state_model.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "runtime/solver/sweep_groups.hpp"

#include <algorithm>

namespace fv {

LusgsSettings lusgs_settings(const LusgsConfig& cfg, const FlowConfig& flow,
                             const SchemeConfig& scheme, const std::vector<PatchConfig>& patches) {
  LusgsSettings s;
  s.ordering = cfg.ordering;
  s.sweeps = cfg.sweeps;
  s.omega = cfg.omega;
  s.launch = cfg.launch;
  s.gamma = flow.gamma;
  s.boundaryJacobian = cfg.boundaryJacobian;
  s.roeDissipation = cfg.roeDissipation;
  s.viscous = visit_state_model(flow, [](auto m) { return decltype(m)::kViscous; });
  s.transport = flow.transport;
  for (const auto& p : patches)
    s.patches.push_back(p.params);
  // the implicit operator's Jacobians and Roe matrices: first order, the fix on every wave
  s.flux = scheme.flux.first_order().with_entropy_fix_on_all_waves();
  return s;
}

LusgsSettings lusgs_settings(const CaseConfig& cfg) {
  return lusgs_settings(cfg.lusgs, cfg.flow, cfg.scheme, cfg.patches);
}

const char* to_string(LusgsOrdering o) {
  return enum_name(kLusgsOrderingNames, o);
}

const char* to_string(LusgsLaunch m) {
  return enum_name(kLusgsLaunchNames, m);
}

LusgsSolver::LusgsSolver(const Zone& zone, const ZoneView& view, const LusgsSettings& s,
                         const Csr* groups, const kernels::PatchView* patches)
    : zone_(zone), view_(view), s_(s),
      forward_("lusgs forward sweep", s.launch == LusgsLaunch::Graph ? KernelSequence::Mode::Graph
                                                                     : KernelSequence::Mode::Plain),
      backward_("lusgs backward sweep", s.launch == LusgsLaunch::Graph
                                            ? KernelSequence::Mode::Graph
                                            : KernelSequence::Mode::Plain) {
  FV_VERIFY_USAGE(s_.sweeps >= 1, "lusgs_sweeps must be >= 1 (got " << s_.sweeps << ")");
  FV_VERIFY_USAGE(s_.omega >= 1.0, "lusgs_omega must be >= 1 (got " << s_.omega << ")");
  const idx_t n = zone.nCells, nt = zone.nTotalCells();
  std::vector<idx_t> rank;
  if (s_.ordering == LusgsOrdering::Natural && !groups) {
    FV_VERIFY_USAGE(active_device() == Device::Cpu,
                    "lusgs_ordering = natural is the sequential CPU reference; on the GPU use "
                    "hyperplane or colour");
    // the sequential sweep the hyperplanes parallelise: group by group (cell order unless the
    // zone's sweep follows a wavefront order, prep/zone_builder.cpp)
    rank = sequential_sweep_ranks(zone);
    nGroups_ = n;
    bool cellOrder = true;
    for (idx_t c = 0; c < n && cellOrder; ++c)
      cellOrder = rank[c] == c;
    if (!cellOrder) { // a wavefront sweep: one cell per group, in its order
      std::vector<idx_t> order(static_cast<std::size_t>(n));
      for (idx_t c = 0; c < n; ++c)
        order[rank[c]] = c;
      groupOffsets_.resize(static_cast<std::size_t>(n) + 1);
      for (idx_t g = 0; g <= n; ++g)
        groupOffsets_[g] = g;
      groupOffsetsDevice_ = DeviceArray<idx_t>(groupOffsets_, "lusgs group offsets");
      groupCells_ = DeviceArray<idx_t>(order, "lusgs group cells");
    }
  } else {
    const Csr& g =
        groups ? *groups
               : (s_.ordering == LusgsOrdering::Colour ? zone.cellColours : zone.hyperplanes);
    const char* what =
        groups ? "given groups"
               : (s_.ordering == LusgsOrdering::Colour ? "order/cellColours" : "order/hyperplanes");
    rank = sweep_group_ranks(zone, g, what);
    nGroups_ = g.rows();
    groupOffsets_.assign(g.offsets().data(), g.offsets().data() + g.offsets().size());
    groupOffsetsDevice_ = DeviceArray<idx_t>(g.offsets(), "lusgs group offsets");
    groupCells_ = DeviceArray<idx_t>(g.indices(), "lusgs group cells");
    if (s_.ordering == LusgsOrdering::Natural) {
      // given groups with the natural ordering: must be the identity order
      for (idx_t c = 0; c < n; ++c)
        FV_VERIFY(rank[c] == c, "natural ordering needs one cell per group in cell order");
    }
  }
  neighbours_ = kernels::SweepNeighbours(zone, rank);
  lambda_ = DeviceArray<real_t>(static_cast<std::size_t>(zone.nFaces), "lusgs face radius");
  D_ = DeviceArray<real_t>(static_cast<std::size_t>(n), "lusgs diagonal");
  dU_ = DeviceArray<real_t>(phys::kNumEq * static_cast<std::size_t>(nt), "lusgs dU");
  lower_ = DeviceArray<real_t>(phys::kNumEq * static_cast<std::size_t>(n), "lusgs lower sums");
  upper_ = DeviceArray<real_t>(phys::kNumEq * static_cast<std::size_t>(n), "lusgs upper sums");
  if (s_.boundaryJacobian) {
    if (!patches) {
      FV_VERIFY(static_cast<idx_t>(s_.patches.size()) == zone.nPatches(),
                "LU-SGS boundary Jacobian: settings hold "
                    << s_.patches.size() << " patch conditions, zone " << zone.zoneId << " has "
                    << zone.nPatches() << " patches");
      ownPatches_ = kernels::PatchTable(
          std::vector<idx_t>(zone.patchFaceOffsets.begin(), zone.patchFaceOffsets.end()),
          s_.patches);
    }
    FV_VERIFY(!patches || patches->nPatches == zone.nPatches(),
              "LU-SGS boundary Jacobian: the patch table has "
                  << patches->nPatches << " patches, zone " << zone.zoneId << " has "
                  << zone.nPatches());
    std::vector<idx_t> blockOf(static_cast<std::size_t>(n), -1), blockCells;
    if (s_.roeDissipation) { // every owned cell
      for (idx_t c = 0; c < n; ++c) {
        blockOf[c] = c;
        blockCells.push_back(c);
      }
    } else {
      for (idx_t f = 0; f < zone.nBoundaryFaces; ++f) {
        const idx_t c = zone.faceOwner[f];
        if (c < n && blockOf[c] < 0) {
          blockOf[c] = static_cast<idx_t>(blockCells.size());
          blockCells.push_back(c);
        }
      }
    }
    blockCells_ = DeviceArray<idx_t>(blockCells, "lusgs block cells");
    blockOf_ = DeviceArray<idx_t>(blockOf, "lusgs block of cell");
    Dinv_ =
        DeviceArray<real_t>(phys::kBlockSize * blockCells.size(), "lusgs inverse block diagonals");
    boundary_.nBlocks = static_cast<idx_t>(blockCells.size());
    boundary_.blockCells = blockCells_.data();
    boundary_.patches = patches ? *patches : ownPatches_.view();
    boundary_.flux = s_.flux;
    boundary_.roe = s_.roeDissipation;
    boundary_.omega = s_.omega;
    fields_.blockOf = blockOf_.data();
    fields_.Dinv = Dinv_.data();
  }
  FV_VERIFY_USAGE(!s_.roeDissipation || s_.boundaryJacobian,
                  "lusgs_dissipation = roe needs lusgs_boundary = jacobian");
  fields_.roe = s_.roeDissipation;
  fields_.entropyFix = s_.flux.entropyFix;
  fields_.gamma = s_.gamma;
  fields_.omega = s_.omega;
  fields_.D = D_.data();
  fields_.lambda = lambda_.data();
  neighbours_.attach(fields_);
  fields_.dU = dU_.data();
  fields_.lower = lower_.data();
  fields_.upper = upper_.data();
  idx_t largest = nGroups_ > 0 ? 1 : 0;
  for (std::size_t g = 0; g + 1 < groupOffsets_.size(); ++g)
    largest = std::max(largest, groupOffsets_[g + 1] - groupOffsets_[g]);
  FV_LOG_INFO("  LU-SGS: " << to_string(s_.ordering) << " ordering, " << nGroups_ << " groups of "
                           << (nGroups_ ? n / nGroups_ : 0) << " cells on average (largest "
                           << largest << "), " << s_.sweeps << " sweep(s), omega " << s_.omega
                           << ", "
                           << (s_.boundaryJacobian ? "boundary Jacobian blocks"
                                                   : "scalar boundary diagonal")
                           << ", " << launch_description());
}

LusgsSolver::~LusgsSolver() = default;

std::string LusgsSolver::launch_description() const {
  if (groupOffsets_.empty()) return "sequential sweep";
  if (active_device() != Device::Cuda)
    return "one OpenMP region per sweep (groups below the OpenMP threshold on one thread)";
  switch (s_.launch) {
  case LusgsLaunch::Persistent:
    return "persistent cooperative kernel per sweep (grid.sync between groups)";
  case LusgsLaunch::Hybrid:
    return "persistent cooperative kernel per sweep, small groups by one block";
  case LusgsLaunch::Graph:
    return "one launch per group, replayed as a CUDA graph";
  case LusgsLaunch::Plain:
    return "one launch per group";
  }
  return "?";
}

void LusgsSolver::sweep(bool forward) {
  const ZoneView& z = view_;
  const kernels::LusgsFields f = fields_;
  if (groupOffsets_.empty()) { // natural: sequential on one thread
    kernels::lusgs_sweep_sequential(z, f, forward);
    return;
  }
  const idx_t* cells = groupCells_.data();
  const GroupSchedule sched{nGroups_, groupOffsets_.data(), groupOffsetsDevice_.data()};
  GroupLaunch mode = GroupLaunch::PerGroup;
  if (s_.launch == LusgsLaunch::Persistent) mode = GroupLaunch::Persistent;
  if (s_.launch == LusgsLaunch::Hybrid) mode = GroupLaunch::Hybrid;
  // graph: the per-group launches of the whole sweep are captured once and replayed; the
  // persistent modes are a single launch per sweep already (run() just calls record)
  (forward ? forward_ : backward_).run([&, forward] {
    kernels::lusgs_sweep_groups(z, f, forward, cells, sched, mode);
  });
}

void LusgsSolver::solve(const real_t* W, const real_t* R, const real_t* dt, real_t dtGlobal,
                        const CellExchange& exchange) {
  const ZoneView& z = view_;
  if (W != fields_.W || R != fields_.R) { // other arrays: the recorded launches are stale
    fields_.W = W;
    fields_.R = R;
    forward_.reset();
    backward_.reset();
  }
  kernels::lusgs_face_radius(z, s_.gamma, W, !s_.boundaryJacobian, !s_.roeDissipation,
                             lambda_.data());
  if (s_.viscous) kernels::lusgs_viscous_radius(z, s_.transport, W, lambda_.data());
  kernels::lusgs_diagonal(z, s_.omega, dt, dtGlobal, lambda_.data(), D_.data());
  if (s_.boundaryJacobian) kernels::lusgs_boundary_blocks(z, boundary_, W, D_.data(), Dinv_.data());
  kernels::lusgs_zero(z.nTotalCells, z.nTotalCells, dU_.data());
  kernels::lusgs_zero(z.nCells, z.nCells, upper_.data());
  for (int k = 0; k < s_.sweeps; ++k) {
    sweep(true);
    if (exchange) exchange("lusgs dU*", dU_.data(), phys::kNumEq);
    sweep(false);
  }
}

void LusgsSolver::apply(real_t* U) const {
  kernels::lusgs_apply(view_, dU_.data(), U);
}

} // namespace fv
