#pragma once
/// \file convection.hpp
/// The convective term of the mean flow (FV_HOST_DEVICE): the Riemann flux a case chooses (Roe
/// with Harten's entropy fix, or Rusanov), its first-order Jacobians, and the convective
/// spectral radius of a face. The models' convective terms (physics/model.hpp) are this one or
/// build on it (the scalars' upwind flux of physics/sa/sa_model.hpp).
#include "common/enum_names.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/euler/flux_jacobian.hpp"
#include "runtime/physics/euler/roe_flux.hpp"
#include "runtime/physics/euler/rusanov_flux.hpp"

namespace fv::phys {

/// Flux function choice ([scheme] flux).
enum class Flux { Roe = 0, Rusanov = 1 };

/// The case-file names of the flux functions.
inline constexpr EnumName<Flux> kFluxNames[] = {{Flux::Roe, "roe"}, {Flux::Rusanov, "rusanov"}};

/// What the convective term's flux depends on besides the states: the Riemann flux, the gas
/// and Harten's entropy fix (trivially copyable; the kernels' FluxSettings extend it).
struct ConvectiveSettings {
  Flux flux = Flux::Roe;
  real_t gamma = 1.4;
  real_t entropyFix = 0.1;
  /// Harten's fix of the Roe flux's entropy and shear waves: < 0 the same as entropyFix
  /// (Euler's default), 0 none (Navier-Stokes: boundary layers)
  real_t linearFix = -1.0;
};

/// The convective term of the mean flow's kNumEq equations.
struct MeanFlowConvection {
  /// Riemann flux through the area vector S between the primitive states WL (owner side) and
  /// WR, integrated over the face.
  FV_HOST_DEVICE FV_FORCEINLINE static void flux(const ConvectiveSettings& s, const real_t* WL,
                                                 const real_t* WR, const real_t* S, real_t* F) {
    if (s.flux == Flux::Roe)
      roe_flux(WL, WR, S, s.gamma, s.entropyFix, F, s.linearFix);
    else
      rusanov_flux(WL, WR, S, s.gamma, F);
  }
  /// Jacobians dF/dU_L, dF/dU_R (kBlockSize each, row-major) of the first-order flux through S
  /// (flux_jacobian.hpp; the entropy fix on every wave).
  FV_HOST_DEVICE FV_FORCEINLINE static void jacobians(const ConvectiveSettings& s, const real_t* WL,
                                                      const real_t* WR, const real_t* S,
                                                      real_t* dFdL, real_t* dFdR) {
    face_flux_jacobians(WL, WR, S, s.gamma, s.flux == Flux::Roe, s.entropyFix, dFdL, dFdR);
  }
  /// Convective spectral radius of a face of area vector S (|S| = area) for the primitive
  /// state W with speed of sound a: |u . S| + a |S| (the local time step).
  FV_HOST_DEVICE FV_FORCEINLINE static real_t face_radius(const real_t* W, real_t a,
                                                          const real_t* S, real_t area) {
    return std::fabs(W[kVelocity] * S[0] + W[kVelocity + 1] * S[1] + W[kVelocity + 2] * S[2]) +
           a * area;
  }
};

} // namespace fv::phys
