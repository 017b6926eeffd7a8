#!/usr/bin/env bash
# The Navier-Stokes checks and benchmarks on a bare GPU machine in ONE call (issue 14): builds
# the CUDA targets, runs the GPU-vs-CPU tests (viscous channel, SU2's laminar cylinder: residual
# histories to 1e-10 over 50 iterations, same iteration counts), the laminar runs of
# examples/ on the GPU, and fvbench's stage cost of a viscous against an inviscid iteration on
# a generated 10M-cell box; everything under $OUT.
#
#   OUT=/path bench/device_navier_stokes.sh
# Carried files (git-ignored, name them in the device tool's carry): .deps (METIS/CGNS .debs,
# scripts/fetch-device-debs.sh) and .devcarry/meshes/su2/{cylinder_lam,flatplate_turb_137x97}.su2.
# Environment: JOBS, CUDA_ARCH (default 90), CELLS (default 10000000), SKIP_TESTS=1.
set -uo pipefail
name=device_navier_stokes
. "$(dirname "$0")/device_common.sh"
device_build fvrun fvprep fvgen fvbench test_newton_backends
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
export FV_SHARED_MESHES="$PWD/.devcarry/meshes"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  log "GPU vs CPU"
  "$bdir/tests/newton/test_newton_backends" --gtest_filter='*CudaMatchesCpu*' 2>&1 |
    grep -E "^\[|iterations|diff|FAIL|Failure|Expected|Which" | tail -30
fi
work=/tmp/ns_device
mkdir -p "$work"
for c in cylinder_re40:cylinder_lam.su2:1 flat_plate_laminar:flatplate_turb_137x97.su2:0.1; do
  IFS=: read -r ex mesh span <<<"$c"
  log "$ex on the GPU"
  "$bdir/prep/fvprep" ".devcarry/meshes/su2/$mesh" --extrude "$span" -o "$work/$ex.zones.h5" \
    >/dev/null 2>&1 &&
    "$bdir/runtime/fvrun" "$work/$ex.zones.h5" -c "examples/$ex.ini" --device cuda \
      --output-dir "$work/$ex" 2>&1 | grep -E "fvrun:|error" | tail -3
  cp "$work/$ex/history.csv" "$out/${ex}_history.csv" 2>/dev/null
done
log "viscous vs inviscid stage cost on ${CELLS:-10000000} cells"
"$bdir/prep/fvgen" box --cells hex --target "${CELLS:-10000000}" -o "$work/box.cgns" \
  >/dev/null 2>&1 && "$bdir/prep/fvprep" "$work/box.cgns" -o "$work/box.zones.h5" >/dev/null 2>&1
for model in euler navier_stokes; do
  "$bdir/bench/fvbench" "$work/box.zones.h5" --device cuda --repeats 10 --label "box_$model" \
    --model "$model" --kernels gather 2>&1 | grep -E "device:|stage" | tail -4
done
log "done"
