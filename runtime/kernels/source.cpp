// Volume sources of the models with a source term (M::Source: the Spalart-Allmaras production,
// destruction and cb2 term of physics/sa/sa_model.hpp), subtracted from the residual.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {

template <class M>
void source_term(const ZoneView& z, const phys::Transport& t, const real_t* W, const real_t* grad,
                 real_t* R) {
  static_assert(M::kSource, "source kernels are for models with a source term");
  using Source = typename M::Source;
  constexpr int N = M::kNumVars;
  FV_ASSERT(z.cellWallDistance, "a source term without wall distance (SpatialOperator checks it)");
  const ZoneView v = z;
  const phys::Transport tr = t;
  forall("turbulence_source", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t w[N], g[3 * N], Q[Source::kCount];
    for (int k = 0; k < N; ++k)
      w[k] = W[k * n + c];
    for (int k = 0; k < 3 * N; ++k)
      g[k] = grad[k * n + c];
    Source::integrated(w, g, v.cellWallDistance[c], v.cellVolume[c], tr, Q);
    for (int k = 0; k < Source::kCount; ++k)
      R[(Source::kFirst + k) * n + c] -= Q[k];
  });
}

#define FV_INSTANTIATE(M)                                                                          \
  template void source_term<M>(const ZoneView&, const phys::Transport&, const real_t*,             \
                               const real_t*, real_t*);
FV_FOR_EACH_SOURCE_MODEL(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
