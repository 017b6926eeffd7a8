#include "formats/solution_cgns.hpp"

#include "common/error.hpp"
#include "formats/cgns_writer.hpp"

#include <cgnslib.h>

#include <map>

namespace fv {

std::vector<std::string> cgns_field_names(const CellField& f) {
  static const std::map<std::string, std::vector<std::string>> sids = {
      {"rho", {"Density"}},
      {"velocity", {"VelocityX", "VelocityY", "VelocityZ"}},
      {"p", {"Pressure"}},
      {"mach", {"Mach"}},
      {"Cp", {"CoefPressure"}},
      {"T", {"Temperature"}},
      {"nuTilde", {"TurbulentSANuTilde"}},
      {"mu_t", {"ViscosityEddy"}},
      {"rhoU",
       {"", "MomentumX", "MomentumY", "MomentumZ", "EnergyStagnationDensity"}}, // "" = Density
  };
  auto it = sids.find(f.name);
  if (it != sids.end() && static_cast<int>(it->second.size()) == f.components) return it->second;
  std::vector<std::string> out;
  for (int k = 0; k < f.components; ++k)
    out.push_back(f.components == 1 ? f.name : f.name + "_" + std::to_string(k));
  return out;
}

void write_solution_cgns(const std::string& path, const SolutionMesh& sm,
                         const std::vector<SolutionPatch>& patches,
                         const std::vector<CellField>& fields, const SolutionInfo& info) {
  sm.check(path);
  const gidx_t nc = sm.nCells();
  // the mesh as fv::Mesh (cells in global order, one MIXED section keeps that order)
  Mesh m;
  m.xyz = sm.nodeXyz;
  m.cellType = sm.cellType;
  std::vector<idx_t> off, conn;
  off.reserve(static_cast<std::size_t>(nc) + 1);
  for (gidx_t c = 0; c <= nc; ++c)
    off.push_back(static_cast<idx_t>(sm.cellNodeOffsets[static_cast<std::size_t>(c)]));
  for (gidx_t v : sm.cellNodes)
    conn.push_back(static_cast<idx_t>(v));
  for (gidx_t c = 0; c < nc; ++c)
    FV_VERIFY(sm.cellType[static_cast<std::size_t>(c)] != CellType::Polyhedron,
              path << ": cell " << c
                   << " is a polyhedron: the CGNS solution output writes "
                      "standard cells only (use solution_format = xdmf)");
  m.cellNodes = Csr(Array<idx_t>(std::move(off)), Array<idx_t>(std::move(conn)));
  std::vector<idx_t> boff{0}, bconn;
  for (std::size_t p = 0; p < patches.size(); ++p) {
    m.patches.push_back(patches[p].patch);
    const SolutionPatch& sp = patches[p];
    for (std::size_t i = 0; i + 1 < sp.offsets.size(); ++i) {
      for (std::int64_t k = sp.offsets[i]; k < sp.offsets[i + 1]; ++k)
        bconn.push_back(static_cast<idx_t>(sp.nodes[static_cast<std::size_t>(k)]));
      boff.push_back(static_cast<idx_t>(bconn.size()));
      m.bfacePatch.push_back(static_cast<idx_t>(p));
    }
  }
  m.bfaceNodes = Csr(Array<idx_t>(std::move(boff)), Array<idx_t>(std::move(bconn)));
  for (const CellField& f : fields)
    FV_VERIFY(f.values.size() == static_cast<std::size_t>(nc) * f.components,
              path << ": field '" << f.name << "' has " << f.values.size() << " values for " << nc
                   << " cells x " << f.components);

  CgnsWriteOptions o;
  o.mixedSection = true;
  o.generatedBy = "fvkit fvrun";
  o.extra = [&](int fn, int B, int Z) {
    auto check = [&](int rc, const std::string& what) {
      FV_VERIFY(rc == CG_OK,
                path << ": CGNS error while writing " << what << ": " << cg_get_error());
    };
    // units: SI, or nondimensional (the case's resolved configuration says which)
    check(cg_goto(fn, B, "end"), "data class");
    if (info.config.find("nondimensional = true") != std::string::npos) {
      check(cg_dataclass_write(CGNS_ENUMV(NormalizedByUnknownDimensional)), "data class");
    } else {
      check(cg_dataclass_write(CGNS_ENUMV(Dimensional)), "data class");
      check(cg_units_write(CGNS_ENUMV(Kilogram), CGNS_ENUMV(Meter), CGNS_ENUMV(Second),
                           CGNS_ENUMV(Kelvin), CGNS_ENUMV(Degree)),
            "units");
    }
    int S = 0;
    check(cg_sol_write(fn, B, Z, "FlowSolution", CGNS_ENUMV(CellCenter), &S), "FlowSolution");
    std::vector<double> buf(static_cast<std::size_t>(nc));
    for (const CellField& f : fields) {
      const std::vector<std::string> names = cgns_field_names(f);
      for (int k = 0; k < f.components; ++k) {
        if (names[k].empty()) continue; // the same quantity as another field
        for (gidx_t c = 0; c < nc; ++c)
          buf[static_cast<std::size_t>(c)] =
              f.values[static_cast<std::size_t>(c) * f.components + k];
        int F = 0;
        check(cg_field_write(fn, B, Z, S, CGNS_ENUMV(RealDouble), names[k].c_str(), buf.data(), &F),
              "field " + names[k]);
      }
    }
    check(cg_goto(fn, B, "Zone_t", Z, "end"), "descriptors");
    const std::string it = std::to_string(info.iteration), t = std::to_string(info.time);
    auto describe = [&](const char* name, const std::string& text) {
      if (text.empty()) return; // the library refuses an empty descriptor
      check(cg_descriptor_write(name, text.c_str()), std::string("descriptor ") + name);
    };
    describe("Iteration", it);
    describe("Time", t);
    describe("MeshUuid", info.meshUuid);
    describe("Configuration", info.config);
  };
  write_cgns(m, path, o);
}

} // namespace fv
