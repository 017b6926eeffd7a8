#pragma once
/// \file state_model.hpp
/// The model a run solves, chosen at run time from [physics] model: the Euler equations
/// (phys::EulerModel: rho, rho u, rho v, rho w, rho E), the laminar Navier-Stokes equations
/// (phys::NavierStokesModel: the same state, with a viscous term) or RANS with Spalart-Allmaras
/// (phys::SaModel: the same plus rho nu-tilde, with viscous and source terms). Solver components
/// size their fields with StateModel::nVars (nVars x nTotalCells, SoA) and call the
/// model-templated kernels through visit_state_model(), the one place that maps a case to a
/// kernel instantiation (kernels::FV_FOR_EACH_*_MODEL).
#include "runtime/config/case_config.hpp"
#include "runtime/physics/model.hpp"

#include <array>
#include <string>
#include <vector>

namespace fv {

/// Per-equation host values (residual norms, references) of a state of at most
/// phys::kMaxVars variables; the first StateModel::nVars are used, the rest stay 0.
using StateArray = std::array<real_t, phys::kMaxVars>;

/// Calls f(M{}) with the model type M of the case's flow ([physics] model: phys::EulerModel,
/// phys::NavierStokesModel or phys::SaModel; an empty tag object) and returns what f returns:
/// the one run-time choice of the model, from which the solver's code and the kernels it calls
/// follow the model's terms (M::kViscous, M::kSource, phys::ConvectiveModelOf<M>).
template <class F>
decltype(auto) visit_state_model(const FlowConfig& flow, F&& f) {
  switch (flow.model) {
  case phys::ModelKind::RansSa:
    return f(phys::SaModel{});
  case phys::ModelKind::NavierStokes:
    return f(phys::NavierStokesModel{});
  case phys::ModelKind::Euler:
    break;
  }
  return f(phys::EulerModel{});
}

/// Host-side description of a case's state model (names, conversions, reference scales).
struct StateModel {
  int nVars = phys::EulerModel::kNumVars; ///< conserved variables per cell
  bool rans = false;                      ///< rho nu-tilde is variable 5
  /// Variables judged for convergence (the momentum components can vanish in 2D flows).
  static constexpr int kDensity = phys::kDensity, kEnergy = phys::kEnergy;
  std::vector<std::string> conservative; ///< names in storage order (restart, residual columns)

  /// The state model of a case's flow.
  static StateModel of(const FlowConfig& flow);
  /// The free-stream primitive state (nVars values).
  std::vector<real_t> freestream(const FlowConfig& flow) const;
  /// Magnitudes of the conservative variables in the free stream (the residual reference and
  /// the Krylov weights compare equations in them).
  std::vector<real_t> residual_scales(const FlowConfig& flow) const;
  /// Magnitudes of the primitives in the free stream (Venkatakrishnan's reference scales).
  std::vector<real_t> primitive_scales(const FlowConfig& flow) const;
  /// The variables whose residual is shown (console, history.csv): all, but on a 2D mesh
  /// extruded along a coordinate axis not the momentum along it (zero in such a flow).
  std::vector<int> shown_residuals(const Extrusion& extrusion) const;
  /// Point-wise conversions of one cell (nVars values each).
  void to_primitive(const real_t* U, real_t* W, real_t gamma) const;
  void to_conservative(const real_t* W, real_t* U, real_t gamma) const;
};

} // namespace fv
