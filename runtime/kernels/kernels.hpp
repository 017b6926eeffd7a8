#pragma once
/// \file kernels.hpp
/// The solver's kernels. Each is one fv::forall loop over cells, faces or nodes of a zone
/// (the papers' mesh loop modes), running on the active device; all pointers are device
/// pointers (DeviceArray::data()). Field layout is structure-of-arrays: component k of entity
/// i of a field with n entities is at [k * n + i]; gradients of component k along axis d are
/// component 3k + d. Cell fields have nTotalCells entries (halo cells after an exchange).
///
/// Every result is written by exactly one thread (cell loops gather over cellFaces with
/// cellFaceSign, node loops over nodeCells): no atomics, deterministic on every backend.
#include "common/enum_names.hpp"
#include "common/error.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/patch_table.hpp"
#include "runtime/kernels/zone_view.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/physics/navier_stokes/transport.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace fv::kernels {

/// The field widths (models' variable counts) the width-templated kernels are compiled for:
/// FV_FOR_EACH_FIELD_WIDTH(X) expands X(N) for each. A model with another count adds it here.
#define FV_FOR_EACH_FIELD_WIDTH(X) X(phys::kNumEq) X(phys::SaModel::kNumVars)

/// The models the model-templated kernels are compiled for (physics/model.hpp), by the terms
/// the kernels read; FV_FOR_EACH_*_MODEL(X) expands X(M) for each. The solver picks the model at
/// run time (solver/state_model.hpp) and calls each kernel with the model, or for the convective
/// kernels with phys::ConvectiveModelOf<M>.
///   STATE       every model: the kernels that read several terms (the block Jacobian)
///   CONVECTIVE  one model per distinct state, convective and boundary terms: the face fluxes,
///               the primitives and the Runge-Kutta stages that store them (Navier-Stokes runs
///               Euler's)
///   VISCOUS     the models with a viscous term (M::kViscous): the viscous fluxes and time step
///   SOURCE      the models with a source term (M::kSource): the volume sources
#define FV_FOR_EACH_STATE_MODEL(X) X(phys::EulerModel) X(phys::NavierStokesModel) X(phys::SaModel)
#define FV_FOR_EACH_CONVECTIVE_MODEL(X) X(phys::EulerModel) X(phys::SaModel)
#define FV_FOR_EACH_VISCOUS_MODEL(X) X(phys::NavierStokesModel) X(phys::SaModel)
#define FV_FOR_EACH_SOURCE_MODEL(X) X(phys::SaModel)

/// The precisions G of the geometry (ZoneViewT<G>) that the reconstruction kernels
/// (interpolate_to_nodes, the gradient, the gradient + limiter pass, the face fluxes) are
/// compiled for: FP64 (real_t, every run) and FP32 ([scheme] precision = mixed; the state, node
/// values, gradients, limiter, fluxes and residual stay FP64, and all arithmetic is FP64).
/// FV_FOR_EACH_PRECISION(X, A) expands X(A, G) for each (A: the other template argument of the
/// instantiation, a width or a state model).
#define FV_FOR_EACH_PRECISION(X, A) X(A, real_t) X(A, float)

/// Calls f(std::integral_constant<int, N>{}) for the compiled field width N == nv (host code:
/// the run-time width of the solver's vectors to a width-templated kernel); an fv::Error for a
/// width FV_FOR_EACH_FIELD_WIDTH does not list.
template <class F>
void with_field_width(int nv, F&& f) {
  bool done = false;
#define FV_WIDTH_CASE(W)                                                                           \
  if (nv == (W)) {                                                                                 \
    f(std::integral_constant<int, (W)>{});                                                         \
    done = true;                                                                                   \
  }
  FV_FOR_EACH_FIELD_WIDTH(FV_WIDTH_CASE)
#undef FV_WIDTH_CASE
  FV_VERIFY(done, "no kernels are compiled for fields of " << nv << " components");
}

/// out[i] = in[i] rounded to the nearest FP32 value, for i < n (the same rounding on every
/// backend).
void round_to_single(std::size_t n, const real_t* in, float* out);

/// Cell loop: the node slots of a zone whose shape has them (ZoneViewCommon::cellLocalNodes,
/// cellFaceNodeSlots; kSlotNodes, kernels/cell_shape.hpp: tetrahedra, hexahedra) from its
/// cellFaces and faceNodes: `nodes` (U per owned cell) and `slots` (one per cellFaces entry).
/// False, the arrays unusable, for other zones and when a cell has other than U distinct
/// nodes.
bool node_slots(const ZoneViewCommon& z, idx_t* nodes, std::uint16_t* slots);

/// W = Model::to_primitive(U) for cells [0, n); layout with stride `stride` (= nTotalCells).
template <class Model>
void primitives(idx_t n, idx_t stride, real_t gamma, const real_t* U, real_t* W);

/// Node loop: Wn[k][node] = sum over nodeCells of weight * W[k][cell] (inverse distance), for
/// the N components of W (weights of precision G, sums in FP64). `m`: one thread per node or
/// per (node, component) (fv::forall_components; the same sums either way).
template <int N, class G>
void interpolate_to_nodes(const ZoneViewT<G>& z, const real_t* W, real_t* Wn,
                          ComponentMapping m = ComponentMapping::ByDevice);

/// Cell loop: node-averaged Green-Gauss gradient of the N node fields of owned cells (3N
/// components): face value = mean of its nodes' values; grad = sum_faces sign * value * S / V.
template <int N, class G>
void green_gauss_gradient(const ZoneViewT<G>& z, const real_t* Wn, real_t* grad);

/// Limiter kinds of limiter() ([scheme] limiter). Venkat and VenkatWang are the same
/// function of the cell's extrema; they differ in the epsilon's scales (LimiterScales: the cell
/// size and the free stream for Venkat, the global range of each variable for VenkatWang, which
/// the solver refreshes).
enum class Limiter { None = 0, Venkat = 1, Barth = 2, VenkatWang = 3 };

/// The case-file names of the limiters, in the order messages and documentation list them.
inline constexpr EnumName<Limiter> kLimiterNames[] = {{Limiter::Venkat, "venkat"},
                                                      {Limiter::Barth, "barth"},
                                                      {Limiter::None, "none"},
                                                      {Limiter::VenkatWang, "venkat_wang"}};

/// True for the limiters of Venkatakrishnan's function (Venkat, VenkatWang).
FV_HOST_DEVICE constexpr bool is_venkat(Limiter k) {
  return k == Limiter::Venkat || k == Limiter::VenkatWang;
}

/// Venkatakrishnan's epsilon per primitive (rho, u, v, w, p): eps_k^2 = (K dx)^3 * s_k^2 with
/// dx = V^(1/3) of the cell when cellSize (the classical form; s_k a reference magnitude of
/// the variable that makes it dimensionally consistent), eps_k^2 = s_k^2 when not (a global
/// scale: venkat with venkat_length L, s_k = (K L)^(3/2) q_ref,k; venkat_wang, s_k = K times
/// the global range of the variable). Ignored by the other limiters.
struct LimiterScales {
  real_t s[phys::kMaxVars] = {1, 1, 1, 1, 1, 1, 1, 1}; ///< per component (the first N used)
  bool cellSize = true;
};

/// Node loop: excess[node] = sum over the zone's owned cells around the node of
/// max(M - 1, 0), M = |u| / c the cell's local Mach number (W: primitives rho, u, v, w, p
/// first). Partial per zone: the node exchange (Sum) completes it. Positive exactly where a
/// cell of the node's full stencil is supersonic.
template <int N>
void supersonic_node_excess(const ZoneView& z, real_t gamma, const real_t* W, real_t* excess);

/// Cell loop: limiter phi[k][cell] in [0, 1] (min over the cell's faces) for each of the N
/// components, from the extrema of W over the cell and its face neighbours (cellCells; halo W
/// must be in place). With supersonicNodes (supersonic_node_excess, exchanged), only cells with
/// a node where it is positive, i.e. whose gradient stencil holds supersonic flow, are limited
/// (phi = 1 elsewhere); nullptr limits every cell.
template <int N>
void limiter(const ZoneView& z, Limiter kind, real_t venkatK, const LimiterScales& scales,
             const real_t* W, const real_t* grad, const real_t* supersonicNodes, real_t* phi);

/// Cell loop: green_gauss_gradient and limiter of each owned cell in one pass (the gradient
/// stays in registers for the limiter instead of being read back): grad and phi as the two
/// kernels write them, bitwise. Needs the complete node values Wn and halo W in place.
template <int N, class G>
void gradient_and_limiter(const ZoneViewT<G>& z, const real_t* Wn, Limiter kind, real_t venkatK,
                          const LimiterScales& scales, const real_t* W,
                          const real_t* supersonicNodes, real_t* grad, real_t* phi);

/// The face states of gradient_limiter_states: the reconstructed primitives of every owned
/// cell at each of its faces, N values per cellFaces entry (a slot: detail::face_state_slot()),
/// and per face the slots of its two sides. Device memory, owned by the caller.
struct FaceStateStore {
  real_t* values = nullptr;         ///< N x nSlots, component k of slot i at [k nSlots + i]
  const idx_t* faceSlots = nullptr; ///< 2 per face: the owner's slot, the neighbour's (-1 on
                                    ///< boundary faces, unset on interface faces: a halo
                                    ///< cell has none); face_state_slots() fills it
  idx_t nSlots = 0;                 ///< cellFaces entries of the owned cells
  /// The face geometry gradient_limiter_states reads, copied into slot order on zones of one
  /// cell shape (has_slot_geometry(); face_state_geometry() fills them), so that the threads of
  /// consecutive cells load consecutive values instead of each a sector of its own through the
  /// face number. Null: the pass reads the face arrays through cellFaces and cellCells. Either
  /// way bitwise the same results (kernels/cell_face_geometry_k.hpp).
  const real_t* slotOffset = nullptr;      ///< 3 x nSlots, m: face centroid - the slot's cell
                                           ///< centroid (faceOwnerDelta / faceNeighbourDelta by
                                           ///< the cell's side), component d at [d nSlots + i]
  const float* slotOffsetSingle = nullptr; ///< the same from the FP32 view (precision = mixed)
  const idx_t* slotNeighbour = nullptr;    ///< nSlots: the cell across the face (halo cells
                                           ///< included), -1 on boundary faces
};

/// Whether zone z's cells all have the same number of faces, so that its face states have the
/// slot order that the slot geometry of FaceStateStore needs (tetrahedra, hexahedra): the
/// kernels read a store's slot geometry on such zones.
bool has_slot_geometry(const ZoneViewCommon& z);
/// Whether FaceStateArrays gives zone z's face states their slot geometry (kSlotGeometry of the
/// zone's shape: hexahedra).
bool stores_slot_geometry(const ZoneViewCommon& z);

/// Cell loop: the slot-ordered face offsets of a zone with has_slot_geometry() (3 x nSlots of
/// precision G, from the view's faceOwnerDelta / faceNeighbourDelta) and the cell across each
/// slot's face (nSlots values). Once per zone.
template <class G>
void face_state_geometry(const ZoneViewT<G>& z, idx_t nSlots, G* offset, idx_t* neighbour);

/// Cell loop: the slots of each face's two sides in a FaceStateStore of zone z (2 nFaces
/// values; boundary faces' second -1). Once per zone.
void face_state_slots(const ZoneView& z, idx_t* faceSlots);

/// The owned cells whose gradient and limiter gradient_limiter_states() stores besides their
/// face states: phi of every cell where `allPhi` (a limiter that may be frozen), and grad and phi
/// of cells [firstShared, nCells), the interface cells of a zone with neighbours (their
/// neighbours' interface faces reconstruct from them; Zone::nInteriorCells). firstShared =
/// nCells and allPhi false: neither array is written (null allowed).
struct StoredCellValues {
  real_t* grad = nullptr; ///< 3N x nTotalCells, as gradient_and_limiter writes it
  real_t* phi = nullptr;  ///< N x nTotalCells
  bool allPhi = false;
  idx_t firstShared = 0;
};

/// Cell loop: gradient_and_limiter of each owned cell, then the cell's reconstructed primitives
/// at each of its faces stored in `states` instead of the gradient: the face loops then read two
/// states per face (interior_state_fluxes, boundary_state_fluxes) rather than gathering both
/// cells' W, gradients and limiters and the face offsets. grad and phi are written, as
/// gradient_and_limiter writes them, for the cells `keep` names only. The states are bitwise
/// what interior_fluxes and boundary_fluxes reconstruct from the same grad and phi.
template <int N, class G>
void gradient_limiter_states(const ZoneViewT<G>& z, const real_t* Wn, Limiter kind, real_t venkatK,
                             const LimiterScales& scales, const real_t* W,
                             const real_t* supersonicNodes, const StoredCellValues& keep,
                             const FaceStateStore& states);

/// Flux function choice ([scheme] flux) and its case-file names: the convective term's
/// (physics/euler/convection.hpp).
using phys::Flux;
using phys::kFluxNames;

/// The waves of the Roe flux that Harten's entropy fix acts on ([scheme] entropy_fix_waves):
/// all of them, or the acoustic u +- c waves only (FluxSettings::linearFix = 0).
enum class EntropyFixWaves { All, Acoustic };
inline constexpr EnumName<EntropyFixWaves> kEntropyFixWavesNames[] = {
    {EntropyFixWaves::All, "all"}, {EntropyFixWaves::Acoustic, "acoustic"}};

/// Settings of the face-flux kernels: the convective term's (Riemann flux, gas, entropy fix)
/// and the reconstruction's order.
struct FluxSettings : phys::ConvectiveSettings {
  bool secondOrder = true; ///< MUSCL reconstruction with grad and phi (else cell values)

  /// Sets linearFix for the waves the entropy fix acts on.
  void set_entropy_fix_waves(EntropyFixWaves w) {
    linearFix = w == EntropyFixWaves::Acoustic ? 0.0 : -1.0;
  }
  /// The same flux at first order (cell values), as the implicit operators' Jacobians use.
  FluxSettings first_order() const {
    FluxSettings s = *this;
    s.secondOrder = false;
    return s;
  }
  /// The same flux with the entropy fix on every wave (linearFix as entropyFix), whatever
  /// entropy_fix_waves says: the flux whose Jacobians LU-SGS and Newton's preconditioner form
  /// (their boundary-flux Jacobians and Roe matrices fix every wave).
  FluxSettings with_entropy_fix_on_all_waves() const {
    FluxSettings s = *this;
    s.linearFix = -1.0;
    return s;
  }
};

/// Which interior faces a face loop visits: all, those between two owned cells (computable
/// while halo messages are in flight), or the interface faces (neighbour is a halo cell).
enum class FaceSet { All = 0, OwnedOnly = 1, InterfaceOnly = 2 };

/// Face loop over interior faces: MUSCL-reconstructed primitives either side, Riemann flux
/// (integrated over the face, owner -> neighbour) stored in flux[k][face], for the
/// M::kNumVars components of the state model M.
template <class M, class G>
void interior_fluxes(const ZoneViewT<G>& z, const FluxSettings& s, const real_t* W,
                     const real_t* grad, const real_t* phi, real_t* flux,
                     FaceSet which = FaceSet::All);

/// Face loop over all boundary faces of the zone (one launch; each face's boundary condition
/// from the patch table): flux between the reconstructed interior state and the ghost state of
/// the face's patch (state model M).
template <class M, class G>
void boundary_fluxes(const ZoneViewT<G>& z, const PatchView& patches, const FluxSettings& s,
                     const real_t* W, const real_t* grad, const real_t* phi, real_t* flux);

/// interior_fluxes from the face states of gradient_limiter_states (M::kNumVars components):
/// the same fluxes, bitwise. `which`: All or OwnedOnly (interface faces: interface_state_fluxes).
template <class M>
void interior_state_fluxes(const ZoneView& z, const FluxSettings& s, const FaceStateStore& states,
                           real_t* flux, FaceSet which = FaceSet::All);

/// The interface faces (neighbour a halo cell) of a zone whose owned cells stored face states:
/// the owner's side from its stored state, the halo side reconstructed from the halo cell's W,
/// grad and phi (exchanged from the zone that owns it) as interior_fluxes reconstructs it; the
/// same fluxes, bitwise.
template <class M, class G>
void interface_state_fluxes(const ZoneViewT<G>& z, const FluxSettings& s,
                            const FaceStateStore& states, const real_t* W, const real_t* grad,
                            const real_t* phi, real_t* flux);

/// boundary_fluxes from the owner's face states of gradient_limiter_states: the same fluxes,
/// bitwise.
template <class M>
void boundary_state_fluxes(const ZoneView& z, const PatchView& patches, const FluxSettings& s,
                           const FaceStateStore& states, real_t* flux);

/// Cell loop: R[k][cell] = sum over the cell's faces of sign * flux[k][face] (net outflow),
/// for the N components.
template <int N>
void flux_sum(const ZoneView& z, const real_t* flux, real_t* R);

/// Cell loop: flux_sum and rk_stage in one pass, the residual kept in registers (not stored):
/// Unew = a U0 + b (U - beta dt / V R) with R the cell's flux sum, bitwise what the two kernels
/// give. U may be Unew (each cell reads and writes only its own values).
template <int N>
void flux_sum_rk_stage(const ZoneView& z, const real_t* flux, real_t a, real_t b, real_t beta,
                       const real_t* dt, real_t dtGlobal, const real_t* U0, const real_t* U,
                       real_t* Unew);

/// flux_sum_rk_stage that also stores the primitives of the new state (state model M) in W, as
/// primitives() computes them from Unew (bitwise): the next evaluation of Unew needs no
/// primitives pass (SpatialOperator, RkUpdate::storePrimitives). Owned cells; W not read.
template <class M>
void flux_sum_rk_primitives(const ZoneView& z, const real_t* flux, real_t a, real_t b, real_t beta,
                            const real_t* dt, real_t dtGlobal, const real_t* U0, const real_t* U,
                            real_t* Unew, real_t gamma, real_t* W);

/// rk_stage that also stores the primitives of the new state (state model M) in W, as
/// primitives() computes them from Unew (bitwise).
template <class M>
void rk_stage_primitives(const ZoneView& z, real_t a, real_t b, real_t beta, const real_t* dt,
                         real_t dtGlobal, const real_t* U0, const real_t* U, const real_t* R,
                         real_t* Unew, real_t gamma, real_t* W);

/// Cell loop: dt[cell] = cfl * V / sum_faces (|u . S| + c |S|) with the cell's state (the mean
/// flow's convective radius, phys::MeanFlowConvection::face_radius).
void local_time_step(const ZoneView& z, real_t gamma, real_t cfl, const real_t* W, real_t* dt);

/// Face loop over interior faces, a model with a viscous term (M::kViscous,
/// FV_FOR_EACH_VISCOUS_MODEL): flux[k][face] -= F_v . S of M::Viscous::interior_flux from the cell
/// gradients `grad` of the primitives (unlimited; physics/navier_stokes/face_viscous.hpp; RANS: the
/// cells' eddy viscosity enters mu and k, and the nu-tilde diffusion flux is added). Runs after
/// interior_fluxes, with halo W and grad in place.
template <class M>
void viscous_interior_fluxes(const ZoneView& z, const phys::Transport& t, const real_t* W,
                             const real_t* grad, real_t* flux);

/// Face loop over all boundary faces (one launch): flux[k][face] -= F_v . S of
/// M::Viscous::boundary_flux for each face's patch (BcTraits::face: no-slip walls with the
/// wall's velocity and temperature at the face, planes without shear and heat flux).
template <class M>
void viscous_boundary_fluxes(const ZoneView& z, const PatchView& patches, const phys::Transport& t,
                             const real_t* W, const real_t* grad, real_t* flux);

/// Number of values per boundary face of wall_viscous_data().
inline constexpr int kWallViscousValues = phys::kWallValues;

/// Face loop over all boundary faces (a viscous model), for the forces and the surface output;
/// out is kWallViscousValues x nBoundaryFaces (SoA), the laminar mean flow's
/// phys::wall_values(): the viscous force the fluid exerts on the face, -tau . S (3, N), the
/// heat flux from the wall into the fluid -k dT/dn (W/m^2; 0 but on no-slip walls) and y+ of
/// the wall cell (rho u_tau dn / mu).
void wall_viscous_data(const ZoneView& z, const PatchView& patches, const phys::Transport& t,
                       const real_t* W, const real_t* grad, real_t* out);

/// Cell loop, a model with a viscous term: dt[cell] = cfl V / (sum_faces (|u.S| + c|S|) + 4
/// sum_faces Lambda_v), Lambda_v the viscous spectral radius of the face (Blazek eq. 6.22) with
/// the viscosity M::Viscous::viscosity (RANS: mu + mu_t).
template <class M>
void viscous_time_step(const ZoneView& z, const phys::Transport& t, real_t cfl, const real_t* W,
                       real_t* dt);

/// Cell loop, a model with a source term (M::kSource, FV_FOR_EACH_SOURCE_MODEL): R[k][c] -=
/// the source M::Source::integrated of the cell (RANS: the Spalart-Allmaras production,
/// destruction and cb2 term of nu-tilde, physics/sa/spalart_allmaras.hpp) from its state, its
/// gradients `grad` and its wall distance (z.cellWallDistance; the caller checks that the zone
/// has one).
template <class M>
void source_term(const ZoneView& z, const phys::Transport& t, const real_t* W, const real_t* grad,
                 real_t* R);

/// Cell loop, one Runge-Kutta stage on owned cells (N components, stride = nTotalCells):
///   Unew = a * U0 + b * (U - beta * dt / V * R)
/// with dt per cell (dtGlobal < 0) or the same global step dtGlobal.
template <int N>
void rk_stage(const ZoneView& z, real_t a, real_t b, real_t beta, const real_t* dt, real_t dtGlobal,
              const real_t* U0, const real_t* U, const real_t* R, real_t* Unew);

/// Cell loop: acc = keep * acc + w * R (classical RK4 accumulation of stage residuals;
/// keep = 0 starts the sum).
template <int N>
void accumulate(const ZoneView& z, real_t keep, real_t w, const real_t* R, real_t* acc);

/// Cell loop: R[k][c] -= Q[k][c] for the owned cells (a volumetric source integrated over each
/// cell, in residual units: the residual is net outflow minus what the source adds).
template <int N>
void subtract_source(const ZoneView& z, const real_t* Q, real_t* R);

} // namespace fv::kernels
