#pragma once
/// \file derived_quantities.hpp
/// The quantities the outputs derive from a model's state, point-wise (FV_HOST_DEVICE): Mach
/// number, pressure coefficient, temperature, eddy viscosity, skin friction; and, per model,
/// the fields of the volume solution and the columns of the wall surfaces, each listed once
/// with the function that computes one cell's (one face's) values in the same order. The
/// output room (runtime/output/) gathers and writes what these compute.
///
/// Inputs: the primitive state W (rho, u, v, w, p[, nu-tilde]), the conservative state U, and
/// the free stream's reference (FreestreamReference), in the case's units.
#include "common/types.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/physics/navier_stokes/transport.hpp"
#include "runtime/physics/sa/spalart_allmaras.hpp"

#include <cmath>

namespace fv::phys {

/// What the derived quantities are relative to: the free stream's pressure and dynamic
/// pressure, the gas and its transport properties.
struct FreestreamReference {
  real_t pressure = 0;        ///< p_inf
  real_t dynamicPressure = 1; ///< q_inf = rho |u|^2 / 2; 1 for a free stream at rest
  real_t gamma = 1.4;
  real_t gasConstant = 287.05; ///< R
  Transport transport;         ///< the viscosity law (eddy viscosity)
};

/// Mach number |u| / a, a = sqrt(|gamma p / rho|) (defined for any sign of p / rho).
FV_HOST_DEVICE FV_FORCEINLINE real_t mach_number(const real_t* W, real_t gamma) {
  const real_t a = std::sqrt(std::fabs(gamma * W[4] / W[0]));
  return std::sqrt(W[1] * W[1] + W[2] * W[2] + W[3] * W[3]) / a;
}

/// Pressure coefficient (p - p_inf) / q_inf.
FV_HOST_DEVICE FV_FORCEINLINE real_t pressure_coefficient(real_t p, const FreestreamReference& r) {
  return (p - r.pressure) / r.dynamicPressure;
}

/// Eddy viscosity mu_t of a RANS state (SaModel's primitives; temperature T of the state).
FV_HOST_DEVICE FV_FORCEINLINE real_t eddy_viscosity(const real_t* W, real_t T,
                                                    const FreestreamReference& r) {
  return sa::eddy_viscosity(W[0], W[SaModel::kNuTilde], viscosity(r.transport, T));
}

/// Skin-friction coefficient of one component of the viscous force on a face of area `area`:
/// force / (area q_inf).
FV_HOST_DEVICE FV_FORCEINLINE real_t skin_friction(real_t force, real_t area,
                                                   const FreestreamReference& r) {
  return force / (area * r.dynamicPressure);
}

/// One field (volume) or column (surface) of an output: its name and component count.
struct OutputField {
  const char* name;
  int components;
};

/// Values per cell (face) of a field list: the sum of its components.
template <int N>
constexpr int output_values(const OutputField (&fields)[N]) {
  int n = 0;
  for (int i = 0; i < N; ++i)
    n += fields[i].components;
  return n;
}

/// The outputs of model M (specialised per model below):
///   kVolume                    the volume solution's fields, in file order
///   volume(U, W, r, out)       one cell's values of kVolume, in order (out: kVolumeValues)
///   kSurface                   the wall surfaces' columns, in file order
///   surface(W, wall, S, r, out) one wall face's values of kSurface: W the primitive state
///                              of its cell, `wall` the viscous force on it (3), the wall heat
///                              flux and y+ (viscous models), S its area vector
template <class M>
struct ModelOutputs;

template <>
struct ModelOutputs<EulerModel> {
  /// rho, velocity, p, Mach, Cp and the conservative state
  static constexpr OutputField kVolume[] = {{"rho", 1},  {"velocity", 3}, {"p", 1},
                                            {"mach", 1}, {"Cp", 1},       {"rhoU", kNumEq}};
  static constexpr int kVolumeValues = output_values(kVolume);
  FV_HOST_DEVICE FV_FORCEINLINE static void volume(const real_t* U, const real_t* W,
                                                   const FreestreamReference& r, real_t* out) {
    for (int k = 0; k < kNumEq; ++k)
      out[k] = W[k];
    out[kNumEq] = mach_number(W, r.gamma);
    out[kNumEq + 1] = pressure_coefficient(W[4], r);
    for (int k = 0; k < kNumEq; ++k)
      out[kNumEq + 2 + k] = U[k];
  }
  /// the pressure of the wall cell and its Cp
  static constexpr OutputField kSurface[] = {{"p", 1}, {"Cp", 1}};
  static constexpr int kSurfaceValues = output_values(kSurface);
  FV_HOST_DEVICE FV_FORCEINLINE static void surface(const real_t* W, const real_t* /*wall*/,
                                                    const real_t* /*S*/,
                                                    const FreestreamReference& r, real_t* out) {
    out[0] = W[4];
    out[1] = pressure_coefficient(W[4], r);
  }
};

template <>
struct ModelOutputs<NavierStokesModel> {
  /// Euler's and the temperature
  static constexpr OutputField kVolume[] = {{"rho", 1}, {"velocity", 3},  {"p", 1}, {"mach", 1},
                                            {"Cp", 1},  {"rhoU", kNumEq}, {"T", 1}};
  static constexpr int kVolumeValues = output_values(kVolume);
  FV_HOST_DEVICE FV_FORCEINLINE static void volume(const real_t* U, const real_t* W,
                                                   const FreestreamReference& r, real_t* out) {
    ModelOutputs<EulerModel>::volume(U, W, r, out);
    out[ModelOutputs<EulerModel>::kVolumeValues] = temperature(W, r.gasConstant);
  }
  /// Euler's, the skin friction (vector and magnitude), the wall heat flux and y+
  static constexpr OutputField kSurface[] = {{"p", 1},         {"Cp", 1},    {"Cf_x", 1},
                                             {"Cf_y", 1},      {"Cf_z", 1},  {"Cf", 1},
                                             {"heat_flux", 1}, {"y_plus", 1}};
  static constexpr int kSurfaceValues = output_values(kSurface);
  FV_HOST_DEVICE FV_FORCEINLINE static void surface(const real_t* W, const real_t* wall,
                                                    const real_t* S, const FreestreamReference& r,
                                                    real_t* out) {
    ModelOutputs<EulerModel>::surface(W, wall, S, r, out);
    const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    real_t cf2 = 0;
    for (int k = 0; k < 3; ++k) {
      const real_t cf = skin_friction(wall[k], area, r);
      out[2 + k] = cf;
      cf2 += cf * cf;
    }
    out[5] = std::sqrt(cf2);
    out[6] = wall[3];
    out[7] = wall[4];
  }
};

template <>
struct ModelOutputs<SaModel> {
  /// Navier-Stokes' and nu-tilde and the eddy viscosity
  static constexpr OutputField kVolume[] = {{"rho", 1},  {"velocity", 3}, {"p", 1},
                                            {"mach", 1}, {"Cp", 1},       {"rhoU", kNumEq},
                                            {"T", 1},    {"nuTilde", 1},  {"mu_t", 1}};
  static constexpr int kVolumeValues = output_values(kVolume);
  FV_HOST_DEVICE FV_FORCEINLINE static void volume(const real_t* U, const real_t* W,
                                                   const FreestreamReference& r, real_t* out) {
    constexpr int t = ModelOutputs<NavierStokesModel>::kVolumeValues - 1;
    ModelOutputs<NavierStokesModel>::volume(U, W, r, out);
    out[t + 1] = W[SaModel::kNuTilde];
    out[t + 2] = eddy_viscosity(W, out[t], r);
  }
  static constexpr auto& kSurface = ModelOutputs<NavierStokesModel>::kSurface;
  static constexpr int kSurfaceValues = ModelOutputs<NavierStokesModel>::kSurfaceValues;
  FV_HOST_DEVICE FV_FORCEINLINE static void surface(const real_t* W, const real_t* wall,
                                                    const real_t* S, const FreestreamReference& r,
                                                    real_t* out) {
    ModelOutputs<NavierStokesModel>::surface(W, wall, S, r, out);
  }
};

/// Calls f(M{}) with the model type of a case's [physics] model and returns what f returns
/// (the outputs' choice of ModelOutputs<M>; the solver's kernels use StateModel's choice).
template <class F>
decltype(auto) visit_model_kind(ModelKind kind, F&& f) {
  switch (kind) {
  case ModelKind::NavierStokes:
    return f(NavierStokesModel{});
  case ModelKind::RansSa:
    return f(SaModel{});
  case ModelKind::Euler:
    break;
  }
  return f(EulerModel{});
}

} // namespace fv::phys
