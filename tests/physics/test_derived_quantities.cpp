// The outputs' derived quantities of a known state (runtime/physics/derived_quantities.hpp):
// Mach number, pressure coefficient, temperature, eddy viscosity and skin friction against
// hand arithmetic, and each model's volume fields and surface columns: names, components, and
// one cell's (face's) values in the listed order.
#include "runtime/physics/derived_quantities.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <string>
#include <vector>

using fv::real_t;
namespace phys = fv::phys;

namespace {

// rho 1.2, velocity (30, 40, 0): |u| = 50; p 1e5; nu-tilde 3e-5
constexpr real_t kW[6] = {1.2, 30.0, 40.0, 0.0, 1.0e5, 3.0e-5};

phys::FreestreamReference reference() {
  phys::FreestreamReference r;
  r.pressure = 9.0e4;
  r.dynamicPressure = 0.5 * 1.2 * 50.0 * 50.0; // 1500
  r.gamma = 1.4;
  r.gasConstant = 287.05;
  return r;
}

template <std::size_t N>
std::vector<std::string> names(const phys::OutputField (&fields)[N]) {
  std::vector<std::string> v;
  for (const phys::OutputField& f : fields)
    v.push_back(f.name + (f.components > 1 ? ":" + std::to_string(f.components) : ""));
  return v;
}

} // namespace

TEST(DerivedQuantities, OfAKnownState) {
  const phys::FreestreamReference r = reference();
  // a = sqrt(1.4 1e5 / 1.2) = 341.565...
  EXPECT_NEAR(phys::mach_number(kW, 1.4), 50.0 / std::sqrt(1.4e5 / 1.2), 1e-15);
  EXPECT_DOUBLE_EQ(phys::pressure_coefficient(kW[4], r), 1.0e4 / 1500.0);
  EXPECT_DOUBLE_EQ(phys::temperature(kW, r.gasConstant), 1.0e5 / (1.2 * 287.05));
  // mu_t = rho nu-tilde fv1(chi), chi = rho nu-tilde / mu, fv1 = chi^3 / (chi^3 + 7.1^3)
  const real_t T = phys::temperature(kW, r.gasConstant);
  const real_t mu = phys::viscosity(r.transport, T);
  const real_t chi = 1.2 * 3.0e-5 / mu, chi3 = chi * chi * chi;
  EXPECT_NEAR(phys::eddy_viscosity(kW, T, r), 1.2 * 3.0e-5 * chi3 / (chi3 + 7.1 * 7.1 * 7.1),
              1e-12 * 1.2 * 3.0e-5);
  real_t negative[6] = {kW[0], kW[1], kW[2], kW[3], kW[4], -1e-5};
  EXPECT_EQ(phys::eddy_viscosity(negative, T, r), 0.0) << "SA-neg: no eddy viscosity";
  EXPECT_DOUBLE_EQ(phys::skin_friction(3.0, 2.0, r), 3.0 / 3000.0);
  // the speed of sound of a non-physical state is still defined (|gamma p / rho|)
  const real_t W[5] = {1.0, 2.0, 0.0, 0.0, -1.0 / 1.4};
  EXPECT_DOUBLE_EQ(phys::mach_number(W, 1.4), 2.0);
}

TEST(DerivedQuantities, VolumeFieldsOfEachModelListedWithTheirValues) {
  using E = phys::ModelOutputs<phys::EulerModel>;
  using N = phys::ModelOutputs<phys::NavierStokesModel>;
  using S = phys::ModelOutputs<phys::SaModel>;
  const std::vector<std::string> euler = {"rho", "velocity:3", "p", "mach", "Cp", "rhoU:5"};
  EXPECT_EQ(names(E::kVolume), euler);
  std::vector<std::string> ns = euler;
  ns.push_back("T");
  EXPECT_EQ(names(N::kVolume), ns);
  std::vector<std::string> sa = ns;
  sa.push_back("nuTilde");
  sa.push_back("mu_t");
  EXPECT_EQ(names(S::kVolume), sa);
  EXPECT_EQ(E::kVolumeValues, 12);
  EXPECT_EQ(N::kVolumeValues, 13);
  EXPECT_EQ(S::kVolumeValues, 15);

  const phys::FreestreamReference r = reference();
  real_t U[6];
  phys::SaModel::to_conservative(kW, U, r.gamma);
  real_t o[S::kVolumeValues];
  S::volume(U, kW, r, o);
  for (int k = 0; k < 5; ++k)
    EXPECT_EQ(o[k], kW[k]) << "rho, velocity, p";
  EXPECT_EQ(o[5], phys::mach_number(kW, r.gamma));
  EXPECT_EQ(o[6], phys::pressure_coefficient(kW[4], r));
  for (int k = 0; k < 5; ++k)
    EXPECT_EQ(o[7 + k], U[k]) << "the mean flow's conservative state";
  const real_t T = phys::temperature(kW, r.gasConstant);
  EXPECT_EQ(o[12], T);
  EXPECT_EQ(o[13], kW[5]);
  EXPECT_EQ(o[14], phys::eddy_viscosity(kW, T, r));
  // the models share their common fields' values
  real_t e[E::kVolumeValues], n[N::kVolumeValues];
  E::volume(U, kW, r, e);
  N::volume(U, kW, r, n);
  for (int k = 0; k < E::kVolumeValues; ++k) {
    EXPECT_EQ(e[k], o[k]) << k;
    EXPECT_EQ(n[k], o[k]) << k;
  }
  EXPECT_EQ(n[12], T);
}

TEST(DerivedQuantities, SurfaceColumnsOfEachModel) {
  using E = phys::ModelOutputs<phys::EulerModel>;
  using N = phys::ModelOutputs<phys::NavierStokesModel>;
  EXPECT_EQ(names(E::kSurface), (std::vector<std::string>{"p", "Cp"}));
  const std::vector<std::string> viscous = {"p",    "Cp", "Cf_x",      "Cf_y",
                                            "Cf_z", "Cf", "heat_flux", "y_plus"};
  EXPECT_EQ(names(N::kSurface), viscous);
  EXPECT_EQ(names(phys::ModelOutputs<phys::SaModel>::kSurface), viscous);

  const phys::FreestreamReference r = reference();
  const real_t S[3] = {0.0, 0.0, -2.0};              // area 2
  const real_t wall[5] = {3.0, -4.0, 0.0, 7.0, 0.5}; // viscous force, heat flux, y+
  real_t e[E::kSurfaceValues], v[N::kSurfaceValues];
  E::surface(kW, wall, S, r, e);
  N::surface(kW, wall, S, r, v);
  EXPECT_EQ(e[0], 1.0e5);
  EXPECT_DOUBLE_EQ(e[1], 1.0e4 / 1500.0);
  EXPECT_EQ(v[0], e[0]);
  EXPECT_EQ(v[1], e[1]);
  EXPECT_DOUBLE_EQ(v[2], 3.0 / 3000.0);
  EXPECT_DOUBLE_EQ(v[3], -4.0 / 3000.0);
  EXPECT_EQ(v[4], 0.0);
  EXPECT_DOUBLE_EQ(v[5], 5.0 / 3000.0);
  EXPECT_EQ(v[6], 7.0);
  EXPECT_EQ(v[7], 0.5);
}

TEST(DerivedQuantities, ModelOfEachKind) {
  for (const auto& k : phys::kModelNames)
    EXPECT_EQ(
        std::string(phys::visit_model_kind(k.value, [](auto m) { return decltype(m)::kName; })),
        k.name);
}
