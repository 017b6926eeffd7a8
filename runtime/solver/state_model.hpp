#pragma once
/// \file state_model.hpp
/// The model whose cell state the solver components store and iterate over (one place: a
/// model with other variables changes this alias and the width instantiations of
/// kernels::FV_FOR_EACH_FIELD_WIDTH). The Euler and Navier-Stokes models share the state
/// (rho, rho u, rho v, rho w, rho E); [physics] model switches the viscous terms on.
#include "runtime/physics/model.hpp"

namespace fv {

using Model = phys::EulerModel;
/// Conserved variables per cell (fields are kNumVars x nTotalCells, SoA).
inline constexpr int kNumVars = Model::kNumVars;

} // namespace fv
