#pragma once
/// \file boundary_conditions.hpp
/// The boundary-condition table (physics/bc_table.hpp) expanded: the case-file names of the
/// types, each type's properties (BcTraits), the mean flow's ghost-state dispatch
/// (FV_HOST_DEVICE) and the rows as host data for the case file (kBcTable). Every use of a
/// boundary type reads these instead of listing types.
#include "common/enum_names.hpp"
#include "runtime/physics/bc_table.hpp"
#include "runtime/physics/euler/bc_states.hpp"
#include "runtime/physics/navier_stokes/no_slip_wall.hpp"

namespace fv::phys {

/// The case-file names of the boundary condition types (common/enum_names.hpp), in table order.
inline constexpr EnumName<BcType> kBcTypeNames[] = {
#define FV_BC_NAME(type, name, ...) {BcType::type, name},
    FV_BOUNDARY_CONDITIONS(FV_BC_NAME)
#undef FV_BC_NAME
};

/// The properties of a boundary type that its uses test (the table's last four columns).
struct BcTraits {
  bool needsViscous = false; ///< only a viscous model accepts it ([physics] model)
  bool wall = false;         ///< a wall: integrated for the forces unless force_patches says else
  BcFace face = BcFace::Open;
  BcScalars scalars = BcScalars::Interior;
};

/// The properties of boundary type t (host and device).
FV_HOST_DEVICE constexpr BcTraits bc_traits(BcType t) {
  switch (t) {
#define FV_BC_TRAITS(type, name, ghost, params, viscous, wall, face, scalars)                      \
  case BcType::type:                                                                               \
    return {viscous, wall, BcFace::face, BcScalars::scalars};
    FV_BOUNDARY_CONDITIONS(FV_BC_TRAITS)
#undef FV_BC_TRAITS
  }
  return {};
}

/// Ghost state of the mean flow (kNumEq primitives) for boundary type b.type, interior state Wi
/// at a face with outward unit normal n: the row's ghost-state function.
FV_HOST_DEVICE inline void ghost_state(const real_t* Wi, const real_t* n, const BcParams& b,
                                       real_t* G) {
  switch (b.type) {
#define FV_BC_GHOST(type, name, ghost, ...)                                                        \
  case BcType::type:                                                                               \
    ghost(Wi, n, b, G);                                                                            \
    break;
    FV_BOUNDARY_CONDITIONS(FV_BC_GHOST)
#undef FV_BC_GHOST
  }
}

/// The boundary term of the mean flow's models (physics/model.hpp): the ghost state of the
/// face's boundary condition.
struct MeanFlowBoundary {
  FV_HOST_DEVICE FV_FORCEINLINE static void ghost(const real_t* W, const real_t* n,
                                                  const BcParams& b, real_t* G) {
    ghost_state(W, n, b, G);
  }
};

/// One row of the table as host data: what the case file reads of a boundary type.
struct BcRow {
  BcType type;
  const char* name; ///< case-file name (kBcTypeNames)
  BcTraits traits;
  /// Derives the row's BcParams from its patch keys (the free-stream defaults already filled in)
  void (*params)(const BcKeys&, BcParams&);
};

/// The rows, in table (and BcType) order.
inline constexpr BcRow kBcTable[] = {
#define FV_BC_ROW(type, name, ghost, params, viscous, wall, face, scalars)                         \
  {BcType::type, name, {viscous, wall, BcFace::face, BcScalars::scalars}, &params},
    FV_BOUNDARY_CONDITIONS(FV_BC_ROW)
#undef FV_BC_ROW
};

/// The row of boundary type t.
inline const BcRow& bc_row(BcType t) {
  return kBcTable[static_cast<int>(t)];
}

} // namespace fv::phys
