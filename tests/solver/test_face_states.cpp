// Stored face states (kernels::gradient_limiter_states, SpatialOperator::set_face_states): the
// cell loop that stores each face's reconstructed primitives, and the face loops that read them,
// must give bitwise the limiter and the face fluxes of the face loops that reconstruct from the
// stored gradient, on every cell shape (the kernels' uniform and general paths), for every
// limiter, with the non-physical fallback, in FP64 and with FP32 geometry; and the residual and
// the Runge-Kutta update of SpatialOperator must be bitwise the same with and without them. Runs
// on the backend the build has (test_solver_backends compares the GPU with the CPU).
#include "prep/generate_mesh.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/patch_table.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

using fv::idx_t;
using fv::real_t;

namespace {

/// fvgen's supersonic wedge (patches as testing::kSupersonicWedgePatches) of `cells`, perturbed
/// and shuffled.
fv::Mesh wedge_mesh(fv::GenCells cells) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Wedge;
  o.cells = cells;
  o.n = {8, 5, 3};
  o.perturb = 0.2;
  o.shuffle = true;
  return fv::generate_mesh(o);
}

fv::Zone wedge_zone(fv::GenCells cells) {
  return fv::testing::zone_from_mesh(wedge_mesh(cells));
}

const char* name(fv::GenCells c) {
  switch (c) {
  case fv::GenCells::Tet:
    return "tetrahedra";
  case fv::GenCells::Hex:
    return "hexahedra";
  case fv::GenCells::Prism:
    return "prisms";
  default:
    return "mixed cells";
  }
}

/// A positive field of 5 components at the points xyz (3 per point): amp scales its variation,
/// with a steep front in x.
std::vector<real_t> field(const real_t* xyz, idx_t n, real_t amp) {
  std::vector<real_t> f(5 * static_cast<std::size_t>(n));
  for (idx_t i = 0; i < n; ++i) {
    const real_t x = xyz[3 * i], y = xyz[3 * i + 1], z = xyz[3 * i + 2];
    for (int k = 0; k < 5; ++k) {
      const real_t s = std::tanh(8.0 * (x - 0.5) + k * y) + 0.3 * std::sin(3.0 * z + k);
      f[static_cast<std::size_t>(k) * n + i] = (k >= 1 && k <= 3 ? 0.0 : 1.5) + amp * s;
    }
  }
  return f;
}

struct Fluxes {
  std::vector<real_t> flux, phi, states;
  std::vector<idx_t> slots;
};

/// How fluxes() computes: through the stored gradient, through stored face states with the
/// face geometry read through cellFaces, or with its slot-ordered copies (FaceStateStore::
/// slotOffset, slotNeighbour; zones of one cell shape, else as States).
enum class Path { Gradient, States, SlotStates };

/// The slot-ordered face geometry of precision G of a zone (face_state_geometry()); the arrays
/// stay empty where the zone has none, and for nSlots 0.
template <class G>
struct SlotGeometry {
  fv::DeviceArray<G> offset;
  fv::DeviceArray<idx_t> neighbour;
  SlotGeometry(const fv::ZoneViewT<G>& v, idx_t nSlots) {
    if (nSlots == 0 || !fv::kernels::has_slot_geometry(v)) return;
    offset = fv::DeviceArray<G>(3 * static_cast<std::size_t>(nSlots), "slot offsets");
    neighbour = fv::DeviceArray<idx_t>(static_cast<std::size_t>(nSlots), "slot neighbours");
    fv::kernels::face_state_geometry(v, nSlots, offset.data(), neighbour.data());
  }
  /// `store` reading them.
  void attach(fv::kernels::FaceStateStore& store) const {
    if (offset.empty()) return;
    if constexpr (std::is_same_v<G, float>)
      store.slotOffsetSingle = offset.data();
    else
      store.slotOffset = offset.data();
    store.slotNeighbour = neighbour.data();
  }
};

/// The face fluxes and the limiter of node values Wn and cell values W by `path`.
template <class G>
Fluxes fluxes(const fv::DeviceZone& dz, const fv::Zone& zone, const fv::DeviceArray<real_t>& Wn,
              const fv::DeviceArray<real_t>& W, fv::kernels::Limiter kind, Path path) {
  const bool states = path != Path::Gradient;
  const fv::ZoneViewT<G>& v = dz.view_as<G>();
  const std::size_t nt = static_cast<std::size_t>(v.nTotalCells);
  const std::size_t nf = static_cast<std::size_t>(v.nFaces);
  const idx_t nSlots = zone.cellFaces.nnz();
  fv::DeviceArray<real_t> grad(std::vector<real_t>(15 * nt, 0.0), "grad"),
      phi(std::vector<real_t>(5 * nt, 0.0), "phi"),
      st(std::vector<real_t>(5 * static_cast<std::size_t>(nSlots), 0.0), "face states"),
      flux(std::vector<real_t>(5 * nf, 0.0), "flux");
  fv::DeviceArray<idx_t> slots(2 * nf, "slots");
  fv::kernels::face_state_slots(dz.view(), slots.data());
  fv::kernels::FaceStateStore store{st.data(), slots.data(), nSlots};
  const SlotGeometry<G> geometry(v, path == Path::SlotStates ? nSlots : 0);
  if (path == Path::SlotStates) geometry.attach(store);
  std::vector<fv::phys::BcParams> bcs(static_cast<std::size_t>(zone.nPatches()));
  for (auto& b : bcs)
    b.ref[0] = 1.2;
  const fv::kernels::PatchTable patches(
      std::vector<idx_t>(zone.patchFaceOffsets.begin(), zone.patchFaceOffsets.end()), bcs);
  const fv::kernels::FluxSettings fs;
  const fv::kernels::LimiterScales sc;
  if (states) {
    fv::kernels::gradient_limiter_states<5>(v, Wn.data(), kind, 0.5, sc, W.data(), nullptr,
                                            {nullptr, phi.data(), true, v.nCells}, store);
    // the face loops read no geometry of precision G
    fv::kernels::interior_state_fluxes<fv::phys::EulerModel>(dz.view(), fs, store, flux.data());
    fv::kernels::boundary_state_fluxes<fv::phys::EulerModel>(dz.view(), patches.view(), fs, store,
                                                             flux.data());
  } else {
    fv::kernels::gradient_and_limiter<5>(v, Wn.data(), kind, 0.5, sc, W.data(), nullptr,
                                         grad.data(), phi.data());
    fv::kernels::interior_fluxes<fv::phys::EulerModel>(v, fs, W.data(), grad.data(), phi.data(),
                                                       flux.data());
    fv::kernels::boundary_fluxes<fv::phys::EulerModel>(v, patches.view(), fs, W.data(), grad.data(),
                                                       phi.data(), flux.data());
  }
  return {flux.to_host(), phi.to_host(), st.to_host(), slots.to_host()};
}

/// fn(cells, zone, dz) for the wedge of each cell shape (the kernels' uniform and general
/// paths), dz with its FP32 geometry too.
template <class Fn>
void for_each_wedge(Fn&& fn) {
  for (const auto cells :
       {fv::GenCells::Tet, fv::GenCells::Hex, fv::GenCells::Prism, fv::GenCells::Mixed}) {
    SCOPED_TRACE(name(cells));
    const fv::Zone zone = wedge_zone(cells);
    fv::DeviceZone dz(zone);
    dz.add_single_geometry();
    fn(cells, zone, dz);
  }
}

} // namespace

TEST(FaceStates, FluxesAndLimiterAreBitwiseThoseReconstructedFromTheGradient) {
  for_each_wedge([](fv::GenCells, const fv::Zone& zone, const fv::DeviceZone& dz) {
    const idx_t nc = zone.nCells, nf = zone.nFaces;
    const fv::DeviceArray<real_t> W(field(zone.cellCentroid.data(), zone.nTotalCells(), 0.5), "W");
    // node values of a larger amplitude: steep gradients, so that unlimited reconstructions
    // leave the physical range at some faces (the fallback to the cell value)
    const fv::DeviceArray<real_t> Wn(field(zone.nodeXyz.data(), zone.nNodes, 4.0), "Wn");
    for (const auto kind :
         {fv::kernels::Limiter::Venkat, fv::kernels::Limiter::Barth, fv::kernels::Limiter::None}) {
      for (const bool single : {false, true}) {
        SCOPED_TRACE(std::string(kind == fv::kernels::Limiter::None ? "no limiter" : "limiter") +
                     (single ? ", FP32 geometry" : ", FP64"));
        const auto run = [&](Path path) {
          return single ? fluxes<float>(dz, zone, Wn, W, kind, path)
                        : fluxes<real_t>(dz, zone, Wn, W, kind, path);
        };
        const Fluxes a = run(Path::Gradient);
        const Fluxes b = run(Path::States);
        const Fluxes bs = run(Path::SlotStates);
        std::size_t nonzero = 0;
        for (std::size_t i = 0; i < a.flux.size(); ++i) {
          ASSERT_EQ(a.flux[i], b.flux[i]) << "face flux entry " << i;
          ASSERT_EQ(a.flux[i], bs.flux[i]) << "face flux entry " << i << ", slot geometry";
          nonzero += a.flux[i] != 0.0;
        }
        EXPECT_GT(nonzero, a.flux.size() / 2);
        for (int k = 0; k < 5; ++k)
          for (idx_t c = 0; c < nc; ++c) {
            const std::size_t i = static_cast<std::size_t>(k) * zone.nTotalCells() + c;
            ASSERT_EQ(a.phi[i], b.phi[i]) << "limiter of cell " << c;
            ASSERT_EQ(a.phi[i], bs.phi[i]) << "limiter of cell " << c << ", slot geometry";
          }
        ASSERT_EQ(b.states, bs.states) << "face states with the slot geometry";
        if (kind != fv::kernels::Limiter::None) continue;
        // without a limiter: some owner states fell back to the cell value, most did not
        const std::vector<real_t> w = W.to_host();
        const std::size_t nSlots = b.states.size() / 5;
        idx_t fallback = 0;
        for (idx_t f = 0; f < nf; ++f) {
          bool same = true;
          const auto slot = static_cast<std::size_t>(b.slots[2 * static_cast<std::size_t>(f)]);
          for (int k = 0; k < 5; ++k)
            same =
                same && b.states[k * nSlots + slot] ==
                            w[static_cast<std::size_t>(k) * zone.nTotalCells() + zone.faceOwner[f]];
          fallback += same;
        }
        EXPECT_GT(fallback, 0) << "no face state fell back to its cell value";
        EXPECT_LT(fallback, nf / 2);
      }
    }
  });
}

// Every cell face gets its own slot, and each face the slots of its two sides (boundary faces
// one), on the uniform shapes' transposed slots and the general path's entries.
TEST(FaceStates, EveryCellFaceHasOneSlotAndEveryFaceItsSides) {
  for (const auto cells :
       {fv::GenCells::Tet, fv::GenCells::Hex, fv::GenCells::Prism, fv::GenCells::Mixed}) {
    SCOPED_TRACE(name(cells));
    const fv::Zone zone = wedge_zone(cells);
    const fv::DeviceZone dz(zone);
    fv::DeviceArray<idx_t> d(2 * static_cast<std::size_t>(zone.nFaces), "slots");
    fv::kernels::face_state_slots(dz.view(), d.data());
    const std::vector<idx_t> slots = d.to_host();
    const idx_t nSlots = zone.cellFaces.nnz();
    std::vector<int> hits(static_cast<std::size_t>(nSlots), 0);
    for (idx_t f = 0; f < zone.nFaces; ++f)
      for (int side = 0; side < 2; ++side) {
        const idx_t s = slots[2 * static_cast<std::size_t>(f) + side];
        if (side == 1 && f < zone.nBoundaryFaces) {
          EXPECT_EQ(s, -1) << "boundary face " << f;
          continue;
        }
        ASSERT_GE(s, 0) << "face " << f;
        ASSERT_LT(s, nSlots) << "face " << f;
        ++hits[static_cast<std::size_t>(s)];
      }
    for (std::size_t i = 0; i < hits.size(); ++i)
      ASSERT_EQ(hits[i], 1) << "slot " << i;
  }
}

// The slot geometry is the face arrays in slot order: each slot's offset is its cell's side's
// faceOwnerDelta / faceNeighbourDelta, and each cell's slot neighbours are its cellCells (as a
// multiset), in FP64 and FP32, on the shapes that have it (one cell shape); the others have
// none. FaceStateArrays stores it on hexahedra only (kSlotGeometry).
TEST(FaceStates, SlotGeometryIsTheFaceGeometryInSlotOrder) {
  for_each_wedge([](fv::GenCells cells, const fv::Zone& zone, const fv::DeviceZone& dz) {
    const bool uniform = cells == fv::GenCells::Tet || cells == fv::GenCells::Hex;
    ASSERT_EQ(fv::kernels::has_slot_geometry(dz.view()), uniform);
    EXPECT_EQ(fv::kernels::stores_slot_geometry(dz.view()), cells == fv::GenCells::Hex);
    if (!uniform) return;
    const idx_t nSlots = zone.cellFaces.nnz();
    const SlotGeometry<real_t> g64(dz.view(), nSlots);
    const SlotGeometry<float> g32(dz.view_as<float>(), nSlots);
    const std::vector<real_t> off = g64.offset.to_host();
    const std::vector<float> off32 = g32.offset.to_host();
    const std::vector<idx_t> nb = g64.neighbour.to_host();
    ASSERT_EQ(g32.neighbour.to_host(), nb);
    const auto ns = static_cast<std::size_t>(nSlots);
    for (idx_t c = 0; c < zone.nCells; ++c) {
      std::vector<idx_t> across;
      for (idx_t e = zone.cellFaces.begin(c); e < zone.cellFaces.end(c); ++e) {
        const idx_t f = zone.cellFaces.indices()[e];
        const bool owner = zone.cellFaceSign[e] > 0;
        const real_t* d = owner ? &zone.faceOwnerDelta[3 * static_cast<std::size_t>(f)]
                                : &zone.faceNeighbourDelta[3 * static_cast<std::size_t>(f)];
        const std::size_t i =
            static_cast<std::size_t>((e - zone.cellFaces.begin(c)) * zone.nCells + c);
        for (std::size_t k = 0; k < 3; ++k) {
          ASSERT_EQ(off[k * ns + i], d[k]) << "cell " << c << ", face " << f;
          ASSERT_EQ(off32[k * ns + i], static_cast<float>(d[k])) << "cell " << c << ", face " << f;
        }
        if (nb[i] >= 0)
          across.push_back(nb[i]);
        else
          EXPECT_LT(f, zone.nBoundaryFaces) << "cell " << c;
      }
      std::vector<idx_t> cc(zone.cellCells.indices().begin() + zone.cellCells.begin(c),
                            zone.cellCells.indices().begin() + zone.cellCells.end(c));
      std::sort(across.begin(), across.end());
      std::sort(cc.begin(), cc.end());
      ASSERT_EQ(across, cc) << "neighbours of cell " << c;
    }
  });
}

// The pass reads the slot geometry where the store has it: other neighbours give another
// limiter (so the bitwise equality above is not that of one path with itself).
TEST(FaceStates, ThePassReadsTheSlotGeometry) {
  const fv::Zone zone = wedge_zone(fv::GenCells::Hex);
  const fv::DeviceZone dz(zone);
  const fv::DeviceArray<real_t> W(field(zone.cellCentroid.data(), zone.nTotalCells(), 0.5), "W");
  const fv::DeviceArray<real_t> Wn(field(zone.nodeXyz.data(), zone.nNodes, 4.0), "Wn");
  const idx_t nSlots = zone.cellFaces.nnz();
  const auto ns = static_cast<std::size_t>(nSlots);
  fv::DeviceArray<real_t> st(std::vector<real_t>(5 * ns, 0.0), "face states"),
      phi(std::vector<real_t>(5 * static_cast<std::size_t>(zone.nTotalCells()), 0.0), "phi");
  fv::DeviceArray<idx_t> slots(2 * static_cast<std::size_t>(zone.nFaces), "slots");
  fv::kernels::face_state_slots(dz.view(), slots.data());
  SlotGeometry<real_t> geometry(dz.view(), nSlots);
  const auto limiter = [&](const SlotGeometry<real_t>* g) {
    fv::kernels::FaceStateStore store{st.data(), slots.data(), nSlots};
    if (g) g->attach(store);
    fv::kernels::gradient_limiter_states<5>(dz.view(), Wn.data(), fv::kernels::Limiter::Venkat, 0.5,
                                            fv::kernels::LimiterScales{}, W.data(), nullptr,
                                            {nullptr, phi.data(), true, zone.nCells}, store);
    return phi.to_host();
  };
  const std::vector<real_t> base = limiter(nullptr);
  ASSERT_EQ(limiter(&geometry), base);
  std::vector<idx_t> nb = geometry.neighbour.to_host();
  for (auto& n : nb)
    n = n >= 0 ? -1 : n; // no neighbour: the extrema of the cell alone
  geometry.neighbour = fv::DeviceArray<idx_t>(nb, "slot neighbours");
  EXPECT_NE(limiter(&geometry), base);
}

namespace {

struct Evaluation {
  std::vector<real_t> R, Unew, phi;
  bool stored = false, gradients = false;
};

/// The residual and one Runge-Kutta update of the case `ini` on a wedge of `cells`, with or
/// without stored face states; `frozen`: a second evaluation with the limiter frozen.
Evaluation evaluate(fv::GenCells cells, const std::string& ini, bool states, bool frozen = false) {
  const fv::Mesh mesh = wedge_mesh(cells);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(ini + fv::testing::kSupersonicWedgePatches, "states.ini"), mesh.patches);
  fv::SpatialOperator op(zone, cfg);
  op.set_face_states(states);
  const std::vector<real_t> u = fv::testing::smooth_state(zone, cfg, 0.3);
  const fv::DeviceArray<real_t> U(u, "U");
  fv::DeviceArray<real_t> Unew(u.size(), "U new"), dt(u.size() / 5, "dt");
  op.primitives(U.data());
  op.local_time_step(0.5, dt.data());
  op.evaluate(U.data(), true);
  Evaluation e;
  e.stored = op.stores_face_states();
  e.gradients = op.gradients() != nullptr;
  if (frozen) {
    op.freeze_limiter(true);
    const fv::DeviceArray<real_t> U2(fv::testing::smooth_state(zone, cfg, 0.25), "U2");
    op.evaluate(U2.data());
  }
  e.R = op.residual_array().to_host();
  op.evaluate_and_update(
      fv::RkUpdate{0.5, 0.5, 1.0, dt.data(), -1.0, U.data(), U.data(), Unew.data()});
  e.Unew = Unew.to_host();
  return e;
}

void expect_same(const std::string& ini, bool frozen = false) {
  for (const auto cells : {fv::GenCells::Tet, fv::GenCells::Hex, fv::GenCells::Mixed}) {
    SCOPED_TRACE(name(cells));
    const Evaluation a = evaluate(cells, ini, false, frozen),
                     b = evaluate(cells, ini, true, frozen);
    EXPECT_FALSE(a.stored);
    EXPECT_TRUE(b.stored);
    EXPECT_TRUE(a.gradients);
    EXPECT_FALSE(b.gradients) << "no gradient is stored with the face states";
    ASSERT_EQ(a.R.size(), b.R.size());
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < a.R.size(); ++i) {
      ASSERT_EQ(a.R[i], b.R[i]) << "residual entry " << i;
      nonzero += a.R[i] != 0.0;
    }
    EXPECT_GT(nonzero, a.R.size() / 2);
    for (std::size_t i = 0; i < a.Unew.size(); ++i)
      ASSERT_EQ(a.Unew[i], b.Unew[i]) << "updated state entry " << i;
  }
}

} // namespace

TEST(FaceStates, ResidualAndUpdateAreBitwiseTheSameWithAndWithout) {
  const std::string fs = "[freestream]\nmach = 2.5\n[scheme]\n";
  expect_same(fs + "limiter = venkat\n");
  expect_same(fs + "limiter = venkat_wang\n");
  expect_same(fs + "limiter = barth\n");
  expect_same(fs + "limiter = none\n");
  expect_same(fs + "limiter_region = supersonic\n");
  expect_same(fs + "flux = rusanov\n");
  expect_same(fs + "precision = mixed\n");
}

TEST(FaceStates, AFrozenLimiterIsTheOneTheFaceStatesPassComputed) {
  // a case that may freeze the limiter: the face-state pass stores phi
  expect_same("[freestream]\nmach = 2.5\n[scheme]\nlimiter = venkat\nlimiter_freeze = 3\n", true);
  expect_same("[freestream]\nmach = 2.5\n[scheme]\nlimiter = venkat\nlimiter_freeze_stall = 9\n",
              true);
}

TEST(FaceStates, OnlyWhereTheGradientHasNoOtherReader) {
  const fv::Mesh mesh = wedge_mesh(fv::GenCells::Hex);
  const fv::Zone small = fv::testing::zone_from_mesh(mesh);
  const auto stores = [&](const std::string& ini) {
    const fv::CaseConfig cfg =
        fv::resolve_case(fv::IniFile::parse("[freestream]\nmach = 2.5\n" + ini +
                                                fv::testing::kSupersonicWedgePatches,
                                            "states.ini"),
                         mesh.patches);
    fv::SpatialOperator op(small, cfg);
    return op.stores_face_states();
  };
  EXPECT_TRUE(stores(""));
  EXPECT_FALSE(stores("[scheme]\norder = 1\n")) << "first order reconstructs nothing";
  EXPECT_FALSE(stores("reynolds = 1e5\n[physics]\nmodel = navier_stokes\n"))
      << "the viscous fluxes read grad";
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(std::string("[freestream]\nmach = 2.5\n") +
                                              fv::testing::kSupersonicWedgePatches,
                                          "states.ini"),
                       mesh.patches);
  fv::SpatialOperator op(small, cfg);
  op.set_face_states(false);
  EXPECT_FALSE(op.stores_face_states());
  op.set_face_states(true);
  op.set_exchange([](const char*, real_t*, int) {});
  EXPECT_FALSE(op.stores_face_states()) << "halo cells' faces reconstruct from their gradient";
}

// A case that cannot freeze the limiter stores no phi on the face-state path; freezing it
// anyway (the SpatialOperator API allows it) computes phi at the next evaluation and keeps
// that one: the same residuals as the gradient path freezing at that evaluation.
TEST(FaceStates, FreezingWithoutAStoredLimiterKeepsTheNextOne) {
  const fv::Mesh mesh = wedge_mesh(fv::GenCells::Hex);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(std::string("[freestream]\nmach = 2.5\n[scheme]\nlimiter = venkat\n") +
                             fv::testing::kSupersonicWedgePatches,
                         "states.ini"),
      mesh.patches);
  const fv::DeviceArray<real_t> U1(fv::testing::smooth_state(zone, cfg, 0.3), "U1"),
      U2(fv::testing::smooth_state(zone, cfg, 0.25), "U2"),
      U3(fv::testing::smooth_state(zone, cfg, 0.2), "U3");
  fv::SpatialOperator states(zone, cfg), gradient(zone, cfg);
  gradient.set_face_states(false);
  ASSERT_TRUE(states.stores_face_states());
  states.evaluate(U1.data());
  states.freeze_limiter(true);
  states.evaluate(U2.data()); // computes (and stores) phi of U2
  gradient.evaluate(U2.data());
  EXPECT_EQ(states.residual_array().to_host(), gradient.residual_array().to_host());
  gradient.freeze_limiter(true);
  states.evaluate(U3.data()); // both with phi of U2
  gradient.evaluate(U3.data());
  const std::vector<real_t> a = states.residual_array().to_host(),
                            b = gradient.residual_array().to_host();
  EXPECT_EQ(a, b);
  // and not the residual of a limiter computed from U3
  fv::SpatialOperator fresh(zone, cfg);
  fresh.evaluate(U3.data());
  EXPECT_NE(a, fresh.residual_array().to_host()) << "the frozen limiter must matter here";
}
