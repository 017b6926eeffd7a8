#include "runtime/solver/solution_output.hpp"

#include "common/log.hpp"
#include "formats/solution_cgns.hpp"
#include "formats/solution_file.hpp"
#include "runtime/parallel/gather.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/sa/spalart_allmaras.hpp"

#include <cmath>
#include <filesystem>

namespace fv {

SolutionWriter volume_solution_writer(MPI_Comm comm, const ZoneFileHeader& header) {
  return [comm, header](const EulerSolver& s, const std::string& reason) {
    const Zone& z = s.zone();
    const CaseConfig& cfg = s.config();
    const std::vector<real_t> U = s.conservative();
    const idx_t n = z.nTotalCells();
    // owned cells, interleaved: rho, u, v, w, p, Mach, the mean flow's conservative state, Cp
    // (Navier-Stokes adds the temperature T = p / (rho R); RANS nu-tilde and the eddy
    // viscosity mu_t)
    const StateModel& sm = s.state();
    constexpr int E = phys::kNumEq;
    const int K = E + 1 + E + 1 + (cfg.flow.viscous() ? 1 : 0) + (sm.rans ? 2 : 0);
    const int cpCol = 2 * E + 1, tCol = cpCol + 1, ntCol = tCol + 1;
    const real_t pInf = cfg.flow.freestream[4];
    const real_t qInf = cfg.flow.dynamic_pressure() > 0 ? cfg.flow.dynamic_pressure() : 1.0;
    std::vector<real_t> owned(static_cast<std::size_t>(z.nCells) * K);
    for (idx_t c = 0; c < z.nCells; ++c) {
      real_t u[phys::kMaxVars], w[phys::kMaxVars];
      for (int k = 0; k < sm.nVars; ++k)
        u[k] = U[k * n + c];
      sm.to_primitive(u, w, cfg.flow.gamma);
      const real_t a = std::sqrt(std::fabs(cfg.flow.gamma * w[4] / w[0]));
      real_t* o = &owned[static_cast<std::size_t>(c) * K];
      for (int k = 0; k < E; ++k)
        o[k] = w[k];
      o[E] = std::sqrt(w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) / a;
      for (int k = 0; k < E; ++k)
        o[E + 1 + k] = u[k];
      o[cpCol] = (w[4] - pInf) / qInf; // pressure coefficient
      if (cfg.flow.viscous()) o[tCol] = w[4] / (w[0] * cfg.flow.gasConstant);
      if (sm.rans) {
        const real_t nuTilde = w[phys::SaModel::kNuTilde];
        o[ntCol] = nuTilde;
        o[ntCol + 1] =
            phys::sa::eddy_viscosity(w[0], nuTilde, phys::viscosity(cfg.flow.transport, o[tCol]));
      }
    }
    const std::vector<real_t> g =
        parallel::gather_cells(comm, z, owned.data(), K, header.nGlobalCells);
    const SolutionMesh mesh =
        parallel::gather_mesh(comm, z, header.nGlobalNodes, header.nGlobalCells);
    // the CGNS file's boundary: every patch's faces in global node ids (collective)
    std::vector<SolutionPatch> patches;
    if (cfg.monitor.solutionFormat != SolutionFormat::Xdmf)
      for (idx_t p = 0; p < z.nPatches(); ++p) {
        const SurfacePatchData d =
            parallel::gather_surface(comm, z, p, cfg.patches[static_cast<std::size_t>(p)].name, {});
        SolutionPatch sp;
        sp.patch = header.patches.at(static_cast<std::size_t>(p));
        sp.offsets = d.cornerOffsets;
        sp.nodes = d.cornerNode;
        patches.push_back(std::move(sp));
      }
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank != 0) return;
    const std::size_t nc = static_cast<std::size_t>(header.nGlobalCells);
    auto field = [&](const char* name, int first, int comps) {
      CellField f{name, comps, std::vector<real_t>(nc * comps)};
      for (std::size_t c = 0; c < nc; ++c)
        for (int j = 0; j < comps; ++j)
          f.values[c * comps + j] = g[c * K + first + j];
      return f;
    };
    std::vector<CellField> fields = {field("rho", 0, 1),    field("velocity", 1, 3),
                                     field("p", 4, 1),      field("mach", E, 1),
                                     field("Cp", cpCol, 1), field("rhoU", E + 1, E)};
    if (cfg.flow.viscous()) fields.push_back(field("T", tCol, 1));
    if (sm.rans) {
      fields.push_back(field("nuTilde", ntCol, 1));
      fields.push_back(field("mu_t", ntCol + 1, 1));
    }
    SolutionInfo info;
    info.iteration = s.iteration();
    info.time = s.time();
    info.meshUuid = header.meshUuid;
    info.config = cfg.resolvedIni;
    const std::string stem = reason == "final" ? "solution" : "solution_last_good";
    const std::filesystem::path dir(cfg.monitor.outputDir);
    if (cfg.monitor.solutionFormat != SolutionFormat::Cgns) {
      const std::string path = (dir / (stem + ".h5")).string();
      write_solution(path, mesh, fields, info);
      FV_LOG_INFO("wrote " << path << " (" << reason << ", iteration " << s.iteration() << ")");
    }
    if (cfg.monitor.solutionFormat != SolutionFormat::Xdmf) {
      const std::string path = (dir / (stem + ".cgns")).string();
      write_solution_cgns(path, mesh, patches, fields, info);
      FV_LOG_INFO("wrote " << path << " (" << reason << ", iteration " << s.iteration() << ")");
    }
  };
}

} // namespace fv
