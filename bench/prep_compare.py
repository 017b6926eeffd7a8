#!/usr/bin/env python3
"""Tables of bench/prep.sh: fvprep time / peak RSS per run, and fvprep against OpenFOAM's
renumberMesh (RCM) + decomposePar (metis) on the same meshes, read from a run_peer.sh table
(the recorded run /work/shared/peers/openfoam/results-2026-11-21.txt by default).

    bench/prep_compare.py prep.tsv [PEER_RESULTS] > prep.md
"""
import csv
import os
import re
import sys

PEER_LINE = re.compile(
    r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\|\s*(.+?)\s{2,}([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s*\|")


def peer_figures(path):
    """{(mesh, tool): (cells, wall_s, rss_mib, other_load)} of a run_peer.sh table."""
    fig = {}
    try:
        with open(path) as f:
            for line in f:
                m = PEER_LINE.match(line)
                if m:
                    fig[(m.group(1), m.group(5))] = (int(m.group(2)), float(m.group(6)),
                                                     float(m.group(7)), float(m.group(10)))
    except OSError:
        pass
    return fig


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], newline="") as f:
        runs = list(csv.DictReader(f, delimiter="\t"))
    peer_path = sys.argv[2] if len(sys.argv) > 2 else \
        "/work/shared/peers/openfoam/results-2026-11-21.txt"
    peer = peer_figures(peer_path)
    out = ["### fvprep (import CGNS + renumber + faces + connectivity + geometry + colourings "
           "+ hyperplanes + METIS + zone file)\n",
           "| mesh | cells | parts | wall s | CPU s | peak RSS MiB | B/cell | us/cell | nproc | load |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    latest = {}
    for r in runs:
        latest[(r["mesh"], r["parts"])] = r
    for (mesh, parts), r in latest.items():
        cells = int(r["cells"] or 0)
        us = 1e6 * float(r["wall_s"]) / cells if cells else 0
        cpu = r.get("cpu_s") or "-"
        out.append(f"| {mesh} | {cells} | {parts} | {float(r['wall_s']):.2f} | {cpu} | "
                   f"{float(r['peak_rss_mib']):.0f} | {r['bytes_per_cell']} | {us:.2f} | "
                   f"{r['nproc']} | {r['load1']} |")
    if peer:
        out.append(f"\n### fvprep vs OpenFOAM 1912 renumberMesh (RCM) + decomposePar (metis)\n")
        how = ("run live in the same call on the same machine and meshes (bench/peer_live.sh)"
               if os.environ.get("PEER_LIVE") == "1" else
               "a recorded run_peer.sh table, NOT re-run here (bench/peer_live.sh runs it live)")
        out.append(f"OpenFOAM figures: {peer_path} ({how}). OpenFOAM reads its binary "
                   "polyMesh; fvprep reads CGNS and also builds geometry, colourings and "
                   "hyperplanes. Times per cell; ratio > 1: fvprep faster. Compare the load columns: the "
                   "recorded OpenFOAM run waited for a quiet machine (other load ~0.01).\n")
        out.append("| mesh | parts | OpenFOAM cells | OF renumber+decompose s | OF peak MiB | "
                   "fvprep cells | fvprep s | fvprep peak MiB | time ratio (per cell) |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        hexes = sorted({m for (m, _) in latest if m.startswith("peer_hex")},
                       key=lambda m: int(m[len("peer_hex"):] or 0))
        for ours, theirs in [(m, m[len("peer_"):]) for m in hexes] + [("peer_tet", "tet")]:
            for parts in ("2", "8", "64"):
                r = latest.get((ours, parts))
                ren = peer.get((theirs, "renumberMesh -overwrite -dict (RCM)"))
                dec = peer.get((theirs, f"decomposePar metis {parts}"))
                if not (r and ren and dec):
                    continue
                of_s = ren[1] + dec[1]
                of_cells = ren[0]
                cells = int(r["cells"])
                s = float(r["wall_s"])
                ratio = (of_s / of_cells) / (s / cells) if s > 0 and cells else 0
                out.append(f"| {theirs} | {parts} | {of_cells} | {of_s:.2f} | "
                           f"{max(ren[2], dec[2]):.0f} | {cells} | {s:.2f} | "
                           f"{float(r['peak_rss_mib']):.0f} | {ratio:.2f}x |")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
