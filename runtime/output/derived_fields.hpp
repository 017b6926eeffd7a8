#pragma once
/// \file derived_fields.hpp
/// The values the solution files hold beyond the state, per rank over its zone: the volume
/// solution's fields and the wall surfaces' columns of the case's model, computed point-wise
/// by the model's functions (runtime/physics/derived_quantities.hpp: phys::ModelOutputs).
/// Host arrays of this zone's owned cells (faces), ready for the CollectiveWriter.
#include "formats/solution_file.hpp"
#include "formats/surface_file.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/physics/derived_quantities.hpp"
#include "runtime/solver/euler_solver.hpp"

#include <vector>

namespace fv::output {

/// The free-stream reference of a case's derived quantities (q_inf = 1 when the free stream is
/// at rest).
phys::FreestreamReference freestream_reference(const FlowConfig& flow);

/// The volume solution's fields (ModelOutputs<M>::kVolume of the case's model, in order) of
/// the owned cells of a conservative state U (nVars x nTotalCells, SoA).
std::vector<CellField> volume_fields(const Zone& zone, const CaseConfig& cfg, const StateModel& sm,
                                     const std::vector<real_t>& U);
/// The same of the solver's current state.
std::vector<CellField> volume_fields(const EulerSolver& solver);

/// The surface columns (ModelOutputs<M>::kSurface) of this zone's faces of patch p: W is the
/// primitive state (nVars x nTotalCells, SoA), `wall` the viscous wall data of viscous models
/// (kernels::kWallViscousValues x nBoundaryFaces, SoA; EulerSolver::wall_viscous_data()), empty
/// for Euler.
std::vector<SurfaceColumn> surface_columns(const Zone& zone, const CaseConfig& cfg,
                                           const std::vector<real_t>& W,
                                           const std::vector<real_t>& wall, idx_t p);

} // namespace fv::output
