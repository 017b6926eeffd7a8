#!/usr/bin/env bash
# Kernel benchmarks in one call: build fvgen/fvprep/fvbench, generate shuffled channel meshes
# of tetrahedra and hexahedra, prepare each with RCM renumbering and without, and run fvbench
# on every zone file (device ceilings, per-kernel bandwidth, residual-assembly variants, whole
# RK stage), each measurement made RUNS times to check it reproduces; then (ITER=1) fvrun
# --profile on the RCM zone file for the whole iteration of SSP-RK3 and of LU-SGS (ns/cell and
# each kernel's share), and SSP-RK3 without --profile (ITERATION_RUNS: the tags, default
# "ssprk3 ssprk3-noprof lusgs"). Appends to OUT/kernels.csv and OUT/iteration.csv, prints each table,
# then a Markdown summary (OUT/kernels.md).
#
#   bench/kernels.sh [--cpu] [--out DIR] [--no-build] [SIZES...]
#       GPU (default): sizes 1M 10M, CUDA build (CUDA_ARCH, default 90), --device cuda
#       --cpu:         sizes 200k, CPU build (OpenMP), --device cpu
#
# Environment: BUILD (build dir; default build-bench-gpu / build-bench-cpu), JOBS (default
# nproc), CELLS (default "tet hex"), FAMILY (default channel), RENUMBER (default "rcm none"),
# REPEATS (default 20 GPU / 5 CPU), AUTO (1: also run --kernels auto twice per RCM mesh;
# default 1 on the GPU, 0 with --cpu), MESHES (mesh scratch, default OUT/meshes), KEEP_MESHES=1
# keeps the generated files (default: zone files and CGNS are deleted after use), DEADLINE
# (epoch seconds: meshes not started by then are skipped, for time-boxed device runs),
# RUNS (complete fvbench measurements per zone file, default 2: the table and CSV give each
# row's deviation between runs and flag those above 5 %), ITER (1: whole-iteration fvrun
# --profile runs per RCM mesh, default 1), ITERATIONS (fvrun iterations, default 20 GPU / 5 CPU).
# Sizes may be anything fvgen --target takes (200k, 1M, 10M, 50M; 50M needs ~80 GB of host
# memory for fvprep of hexahedra, see docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/channel_patches.sh

cpu=0
build=1
out=${TMPDIR:-/tmp}/fvkit-bench
sizes=()
while [ $# -gt 0 ]; do
  case "$1" in
  --cpu) cpu=1 ;;
  --no-build) build=0 ;;
  --out) out=$2; shift ;;
  -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "kernels.sh: unknown option $1" >&2; exit 2 ;;
  *) sizes+=("$1") ;;
  esac
  shift
done
if [ $cpu = 1 ]; then
  [ ${#sizes[@]} -eq 0 ] && sizes=(200k)
  bdir=${BUILD:-build-bench-cpu}
  device=cpu
  repeats=${REPEATS:-5}
  iterations=${ITERATIONS:-5}
  cuda=OFF
else
  [ ${#sizes[@]} -eq 0 ] && sizes=(1M 10M)
  bdir=${BUILD:-build-bench-gpu}
  device=cuda
  repeats=${REPEATS:-20}
  iterations=${ITERATIONS:-20}
  cuda=ON
fi
jobs=${JOBS:-$(nproc)}
cells_list=${CELLS:-"tet hex"}
family=${FAMILY:-channel}
renumbers=${RENUMBER:-"rcm none"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
meshes=${MESHES:-$out/meshes}
mkdir -p "$meshes"
csv=$out/kernels.csv
itcsv=$out/iteration.csv
runs=${RUNS:-2}
log() { echo "[kernels.sh $(date -u +%H:%M:%S)] $*" >&2; }

if [ $build = 1 ]; then
  log "building fvgen fvprep fvbench fvrun in $bdir (CUDA=$cuda, -j$jobs)"
  cmake -S . -B "$bdir" -DFV_ENABLE_CUDA=$cuda -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" \
    -DCMAKE_BUILD_TYPE=Release -DFV_BUILD_TESTS=OFF >"$out/kernels-configure.log" 2>&1 ||
    { tail -30 "$out/kernels-configure.log" >&2; exit 1; }
  cmake --build "$bdir" -j"$jobs" --target fvgen fvprep fvbench fvrun \
    >"$out/kernels-build.log" 2>&1 ||
    { tail -40 "$out/kernels-build.log" >&2; exit 1; }
fi
fvgen=$bdir/prep/fvgen
fvprep=$bdir/prep/fvprep
fvbench=$bdir/bench/fvbench
fvrun=$bdir/runtime/fvrun
for exe in "$fvgen" "$fvprep" "$fvbench" "$fvrun"; do
  [ -x "$exe" ] || { echo "kernels.sh: $exe missing (build without --no-build)" >&2; exit 2; }
done

# whole iteration: fvrun --profile, SSP-RK3 and LU-SGS, on the generated channel's patches
{
  cat <<'INI'
[freestream]
mach = 0.5
lift_axis = y
[time]
integrator = ssprk3
cfl = 1.5
convergence = 0
[monitor]
output_interval = 1000
force_patches = lower_wall
INI
  channel_patches
} >"$meshes/iteration.ini"
[ -s "$itcsv" ] || echo "date,device,mesh,cells,scheme,iterations,ms_per_iteration,ns_per_cell_iteration,kernel,calls,total_ms,percent_of_iteration,kernel_ns_per_cell_iteration" >"$itcsv"
iteration_profile() { # ZONES LABEL
  local zones=$1 label=$2 tag scheme extra prof dir timing
  # tags: the scheme, "-persistent" with lusgs_launch = persistent, "-noprof" without --profile
  # (whose per-kernel events cost time of their own: the iteration as users run it; one
  # pseudo-kernel row "(whole iteration)")
  for tag in ${ITERATION_RUNS:-ssprk3 ssprk3-noprof lusgs lusgs-persistent-noprof}; do
    scheme=${tag%%-*}
    extra=()
    [ $scheme = lusgs ] && extra=(--set time.integrator=lusgs --set time.lusgs_ordering=hyperplane
                                  --set time.cfl=50 --set time.cfl_start=5
                                  --set time.cfl_ramp_iterations=10)
    case $tag in *-persistent*) extra+=(--set time.lusgs_launch=persistent) ;; esac
    prof=(--profile)
    case $tag in *-noprof) prof=() ;; esac
    dir=$meshes/run_${label// /_}_$tag
    log "fvrun $label $tag ($iterations iterations)"
    if ! timing=$("$fvrun" "$zones" -c "$meshes/iteration.ini" --device "$device" \
        --iterations "$iterations" --output-dir "$dir" "${prof[@]}" --no-checksums -v \
        --set monitor.write_solution=false "${extra[@]}" \
        2>&1 | tee "$dir.log" | grep FVRUN_TIMING); then
      log "fvrun $label $tag FAILED:"; tail -5 "$dir.log" >&2; rm -rf "$dir" "$dir.log"; continue
    fi
    sed -n '/kernel profile/,/^total/p' "$dir.log" >&2
    python3 - "$timing" "$dir/profile.csv" "$label" "$tag" "$device" >>"$itcsv" <<'PY'
import csv, os, sys, datetime
timing, prof, label, scheme, device = sys.argv[1:]
t = dict(kv.split("=") for kv in timing.split()[1:])
cells, its, per = int(t["cells"]), int(t["iterations"]), float(t["time_per_iter_s"])
date = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
head = f"{date},{device},{label},{cells},{scheme},{its},{1e3 * per:.6f},{1e9 * per / cells:.4f}"
if not os.path.exists(prof):  # a run without --profile
    print(f"{head},(whole iteration),{its},{1e3 * per * its:.6f},100,{1e9 * per / cells:.4f}")
    sys.exit(0)
for r in csv.DictReader(open(prof)):
    print(f"{head},{r['label']},{r['calls']},{r['total_ms']},{r['percent_of_iteration']},"
          f"{r['ns_per_cell_iteration']}")
PY
    rm -rf "$dir" "$dir.log"
  done
}

for size in "${sizes[@]}"; do
  for cells in $cells_list; do
    name=${family}_${cells}_${size}
    if [ -n "${DEADLINE:-}" ] && [ "$(date +%s)" -ge "$DEADLINE" ]; then
      log "DEADLINE reached: skipping $name"
      continue
    fi
    mesh=$meshes/$name.cgns
    if [ ! -e "$mesh" ]; then
      log "generating $name"
      "$fvgen" "$family" --cells "$cells" --target "$size" --shuffle --seed 1 --perturb 0.1 \
        -o "$mesh" -q
    fi
    for ren in $renumbers; do
      zones=$meshes/$name.$ren.zones.h5
      log "fvprep $name --renumber $ren"
      /usr/bin/time -a -o "$out/kernels-prep-times.txt" \
        -f "fvprep $name --renumber $ren: %e s wall, %M KiB peak RSS" \
        "$fvprep" "$mesh" --renumber "$ren" -o "$zones" -q
      tail -1 "$out/kernels-prep-times.txt" >&2
      log "fvbench $name ($ren)"
      "$fvbench" "$zones" --device "$device" --repeats "$repeats" --runs "$runs" --csv "$csv" \
        --label "$name $ren" --no-checksum
      [ "$ren" = rcm ] && [ "${ITER:-1}" = 1 ] && iteration_profile "$zones" "$name $ren"
      if [ "$ren" = rcm ] && [ "${AUTO:-$((1 - cpu))}" = 1 ]; then
        # --kernels auto twice: the first run times the variants and stores the fastest in the
        # cache, the second finds it there (per mesh UUID and device name)
        for pass in 1 2; do
          "$fvbench" "$zones" --device "$device" --repeats 5 --warmup 1 --kernels auto \
            --cache "$meshes/kernel-choice.tsv" --no-checksum | grep "residual assembly" || true
        done
      fi
      [ "${KEEP_MESHES:-0}" = 1 ] || rm -f "$zones"
    done
    [ "${KEEP_MESHES:-0}" = 1 ] || rm -f "$mesh"
  done
done

python3 bench/summarize_kernels.py "$csv" >"$out/kernels.md"
[ "$(wc -l <"$itcsv")" -gt 1 ] && python3 bench/summarize_iteration.py "$itcsv" >>"$out/kernels.md"
log "summary ($out/kernels.md):"
cat "$out/kernels.md"
