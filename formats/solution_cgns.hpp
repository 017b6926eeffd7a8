#pragma once
/// \file solution_cgns.hpp
/// Volume solution as CGNS/HDF5 (solution.cgns, [monitor] solution_format = cgns | both), for
/// CGNS-based post-processing and for restarting in another solver: the global mesh (one
/// MIXED section of the cells in global order), one boundary section and one BC_t per patch
/// (FaceCenter PointRange, BCType from the zone file), and FlowSolution "FlowSolution" at
/// CellCenter with one array per component, SIDS names where they exist (Density, VelocityX,
/// Pressure, Mach, CoefPressure, Temperature, MomentumX, EnergyStagnationDensity, ...).
/// Iteration, time, mesh UUID and the resolved configuration are Descriptor_t nodes; the base's
/// DataClass is Dimensional with SI units, or NormalizedByUnknownDimensional for
/// nondimensional cases.
/// Written through fv::AtomicFile (formats/cgns_writer.hpp). Polyhedral cells are refused.
#include "formats/solution_file.hpp"

#include <string>
#include <vector>

namespace fv {

/// The boundary faces of one patch in global node ids: corners of face i are
/// nodes[offsets[i] .. offsets[i+1]) (triangles or quadrilaterals, normal out of the fluid).
struct SolutionPatch {
  Patch patch; ///< name and CGNS BCType
  std::vector<std::int64_t> offsets{0};
  std::vector<gidx_t> nodes;
};

/// The CGNS array names of a field's components (SIDS names for fvrun's fields, else
/// name, or name_k for component k of a vector; "" for a component not written because another
/// field holds it, e.g. the density of the conservative state).
std::vector<std::string> cgns_field_names(const CellField& f);

/// Writes mesh + patches + fields to `path` (CGNS/HDF5). Throws fv::Error naming the file.
void write_solution_cgns(const std::string& path, const SolutionMesh& mesh,
                         const std::vector<SolutionPatch>& patches,
                         const std::vector<CellField>& fields, const SolutionInfo& info);

} // namespace fv
