#pragma once
/// \file bc_table.hpp
/// The boundary-condition table: one row per boundary condition, the one list that the types
/// (BcType), their case-file names, the ghost-state dispatch, the kernels' treatment of each
/// face and the case file's handling of each patch are generated from
/// (physics/boundary_conditions.hpp expands it). The patch parameters the kernels read
/// (BcParams) and the patch keys of the case file they derive from (BcKeys) are defined here
/// too.
///
/// Adding a boundary condition: its point-wise ghost state G(W, n, BcParams) (a header that
/// boundary_conditions.hpp includes: the mean flow's in physics/euler/bc_states.hpp, the no-slip
/// wall's in physics/navier_stokes/no_slip_wall.hpp), a function deriving its BcParams from its
/// patch keys (no_patch_keys when it has none), and one row of FV_BOUNDARY_CONDITIONS; a patch
/// key of its own is also a field of BcKeys and its schema entry (config/case_schema.cpp).
#include "common/types.hpp"
#include "runtime/physics/euler/euler_state.hpp"

#include <array>
#include <cstdint>

namespace fv::phys {

/// How the viscous flux treats a boundary face (the BcFace column of the table).
enum class BcFace : std::int8_t {
  Open,  ///< far field, inflow, outflow: the cell's gradients, face values averaged with the ghost
  Plane, ///< slip wall, symmetry plane: no shear stress, heat flux or scalar diffusion across it
  NoSlip ///< no-slip wall: the fluid has the wall's velocity and (isothermal) temperature
};

/// The ghost value of a model's transported scalars (SA: nu-tilde; the BcScalars column).
enum class BcScalars : std::int8_t {
  Interior, ///< the interior value (extrapolated)
  Inflow,   ///< the free stream's where the flow enters (BcParams::nuTilde; the upwind flux
            ///< takes the interior value where it leaves)
  Zero      ///< zero at the face: the ghost mirrors the cell (no-slip walls)
};

// clang-format off
/// The boundary conditions, one row each:
///   X(type, case-file name, ghost state, BcParams from the patch keys,
///     needs a viscous model, a wall (force_patches' default), viscous face, scalars)
/// `type` names the BcType value, `ghost state` a function (W, n, BcParams, G) -> G and the
/// parameters a function (BcKeys, BcParams&), `viscous face` a BcFace and `scalars` a
/// BcScalars value. The enumeration values are the rows' order.
#define FV_BOUNDARY_CONDITIONS(X)                                                                  \
  /* characteristic far field (Riemann invariants) with the free stream */                       \
  X(Farfield,          "farfield",           farfield_state,         no_patch_keys,              \
    false, false, Open,   Inflow)                                                                 \
  /* inviscid wall: the normal velocity mirrored */                                               \
  X(SlipWall,          "slip_wall",          mirror_state,           no_patch_keys,              \
    false, true,  Plane,  Interior)                                                               \
  /* symmetry plane: the slip wall's state, not a wall for the forces */                         \
  X(Symmetry,          "symmetry",           mirror_state,           no_patch_keys,              \
    false, false, Plane,  Interior)                                                               \
  /* every characteristic enters: the patch's reference state */                                  \
  X(SupersonicInflow,  "supersonic_inflow",  reference_state,        supersonic_inflow_params,   \
    false, false, Open,   Inflow)                                                                 \
  /* every characteristic leaves: the interior state */                                           \
  X(SupersonicOutflow, "supersonic_outflow", interior_state,         no_patch_keys,              \
    false, false, Open,   Interior)                                                               \
  /* static pressure imposed, the rest extrapolated */                                            \
  X(SubsonicOutflow,   "subsonic_outflow",   subsonic_outflow_state, subsonic_outflow_params,    \
    false, false, Open,   Interior)                                                               \
  /* total pressure, total temperature and flow direction imposed */                              \
  X(SubsonicInflow,    "subsonic_inflow",    subsonic_inflow_state,  subsonic_inflow_params,     \
    false, false, Open,   Inflow)                                                                 \
  /* viscous wall moving with its velocity, adiabatic or isothermal */                            \
  X(NoSlipWall,        "no_slip_wall",       no_slip_state,          no_slip_wall_params,        \
    true,  true,  NoSlip, Zero)
// clang-format on

/// Boundary condition types, one per row of FV_BOUNDARY_CONDITIONS in its order (values are
/// used in kernels; names, kBcTypeNames, in case files).
enum class BcType : int {
#define FV_BC_ENUM(type, ...) type,
  FV_BOUNDARY_CONDITIONS(FV_BC_ENUM)
#undef FV_BC_ENUM
};

/// Parameters of one patch, trivially copyable (captured by value in kernels): every row's
/// point-wise parameters, in solver units (SI or non-dimensional).
struct BcParams {
  BcType type = BcType::Farfield;
  real_t gamma = 1.4;
  real_t gasConstant = 287.05;          ///< R, J/(kg K) (or non-dimensional)
  real_t ref[kNumEq] = {1, 0, 0, 0, 1}; ///< reference primitive state (far field / inflow)
  real_t pressure = 1;                  ///< static pressure (subsonic outflow)
  real_t totalPressure = 1;             ///< p0 (subsonic inflow)
  real_t totalTemperature = 1;          ///< T0 (subsonic inflow)
  real_t direction[3] = {0, 0, 0};      ///< inflow direction (unit); zero = along -normal
  real_t wallTemperature = 0;           ///< no-slip wall: imposed temperature, K; <= 0: adiabatic
  real_t wallVelocity[3] = {0, 0, 0};   ///< no-slip wall: velocity of the wall, m/s
  /// The transported scalars' free-stream value where the flow enters (BcScalars::Inflow);
  /// RANS (Spalart-Allmaras): nu-tilde, m^2/s
  real_t nuTilde = 0;
};

/// The values of a patch's keys in the case file (those of its type; the others keep their
/// defaults), in solver units: what a row's parameter function derives its BcParams from.
struct BcKeys {
  real_t mach{}, pressure{}, temperature{};   ///< supersonic_inflow; pressure: subsonic_outflow too
  real_t totalPressure{}, totalTemperature{}; ///< subsonic_inflow
  std::array<real_t, 3> direction{};          ///< the inflows' direction as given or defaulted
                                              ///< (unit when given: the case file normalises it)
  bool directionGiven{};                      ///< ... given by the user
  real_t wallTemperature{};                   ///< no_slip_wall: 0 adiabatic
  std::array<real_t, 3> wallVelocity{};       ///< no_slip_wall
};

/// The parameter function of a row whose patches have no keys: the free-stream defaults the
/// case file filled in stay.
inline void no_patch_keys(const BcKeys&, BcParams&) {}

} // namespace fv::phys
