#include "runtime/solver/spatial_operator.hpp"

#include "common/error.hpp"
#include "common/node_weights.hpp"
#include "runtime/kernels/reductions.hpp"
#include "runtime/parallel/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace fv {
namespace {
DeviceZone make_device_zone(const Zone& zone, const SchemeConfig& scheme,
                            backend::Communicator* comm) {
  if (scheme.order == 2 && scheme.nodeWeights == NodeWeights::LinearExact) {
    if (!zone.nodeCellWeightLinear.empty()) { // fvprep's, over all cells of each node
      const std::vector<real_t> w(zone.nodeCellWeightLinear.begin(),
                                  zone.nodeCellWeightLinear.end());
      return DeviceZone(zone, &w);
    }
    // a zone file written before fvprep stored them: computed here, with a node exchange
    NodeSum sum;
    if (comm)
      // the moments of all cells of a shared node: partial sums added over the zones (Sum mode)
      sum = [&zone, comm](std::vector<real_t>& field, int ncomp) {
        parallel::HaloExchange nodes(*comm, zone.nodeExchange, zone.nNodes, ncomp,
                                     parallel::HaloMode::Sum, "node weights");
        DeviceArray<real_t> d(field, "node moments");
        nodes.exchange({parallel::FieldView::blocked(d.data(), ncomp, zone.nNodes)});
        field = d.to_host();
      };
    const std::vector<real_t> w =
        linear_exact_node_weights(zone.nodeCells, zone.nodeCellWeight.data(), zone.nodeXyz.data(),
                                  zone.cellCentroid.data(), sum);
    return DeviceZone(zone, &w);
  }
  return DeviceZone(zone);
}

} // namespace

SpatialOperator::SpatialOperator(const Zone& zone, const CaseConfig& cfg, const ParallelSetup& par)
    : SpatialOperator(zone, cfg.flow, cfg.scheme, cfg.patches, par) {}

SpatialOperator::SpatialOperator(const Zone& zone, const FlowConfig& flow,
                                 const SchemeConfig& scheme,
                                 const std::vector<PatchConfig>& patches, const ParallelSetup& par)
    : zone_(zone), flow_(flow), scheme_(scheme), patchConfigs_(patches), par_(par),
      dz_(make_device_zone(zone, scheme, par.comm)), flux_settings_(scheme.flux),
      state_(StateModel::of(flow)), nv_(state_.nVars) {
  FV_VERIFY(static_cast<idx_t>(patchConfigs_.size()) == zone.nPatches(),
            "case has " << patchConfigs_.size() << " patches but the zone has " << zone.nPatches());
  FV_VERIFY(fits_kernel_indexing(zone.nTotalCells(), zone.nFaces, zone.nNodes, nv_),
            "zone " << zone.zoneId << " is too large for the kernels' 32-bit indexing with " << nv_
                    << " variables (" << zone.nTotalCells() << " cells, " << zone.nFaces
                    << " faces): prepare it in more parts (fvprep --parts)");
  FV_VERIFY(!flow_.rans() || !zone.cellWallDistance.empty(),
            "zone " << zone.zoneId
                    << " has no wall distance (cells/wallDistance), which [physics] model = "
                       "rans_sa needs: prepare the zone file again with fvprep, naming the "
                       "no-slip walls with --walls if their CGNS types do not say so");
  globalCells_ = zone.nCells;
  {
    std::vector<phys::BcParams> bcs;
    for (const PatchConfig& p : patchConfigs_)
      bcs.push_back(p.params);
    patches_ = kernels::PatchTable(
        std::vector<idx_t>(zone.patchFaceOffsets.begin(), zone.patchFaceOffsets.end()), bcs);
  }
  if (par_.comm) {
    globalCells_ = parallel::sum_all<gidx_t>(*par_.comm, zone.nCells);
    // one message per neighbour and exchange: at most grad (3 nVars) + phi (nVars) components
    cells_ =
        std::make_unique<parallel::HaloExchange>(*par_.comm, zone.cellExchange, zone.nTotalCells(),
                                                 4 * nv_, parallel::HaloMode::Copy, "cells");
    // node values (nVars) and the limiter's supersonic excess (1)
    nodes_ = std::make_unique<parallel::HaloExchange>(*par_.comm, zone.nodeExchange, zone.nNodes,
                                                      nv_ + 1, parallel::HaloMode::Sum, "nodes");
    cells_->set_timing(par_.commTiming);
    nodes_->set_timing(par_.commTiming);
  }
  const auto nv = static_cast<std::size_t>(nv_);
  const auto nt = static_cast<std::size_t>(zone.nTotalCells());
  W_ = DeviceArray<real_t>(nv * nt, "W");
  R_ = DeviceArray<real_t>(nv * nt, "R");
  flux_ = DeviceArray<real_t>(nv * static_cast<std::size_t>(zone.nFaces), "face flux");
  if (scheme_.mixedPrecision) dz_.add_single_geometry(); // the FP32 view of every face loop
  if (scheme_.order == 2 || flow_.viscous()) { // the viscous fluxes need gradients at any order
    Wn_ = DeviceArray<real_t>(nv * static_cast<std::size_t>(zone.nNodes), "node values");
    grad_ = DeviceArray<real_t>(3 * nv * nt, "gradients");
    phi_ = DeviceArray<real_t>(nv * nt, "limiter");
  }
  faceStatesOn_ = scheme_.faceStates;
  keepPhi_ = scheme_.freezes();
  if (scheme_.faceStates && scheme_.order == 2 && !flow_.viscous())
    faceStates_ = kernels::FaceStateArrays(
        zone, dz_.view(), nv_, scheme_.mixedPrecision ? &dz_.view_as<float>() : nullptr);
  if (scheme_.limited() && scheme_.limiterRegion == LimiterRegion::Supersonic)
    supersonic_ =
        DeviceArray<real_t>(static_cast<std::size_t>(zone.nNodes), "supersonic node excess");
  set_constant_limiter_scales();
}

void SpatialOperator::set_constant_limiter_scales() {
  // constant scales (venkat); venkat_wang's follow the solution (refresh_limiter_scales)
  const std::vector<real_t> q = state_.primitive_scales(flow_);
  const real_t global =
      scheme_.venkatLength > 0 ? std::pow(scheme_.venkatK * scheme_.venkatLength, 1.5) : 1;
  for (int k = 0; k < nv_; ++k)
    scales_.s[k] = global * q[k];
  scales_.cellSize = scheme_.limiter == kernels::Limiter::Venkat && !(scheme_.venkatLength > 0);
}

void SpatialOperator::set_conditions(const FlowConfig& flow,
                                     const std::vector<PatchConfig>& patches) {
  FV_VERIFY(flow.model == flow_.model && flow.gamma == flow_.gamma,
            "set_conditions: the model and the gas of a live solver cannot change");
  FV_VERIFY(patches.size() == patchConfigs_.size(),
            "set_conditions: " << patches.size() << " patches, the zone has "
                               << patchConfigs_.size());
  std::vector<phys::BcParams> bcs;
  for (std::size_t p = 0; p < patches.size(); ++p) {
    FV_VERIFY(patches[p].name == patchConfigs_[p].name &&
                  patches[p].params.type == patchConfigs_[p].params.type,
              "set_conditions: patch " << patches[p].name << " changed its name or type");
    bcs.push_back(patches[p].params);
  }
  flow_ = flow;
  patchConfigs_ = patches;
  patches_.set_params(bcs); // the residual's, LU-SGS's and the preconditioner's table
  set_constant_limiter_scales();
  // nothing of an evaluation under the former conditions is reused
  limiterFrozen_ = phiValid_ = gradValid_ = regionValid_ = false;
  primitivesOf_ = nullptr;
}

SpatialOperator::~SpatialOperator() = default;

CommTimes SpatialOperator::comm_times() const {
  CommTimes t;
  for (const auto* h : {cells_.get(), nodes_.get()})
    if (h) {
      t.pack += h->timings().pack;
      t.wait += h->timings().wait;
      t.unpack += h->timings().unpack;
      t.exchanges += h->timings().exchanges;
    }
  return t;
}

void SpatialOperator::reset_comm_times() {
  for (auto* h : {cells_.get(), nodes_.get()})
    if (h) h->reset_timings();
}

void SpatialOperator::halo_begin(parallel::HaloExchange* h,
                                 const std::vector<parallel::FieldView>& f) {
  if (!h) return;
  h->begin(f);
  if (!par_.overlap) h->finish();
}

void SpatialOperator::begin_gradient_exchange() {
  const idx_t nt = zone_.nTotalCells();
  halo_begin(cells_.get(), {parallel::FieldView::blocked(grad_.data(), 3 * nv_, nt),
                            parallel::FieldView::blocked(phi_.data(), nv_, nt)});
}

void SpatialOperator::halo_progress(parallel::HaloExchange* h) {
  // Open MPI moves large (rendezvous) messages only inside MPI calls
  if (h && h->in_flight()) h->progress();
}

void SpatialOperator::halo_finish(parallel::HaloExchange* h) {
  if (h && h->in_flight()) h->finish();
}

void SpatialOperator::hook(const char* what, DeviceArray<real_t>& field, int ncomp) {
  if (hook_) hook_(what, field.data(), ncomp);
}

void SpatialOperator::exchange_cells(const char* what, real_t* field, int ncomp) {
  if (hook_) {
    hook_(what, field, ncomp);
    return;
  }
  if (!cells_) return;
  cells_->begin({parallel::FieldView::blocked(field, ncomp, zone_.nTotalCells())});
  cells_->finish();
}

void SpatialOperator::primitives(const real_t* U) {
  primitivesOf_ = nullptr;
  const ZoneView& z = dz_.view();
  visit_state_model(flow_, [&](auto m) {
    kernels::primitives<phys::ConvectiveModelOf<decltype(m)>>(z.nCells, z.nTotalCells, flow_.gamma,
                                                              U, W_.data());
  });
  if (cells_) {
    cells_->begin({parallel::FieldView::blocked(W_.data(), nv_, z.nTotalCells)});
    cells_->finish();
  }
  hook("primitives", W_, nv_);
}

PendingReduce SpatialOperator::local_time_step_async(real_t cfl, real_t* dt,
                                                     backend::ReduceSlot& slot) {
  const ZoneView& z = dz_.view();
  visit_state_model(flow_, [&](auto m) {
    using M = decltype(m);
    if constexpr (M::kViscous)
      kernels::viscous_time_step<M>(z, flow_.transport, cfl, W_.data(), dt);
    else
      kernels::local_time_step(z, flow_.gamma, cfl, W_.data(), dt);
  });
  return kernels::min_value_async(slot, z.nCells, dt);
}

real_t SpatialOperator::min_time_step(const PendingReduce& p) const {
  real_t m[1];
  p.get(m);
  if (par_.comm) m[0] = parallel::min_all(*par_.comm, m[0]);
  return m[0];
}

real_t SpatialOperator::local_time_step(real_t cfl, real_t* dt) {
  return min_time_step(local_time_step_async(cfl, dt, backend::default_reduce_slot()));
}

void SpatialOperator::refresh_limiter_scales() {
  if (scheme_.limiter != kernels::Limiter::VenkatWang || scheme_.order != 2) return;
  std::vector<real_t> lo(nv_), hi(nv_);
  visit_state_model(flow_, [&](auto m) {
    constexpr int N = decltype(m)::kNumVars;
    real_t l[N], h[N];
    kernels::primitive_range<N>(dz_.view(), W_.data(), l, h);
    lo.assign(l, l + N);
    hi.assign(h, h + N);
  });
  if (par_.comm) {
    parallel::min_all(*par_.comm, lo);
    parallel::max_all(*par_.comm, hi);
  }
  // a uniform variable (e.g. w of a 2D flow) has no range: a tiny floor of its free-stream
  // magnitude keeps epsilon positive without limiting anything
  const std::vector<real_t> q = state_.primitive_scales(flow_);
  for (int k = 0; k < nv_; ++k)
    scales_.s[k] = scheme_.venkatWangK * std::max(hi[k] - lo[k], 1e-8 * q[k]);
}

void SpatialOperator::check_non_gather_assembly(const std::string& name) const {
  FV_VERIFY(!scheme_.mixedPrecision,
            "the residual assembly " << name << " reads FP64 geometry; precision = mixed gathers");
  FV_VERIFY(!cells_ && !hook_, "the residual assembly " << name << " is for a single zone");
  FV_VERIFY(!flow_.viscous(), "the residual assembly " << name << " is for the Euler model");
}

void SpatialOperator::set_assembly(kernels::ResidualAssembly a) {
  if (a != kernels::ResidualAssembly::Gather) check_non_gather_assembly(kernels::to_string(a));
  assembly_ = a;
  interiorAssembly_ = nullptr;
  interiorAssemblyName_.clear();
}

void SpatialOperator::set_interior_assembly(const std::string& name, InteriorAssembly a) {
  if (a) check_non_gather_assembly(name);
  interiorAssembly_ = std::move(a);
  interiorAssemblyName_ = interiorAssembly_ ? name : std::string();
}

std::string SpatialOperator::assembly_name() const {
  return interiorAssembly_ ? interiorAssemblyName_ : std::string(kernels::to_string(assembly_));
}

template <class M, class G>
void SpatialOperator::face_fluxes(bool split) {
  using C = phys::ConvectiveModelOf<M>; // the instantiation of the convective kernels
  const ZoneViewT<G>& z = dz_.view_as<G>();
  const kernels::FluxSettings& fs = flux_settings_;
  const real_t* grad = grad_.data();
  const real_t* phi = phi_.data();
  // the boundary faces (owned cells only: no halo value) on the side stream, beside the
  // interior faces; the flux entries they write are disjoint, so the order does not matter
  boundarySide_.wait_for_compute();
  boundarySide_.launch([&] {
    kernels::boundary_fluxes<C>(z, patches_.view(), fs, W_.data(), grad, phi, flux_.data());
  });
  if constexpr (std::is_same_v<G, real_t>)
    if (!gathers()) { // smem or an interior assembly (one zone, Euler: checked when set)
      boundarySide_.compute_waits(); // its sum reads the boundary fluxes
      if (interiorAssembly_) {
        interiorAssembly_(z, fs, W_.data(), grad, phi, flux_.data(), R_.data());
      } else {
        kernels::interior_fluxes<C>(z, fs, W_.data(), grad, phi, flux_.data());
        kernels::flux_sum_shared(z, flux_.data(), R_.data());
      }
      return;
    }
  halo_progress(cells_.get());
  kernels::interior_fluxes<C>(z, fs, W_.data(), grad, phi, flux_.data(),
                              split ? kernels::FaceSet::OwnedOnly : kernels::FaceSet::All);
  halo_progress(cells_.get());
  halo_finish(cells_.get());
  // interface faces after the halo values arrived
  if (split)
    kernels::interior_fluxes<C>(z, fs, W_.data(), grad, phi, flux_.data(),
                                kernels::FaceSet::InterfaceOnly);
  boundarySide_.compute_waits(); // the flux sum (and the viscous fluxes) read them
  if constexpr (M::kViscous) viscous_fluxes<M>();
}

bool SpatialOperator::stores_face_states() const {
  // allocated for second-order inviscid cases (the constructor)
  return faceStatesOn_ && !faceStates_.empty() && !hook_ && gathers();
}

template <class M, class G>
void SpatialOperator::state_face_fluxes(bool split) {
  using C = phys::ConvectiveModelOf<M>;
  const ZoneView& z = dz_.view();
  const kernels::FluxSettings& fs = flux_settings_;
  boundarySide_.wait_for_compute();
  boundarySide_.launch([&] {
    kernels::boundary_state_fluxes<C>(z, patches_.view(), fs, faceStates_.view(), flux_.data());
  });
  halo_progress(cells_.get());
  kernels::interior_state_fluxes<C>(z, fs, faceStates_.view(), flux_.data(),
                                    split ? kernels::FaceSet::OwnedOnly : kernels::FaceSet::All);
  halo_progress(cells_.get());
  halo_finish(cells_.get());
  // interface faces after the halo cells' gradients and limiters arrived
  if (split)
    kernels::interface_state_fluxes<C>(dz_.view_as<G>(), fs, faceStates_.view(), W_.data(),
                                       grad_.data(), phi_.data(), flux_.data());
  boundarySide_.compute_waits(); // the flux sum reads them
}

void SpatialOperator::wall_viscous_data(real_t* out) const {
  FV_VERIFY(flow_.viscous(), "wall viscous data need the Navier-Stokes model");
  const ZoneView& z = dz_.view();
  kernels::wall_viscous_data(z, patches_.view(), flow_.transport, W_.data(), grad_.data(), out);
}

template <class M>
void SpatialOperator::viscous_fluxes() {
  const ZoneView& z = dz_.view();
  kernels::viscous_boundary_fluxes<M>(z, patches_.view(), flow_.transport, W_.data(), grad_.data(),
                                      flux_.data());
  kernels::viscous_interior_fluxes<M>(z, flow_.transport, W_.data(), grad_.data(), flux_.data());
}

void SpatialOperator::evaluate(const real_t* U, bool refreshLimiterScales) {
  visit_state_model(flow_, [&](auto m) {
    if (scheme_.mixedPrecision)
      evaluate_model<decltype(m), float>(U, refreshLimiterScales, nullptr);
    else
      evaluate_model<decltype(m), real_t>(U, refreshLimiterScales, nullptr);
  });
}

void SpatialOperator::evaluate_and_update(const RkUpdate& u) {
  visit_state_model(flow_, [&](auto m) {
    if (scheme_.mixedPrecision)
      evaluate_model<decltype(m), float>(u.U, false, &u);
    else
      evaluate_model<decltype(m), real_t>(u.U, false, &u);
  });
}

void SpatialOperator::update(const RkUpdate& u) {
  visit_state_model(flow_, [&](auto m) { apply_update<decltype(m)>(u); });
}

template <class M>
void SpatialOperator::apply_update(const RkUpdate& u) {
  const ZoneView& z = dz_.view();
  primitivesOf_ = nullptr;
  if (u.storePrimitives) {
    kernels::rk_stage_primitives<phys::ConvectiveModelOf<M>>(z, u.a, u.b, u.beta, u.dt, u.dtGlobal,
                                                             u.U0, u.U, R_.data(), u.Unew,
                                                             flow_.gamma, W_.data());
    primitivesOf_ = u.Unew;
  } else {
    kernels::rk_stage<M::kNumVars>(z, u.a, u.b, u.beta, u.dt, u.dtGlobal, u.U0, u.U, R_.data(),
                                   u.Unew);
  }
}

template <class M>
void SpatialOperator::finish_residual(const RkUpdate* u) {
  constexpr int N = M::kNumVars;
  const ZoneView& z = dz_.view();
  const bool gather = gathers();
  if (u && gather && !M::kSource && source_.empty()) { // R only feeds the update: not stored
    if (u->storePrimitives) {
      kernels::flux_sum_rk_primitives<phys::ConvectiveModelOf<M>>(
          z, flux_.data(), u->a, u->b, u->beta, u->dt, u->dtGlobal, u->U0, u->U, u->Unew,
          flow_.gamma, W_.data());
      primitivesOf_ = u->Unew;
    } else {
      kernels::flux_sum_rk_stage<N>(z, flux_.data(), u->a, u->b, u->beta, u->dt, u->dtGlobal, u->U0,
                                    u->U, u->Unew);
    }
    return;
  }
  if (gather) kernels::flux_sum<N>(z, flux_.data(), R_.data());
  if constexpr (M::kSource)
    kernels::source_term<M>(z, flow_.transport, W_.data(), grad_.data(), R_.data());
  if (!source_.empty()) kernels::subtract_source<N>(z, source_.data(), R_.data());
  if (u) apply_update<M>(*u);
}

template <class M, class G>
void SpatialOperator::evaluate_model(const real_t* U, bool refreshLimiterScales,
                                     const RkUpdate* update) {
  using parallel::FieldView;
  constexpr int kNumVars = M::kNumVars;
  const ZoneView& z = dz_.view();
  const ZoneViewT<G>& zg = dz_.view_as<G>(); // the reconstruction's geometry
  real_t* const grad = grad_.data();
  real_t* const phi = phi_.data();
  const idx_t nt = z.nTotalCells;
  const bool split = cells_ != nullptr;

  // 1. primitives of owned cells (unless the update that wrote U stored them:
  //    RkUpdate::storePrimitives); halo cells' through the cell exchange
  if (U != primitivesOf_)
    kernels::primitives<phys::ConvectiveModelOf<M>>(z.nCells, nt, flow_.gamma, U, W_.data());
  primitivesOf_ = nullptr;
  if (refreshLimiterScales) refresh_limiter_scales(); // owned cells' W suffice
  halo_begin(cells_.get(), {FieldView::blocked(W_.data(), kNumVars, nt)});
  if (!flux_settings_.secondOrder && !M::kViscous) {
    hook("primitives", W_,
         kNumVars); // the optional hook fills halo values before any face uses them
    face_fluxes<M, G>(split);
    finish_residual<M>(update);
    return;
  }
  // 2. cell -> node interpolation: owned cells' contributions (needs no halo value), then the
  //    partial sums of the other zones sharing a node are added (node exchange, Sum)
  //    (with the limiter's supersonic excess per node at the first evaluation of an iteration:
  //    like Wang's scales, the region stays put through the iteration's Jacobian-free products,
  //    which a cell switching on or off between U and U + eps v would wreck)
  const bool computePhi = flux_settings_.secondOrder && !(limiterFrozen_ && phiValid_);
  const bool region = computePhi && !supersonic_.empty();
  const bool newRegion = region && (refreshLimiterScales || !regionValid_);
  kernels::interpolate_to_nodes<kNumVars>(zg, W_.data(), Wn_.data(), nodeLoop_);
  if (newRegion)
    kernels::supersonic_node_excess<kNumVars>(z, flow_.gamma, W_.data(), supersonic_.data());
  halo_progress(cells_.get());
  halo_finish(cells_.get());
  hook("primitives", W_, kNumVars);
  if (newRegion)
    halo_begin(nodes_.get(), {FieldView::blocked(Wn_.data(), kNumVars, z.nNodes),
                              FieldView::blocked(supersonic_.data(), 1, z.nNodes)});
  else
    halo_begin(nodes_.get(), {FieldView::blocked(Wn_.data(), kNumVars, z.nNodes)});
  halo_progress(nodes_.get());
  halo_finish(nodes_.get());
  regionValid_ = regionValid_ || newRegion;
  // 3. node-averaged Green-Gauss gradients and the limiter of owned cells (with the local
  //    extrema over face neighbours: halo W is there)
  if (computePhi && stores_face_states()) { // the gradient has no reader but the face loops
    // phi of every cell only where a frozen limiter may be asked for (it has no other reader);
    // with neighbours, grad and phi of the interface cells, whose neighbours reconstruct their
    // side of the interface faces from them
    const bool keepPhi = keepPhi_ || limiterFrozen_;
    kernels::gradient_limiter_states<kNumVars>(
        zg, Wn_.data(), scheme_.limiter, scheme_.venkatK, scales_, W_.data(),
        region ? supersonic_.data() : nullptr,
        {grad, phi, keepPhi, split ? zone_.nInteriorCells : z.nCells}, faceStates_.view());
    phiValid_ = keepPhi;
    gradValid_ = false;
    begin_gradient_exchange();
    state_face_fluxes<M, G>(split);
    finish_residual<M>(update);
    return;
  }
  gradValid_ = true;
  if (computePhi) { // one pass: the gradient stays in registers for the limiter
    kernels::gradient_and_limiter<kNumVars>(zg, Wn_.data(), scheme_.limiter, scheme_.venkatK,
                                            scales_, W_.data(),
                                            region ? supersonic_.data() : nullptr, grad, phi);
    hook("gradients", grad_, 3 * kNumVars);
    hook("limiter", phi_, kNumVars);
    phiValid_ = true;
  } else {
    kernels::green_gauss_gradient<kNumVars>(zg, Wn_.data(), grad);
    hook("gradients", grad_, 3 * kNumVars);
  }
  // 4. gradients and limiters of halo cells in one message: interface faces then reconstruct
  //    from exactly the values the owning zone computed
  begin_gradient_exchange();
  face_fluxes<M, G>(split);
  // 5. flux summation per cell (deterministic gather; smem or an interior assembly summed
  //    already), the model's volume sources, the fixed source
  finish_residual<M>(update);
}

void SpatialOperator::set_source(const std::vector<real_t>& Q) {
  if (Q.empty()) {
    source_ = DeviceArray<real_t>();
    return;
  }
  FV_VERIFY(Q.size() == static_cast<std::size_t>(nv_) * zone_.nTotalCells(),
            "source: " << Q.size() << " values for " << zone_.nTotalCells() << " cells x " << nv_);
  source_ = DeviceArray<real_t>(Q, "source");
}

} // namespace fv
