#pragma once
/// \file transport.hpp
/// Transport properties of a calorically perfect gas for the Navier-Stokes model, point-wise
/// (FV_HOST_DEVICE): dynamic viscosity by Sutherland's law or a constant, thermal conductivity
/// from a constant Prandtl number, temperature from the primitive state.
///
/// Units: consistent SI (Pa s, W/(m K), K, J/(kg K)) or non-dimensional, as the case chooses;
/// every function uses the same units as its inputs.
#include "common/enum_names.hpp"
#include "common/types.hpp"
#include "runtime/physics/euler/euler_state.hpp"

#include <cmath>

namespace fv::phys {

/// How the dynamic viscosity depends on the temperature.
enum class ViscosityLaw : int {
  Constant = 0,  ///< mu = muRef
  Sutherland = 1 ///< mu = muRef (T/TRef)^(3/2) (TRef + S) / (T + S)
};

/// The case-file names of the viscosity laws ([physics] viscosity).
inline constexpr EnumName<ViscosityLaw> kViscosityLawNames[] = {
    {ViscosityLaw::Constant, "constant"}, {ViscosityLaw::Sutherland, "sutherland"}};

/// Molecular transport of one case, trivially copyable (captured by value in kernels).
struct Transport {
  ViscosityLaw law = ViscosityLaw::Sutherland;
  real_t muRef = 1.716e-5;       ///< viscosity at tRef (or the constant viscosity), Pa s
  real_t tRef = 273.15;          ///< reference temperature of Sutherland's law, K
  real_t sutherland = 110.4;     ///< Sutherland's constant S, K (air)
  real_t prandtl = 0.72;         ///< laminar Prandtl number mu cp / k
  real_t prandtlTurbulent = 0.9; ///< turbulent Prandtl number mu_t cp / k_t (RANS)
  real_t gamma = 1.4;            ///< ratio of specific heats
  real_t gasConstant = 287.05;   ///< R, J/(kg K)
};

/// Temperature p / (rho R) of a primitive state W = (rho, u, v, w, p).
FV_HOST_DEVICE FV_FORCEINLINE real_t temperature(const real_t* W, real_t gasConstant) {
  return W[kPressure] / (W[kDensity] * gasConstant);
}

/// Temperature of cell c of a primitive field W (SoA, stride n).
FV_HOST_DEVICE FV_FORCEINLINE real_t temperature_of(const real_t* W, idx_t n, idx_t c,
                                                    real_t gasConstant) {
  return W[kPressure * n + c] / (W[kDensity * n + c] * gasConstant);
}

/// Dynamic viscosity at temperature T.
FV_HOST_DEVICE FV_FORCEINLINE real_t viscosity(const Transport& t, real_t T) {
  if (t.law == ViscosityLaw::Constant) return t.muRef;
  const real_t r = T / t.tRef;
  return t.muRef * r * std::sqrt(r) * (t.tRef + t.sutherland) / (T + t.sutherland);
}

/// Dynamic viscosity of a primitive state W (its temperature p / (rho R)).
FV_HOST_DEVICE FV_FORCEINLINE real_t viscosity_of(const Transport& t, const real_t* W) {
  return viscosity(t, temperature(W, t.gasConstant));
}

/// Thermal conductivity k = mu cp / Pr, cp = gamma R / (gamma - 1).
FV_HOST_DEVICE FV_FORCEINLINE real_t conductivity(const Transport& t, real_t mu) {
  return mu * t.gamma * t.gasConstant / ((t.gamma - 1.0) * t.prandtl);
}

/// Turbulent thermal conductivity k_t = mu_t cp / Pr_t of an eddy viscosity mu_t (RANS).
FV_HOST_DEVICE FV_FORCEINLINE real_t turbulent_conductivity(const Transport& t, real_t muT) {
  return muT * t.gamma * t.gasConstant / ((t.gamma - 1.0) * t.prandtlTurbulent);
}

/// Gradient of the temperature (3 reals) from the primitive state W and the gradients of rho
/// and p (3 reals each): grad T = (grad p - R T grad rho) / (rho R).
FV_HOST_DEVICE FV_FORCEINLINE void temperature_gradient(const real_t* W, const real_t* gradRho,
                                                        const real_t* gradP, real_t gasConstant,
                                                        real_t* gradT) {
  const real_t T = temperature(W, gasConstant);
  const real_t inv = 1.0 / (W[kDensity] * gasConstant);
  for (int d = 0; d < 3; ++d)
    gradT[d] = (gradP[d] - gasConstant * T * gradRho[d]) * inv;
}

} // namespace fv::phys
