#!/usr/bin/env bash
# fvrun's CPU backend against OpenFOAM's rhoCentralFoam per cell per step, on the same cores:
# the 1M-cell hex box (fvgen box --n 100,100,100 = blockMesh 100^3), uniform Mach 2.9 Euler
# flow, 25 steps, serial and 2 threads (OpenFOAM: serial and mpirun -np 2; fvrun is single-zone
# and uses OpenMP threads for the second core). OpenFOAM figures come from the recorded
# run_peer.sh table (PEER_RESULTS) -- they are not re-run here (bench/peer_live.sh runs both live).
#
#   bench/solver_cpu.sh [--out DIR] [--no-build] [N]      (N: box cells per direction, 100)
#
# Environment: BUILD (default build-bench-cpu), JOBS (default 2), STEPS (default 25),
# INTEGRATOR (default ssprk3: 3 residual evaluations per step; rk2: 2), THREADS (default
# "1 2"), PEER_RESULTS (default /work/shared/peers/openfoam/results-2026-11-21.txt).
# Writes OUT/solver_cpu.md and the fvrun logs.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
out=${TMPDIR:-/tmp}/fvkit-bench
n=100
while [ $# -gt 0 ]; do
  case "$1" in
  --no-build) build=0 ;;
  --out) out=$2; shift ;;
  -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "solver_cpu.sh: unknown option $1" >&2; exit 2 ;;
  *) n=$1 ;;
  esac
  shift
done
bdir=${BUILD:-build-bench-cpu}
jobs=${JOBS:-2}
steps=${STEPS:-25}
integrator=${INTEGRATOR:-ssprk3}
threads_list=${THREADS:-"1 2"}
peer_results=${PEER_RESULTS:-/work/shared/peers/openfoam/results-2026-11-21.txt}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log() { echo "[solver_cpu.sh $(date -u +%H:%M:%S)] $*" >&2; }

if [ $build = 1 ]; then
  log "building fvgen fvprep fvrun in $bdir (-j$jobs)"
  cmake -S . -B "$bdir" -DFV_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Release -DFV_BUILD_TESTS=OFF \
    >"$out/solver-configure.log" 2>&1 || { tail -30 "$out/solver-configure.log" >&2; exit 1; }
  cmake --build "$bdir" -j"$jobs" --target fvgen fvprep fvrun >"$out/solver-build.log" 2>&1 ||
    { tail -40 "$out/solver-build.log" >&2; exit 1; }
fi

mesh=$out/box_hex$n.cgns
zones=$out/box_hex$n.zones.h5
"$bdir/prep/fvgen" box --cells hex --n "$n,$n,$n" -o "$mesh" -q
"$bdir/prep/fvprep" "$mesh" --parts 1 -o "$zones" -q
rm -f "$mesh"
cat >"$out/box_euler.ini" <<INI
# uniform Mach 2.9 flow through a unit box (the rhoCentralFoam peer case of run_peer.sh)
[freestream]
mach = 2.9
[scheme]
flux = roe
order = 2
limiter = venkat
[time]
integrator = $integrator
iterations = $steps
convergence = 0
[monitor]
output_interval = 100000
output_dir = $out/fvrun_box
[patch xmin]
type = farfield
[patch xmax]
type = farfield
[patch ymin]
type = farfield
[patch ymax]
type = farfield
[patch zmin]
type = farfield
[patch zmax]
type = farfield
INI

rows=()
for t in $threads_list; do
  log "fvrun $steps steps, $t OpenMP thread(s) (load $(cut -d' ' -f1 /proc/loadavg))"
  /usr/bin/time -f "%e %M" -o "$out/.time.txt" env OMP_NUM_THREADS=$t \
    "$bdir/runtime/fvrun" "$zones" -c "$out/box_euler.ini" --device cpu --no-checksums \
    >"$out/fvrun_t$t.log" 2>&1 || { tail -20 "$out/fvrun_t$t.log" >&2; exit 1; }
  read -r wall rss <"$out/.time.txt"
  ns=$(grep -o '([0-9.e+]* ns per cell per iteration)' "$out/fvrun_t$t.log" | tail -1 | tr -d '(' | cut -d' ' -f1)
  rows+=("$t $wall $rss ${ns:-0} $(cut -d' ' -f1 /proc/loadavg)")
done
rm -f "$zones"

python3 - "$peer_results" "$integrator" "$steps" "$n" "${rows[@]}" >"$out/solver_cpu.md" <<'PY'
import os, re, sys
peer_path, integrator, steps, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = [r.split() for r in sys.argv[5:]]
stages = {"rk2": 2, "ssprk3": 3, "rk4": 4}.get(integrator, 1)
wall = {}
per_step = {}
try:
    for line in open(peer_path):
        m = re.match(r"^hex100\s.*\|\s*(rhoCentralFoam euler serial|mpirun -np 2 rhoCentralFoam euler)"
                     r".*?\s{2,}([\d.]+)\s", line)
        if m:
            wall["1" if "serial" in m.group(1) else "2"] = float(m.group(2))
        m = re.match(r"^euler\s+(\d)\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)", line)
        if m:
            per_step[m.group(1)] = float(m.group(2))
except OSError:
    pass
cells = n ** 3
print(f"### fvrun CPU vs rhoCentralFoam: {cells} hex cells, Euler, {steps} steps\n")
print(f"fvrun: second-order Roe + Venkatakrishnan, {integrator} ({stages} residual evaluations "
      f"per step), OpenMP threads on the same cores as OpenFOAM's MPI ranks. OpenFOAM 1912 "
      f"rhoCentralFoam (Kurganov-Tadmor, one flux evaluation per step): "
      + (f"run live in the same call ({peer_path}).\n" if os.environ.get("PEER_LIVE") == "1"
         else f"recorded figures from {peer_path}, not re-run (bench/peer_live.sh runs it live).\n"))
print("| cores | fvrun wall s (incl. start-up) | fvrun ns/cell/step | fvrun ns/cell/stage | "
      "fvrun peak MiB | OF wall s | OF ns/cell/step | step ratio OF/fvrun | load |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for t, w, rss, ns, load in rows:
    ns = float(ns)
    of_w = wall.get(t, float("nan"))
    of_ns = per_step.get(t, float("nan"))
    ratio = of_ns / ns if ns > 0 else float("nan")
    print(f"| {t} | {float(w):.2f} | {ns:.1f} | {ns / stages:.1f} | {float(rss) / 1024:.0f} | "
          f"{of_w:.2f} | {of_ns:.1f} | {ratio:.2f}x | {load} |")
PY
cat "$out/solver_cpu.md"
