#pragma once
/// \file exact_riemann.hpp
/// Exact solution of the 1D Riemann problem of the Euler equations for an ideal gas
/// (Toro, "Riemann Solvers and Numerical Methods for Fluid Dynamics", ch. 4), for tests.
#include <algorithm>
#include <cmath>

namespace fv::testing {

/// Primitive 1D state.
struct State1D {
  double rho, u, p;
};

class ExactRiemann {
 public:
  ExactRiemann(State1D L, State1D R, double gamma) : L_(L), R_(R), g_(gamma) {
    cL_ = std::sqrt(g_ * L.p / L.rho);
    cR_ = std::sqrt(g_ * R.p / R.rho);
    // Newton iteration for p* (Toro §4.3)
    double p =
        std::max(1e-8, 0.5 * (L.p + R.p) - 0.125 * (R.u - L.u) * (L.rho + R.rho) * (cL_ + cR_));
    for (int it = 0; it < 100; ++it) {
      double fL, dL, fR, dR;
      f(p, L_, cL_, fL, dL);
      f(p, R_, cR_, fR, dR);
      const double dp = (fL + fR + R.u - L.u) / (dL + dR);
      p = std::max(1e-12, p - dp);
      if (std::fabs(dp) < 1e-14 * p) break;
    }
    double fL, dL, fR, dR;
    f(p, L_, cL_, fL, dL);
    f(p, R_, cR_, fR, dR);
    ps_ = p;
    us_ = 0.5 * (L.u + R.u) + 0.5 * (fR - fL);
  }
  double p_star() const { return ps_; }
  double u_star() const { return us_; }

  /// State at similarity coordinate s = x / t.
  State1D sample(double s) const {
    const double g = g_;
    if (s <= us_) {     // left of contact
      if (ps_ > L_.p) { // left shock
        const double SL =
            L_.u - cL_ * std::sqrt((g + 1) / (2 * g) * ps_ / L_.p + (g - 1) / (2 * g));
        if (s <= SL) return L_;
        const double r =
            L_.rho * ((ps_ / L_.p + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ps_ / L_.p + 1));
        return {r, us_, ps_};
      }
      const double SHL = L_.u - cL_;
      const double cs = cL_ * std::pow(ps_ / L_.p, (g - 1) / (2 * g));
      const double STL = us_ - cs;
      if (s <= SHL) return L_;
      if (s >= STL) return {L_.rho * std::pow(ps_ / L_.p, 1 / g), us_, ps_};
      const double u = 2 / (g + 1) * (cL_ + (g - 1) / 2 * L_.u + s);
      const double c = 2 / (g + 1) * (cL_ + (g - 1) / 2 * (L_.u - s));
      const double rho = L_.rho * std::pow(c / cL_, 2 / (g - 1));
      return {rho, u, L_.p * std::pow(c / cL_, 2 * g / (g - 1))};
    }
    if (ps_ > R_.p) { // right shock
      const double SR = R_.u + cR_ * std::sqrt((g + 1) / (2 * g) * ps_ / R_.p + (g - 1) / (2 * g));
      if (s >= SR) return R_;
      const double r =
          R_.rho * ((ps_ / R_.p + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ps_ / R_.p + 1));
      return {r, us_, ps_};
    }
    const double SHR = R_.u + cR_;
    const double cs = cR_ * std::pow(ps_ / R_.p, (g - 1) / (2 * g));
    const double STR = us_ + cs;
    if (s >= SHR) return R_;
    if (s <= STR) return {R_.rho * std::pow(ps_ / R_.p, 1 / g), us_, ps_};
    const double u = 2 / (g + 1) * (-cR_ + (g - 1) / 2 * R_.u + s);
    const double c = 2 / (g + 1) * (cR_ - (g - 1) / 2 * (R_.u - s));
    const double rho = R_.rho * std::pow(c / cR_, 2 / (g - 1));
    return {rho, u, R_.p * std::pow(c / cR_, 2 * g / (g - 1))};
  }

 private:
  void f(double p, const State1D& K, double c, double& val, double& der) const {
    const double g = g_;
    if (p > K.p) {
      const double A = 2 / ((g + 1) * K.rho), B = (g - 1) / (g + 1) * K.p;
      const double q = std::sqrt(A / (p + B));
      val = (p - K.p) * q;
      der = q * (1 - 0.5 * (p - K.p) / (B + p));
    } else {
      val = 2 * c / (g - 1) * (std::pow(p / K.p, (g - 1) / (2 * g)) - 1);
      der = 1 / (K.rho * c) * std::pow(p / K.p, -(g + 1) / (2 * g));
    }
  }
  State1D L_, R_;
  double g_, cL_, cR_, ps_ = 0, us_ = 0;
};

} // namespace fv::testing
