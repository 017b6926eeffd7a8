#pragma once
/// \file model.hpp
/// The equations a case solves, as types that kernels and the solver are written against. A
/// model is assembled from one type per term, as SU2 splits its numerics into convective,
/// viscous and source numerics (and AMReX writes its kernels point-wise):
///
///   State       named indices, the number of conserved variables (kNumVars), their names,
///               the point-wise conversions, the free-stream scales (the model derives from it)
///   Convective  the inviscid face flux (Roe / Rusanov of the mean flow, the scalars' upwind
///               flux), its first-order Jacobians, the convective spectral radius
///   Boundary    the ghost states: the mean flow's (the boundary-condition table,
///               physics/boundary_conditions.hpp) and the model's scalars'
///   Viscous     the viscous face fluxes, the viscosity of the time step and the thin-layer
///               Jacobians; NoViscousTerm for inviscid models (kViscous false)
///   Source      volume sources and their Jacobian; NoSourceTerm where there are none
///
/// The terms of this file's models (physics/euler/, physics/navier_stokes/, physics/sa/):
///   EulerModel          MeanFlowState, MeanFlowConvection, MeanFlowBoundary, NoViscousTerm,
///                       NoSourceTerm
///   NavierStokesModel   MeanFlowState, MeanFlowConvection, MeanFlowBoundary,
///                       LaminarViscousTerm, NoSourceTerm
///   SaModel             SaState, SaConvection, SaBoundary, SaViscousTerm, SaSourceTerm
/// Kernels are templated on the model and call its terms; the viscous and source kernels run
/// because the model's type says so (kViscous, kSource), the solver choosing the model once
/// (solver/state_model.hpp).
#include "common/enum_names.hpp"
#include "runtime/physics/boundary_conditions.hpp"
#include "runtime/physics/euler/convection.hpp"
#include "runtime/physics/euler/mean_flow.hpp"
#include "runtime/physics/navier_stokes/viscous_term.hpp"
#include "runtime/physics/sa/sa_model.hpp"

#include <type_traits>

namespace fv::phys {

/// The viscous term of an inviscid model: none.
struct NoViscousTerm {
  static constexpr bool kActive = false;
};

/// The source term of a model without volume sources.
struct NoSourceTerm {
  static constexpr bool kActive = false;
};

/// A model from its terms: derives from its state (kNumVars, names, conversions, scales), names
/// the other terms, and says whether it has viscous and source terms.
template <class StateT, class ConvectiveT, class BoundaryT, class ViscousT, class SourceT>
struct ModelOf : StateT {
  using State = StateT;
  using Convective = ConvectiveT;
  using Boundary = BoundaryT;
  using Viscous = ViscousT;
  using Source = SourceT;
  static constexpr bool kViscous = ViscousT::kActive; ///< viscous and heat-conduction fluxes
  static constexpr bool kSource = SourceT::kActive;   ///< volume sources
};

/// The compressible Euler equations of an ideal gas: rho, rho u, rho v, rho w, rho E; inviscid.
struct EulerModel
    : ModelOf<MeanFlowState, MeanFlowConvection, MeanFlowBoundary, NoViscousTerm, NoSourceTerm> {
  static constexpr const char* kName = "euler";
  /// The model whose instantiation of the convective kernels this one runs (ConvectiveModelOf)
  using ConvectiveModel = EulerModel;
};

/// The laminar compressible Navier-Stokes equations: Euler's variables, convective term and
/// ghost states, plus viscous stresses and heat conduction (physics/navier_stokes/).
struct NavierStokesModel : ModelOf<MeanFlowState, MeanFlowConvection, MeanFlowBoundary,
                                   LaminarViscousTerm, NoSourceTerm> {
  static constexpr const char* kName = "navier_stokes";
  using ConvectiveModel = EulerModel; ///< Euler's state, convective and boundary terms
};

/// RANS with the Spalart-Allmaras model (SA-neg): the mean flow and rho nu-tilde, coupled
/// (physics/sa/).
struct SaModel : ModelOf<SaState, SaConvection, SaBoundary, SaViscousTerm, SaSourceTerm> {
  static constexpr const char* kName = "rans_sa";
  using ConvectiveModel = SaModel;
};

/// The model whose instantiation of the kernels that read only the state, convective and
/// boundary terms (face fluxes, primitives, Runge-Kutta stages with primitives) a model M runs:
/// a model that only adds a viscous term to another (NavierStokesModel) shares that one's
/// (EulerModel's), so these kernels are compiled once per distinct convective model.
template <class M>
using ConvectiveModelOf = typename M::ConvectiveModel;

/// The models a case chooses from ([physics] model), by the Model type each one runs.
enum class ModelKind { Euler, NavierStokes, RansSa };

/// The models' names (their kName), in the order case files and documentation list them.
inline constexpr EnumName<ModelKind> kModelNames[] = {
    {ModelKind::Euler, EulerModel::kName},
    {ModelKind::NavierStokes, NavierStokesModel::kName},
    {ModelKind::RansSa, SaModel::kName},
};

/// True for the models with transported scalars beyond the mean flow (a variable template,
/// which CUDA's device lambdas may use where they may not capture a local constant).
template <class M>
inline constexpr bool kHasScalars = (M::kNumVars > kNumEq);

/// The widest cell state a kernel handles (the mean flow plus transport equations): bounds
/// the fixed-size scratch arrays of model-independent code.
inline constexpr int kMaxVars = 8;
static_assert(SaModel::kNumVars <= kMaxVars, "kMaxVars too small for the models");

/// Whether M has the state, convective and boundary terms of its ConvectiveModelOf.
template <class M>
constexpr bool same_convective_terms() {
  using C = ConvectiveModelOf<M>;
  return std::is_same_v<typename M::State, typename C::State> &&
         std::is_same_v<typename M::Convective, typename C::Convective> &&
         std::is_same_v<typename M::Boundary, typename C::Boundary>;
}
static_assert(same_convective_terms<EulerModel>() && same_convective_terms<NavierStokesModel>() &&
                  same_convective_terms<SaModel>(),
              "a model shares the convective kernels of a model with its state, convective and "
              "boundary terms only");

/// Adds to Mb (N x N, row-major, N = M::kNumVars) the Jacobian d g / dU of the first-order
/// boundary flux of a face of the cell with primitive state W0, g(U) = F_b(U) - c P(U) . S with
/// F_b = M::Convective::flux(W, M::Boundary::ghost(W)) through area vector S (outward) and P
/// the physical flux of the mean flow: c = 0 for the flux itself, c = 1/2 for LU-SGS (whose
/// scalar interior diagonal already holds half the flux Jacobian). Forward differences in the
/// conservative variables, with steps of 1e-5 of M::perturbation_scales: large enough that
/// rounding (which may differ between the CPU and the GPU, e.g. fused multiply-adds) stays
/// ~1e-11 of the derivative; the truncation error (~1e-5 relative) does not matter for an
/// implicit operator.
template <class M>
FV_HOST_DEVICE inline void
add_boundary_flux_jacobian(const real_t* W0, const real_t* S, const BcParams& bc,
                           const ConvectiveSettings& fs, real_t c, real_t* Mb) {
  constexpr int N = M::kNumVars;
  const real_t gamma = fs.gamma;
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
  real_t U0[N];
  M::to_conservative(W0, U0, gamma);
  real_t scale[N];
  M::perturbation_scales(U0, W0, gamma, bc, scale);
  auto g = [&](const real_t* Wc, real_t* out) {
    real_t G[N], F[N], P[kNumEq];
    M::Boundary::ghost(Wc, nrm, bc, G);
    M::Convective::flux(fs, Wc, G, S, F);
    physical_flux(Wc, S, gamma, P);
    for (int k = 0; k < N; ++k)
      out[k] = k < kNumEq ? F[k] - c * P[k] : F[k];
  };
  real_t g0[N];
  g(W0, g0);
  for (int col = 0; col < N; ++col) {
    real_t U1[N], W1[N], g1[N];
    for (int k = 0; k < N; ++k)
      U1[k] = U0[k];
    U1[col] += 1e-5 * scale[col];
    const real_t h = U1[col] - U0[col]; // the step actually taken
    M::to_primitive(U1, W1, gamma);
    g(W1, g1);
    for (int r = 0; r < N; ++r)
      Mb[N * r + col] += (g1[r] - g0[r]) / h;
  }
}

} // namespace fv::phys
