#!/usr/bin/env bash
# The README's NACA 0012 Euler case (examples/naca0012.ini: M 0.8, AoA 1.25, fvrun's defaults)
# on the GPU and on the CPU backend, in one device call, plus the same case on 2 ranks sharing
# the GPU through a partitioning added with `fvprep partition add` (issue 18). Prints the
# iterations, orders, CL, CD and wall time of each run and compares the histories
# (compare_runs: GPU vs CPU and 1 vs 2 ranks). Then the same case with [scheme] precision = mixed
# on the GPU and the CPU (compared with each other, and its CL/CD with the FP64 run's).
#   OUT=/path bench/device_naca_check.sh          (carry .deps and .devcarry/meshes)
name=device_naca
. bench/device_common.sh
device_build fvrun fvprep compare_runs
mesh=${MESH:-.devcarry/meshes/su2/naca0012_inv_su2.su2}
[ -f "$mesh" ] || mesh=../shared/meshes/su2/naca0012_inv_su2.su2
b=$bdir
$b/prep/fvprep "$mesh" --extrude 1 -o /tmp/naca.zones.h5 -q >/dev/null || { log "fvprep failed"; exit 1; }
sed 's/^output_dir = .*/write_solution = true/' examples/naca0012.ini >/tmp/naca.ini
runit() { # runit TAG NP ARGS...
  local tag=$1 np=$2
  shift 2
  local t0
  t0=$(date +%s.%N)
  if [ "$np" -gt 1 ]; then
    mpirun --allow-run-as-root --oversubscribe -np "$np" $b/runtime/fvrun /tmp/naca.zones.h5 \
      -c /tmp/naca.ini --output-dir "/tmp/naca_$tag" "$@" >"$out/naca_$tag.log" 2>&1
  else
    $b/runtime/fvrun /tmp/naca.zones.h5 -c /tmp/naca.ini --output-dir "/tmp/naca_$tag" "$@" \
      >"$out/naca_$tag.log" 2>&1
  fi
  local rc=$?
  log "$tag: rc $rc, $(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')") s wall: $(grep -E '^fvrun: .* after ' "$out/naca_$tag.log" | head -1)"
  tail -3 "/tmp/naca_$tag/history.csv" | cut -c1-200 >"$out/naca_$tag.tail.csv"
}
runit gpu 1 --device cuda
runit cpu 1 --device cpu
$b/prep/fvprep partition add /tmp/naca.zones.h5 --parts 2 -q >/dev/null
runit gpu2 2 --device cuda
grep -h "partitioning of 2" "$out/naca_gpu2.log" | head -1
runit gpumixed 1 --device cuda --set scheme.precision=mixed
runit cpumixed 1 --device cpu --set scheme.precision=mixed
for pair in "gpu cpu 1e-9" "gpu gpu2 1e-9" "gpumixed cpumixed 1e-9"; do
  set -- $pair
  $b/tests/mpi_run/compare_runs history "/tmp/naca_$1/history.csv" "/tmp/naca_$2/history.csv" "$3" CL CD \
    >"$out/compare_$1_$2.txt" 2>&1
  log "compare $1 vs $2 (rtol $3): rc $? $(tail -1 "$out/compare_$1_$2.txt")"
done
python3 - <<'PY'
import csv
def last(tag):
    rows = list(csv.DictReader(open(f"/tmp/naca_{tag}/history.csv")))
    return rows[-1]
d, m = last("gpu"), last("gpumixed")
for k in ("CL", "CD"):
    a, b = float(d[k]), float(m[k])
    print(f"mixed vs FP64 {k}: {b:.10g} vs {a:.10g}, relative difference {abs(b - a) / abs(a):.2e}")
PY
for t in gpu cpu gpu2 gpumixed cpumixed; do echo "$t: $(head -1 "/tmp/naca_$t/history.csv" | cut -c1-120)"; tail -1 "/tmp/naca_$t/history.csv" | cut -c1-160; done
