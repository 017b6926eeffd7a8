#!/usr/bin/env python3
"""Plots a campaign's polar.csv (fvrun --sweep) as one PNG: CL against alpha, CD against CL (the
drag polar) and CMz against alpha.

usage: scripts/plot_polar.py OUT_DIR/polar.csv [-o polar.png] [--moment CMx|CMy|CMz] [--title T]

Needs matplotlib (Debian: python3-matplotlib). alpha is the polar's alpha column (the swept aoa,
or the angle fixed lift found). With several swept keys, one curve per value of the keys other
than aoa (e.g. one lift curve per Mach number). Failed points (converged = no) are drawn as
crosses, not joined.
"""
import argparse
import csv
import sys


def read_polar(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    if len(rows) < 2:
        sys.exit(f"plot_polar: {path}: no points yet")
    header, data = rows[0], rows[1:]
    swept = header[: header.index("CL")]
    return swept, [dict(zip(header, r)) for r in data]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("polar")
    ap.add_argument("-o", "--output", default=None, help="PNG path (default: next to the CSV)")
    ap.add_argument("--moment", default="CMz", choices=["CMx", "CMy", "CMz"])
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_polar: matplotlib is not installed (Debian: python3-matplotlib)")
    swept, rows = read_polar(a.polar)
    # one curve per value of the swept keys other than aoa, in the file's order
    outer = [k for k in swept if k != "aoa"]
    curves = {}
    for r in rows:
        label = ", ".join(f"{k} {r[k]}" for k in outer)
        curves.setdefault(label, []).append(r)

    fig, ax = plt.subplots(1, 3, figsize=(15, 4.5))
    for label, pts in curves.items():
        pts = sorted(pts, key=lambda r: float(r["alpha"]))
        ok = [r for r in pts if r["converged"] == "yes"]
        bad = [r for r in pts if r["converged"] != "yes"]
        f = lambda rs, k: [float(r[k]) for r in rs]
        line = ax[0].plot(f(ok, "alpha"), f(ok, "CL"), "o-", label=label or None)[0]
        colour = line.get_color()
        ax[1].plot(f(ok, "CL"), f(ok, "CD"), "o-", color=colour)
        ax[2].plot(f(ok, "alpha"), f(ok, a.moment), "o-", color=colour)
        for i, (x, y) in enumerate([("alpha", "CL"), ("CL", "CD"), ("alpha", a.moment)]):
            if bad:
                ax[i].plot(f(bad, x), f(bad, y), "x", color=colour)
    for axis, (x, y) in zip(ax, [("alpha (deg)", "CL"), ("CL", "CD"), ("alpha (deg)", a.moment)]):
        axis.set_xlabel(x)
        axis.set_ylabel(y)
        axis.grid(True, alpha=0.3)
    if any(curves):
        ax[0].legend()
    fig.suptitle(a.title or a.polar)
    fig.tight_layout()
    out = a.output or a.polar.rsplit(".", 1)[0] + ".png"
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
