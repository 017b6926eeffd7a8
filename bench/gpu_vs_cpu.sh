#!/usr/bin/env bash
# GPU-vs-CPU verification and per-iteration timing of fvrun (issues 6 and 8), one device call:
#   bench/gpu_vs_cpu.sh [--build DIR] [--n NI,NJ,NK] [--iterations N]
# Generates a shuffled channel-with-bump hex mesh (default 128x64x128 = 1.05M cells) and a tet
# mesh of about the same size, prepares them, runs fvrun on the GPU twice and on the CPU once
# (explicit SSP-RK3, 2nd order, Venkatakrishnan) and LU-SGS (hyperplane) on both, and compares
# the residual/force histories (bench/compare_history.py). Writes bench/results/gpu_vs_cpu.csv
# (or $OUT/gpu_vs_cpu.csv when OUT is set).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/channel_patches.sh"
build=$root/build/gpu
n=128,64,128
ntet=64,32,64
iters=200
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --n) n=$2; shift 2 ;;
    --ntet) ntet=$2; shift 2 ;;
    --iterations) iters=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--n NI,NJ,NK] [--ntet NI,NJ,NK] [--iterations N]" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)
work=${WORK:-/tmp/fv_gpu_vs_cpu}
mkdir -p "$work" && cd "$work"
csv=${OUT:-$root/bench/results}/gpu_vs_cpu.csv
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || echo none)
{
  cat <<INI
[freestream]
mach = 0.5
lift_axis = y
[time]
integrator = ssprk3
cfl = 1.5
iterations = $iters
convergence = 0
[monitor]
output_interval = 50
force_patches = lower_wall
INI
  channel_patches
} >case.ini
echo "mesh,cells,scheme,device,iterations,ms_per_iteration,ns_per_cell_iteration,max_rel_diff_vs_cpu,gpu,date" > "$csv"
run() { # name zones device scheme-args...
  local name=$1 zones=$2 dev=$3; shift 3
  "$build/runtime/fvrun" "$zones" -c case.ini --device "$dev" --output-dir "out_$name" -v "$@" \
    2>&1 | grep -E "FVRUN_TIMING|error" || true
}
timing() { grep -o "time_per_iter_s=[0-9.e+-]*" "$1" | cut -d= -f2; }
for mesh in hex tet; do
  if [ $mesh = hex ]; then dims=$n; else dims=$ntet; fi
  "$build/prep/fvgen" channel --cells $mesh --n "$dims" --shuffle --perturb 0.1 -o $mesh.cgns -q
  "$build/prep/fvprep" $mesh.cgns -o $mesh.zones.h5 -q > prep_$mesh.log
  cells=$(grep -o "^mesh: [0-9]*" prep_$mesh.log | awk '{print $2}')
  for scheme in rk3 lusgs; do
    extra=()
    [ $scheme = lusgs ] && extra=(--set time.integrator=lusgs --set time.lusgs_ordering=hyperplane
                                  --set time.lusgs_sweeps=2 --set time.cfl=50
                                  --set time.cfl_start=5 --set time.cfl_ramp_iterations=50)
    for dev in cuda cuda2 cpu; do
      d=${dev%2}
      run ${mesh}_${scheme}_$dev $mesh.zones.h5 $d "${extra[@]}" > t_${mesh}_${scheme}_$dev.log
      cat t_${mesh}_${scheme}_$dev.log
    done
    echo "== $mesh $scheme: GPU run 1 vs GPU run 2 (must be identical)"
    python3 "$root/bench/compare_history.py" out_${mesh}_${scheme}_cuda/history.csv \
      out_${mesh}_${scheme}_cuda2/history.csv --tol 0 | tail -1 || true
    echo "== $mesh $scheme: GPU vs CPU"
    python3 "$root/bench/compare_history.py" out_${mesh}_${scheme}_cuda/history.csv \
      out_${mesh}_${scheme}_cpu/history.csv --tol 1e-10 | tee cmp.txt || true
    diff=$(tail -1 cmp.txt | grep -o "difference [0-9.e+-]*" | awk '{print $2}')
    for dev in cuda cpu; do
      t=$(timing t_${mesh}_${scheme}_$dev.log)
      awk -v m=$mesh -v c=$cells -v s=$scheme -v d=$dev -v it=$iters -v t=$t -v df=$diff -v g="$gpu" \
        -v date="$(date -u +%F)" 'BEGIN{printf "%s,%s,%s,%s,%s,%.3f,%.2f,%s,\"%s\",%s\n",
        m,c,s,d,it,t*1e3,t*1e9/c,df,g,date}' >> "$csv"
    done
  done
done
echo
awk -F, '{printf "%-5s %-9s %-6s %-5s %6s %10s %9s %12s\n", $1, $2, $3, $4, $5, $6, $7, $8}' "$csv"
