#!/usr/bin/env python3
"""Compares two fvrun history.csv files column by column (full-precision columns only).

usage: compare_history.py A/history.csv B/history.csv [--tol 1e-12]
Prints the largest relative difference per column and exits 1 when any exceeds the tolerance
or the iteration counts differ."""
import csv
import sys

COLUMNS = ["dt", "rms_rho", "rms_rhoE", "CL", "CD", "CS"]


def load(path):
    with open(path) as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    head, body = rows[0], rows[1:]
    return {c: [float(r[head.index(c)]) for r in body] for c in head if c in COLUMNS + ["iteration"]}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    tol = float(sys.argv[sys.argv.index("--tol") + 1]) if "--tol" in sys.argv else 1e-12
    if "--tol" in sys.argv:
        args.remove(sys.argv[sys.argv.index("--tol") + 1])
    a, b = load(args[0]), load(args[1])
    if a["iteration"] != b["iteration"]:
        print(f"iterations differ: {len(a['iteration'])} vs {len(b['iteration'])}")
        return 1
    worst = 0.0
    # Force coefficients share one scale (a side force that is zero by symmetry is rounding
    # noise relative to itself, not relative to the forces).
    forces = [c for c in ("CL", "CD", "CS") if c in a]
    force_scale = max([abs(x) for c in forces for x in a[c]] + [1e-300])
    for c in COLUMNS:
        if c not in a:
            continue
        scale = force_scale if c in forces else max(max(abs(x) for x in a[c]), 1e-300)
        d = max(abs(x - y) for x, y in zip(a[c], b[c])) / scale
        worst = max(worst, d)
        print(f"  {c:10s} max relative difference {d:.3e}")
    ok = worst <= tol
    print(f"{len(a['iteration'])} iterations: max relative difference {worst:.3e} "
          f"({'OK' if ok else 'FAIL'}, tolerance {tol:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
