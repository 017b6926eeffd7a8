#!/usr/bin/env python3
"""Summarises whole-iteration fvrun --profile rows (bench/kernels.sh: iteration.csv) as Markdown.

    bench/summarize_iteration.py iteration.csv > iteration.md

Tables: ns per cell per iteration of SSP-RK3 and LU-SGS per mesh, and per scheme the share of
the iteration of each kernel (the largest first; "(outside kernels)" is host work, launch gaps
and output). The latest run of each (device, mesh, scheme) wins.
"""
import csv
import sys
from collections import OrderedDict


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = []
    for p in sys.argv[1:]:
        with open(p, newline="") as f:
            rows.extend(csv.DictReader(f))
    latest = {}
    for r in rows:
        k = (r["device"], r["mesh"], r["scheme"])
        latest[k] = max(latest.get(k, ""), r["date"])
    rows = [r for r in rows if r["date"] == latest[(r["device"], r["mesh"], r["scheme"])]]
    if not rows:
        print("no rows", file=sys.stderr)
        return 1
    out = ["\nWhole iteration (fvrun --profile, or without it where the scheme says -noprof; one "
           "zone; ms and ns per cell per iteration):\n",
           "| device | mesh | cells | scheme | iterations | ms/iter | ns/cell/iter |",
           "|---|---|---:|---|---:|---:|---:|"]
    runs = OrderedDict()
    for r in rows:
        runs.setdefault((r["device"], r["mesh"], r["scheme"]), []).append(r)
    for (dev, mesh, scheme), rs in runs.items():
        r = rs[0]
        out.append(f"| {dev} | {mesh} | {r['cells']} | {scheme} | {r['iterations']} | "
                   f"{float(r['ms_per_iteration']):.3f} | {float(r['ns_per_cell_iteration']):.2f} |")
    for scheme in sorted({k[2] for k in runs if not k[2].endswith("-noprof")}):
        keys = [k for k in runs if k[2] == scheme]
        kernels = OrderedDict()
        for k in keys:
            for r in sorted(runs[k], key=lambda r: -float(r["total_ms"])):
                kernels.setdefault(r["kernel"], {})[k] = (
                    f"{float(r['percent_of_iteration']):.1f} % "
                    f"({float(r['kernel_ns_per_cell_iteration']):.2f})")
        out.append(f"\nShare of the {scheme} iteration per kernel, % (ns/cell/iter):\n")
        out.append("| kernel | " + " | ".join(k[1] for k in keys) + " |")
        out.append("|---|" + "---:|" * len(keys))
        for name, v in kernels.items():
            out.append(f"| {name} | " + " | ".join(v.get(k, "-") for k in keys) + " |")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
