#!/usr/bin/env python3
"""Reference values of tests/physics/test_spalart_allmaras.cpp, computed with mpmath at 50
digits straight from the formulas of the NASA TMR SA page (standard SA with ft2, S-tilde
limiter cv2 = 0.7, cv3 = 0.9, r <= 10; SA-neg for nuTilde < 0). The inputs are the doubles the
test uses (mpf(float) is exact). dQdNu is mpmath's numerical derivative (mp.diff) of
rho (P - D), independent of the header's chain rule. Run: python3 sa_reference.py"""
from mpmath import mp, mpf, exp, sqrt, diff

mp.dps = 50
cb1, sigma, cb2, kappa = mpf(0.1355), mpf(2.0 / 3.0), mpf(0.622), mpf(0.41)
cw2, cw3, cv1, ct3, ct4 = mpf(0.3), mpf(2.0), mpf(7.1), mpf(1.2), mpf(0.5)
cn1, cv2, cv3 = mpf(16.0), mpf(0.7), mpf(0.9)
cw1 = cb1 / kappa**2 + (1 + cb2) / sigma


def parts(rho, n, mu, om, d):
    """(rho P, rho D, info) of the TMR formulas."""
    chi = n / (mu / rho)
    if n < 0:
        return rho * cb1 * (1 - ct3) * om * n, -rho * cw1 * (n / d) ** 2, {}
    fv1 = chi**3 / (chi**3 + cv1**3)
    fv2 = 1 - chi / (1 + chi * fv1)
    sbar = n * fv2 / (kappa**2 * d**2)
    if sbar >= -cv2 * om:
        st = om + sbar
    else:
        st = om + om * (cv2**2 * om + cv3 * sbar) / ((cv3 - 2 * cv2) * om - sbar)
    r = min(n / (st * kappa**2 * d**2), mpf(10)) if st != 0 else mpf(10)
    g = r + cw2 * (r**6 - r)
    fw = g * ((1 + cw3**6) / (g**6 + cw3**6)) ** (mpf(1) / 6)
    ft2 = ct3 * exp(-ct4 * chi**2)
    P = cb1 * (1 - ft2) * st * n
    D = (cw1 * fw - cb1 / kappa**2 * ft2) * (n / d) ** 2
    return rho * P, rho * D, dict(chi=chi, sbar=sbar, limit=-cv2 * om, st=st, r=r, ft2=ft2)


def show(name, rho, n, mu, om, d, grad):
    rho, n, mu, om, d = (mpf(x) for x in (rho, n, mu, om, d))
    P, D, info = parts(rho, n, mu, om, d)
    cross = rho * cb2 / sigma * sum(mpf(g) ** 2 for g in grad)
    dQ = diff(lambda x: (lambda p: p[0] - p[1])(parts(rho, x, mu, om, d)), n)
    print(name, {k: mp.nstr(v, 8) for k, v in info.items()})
    for k, v in (("P", P), ("D", D), ("cross", cross), ("dQdNu", dQ)):
        print("   ", k, mp.nstr(v, 20))


grad = (0.3, -0.4, 1.2)
show("A boundary layer", 1.2, 5e-4, 1.8e-5, 1e3, 1e-3, grad)
show("B limiter", 1.2, 7.5e-5, 1.8e-5, 500.0, 1e-3, grad)
show("C r cap", 1.2, 5e-4, 1.8e-5, 10.0, 1e-3, grad)
show("D SA-neg", 1.2, -3e-5, 1.8e-5, 1e3, 1e-3, grad)
show("E chi=1 (ft2)", 1.2, 1.5e-5, 1.8e-5, 1e3, 1e-3, grad)
show("F limiter+cap", 1.2, 7.5e-5, 1.8e-5, 100.0, 1e-3, grad)

# fv1, eddy viscosity, diffusion coefficient, vorticity
print("fv1(2.5)", mp.nstr(mpf(2.5) ** 3 / (mpf(2.5) ** 3 + cv1**3), 20))
rho, mu = mpf(1.2), mpf(1.8e-5)
for n in (mpf(5e-4), mpf(1.5e-5)):
    chi = rho * n / mu
    print("mu_t", mp.nstr(n, 5), mp.nstr(rho * n * chi**3 / (chi**3 + cv1**3), 20))
    print("diff", mp.nstr(n, 5), mp.nstr((mu + rho * n) / sigma, 20))
for n in (mpf(-3e-5), mpf(-1e-5)):
    chi = rho * n / mu
    fn = (cn1 + chi**3) / (cn1 - chi**3)
    print("diff", mp.nstr(n, 5), mp.nstr((mu + rho * n * fn) / sigma, 20))
G = [mpf(x) for x in (1.0, 2.0, 3.0, -4.0, 5.0, 6.5, 7.0, 8.25, -9.0)]
print("vort", mp.nstr(sqrt((G[7] - G[5]) ** 2 + (G[2] - G[6]) ** 2 + (G[3] - G[1]) ** 2), 20))
