#!/usr/bin/env bash
# Kernel benchmarks in one call: build fvgen/fvprep/fvbench, generate shuffled channel meshes
# of tetrahedra and hexahedra, prepare each with RCM renumbering and without, and run fvbench
# on every zone file (device ceilings, per-kernel bandwidth, residual-assembly variants, whole
# RK stage). Appends to OUT/kernels.csv, prints each table, then a Markdown summary
# (OUT/kernels.md).
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
# (epoch seconds: meshes not started by then are skipped, for time-boxed device runs).
set -euo pipefail
cd "$(dirname "$0")/.."

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
  cuda=OFF
else
  [ ${#sizes[@]} -eq 0 ] && sizes=(1M 10M)
  bdir=${BUILD:-build-bench-gpu}
  device=cuda
  repeats=${REPEATS:-20}
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
log() { echo "[kernels.sh $(date -u +%H:%M:%S)] $*" >&2; }

if [ $build = 1 ]; then
  log "building fvgen fvprep fvbench in $bdir (CUDA=$cuda, -j$jobs)"
  cmake -S . -B "$bdir" -DFV_ENABLE_CUDA=$cuda -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" \
    -DCMAKE_BUILD_TYPE=Release -DFV_BUILD_TESTS=OFF >"$out/kernels-configure.log" 2>&1 ||
    { tail -30 "$out/kernels-configure.log" >&2; exit 1; }
  cmake --build "$bdir" -j"$jobs" --target fvgen fvprep fvbench >"$out/kernels-build.log" 2>&1 ||
    { tail -40 "$out/kernels-build.log" >&2; exit 1; }
fi
fvgen=$bdir/prep/fvgen
fvprep=$bdir/prep/fvprep
fvbench=$bdir/runtime/fvbench
for exe in "$fvgen" "$fvprep" "$fvbench"; do
  [ -x "$exe" ] || { echo "kernels.sh: $exe missing (build without --no-build)" >&2; exit 2; }
done

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
      "$fvbench" "$zones" --device "$device" --repeats "$repeats" --csv "$csv" \
        --label "$name $ren" --no-checksum
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
log "summary ($out/kernels.md):"
cat "$out/kernels.md"
