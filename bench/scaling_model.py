#!/usr/bin/env python3
"""Analytic model of one fvrun explicit iteration (SSP-RK3, second order, Euler) per GPU on
P GPUs, calibrated on bench/results/mpi_scaling_*.csv. Usage: python3 bench/scaling_model.py
Description, sources and the printed tables: docs/parallel.md, section "Scaling model".

  t(P, n) = f(P) t1(n) + STAGES * sum_e exposed_e + t_reduce(P)
  T_e = pu_e + msg_e: pu_e = o + 2 bytes_e/B_stage (host-staged: pack + PCIe copies) or
        o + pack/unpack kernels (device-direct); msg_e = max over on-node and off-node
        messages of (m alpha + bytes/beta)
  exposed_e = max(0, T_e - window_e)           overlap (side stream, default)
            = pu_e + max(0, msg_e - window_e)  staging blocks host and compute stream (older)
            = T_e                              --no-overlap
  window_e = f(P) t1(n) w_e / STAGES: GPU work queued behind exchange e (docs table, steps 2-5)
  halo (slowest zone) H = c(P) n^(2/3) cells, m(P) neighbours, r(P) H node entries."""
import csv, math, os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ---------------------------------------------------------------- parameters (with sources)
RESULTS = [  # file, staging mode of the code measured ('overlap' rows with --no-overlap ->
    # 'none'), transport ('host'; a device-direct CSV, e.g. TRANSPORT=nccl: 'nvlink')
    ("bench/results/mpi_scaling_h200x4_20261121.csv", "overlap", "host"),  # side stream
    ("bench/results/mpi_scaling_h200x4_blockingstaging_20261121.csv", "blocking", "host"),
    # first 2-GPU run (b226756): the host slept in the device sync while interior kernels ran,
    # so nothing overlapped (docs/parallel.md history); its split is not used for fitting
    ("bench/results/mpi_scaling_h200x2_20261121.csv", "none", "host"),
]
# the 4-H100 run (issue 20): compared with the model, not fitted (section (e))
H100X4 = "bench/results/mpi_scaling_h100x4_20261128_explicit.csv"
FIT_FILES = RESULTS[:2]   # timed split (--comm-timing) rows fit the host-staged parameters
STAGES = 3                # SSP-RK3
NV, DBL = 5, 8            # Euler variables, bytes per double
# exchanges per stage: (name, entity, components, overlap window w_e = share of the 1-GPU
# iteration running while it travels; fvrun --profile, 10M hex channel, 1 H200,
# bench/results/iteration_h200_1M10M_20261121.csv)
EXCHANGES = [("W", "cell", NV, 0.0634),            # interpolate_to_nodes 6.34 %
             ("node sums", "node", NV, 0.0486),    # local_min_max 4.86 % (Euler: nVars; +1
                                                   #  limiter-region value for viscous models)
             ("grad+phi", "cell", 4 * NV, 0.2586)]  # interior 23.37 % + boundary 2.48 % fluxes
# Fewer exchanges per stage (issue 16), on paper: the same stage with
#  - MERGED: the primitives and the node partial sums in one message per neighbour, sent once
#    the node loop is done; nothing that needs no halo value is left to overlap it (local
#    min/max needs the halo W), so its window is 0;
#  - TWO_LAYER: two halo layers, so each zone computes the gradients and limiters of its first
#    halo layer itself and the gradient exchange goes: the W exchange carries the second layer
#    too (~2x the cells), the node sums cover the first layer's nodes (~2x), and the first
#    layer's gradient + min/max + limiter (~30 % of a stage per cell) is computed twice.
MERGED = [("W+node sums", "cell+node", NV, 0.0),
          ("grad+phi", "cell", 4 * NV, 0.2586)]
TWO_LAYER = [("W (2 layers)", "cell2", NV, 0.0634),
             ("node sums (2 layers)", "node2", NV, 0.0486)]
TWO_LAYER_EXTRA = 0.30    # share of a stage's per-cell work redone for each first-layer cell
# 1-GPU iteration cost, ns per cell (hex channel, RCM, 1 rank): 1M fvrun --profile
# (iteration_h200_1M10M; its 10M point, 2.740, is left out: another session, 2 % below the
# 5M/20M pair), 2M/4M mpi_scaling_h200x2, 5M/20M mpi_scaling_h200x4
T1_NS = [(1.002936e6, 4.019), (1.9965e6, 3.173), (3.989856e6, 2.836), (5.0064e6, 2.767),
         (20.052333e6, 2.811)]
# halo of the slowest zone: (cells of the mesh, parts, halo cells of the largest-halo zone,
# most neighbours, node entries / halo cells); fvprep (METIS k-way, cut) on fvgen meshes,
# counted in the zone files (exchange/*/recv/indices), 2026-11-24
CHANNEL = {2: (5006400, 2, 11491, 1, 1.23),   # bench channel 3x1x0.5 (2M: c 0.608)
           4: (5006400, 4, 22865, 2, 1.23)}   # slabs across x
BOX = {2: (4096000, 2, 26236, 1, 1.23), 4: (4096000, 4, 26246, 3, 1.20),   # 160^3 hex box:
       8: (4096000, 8, 21542, 7, 1.26), 64: (4096000, 64, 9555, 17, 1.33),  # a compact 3D
       512: (4096000, 512, 2688, 20, 1.43)}                                # METIS partition
GPUS_PER_NODE = 8
OFF_NODE = 0.5      # share of a zone's halo bytes and neighbours on other nodes when P > 8
                    # (assumed: 8 consecutive METIS parts form a compact chunk per node)
SHM_ALPHA = 5e-6    # Open MPI shared-memory latency per message (assumed; not resolvable:
                    # every message of the fitted runs is >= 0.7 MB, bandwidth-bound)
NVLINK = dict(o=15e-6, alpha=2e-6, beta=0.6 * 450e9,   # NVLink 4: 450 GB/s/dir nominal, 60 %
              pack_bw=500e9)                           # halo_pack/unpack kernels ~300-900 GB/s
IB = dict(alpha=3e-6, beta=45e9)  # NDR 400 Gb/s, one NIC per GPU, GPUDirect RDMA (host
                                  # memory for the host-staged transport), ~90 % of 50 GB/s
N_ALLREDUCE, RED_NODE, RED_IB = 4, 2e-6, 5e-6  # RMS, dt, health, forces per iteration;
                                               # per recursive-doubling step in/between nodes
# f(2) after the zone-order fix (zones keep their RCM numbering, the wavefront order is the
# LU-SGS sweep's only): fvbench stage of a zone of the 2-part 4M hex channel 1.10 ns/cell vs
# 1.02 as one zone (H100, bench/results/zone_order_h100_20261124.md); not yet a 2-GPU measurement
F_AFTER_ZONE_ORDER_FIX = 1.10 / 1.02
CELLS = [1e6, 2e6, 5e6, 10e6, 20e6]
GPUS = [2, 4, 8, 64, 512]


# ---------------------------------------------------------------- model
def t1(n, table=None):
    """1-GPU iteration time (s), per-cell cost interpolated in log n, clamped outside."""
    table = table or T1_NS
    (a, ya), (b, yb) = next((p, q) for p, q in zip(table, table[1:]) if n <= q[0] or q is table[-1])
    s = min(1.0, max(0.0, math.log(n / a) / math.log(b / a)))
    return n * (ya + s * (yb - ya)) * 1e-9


def halo(table, P, n):
    """(halo cells H, neighbours m, node entries) of the slowest zone with n cells."""
    k = min(table, key=lambda q: abs(math.log(q / P)))  # nearest measured part count
    cells, parts, hmax, m, r = table[k]
    H = hmax / (cells / parts) ** (2 / 3) * n ** (2 / 3)
    return H, m, r * H


def exchange(tr, P, m, nbytes, entries, K, hs):
    """(pack/unpack part, message part) of one exchange, s. hs: host-staged parameters."""
    off = OFF_NODE if P > GPUS_PER_NODE else 0.0
    if tr == "host":
        pu = hs["o"] + 2 * nbytes / hs["B"]
        on = m * (1 - off) * SHM_ALPHA + nbytes * (1 - off) / hs["beta"]
    else:
        pu = NVLINK["o"] + 2 * entries * (4 + 2 * DBL * K) / NVLINK["pack_bw"]
        on = m * (1 - off) * NVLINK["alpha"] + nbytes * (1 - off) / NVLINK["beta"]
    ib = m * off * IB["alpha"] + nbytes * off / IB["beta"] if off else 0.0
    return pu, max(on, ib)


def t_iter(P, n, tr, hs, f, mode="overlap", table=BOX, detail=False, exchanges=None, t1s=None):
    """Predicted time per iteration (s) on P GPUs with n cells each (t1s: the 1-GPU cost
    table of another GPU, default T1_NS)."""
    exchanges = exchanges or EXCHANGES
    tc = f * t1(n, t1s)
    H, m, Hn = halo(table, P, n)
    if exchanges is TWO_LAYER:
        tc += TWO_LAYER_EXTRA * t1(n, t1s) / n * H
    exposed, rows = 0.0, []
    for name, ent, K, w in exchanges:
        entries = {"cell": H, "node": Hn, "cell+node": H + Hn, "cell2": 2 * H, "node2": 2 * Hn}[ent]
        nbytes = entries * K * DBL
        pu, msg = exchange(tr, P, m, nbytes, entries, K, hs)
        win = tc * w / STAGES
        ex = {"overlap": max(0.0, pu + msg - win), "blocking": pu + max(0.0, msg - win),
              "none": pu + msg}[mode]
        exposed += STAGES * ex
        rows.append((name, nbytes, pu, msg, win))
    t = tc + exposed + red_time(P)
    return (t, H, m, rows) if detail else t


def f_of(P, F):
    return F.get(P, F[max(F)]) if P > 1 else 1.0   # beyond 4 GPUs: the 4-GPU value (assumed)


# ---------------------------------------------------------------- calibration
def load(path):
    with open(os.path.join(ROOT, path)) as fh:
        return [r for r in csv.DictReader(l for l in fh if not l.startswith("#"))]


def bytes_iter(P, cells):
    H, m, Hn = halo(CHANNEL, P, cells / P)
    return sum(STAGES * (H if e == "cell" else Hn) * K * DBL for _, e, K, _ in EXCHANGES), m


def calibrate():
    """Compute factors f(P) and host-staged parameters from the --comm-timing split."""
    comp, A, y, W = {}, [], [], []
    for path, _, _ in FIT_FILES:
        for r in load(path):
            P, cells = int(r["ranks"]), float(r["cells"])
            if P == 1: continue
            comp.setdefault(P, []).append(float(r["compute_s"]) / t1(cells / P))
            b, m = bytes_iter(P, cells)
            A.append((STAGES * len(EXCHANGES), 2 * b)); y.append(float(r["pack_unpack_s"]))
            W.append((b, float(r["wait_s"]) - STAGES * len(EXCHANGES) * m * SHM_ALPHA))
    # least squares pu = a0 * o + a1 * (1/B)
    s00 = sum(a * a for a, _ in A); s01 = sum(a * b for a, b in A); s11 = sum(b * b for _, b in A)
    r0 = sum(a * v for (a, _), v in zip(A, y)); r1 = sum(b * v for (_, b), v in zip(A, y))
    det = s00 * s11 - s01 * s01
    o, invB = (r0 * s11 - r1 * s01) / det, (s00 * r1 - s01 * r0) / det
    invbeta = sum(b * v for b, v in W) / sum(b * b for b, _ in W)
    F = {P: sum(v) / len(v) for P, v in comp.items()}
    return F, {"o": o, "B": 1 / invB, "beta": 1 / invbeta}


def main():
    F, hs = calibrate()
    short = lambda p: os.path.basename(p).replace("mpi_scaling_", "").replace("_20261121.csv", "")
    print("Calibrated on the --comm-timing split of " + ", ".join(short(p) for p, _, _ in FIT_FILES))
    print("  multi-zone compute factor f(P) = compute_s / t1(cells per GPU): " +
          ", ".join("f(%d) = %.3f" % kv for kv in sorted(F.items())) + "; f(P>4) = f(4) (assumed)")
    print("  host-staged pack+unpack per exchange: %.1f us + 2 bytes / %.1f GB/s (PCIe staging)"
          % (hs["o"] * 1e6, hs["B"] / 1e9))
    print("  MPI over shared memory: %.0f us per message (assumed) + bytes / %.2f GB/s"
          % (SHM_ALPHA * 1e6, hs["beta"] / 1e9))
    print("\n(a) Calibration, every measured multi-GPU point (bench channel halos); ms per iteration,"
          "\n    pack+unpack and wait of the --comm-timing run vs the model's pu and message parts")
    print("%-22s %-26s %2s %5s %6s %6s %5s %5s %6s %9s %9s" % ("file", "mode [model]", "P",
          "cells", "t meas", "t pred", "eff m", "eff p", "err", "pu m/p", "wait m/p"))
    errs = []
    for path, staging, tr in RESULTS:
        rows = load(path)
        base = {r["mode"]: float(r["time_per_iter_s"]) for r in rows if r["ranks"] == "1"}
        for r in rows:
            P, cells, mode = int(r["ranks"]), float(r["cells"]), r["mode"]
            if P == 1: continue
            md = "none" if "no-overlap" in mode else staging
            t, _, _, parts = t_iter(P, cells / P, tr, hs, f_of(P, F), md, CHANNEL, True)
            eff_p = t1(cells / P) / t if mode == "weak" else t1(cells) / (P * t)
            eff_m = base[mode] / float(r["time_per_iter_s"]) / (1 if mode == "weak" else P)
            errs.append((eff_p - eff_m) / eff_m)
            pu, msg = (STAGES * sum(x[i] for x in parts) * 1e3 for i in (2, 3))
            print("%-22s %-26s %2d %4.0fM %6.2f %6.2f %5.3f %5.3f %+5.1f%% %4.2f/%4.2f %4.2f/%4.2f"
                  % (short(path), "%s [%s]" % (mode, md), P, cells / 1e6,
                     float(r["time_per_iter_s"]) * 1e3, t * 1e3, eff_m, eff_p, 100 * errs[-1],
                     float(r["pack_unpack_s"]) * 1e3, pu, float(r["wait_s"]) * 1e3, msg))
    print("  efficiency error: mean |err| %.1f %%, max |err| %.1f %% over %d points" % (
        100 * sum(map(abs, errs)) / len(errs), 100 * max(map(abs, errs)), len(errs)))

    print("\n(b) 2 GPUs, bench channel, 10M cells per GPU (weak 10M/GPU = strong 20M), overlap;"
          "\n    efficiency with f(2) / with f = 1 (communication alone)")
    for tr, label in (("host", "host-staged MPI (shm)"), ("nvlink", "NVLink device-to-device")):
        e = []
        for f in (f_of(2, F), 1.0):
            t, _, _, parts = t_iter(2, 10e6, tr, hs, f, "overlap", CHANNEL, True)
            e += [t1(10e6) / t, t1(20e6) / (2 * t), t]
        inflight = STAGES * sum(x[2] + x[3] for x in parts) * 1e3
        print("  %-24s weak %.2f / %.2f  strong %.2f / %.2f  %.1f / %.1f ms/iter; "
              "communication %.2f ms/iter in flight, %.2f exposed (f = 1)" % (
                  label, e[0], e[3], e[1], e[4], e[2] * 1e3, e[5] * 1e3, inflight,
                  (e[5] - t1(10e6)) * 1e3 - red_time(2) * 1e3))

    f = F_AFTER_ZONE_ORDER_FIX
    print("  with f(2) = %.2f (after the zone-order fix, single-GPU fvbench): " % f + ", ".join(
        "%s weak %.2f strong %.2f" % (tr, t1(10e6) / t, t1(20e6) / (2 * t)) for tr, t in (
            (tr, t_iter(2, 10e6, tr, hs, f, "overlap", CHANNEL)) for tr in ("host", "nvlink"))))

    print("\n(b2) Fewer exchanges per stage (f = 1, weak efficiency, box halos): 3 exchanges "
          "(today) / W and node sums merged / two halo layers")
    for tr in ("host", "nvlink"):
        for P in (2, 8, 64, 512):
            print("  %-6s %3d GPUs " % (tr, P) + "  ".join(
                "%5.2fM: %.3f / %.3f / %.3f" % ((n / 1e6,) + tuple(
                    t1(n) / t_iter(P, n, tr, hs, 1.0, exchanges=ex)
                    for ex in (EXCHANGES, MERGED, TWO_LAYER))) for n in (0.25e6, 1e6, 10e6)))

    print("\n(c) Weak efficiency vs cells/GPU and GPUs (METIS halos of a compact 3D mesh, %d "
          "GPUs/node, IB between nodes), f(P) / f = 1" % GPUS_PER_NODE)
    for tr, label in (("host", "host-staged (shm in node, IB between nodes)"),
                      ("nvlink", "device-direct (NVLink in node, IB GPUDirect between nodes)")):
        print("  " + label + "\n  %9s " % "cells/GPU" + "".join("%13s" % ("%d GPUs" % P)
                                                              for P in GPUS))
        for n in CELLS:
            print("  %8.0fM " % (n / 1e6) + "".join("%13s" % ("%.2f / %.2f" % (
                t1(n) / t_iter(P, n, tr, hs, f_of(P, F)), t1(n) / t_iter(P, n, tr, hs, 1.0)))
                for P in GPUS))
    print("\n  Slowest zone per exchange (MB sent = MB received); grad+phi exchange time, "
          "device-direct\n  and host-staged, vs its overlap window (f(P))")
    print("  %4s %6s %7s %4s %6s %6s %6s %8s %14s %14s" % ("GPUs", "cells", "halo", "nbrs",
          "W", "nodes", "grad", "grad/msg", "direct/window", "staged/window"))
    for P in (64, 512):
        for n in CELLS:
            t, H, m, rows = t_iter(P, n, "nvlink", hs, f_of(P, F), detail=True)
            g, gh = rows[2], t_iter(P, n, "host", hs, f_of(P, F), detail=True)[3][2]
            print("  %4d %5.0fM %7.0f %4d %6.2f %6.2f %6.2f %7.2fM %6.0f/%5.0fus %6.0f/%5.0fus" % (
                P, n / 1e6, H, m, rows[0][1] / 1e6, rows[1][1] / 1e6, g[1] / 1e6, g[1] / m / 1e6,
                (g[2] + g[3]) * 1e6, g[4] * 1e6, (gh[2] + gh[3]) * 1e6, gh[4] * 1e6))

    h100x4(hs)

    print("\n(d) Limits, communication alone (f = 1), cells per GPU below which")
    grid = [10 ** (4 + 0.01 * i) for i in range(401)]
    for tr, label in (("host", "host-staged"), ("nvlink", "device-direct")):
        for P in (2, 8, 64, 512):
            lat = next((n for n in reversed(grid) if fixed_share(P, n, tr, hs) > 0.5), None)
            e90 = next((n for n in reversed(grid) if t1(n) / t_iter(P, n, tr, hs, 1.0) < 0.9), None)
            print("  %-14s %3d GPUs: fixed costs > half of the exchange time below %s; "
                  "efficiency < 0.9 below %s" % (label, P, fmt(lat), fmt(e90)))


def h100x4(hs):
    """(e) The 4-H100 run (issue 20) against the model as it stood before it: the H100's own
    1-GPU costs (its one-rank rows), f(P) = F_AFTER_ZONE_ORDER_FIX, NVLink for nccl and
    cuda_ipc, the fitted host-staged parameters for host_staged_mpi. The measured f is the
    --comm-timing run's compute over t1; "comm" the production time minus f t1."""
    rows = load(H100X4)
    t1s = sorted({(float(r["cells"]), 1e9 * float(r["time_per_iter_s"]) / float(r["cells"]))
                  for r in rows if r["ranks"] == "1"})   # weak and strong: 10M, 20M, 40M
    f0 = F_AFTER_ZONE_ORDER_FIX
    print("\n(e) 4 H100 (NV18 NVLink), %s: measured vs predicted (f = %.2f, the H100's "
          "1-GPU costs %s ns/cell)" % (os.path.basename(H100X4), f0,
                                       ", ".join("%.3f" % c for _, c in t1s)))
    print("  %-16s %-7s %2s %5s %7s %7s %6s %6s | %7s %7s %7s" % (
        "transport", "mode", "P", "cells", "t meas", "t pred", "eff m", "eff p", "f meas",
        "comm m", "comm p"))
    fs = {}
    for r in rows:
        P, cells, mode, tr = int(r["ranks"]), float(r["cells"]), r["mode"], r["transport"]
        if P == 1: continue
        n = cells / P
        kind = "host" if tr == "host_staged_mpi" else "nvlink"
        tp = t_iter(P, n, kind, hs, f0, "overlap", CHANNEL, t1s=t1s)
        tm = float(r["time_per_iter_s"])
        eff_p = t1(n, t1s) / tp if mode == "weak" else t1(cells, t1s) / (P * tp)
        comp = float(r["compute_s"])
        fm = comp / t1(n, t1s) if comp == comp else float("nan")
        if fm == fm and mode == "strong": fs.setdefault((tr, P), []).append(fm)
        print("  %-16s %-7s %2d %4.0fM %7.2f %7.2f %6.3f %6.3f | %7.2f %7.2f %7.2f" % (
            tr, mode, P, cells / 1e6, tm * 1e3, tp * 1e3, float(r["efficiency"]), eff_p, fm,
            (tm - (fm if fm == fm else f0) * t1(n, t1s)) * 1e3,
            (tp - f0 * t1(n, t1s)) * 1e3))
    print("  measured f (strong rows, mean): " + ", ".join(
        "%s P=%d %.3f" % (tr, P, sum(v) / len(v)) for (tr, P), v in sorted(fs.items())))


def red_time(P):
    steps = math.log2(P)
    return N_ALLREDUCE * (min(steps, 3) * RED_NODE + max(0.0, steps - 3) * RED_IB)


def fixed_share(P, n, tr, hs):
    """Share of latency and per-exchange overheads in the summed exchange times."""
    H, m, Hn = halo(BOX, P, n)
    fixed = total = 0.0
    for _, ent, K, _ in EXCHANGES:
        e = H if ent == "cell" else Hn
        fixed += sum(exchange(tr, P, m, 0.0, 0.0, K, hs))
        total += sum(exchange(tr, P, m, e * K * DBL, e, K, hs))
    return fixed / total


fmt = lambda n: "-" if n is None else ("%.2gM" % (n / 1e6) if n >= 1e6 else "%.0fk" % (n / 1e3))


if __name__ == "__main__":
    main()
