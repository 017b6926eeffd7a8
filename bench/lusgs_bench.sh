#!/usr/bin/env bash
# LU-SGS benchmark (issue 8, cf. Figure 14 of the production-fv-gpu-lusgs-hyperplane paper):
# generates a transonic channel-with-bump case (M 0.8, 3 % bump: a supersonic pocket up to
# about M 1.2 and a weak shock, second order with the Venkatakrishnan limiter), prepares it as
# one zone, and runs explicit SSP-RK3, LU-SGS with cell colours and LU-SGS with hyperplanes (on
# the CPU also the sequential natural order; on the GPU also hyperplanes with plain launches,
# timed over a few iterations only) to a residual drop of $ORDERS orders or $MAXIT iterations.
# Prints a table (iterations, converged, wall time, time per iteration, orders reached) and
# writes bench/results/lusgs_<device>_<cells>.csv; each run's case file and log stay in the work
# directory. LU-SGS settings (docs/numerics.md, "LU-SGS"): 4 symmetric sweeps, exact
# boundary-flux Jacobian in the diagonal; hyperplane/natural: Roe matrix implicit dissipation,
# CFL ramp 5 -> 1000 over 30 iterations; colour: scalar dissipation, adaptive CFL 5 -> 1000.
#
# usage: bench/lusgs_bench.sh [--bin DIR] [--device cpu|cuda] [--n NI,NJ,NK] [--mach M]
#                             [--bump H] [--orders N] [--maxit N] [--rk-maxit N] [--work DIR]
#                             [--inprocess]
#   --bin     folder with fvgen, fvprep, fvrun (default: build/prep and build/runtime)
#   --device  cpu (default: 96,32,1 = 3072 hex, one cell thick) or cuda (default: 256,128,32 =
#             1.05M hex, 3D block with symmetry sides: 414 hyperplanes instead of about 1280 for
#             1024,256,4)
#   --n       block cells of the generated channel (hexahedra)
#   --mach    free-stream Mach number (default 0.8)
#   --bump    bump height / channel height (default 0.03: transonic, not choked at M 0.8)
#   --orders  residual drop that counts as converged (default 6)
#   --maxit   iteration cap of the LU-SGS runs (default cpu 4000, cuda 4000)
#   --rk-maxit  iteration cap of SSP-RK3 (default cpu 3000, cuda 2000: it reports the orders
#             reached; RK3 needs tens of thousands of iterations for 6 orders here)
#   --inprocess  run the same schemes with the in-process program lusgs_bench (built from
#             tests/lusgs; needs no fvgen/fvprep/fvrun and no files) instead of the file pipeline
#   --launch-modes R  (in-process) compare the GPU sweep launch modes instead: lusgs_launch =
#             plain, graph, persistent, hybrid, R timed repetitions each; ms per solve and per
#             iteration, us per group, and bitwise equality of dU and state with plain
# Environment: FVRUN_ARGS (extra fvrun arguments), OMP_NUM_THREADS (CPU runs).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/channel_patches.sh"
root=$(cd "$here/.." && pwd)
bin="" device=cpu n="" mach=0.8 bump=0.03 orders=6 maxit="" rkmaxit="" work="" inprocess=0 launchmodes=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --n) n=$2; shift 2 ;;
    --mach) mach=$2; shift 2 ;;
    --bump) bump=$2; shift 2 ;;
    --orders) orders=$2; shift 2 ;;
    --maxit) maxit=$2; shift 2 ;;
    --rk-maxit) rkmaxit=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --inprocess) inprocess=1; shift ;;
    --launch-modes) launchmodes=$2; inprocess=1; shift 2 ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "lusgs_bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$device" in
  cpu) n=${n:-96,32,1}; maxit=${maxit:-4000}; rkmaxit=${rkmaxit:-3000} ;;
  cuda) n=${n:-256,128,32}; maxit=${maxit:-4000}; rkmaxit=${rkmaxit:-2000} ;;
  *) echo "lusgs_bench.sh: --device must be cpu or cuda" >&2; exit 2 ;;
esac
find_bin() {
  local name=$1
  for d in "$bin" "$bin/prep" "$bin/runtime" "$root/build/prep" "$root/build/runtime" "$root/build"; do
    [[ -n "$d" && -x "$d/$name" ]] && { echo "$d/$name"; return; }
  done
  command -v "$name" || { echo "lusgs_bench.sh: $name not found (use --bin)" >&2; exit 2; }
}
IFS=, read -r ni nj nk <<<"$n"
cells=$((ni * nj * nk))
if [[ $inprocess == 1 ]]; then
  mkdir -p "$here/results"
  for d in "$bin" "$root/build/tests/lusgs"; do
    [[ -n "$d" && -x "$d/lusgs_bench" ]] && exec "$d/lusgs_bench" --device "$device" --n "$n" \
      --mach "$mach" --bump "$bump" --orders "$orders" --maxit "$maxit" \
      --csv "$here/results/lusgs_${device}_${cells}.csv" --launch-modes "$launchmodes"
  done
  echo "lusgs_bench.sh: lusgs_bench not found (build target lusgs_bench, or use --bin)" >&2
  exit 2
fi
fvgen=$(find_bin fvgen) fvprep=$(find_bin fvprep) fvrun=$(find_bin fvrun)
work=${work:-$(mktemp -d -t lusgs_bench.XXXXXX)}
mkdir -p "$work" "$here/results"
lz=$(awk -v nk="$nk" -v nj="$nj" 'BEGIN { printf "%.6g", nk / nj }') # near-cubic cells in z

echo "# LU-SGS benchmark: channel bump ${n} (${cells} hex), M ${mach}, bump ${bump}, device ${device}"
echo "# work dir: $work"
mesh="$work/bump.cgns" zones="$work/bump.zones.h5"
"$fvgen" channel --cells hex --n "$n" --extent "3,1,$lz" --bump-height "$bump" -o "$mesh" -q
"$fvprep" "$mesh" --parts 1 -o "$zones" -q

# the recommended LU-SGS settings (docs/numerics.md): 4 sweeps, boundary-flux Jacobian; the Roe
# matrix as implicit dissipation with a CFL ramp 5 -> 1000 over 30 iterations for the
# hyperplane (and natural) ordering; colours with the scalar dissipation and the adaptive CFL
# law (their red-black sweeps diverge with the Roe operator and can stall at a fixed CFL)
lusgs="integrator = lusgs
lusgs_sweeps = 4
lusgs_boundary = jacobian
cfl_start = 5
cfl = 1000"
roe="lusgs_dissipation = roe
cfl_ramp_iterations = 30"
# name | iteration cap | [time] keys
schemes=(
  "rk3|$rkmaxit|integrator = ssprk3
cfl = 1.5"
  "lusgs-colour|$maxit|$lusgs
lusgs_dissipation = scalar
lusgs_ordering = colour
cfl_law = adaptive"
  "lusgs-hyperplane|$maxit|$lusgs
$roe
lusgs_ordering = hyperplane"
)
if [[ "$device" == cuda ]]; then
  # same iterations as lusgs-hyperplane by construction: only the time per iteration matters
  schemes+=("lusgs-hyperplane-plain|100|$lusgs
$roe
lusgs_ordering = hyperplane
lusgs_launch = plain")
else
  schemes+=("lusgs-natural|$maxit|$lusgs
$roe
lusgs_ordering = natural")
fi

csv="$here/results/lusgs_${device}_${cells}.csv"
echo "scheme,cells,device,iterations,converged,wall_s,ms_per_iteration,final_log_res_rho,final_log_res_rhoE" >"$csv"
printf "%-24s %10s %10s %12s %14s %12s\n" scheme iterations converged "wall s" "ms/iteration" "log res"
for entry in "${schemes[@]}"; do
  name=${entry%%|*}
  rest=${entry#*|}
  cap=${rest%%|*}
  keys=${rest#*|}
  dir="$work/$name"
  mkdir -p "$dir"
  {
    cat <<INI
[freestream]
nondimensional = true
mach = $mach
lift_axis = y
[scheme]
limiter = venkat
[time]
$keys
iterations = $cap
convergence = $orders
[monitor]
output_interval = 100
output_dir = $dir/out
[run]
device = $device
INI
    channel_patches farfield farfield
  } >"$dir/case.ini"
  if ! "$fvrun" "$zones" -c "$dir/case.ini" ${FVRUN_ARGS:-} >"$dir/fvrun.log" 2>&1; then
    echo "lusgs_bench.sh: $name failed, see $dir/fvrun.log" >&2
    tail -5 "$dir/fvrun.log" >&2
    continue
  fi
  # last data row of history.csv: iteration,time,dt,res_rho,...,res_rhoE,...,wall_s (19th)
  row=$(grep -v '^#' "$dir/out/history.csv" | tail -1)
  it=$(cut -d, -f1 <<<"$row")
  rrho=$(cut -d, -f4 <<<"$row")
  rE=$(cut -d, -f8 <<<"$row")
  wall=$(cut -d, -f19 <<<"$row")
  conv=$(awk -v a="$rrho" -v b="$rE" -v o="$orders" 'BEGIN { print (a <= -o && b <= -o) ? "yes" : "no" }')
  msit=$(awk -v w="$wall" -v i="$it" 'BEGIN { printf "%.3f", 1000 * w / i }')
  printf "%-24s %10s %10s %12.2f %14s %12.2f\n" "$name" "$it" "$conv" "$wall" "$msit" "$(awk -v a="$rrho" -v b="$rE" 'BEGIN{print (a > b ? a : b)}')"
  echo "$name,$cells,$device,$it,$conv,$wall,$msit,$rrho,$rE" >>"$csv"
done
echo "# CSV: $csv"
