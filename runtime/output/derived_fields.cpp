#include "runtime/output/derived_fields.hpp"

#include "common/error.hpp"
#include "runtime/kernels/kernels.hpp"

#include <iterator>

namespace fv::output {

phys::FreestreamReference freestream_reference(const FlowConfig& flow) {
  phys::FreestreamReference r;
  r.pressure = flow.freestream[phys::kPressure];
  const real_t q = flow.dynamic_pressure();
  r.dynamicPressure = q > 0 ? q : 1.0;
  r.gamma = flow.gamma;
  r.gasConstant = flow.gasConstant;
  r.transport = flow.transport;
  return r;
}

std::vector<CellField> volume_fields(const Zone& z, const CaseConfig& cfg, const StateModel& sm,
                                     const std::vector<real_t>& U) {
  const idx_t n = z.nTotalCells();
  const std::size_t nc = static_cast<std::size_t>(z.nCells);
  const phys::FreestreamReference ref = freestream_reference(cfg.flow);
  return phys::visit_model_kind(cfg.flow.model, [&](auto m) {
    using Out = phys::ModelOutputs<decltype(m)>;
    std::vector<CellField> fields;
    for (const phys::OutputField& f : Out::kVolume)
      fields.push_back({f.name, f.components, std::vector<real_t>(nc * f.components)});
    for (idx_t c = 0; c < z.nCells; ++c) {
      real_t u[phys::kMaxVars], w[phys::kMaxVars], o[Out::kVolumeValues];
      for (int k = 0; k < sm.nVars; ++k)
        u[k] = U[k * n + c];
      sm.to_primitive(u, w, cfg.flow.gamma);
      Out::volume(u, w, ref, o);
      const real_t* v = o;
      for (CellField& f : fields)
        for (int j = 0; j < f.components; ++j)
          f.values[static_cast<std::size_t>(c) * f.components + j] = *v++;
    }
    return fields;
  });
}

std::vector<CellField> volume_fields(const EulerSolver& s) {
  return volume_fields(s.zone(), s.config(), s.state(), s.conservative());
}

std::vector<SurfaceColumn> surface_columns(const Zone& z, const CaseConfig& cfg,
                                           const std::vector<real_t>& W,
                                           const std::vector<real_t>& wall, idx_t p) {
  const std::size_t nt = static_cast<std::size_t>(z.nTotalCells());
  const std::size_t nb = static_cast<std::size_t>(z.nBoundaryFaces);
  const int nv = static_cast<int>(W.size() / (nt ? nt : 1));
  const phys::FreestreamReference ref = freestream_reference(cfg.flow);
  return phys::visit_model_kind(cfg.flow.model, [&](auto m) {
    using M = decltype(m);
    using Out = phys::ModelOutputs<M>;
    FV_VERIFY(!M::kViscous || wall.size() == kernels::kWallViscousValues * nb,
              "surface columns of a viscous model need the wall data of every boundary face");
    static_assert(Out::kSurfaceValues == static_cast<int>(std::size(Out::kSurface)),
                  "surface columns are scalars");
    std::vector<SurfaceColumn> cols;
    for (const phys::OutputField& f : Out::kSurface)
      cols.push_back({f.name, {}});
    for (idx_t f = z.patchFaceOffsets[p]; f < z.patchFaceOffsets[p + 1]; ++f) {
      const std::size_t i = static_cast<std::size_t>(f),
                        cell = static_cast<std::size_t>(z.faceOwner[f]);
      real_t w[phys::kMaxVars] = {}, d[kernels::kWallViscousValues] = {}, o[Out::kSurfaceValues];
      for (int k = 0; k < nv && k < phys::kMaxVars; ++k)
        w[k] = W[k * nt + cell];
      if (M::kViscous)
        for (int k = 0; k < kernels::kWallViscousValues; ++k)
          d[k] = wall[k * nb + i];
      Out::surface(w, d, &z.faceArea[3 * i], ref, o);
      for (int k = 0; k < Out::kSurfaceValues; ++k)
        cols[static_cast<std::size_t>(k)].values.push_back(o[k]);
    }
    return cols;
  });
}

} // namespace fv::output
