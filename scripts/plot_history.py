#!/usr/bin/env python3
"""Plots an fvrun history.csv as a PNG: the log10 residual of every conserved variable (res_*)
and the force coefficients (CL, CD, and CDp/CDv when the run was viscous) against the iteration.

usage: scripts/plot_history.py OUT_DIR/history.csv [-o history.png] [--title TEXT]

Needs matplotlib (Debian: python3-matplotlib). The '#' lines of the file (the resolved
configuration) are skipped; the columns are found by name, so older and newer histories plot
alike.
"""
import argparse
import csv
import sys


def read_history(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    if len(rows) < 2:
        sys.exit(f"plot_history: {path}: no data rows")
    header, data = rows[0], rows[1:]
    cols = {name: [float(r[i]) for r in data] for i, name in enumerate(header)}
    return header, cols


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("history")
    ap.add_argument("-o", "--output", default=None, help="PNG path (default: next to the CSV)")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_history: matplotlib is not installed (Debian: python3-matplotlib)")
    header, cols = read_history(a.history)
    it = cols["iteration"]
    res = [h for h in header if h.startswith("res_")]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for h in res:
        ax1.plot(it, cols[h], label=h[4:])
    ax1.set_ylabel("log10 residual / first")
    ax1.grid(True, alpha=0.3)
    ax1.legend(ncol=len(res), fontsize="small")
    for h in ("CL", "CD", "CDp", "CDv"):
        if h in cols and (h in ("CL", "CD") or any(v != 0 for v in cols[h])):
            ax2.plot(it, cols[h], label=h)
    # the start-up transient can be orders larger than the converged values: scale to the
    # second half of the run
    tail = [v for h in ("CL", "CD", "CDp", "CDv") if h in cols for v in cols[h][len(it) // 2 :]]
    if tail:
        lo, hi = min(tail), max(tail)
        pad = 0.5 * (hi - lo) + 0.05 * max(abs(lo), abs(hi), 1e-12)
        ax2.set_ylim(lo - pad, hi + pad)
    ax2.set_xlabel("iteration")
    ax2.set_ylabel("coefficient")
    ax2.grid(True, alpha=0.3)
    ax2.legend(fontsize="small")
    fig.suptitle(a.title or a.history)
    fig.tight_layout()
    out = a.output or a.history.rsplit(".", 1)[0] + ".png"
    fig.savefig(out, dpi=100)
    print(f"plot_history: wrote {out}")


if __name__ == "__main__":
    main()
