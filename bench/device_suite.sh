#!/usr/bin/env bash
# The GPU benchmark suite in ONE call on a bare device machine (H100/H200, nvcc, CMake, Open MPI,
# HDF5 1.10, Boost, CLI11, GTest present; METIS and CGNS from the carried .deps/ via
# scripts/device-setup.sh): build everything with CUDA, run ctest, generate meshes, run the
# kernel benchmarks (bench/kernels.sh) and write the results under $OUT (<= 8 files).
#
#   OUT=/path bench/device_suite.sh [SIZES...]        (default sizes: 1M 10M; e.g. 1M 10M 50M)
#
# Files written to $OUT: env.txt (GPU, driver, nvcc, CPU), build.log (tail of the build),
# ctest.log (summary + failures), kernels.csv (every fvbench row, each measured RUNS times with
# the run-to-run deviation per row), iteration.csv (whole-iteration fvrun --profile rows:
# SSP-RK3 and LU-SGS ns/cell/iteration and each kernel's share), kernels.md (Markdown summary
# of both), kernels-prep-times.txt (fvprep wall/RSS per mesh), suite.log (everything printed,
# fvbench tables included). Order: build, ctest, all sizes with RCM, then all sizes without
# renumbering. Budget: BUDGET_S (default 420 s) from the start; meshes not begun by then are
# skipped and say so in suite.log (the suite stays under ~8 min on a 16-core H200 machine).
# Environment: CUDA_ARCH (default 90), JOBS (default nproc), SKIP_CTEST=1, CELLS (default
# "tet hex"), RENUMBERS (passes, default "rcm none"; "rcm" for 50M), RUNS (default 2), ITER
# (default 1), ITERATIONS (default 20), REPEATS (see bench/kernels.sh).
# 50M cells: one cell type per call fits the 10-minute limit, e.g.
#   OUT=/path SKIP_CTEST=1 CELLS=tet RENUMBERS=rcm BUDGET_S=60 bench/device_suite.sh 50M
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
out=${OUT:?set OUT to the results folder}
mkdir -p "$out"
out=$(cd "$out" && pwd)
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1M 10M)
jobs=${JOBS:-$(nproc)}
budget=${BUDGET_S:-420}
bdir=build-device
exec > >(tee -a "$out/suite.log") 2>&1
log() { echo "[device_suite $(( $(date +%s) - start ))s] $*"; }

if [ -d .deps ] && ls .deps/*.deb >/dev/null 2>&1; then
  . scripts/device-setup.sh
else
  log "no .deps/*.deb: assuming METIS and CGNS are installed (carry .deps to the device otherwise)"
fi
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv 2>&1
  nvcc --version 2>&1 | tail -2
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
  free -g | head -2
  git log --oneline -1 2>/dev/null
} >"$out/env.txt"
cat "$out/env.txt"

log "configure + build (CUDA_ARCH=${CUDA_ARCH:-90}, -j$jobs)"
cmake -S . -B "$bdir" -DFV_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" \
  -DCMAKE_BUILD_TYPE=Release >"$out/build.full.log" 2>&1 &&
  cmake --build "$bdir" -j"$jobs" >>"$out/build.full.log" 2>&1
rc=$?
tail -60 "$out/build.full.log" >"$out/build.log"
rm -f "$out/build.full.log"
if [ $rc -ne 0 ]; then
  log "BUILD FAILED (rc $rc); see build.log"
  tail -30 "$out/build.log"
  exit 1
fi
log "build done"

if [ "${SKIP_CTEST:-0}" != 1 ]; then
  log "ctest"
  (cd "$bdir" && ctest -j"$jobs" --timeout 180 --output-on-failure) >"$out/ctest.full.log" 2>&1
  crc=$?
  { grep -E "tests passed|tests failed|Total Test time" "$out/ctest.full.log"
    grep -E "^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess|Not Run)" "$out/ctest.full.log"
    echo "---- output of failing tests (last 200 lines)"
    grep -q "tests failed" "$out/ctest.full.log" && tail -200 "$out/ctest.full.log"
  } >"$out/ctest.log"
  rm -f "$out/ctest.full.log"
  log "ctest rc $crc: $(head -1 "$out/ctest.log")"
fi

# Most valuable first: every size with RCM (meshes kept), then every size without renumbering
# (reusing the generated meshes); whatever is not started by the deadline is skipped.
meshes=${MESHES:-/tmp/fvkit-bench-meshes}
passes=(${RENUMBERS:-rcm none})
for i in "${!passes[@]}"; do
  ren=${passes[$i]}
  keep=1
  [ "$i" -eq $((${#passes[@]} - 1)) ] && keep=0 # the last pass deletes the meshes after use
  log "kernel benchmarks, renumber $ren: ${sizes[*]}"
  DEADLINE=$((start + budget)) BUILD=$bdir MESHES=$meshes KEEP_MESHES=$keep RENUMBER=$ren \
    bench/kernels.sh --no-build --out "$out" "${sizes[@]}"
done
rm -rf "$meshes"
log "done; files in $out:"
ls -la "$out"
