#!/usr/bin/env python3
"""Summarises fvbench CSV rows (bench/kernels.sh, bench/device_suite.sh) as Markdown tables.

    bench/summarize_kernels.py kernels.csv [more.csv ...] > summary.md

Tables: whole RK stage (ns per cell per stage, renumbering on/off), residual-assembly variants
(time relative to the default cell gather), and per-kernel effective bandwidth (% of the
measured streaming ceiling) per mesh. The latest run of each (device, mesh) pair wins.
"""
import csv
import sys
from collections import OrderedDict


def load(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            rows.extend(csv.DictReader(f))
    # keep the latest date per (device, mesh)
    latest = {}
    for r in rows:
        k = (r["device"], r["mesh"])
        latest[k] = max(latest.get(k, ""), r["date"])
    return [r for r in rows if r["date"] == latest[(r["device"], r["mesh"])]]


def f(x, nd=1):
    try:
        return f"{float(x):.{nd}f}"
    except ValueError:
        return x


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = load(sys.argv[1:])
    if not rows:
        print("no rows", file=sys.stderr)
        return 1
    meshes = OrderedDict()
    for r in rows:
        meshes.setdefault((r["device"], r["mesh"]), r)
    devices = sorted({r["device"] for r in rows})
    out = []
    for dev in devices:
        drows = [r for r in rows if r["device"] == dev]
        first = drows[0]
        out.append(f"### {dev} ({first['driver']}), {first['date'][:10]}\n")
        ceil = {}
        for r in drows:
            if r["section"] == "ceiling" and r["kernel"] in ("memcpy_d2d", "stream_copy", "stream_triad"):
                ceil.setdefault(r["mesh"], {})[r["kernel"]] = r["GBs"]
        # whole stage
        out.append("Whole explicit RK stage (FP64 unless the variant says mixed: [scheme] precision = "
                   "mixed; second order, Roe, Venkatakrishnan; one zone):\n")
        out.append("| mesh | renumber | cells | variant | ns/cell/stage | Mcell-stages/s |")
        out.append("|---|---|---:|---|---:|---:|")
        for r in drows:
            if r["section"] == "stage":
                ns = float(r["ns_per_cell"])
                variant = r["variant"] + (" (mixed)" if r["kernel"].endswith("_mixed") else
                                          " (unfused: a first stage)"
                                          if r["kernel"].endswith("_unfused") else "")
                out.append(f"| {r['mesh']} | {r['renumber']} | {r['cells']} | {variant} | "
                           f"{ns:.2f} | {1e3 / ns:.1f} |")
        # renumbering ratio
        by = {}
        for r in drows:
            if r["section"] == "stage" and r["kernel"] == "rk_stage_total" and r["variant"] == "gather":
                base = r["mesh"].replace(" rcm", "").replace(" none", "")
                by.setdefault(base, {})[r["renumber"]] = float(r["ns_per_cell"])
        pairs = [(m, v) for m, v in by.items() if "rcm" in v and "none" in v]
        if pairs:
            out.append("\nRenumbering (RCM vs none, default gather stage):\n")
            out.append("| mesh | none ns/cell | rcm ns/cell | speed-up |")
            out.append("|---|---:|---:|---:|")
            for m, v in pairs:
                out.append(f"| {m} | {v['none']:.2f} | {v['rcm']:.2f} | {v['none'] / v['rcm']:.2f}x |")
        # variants
        out.append("\nResidual assembly (interior fluxes + summation) variants, ms (ratio to gather):\n")
        vmeshes = [m for (d, m) in meshes if d == dev]
        names = ["gather", "smem", "atomic", "colour", "fused-atomic", "fused-colour"]
        out.append("| mesh | " + " | ".join(names) + " |")
        out.append("|---|" + "---:|" * len(names))
        for m in vmeshes:
            t = {r["variant"]: float(r["median_ms"]) for r in drows
                 if r["mesh"] == m and r["section"] == "variant" and r["kernel"] == "residual_assembly"}
            if not t:
                continue
            g = t.get("gather")
            cells = [f"{t[n]:.3f} ({t[n] / g:.2f})" if n in t and g else "-" for n in names]
            out.append(f"| {m} | " + " | ".join(cells) + " |")
        # per kernel
        out.append("\nPer kernel: GB/s by the byte model (% of the best streaming ceiling):\n")
        kern = OrderedDict()
        for r in drows:
            if r["section"] == "kernel" or r["section"] == "layout" or (
                    r["section"] == "variant" and r["kernel"] == "flux_sum"
                    and r["variant"] != "gather"):
                name = r["kernel"] if r["section"] == "kernel" else f"{r['kernel']} ({r['variant']})"
                kern.setdefault(name, {})[r["mesh"]] = f"{f(r['GBs'])} ({f(r['pct_ceiling'], 0)}%)"
        out.append("| kernel | " + " | ".join(vmeshes) + " |")
        out.append("|---|" + "---:|" * len(vmeshes))
        for k, v in kern.items():
            out.append(f"| {k} | " + " | ".join(v.get(m, "-") for m in vmeshes) + " |")
        out.append("| ceiling copy / triad GB/s | " + " | ".join(
            f"{f(ceil.get(m, {}).get('memcpy_d2d', ceil.get(m, {}).get('stream_copy', '-')))} / "
            f"{f(ceil.get(m, {}).get('stream_triad', '-'))}" for m in vmeshes) + " |")
        # reproducibility (fvbench --runs 2 or more)
        rep = [r for r in drows if r.get("run_dev_pct", "") not in ("", None)]
        if rep:
            out.append("\nReproducibility: max deviation of the row medians between the complete "
                       "runs (fvbench --runs), flagged above 5 %:\n")
            out.append("| mesh | runs | rows | worst row | worst dev % | rows > 5 % |")
            out.append("|---|---:|---:|---|---:|---:|")
            for m in vmeshes:
                mr = [r for r in rep if r["mesh"] == m]
                if not mr:
                    continue
                w = max(mr, key=lambda r: float(r["run_dev_pct"]))
                bad = sum(1 for r in mr if r["reproducible"] == "no")
                name = w["kernel"] + (f" ({w['variant']})" if w["variant"] else "")
                out.append(f"| {m} | {w['runs']} | {len(mr)} | {name} | "
                           f"{float(w['run_dev_pct']):.1f} | {bad}{' !' if bad else ''} |")
        out.append("")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
