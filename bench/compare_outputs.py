#!/usr/bin/env python3
"""compare_outputs.py A_DIR B_DIR: bitwise comparison of every case's outputs (history.csv columns but
wall_s, surface CSVs, and every dataset of restart/solution HDF5 files; attributes such as the
resolved configuration text are not compared). Exit 1 on any difference."""
import csv, os, sys
import h5py

a, b = sys.argv[1], sys.argv[2]
bad = 0


def rows(p):
    with open(p) as f:
        return list(csv.reader(l for l in f if not l.startswith("#")))


def datasets(p):
    out = {}
    with h5py.File(p, "r") as f:
        f.visititems(lambda n, o: out.__setitem__(n, o[()]) if isinstance(o, h5py.Dataset) else None)
    return out


for case in sorted(os.listdir(a)):
    pa, pb = os.path.join(a, case), os.path.join(b, case)
    if not os.path.isdir(pa):
        continue
    if not os.path.isdir(pb):
        print(f"{case}: missing in {b}")
        bad += 1
        continue
    msgs = []
    for fn in sorted(os.listdir(pa)):
        fa, fb = os.path.join(pa, fn), os.path.join(pb, fn)
        if not os.path.exists(fb):
            msgs.append(f"{fn} missing")
            continue
        if fn == "history.csv" or (fn.endswith(".csv") and fn.startswith("surface")):
            ra, rb = rows(fa), rows(fb)
            if fn == "history.csv":
                keep = [i for i, c in enumerate(ra[0]) if c != "wall_s"]
                ra = [[r[i] for i in keep] for r in ra]
                rb = [[r[i] for i in keep if i < len(r)] for r in rb]
            if ra != rb:
                n = sum(1 for x, y in zip(ra, rb) if x != y) + abs(len(ra) - len(rb))
                msgs.append(f"{fn}: {n} rows differ")
        elif fn.endswith(".h5"):
            da, db = datasets(fa), datasets(fb)
            if da.keys() != db.keys():
                msgs.append(f"{fn}: datasets differ {sorted(da.keys() ^ db.keys())}")
            for k in da:
                if k in db and (getattr(da[k], "shape", None) != getattr(db[k], "shape", None)
                                or bytes(memoryview(da[k])) != bytes(memoryview(db[k]))):
                    msgs.append(f"{fn}:{k} differs")
    print(f"{case}: {'IDENTICAL' if not msgs else 'DIFFERENT: ' + ', '.join(msgs)}")
    bad += bool(msgs)
sys.exit(1 if bad else 0)
