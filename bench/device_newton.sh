#!/usr/bin/env bash
# The Newton-Krylov checks and benchmarks on a bare GPU machine in ONE call (issue 13): builds
# the CUDA targets, runs the GPU-vs-CPU tests (Newton, explicit, LU-SGS), then
# bench/newton_bench.sh on the GPU (NACA 0012, the 730k-cell wing, the 1M-cell bump), and
# writes everything under $OUT.
#
#   OUT=/path bench/device_newton.sh
# Carried files (git-ignored, name them in the device tool's carry): .deps (METIS/CGNS .debs,
# scripts/fetch-device-debs.sh) and .devcarry with meshes/su2/naca0012_inv_su2.su2 and wing.msh
# (bench/wing_mesh.sh; the device has no gmsh). Environment: CASES, SCHEMES, ZONES (as
# newton_bench.sh), SKIP_TESTS=1, JOBS, CUDA_ARCH (default 90).
set -uo pipefail
name=device_newton
. "$(dirname "$0")/device_common.sh"
device_build fvrun fvprep fvgen fvbench test_newton_backends test_solver_backends test_lusgs_backends
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  export FV_SHARED_MESHES="$PWD/.devcarry/meshes"
  for t in newton/test_newton_backends solver/test_solver_backends lusgs/test_lusgs_backends; do
    log "$t"
    "$bdir/tests/$t" --gtest_filter='*CudaMatchesCpu*' 2>&1 | grep -E "^\[|iterations|diff|FAIL|Failure|Expected|Which" | tail -30
  done
fi
log "fvbench (whole stage through the SpatialOperator) on the wing"
bd_wing=/tmp/fvbench_wing.zones.h5
"$bdir/prep/fvprep" .devcarry/wing.msh -o "$bd_wing" >/dev/null 2>&1 &&
  "$bdir/bench/fvbench" "$bd_wing" --device cuda --repeats 10 --label wing730k 2>&1 |
  grep -E "device:|stage|ceiling|interior_fluxes|flux_sum " | tail -12
log "newton_bench"
NACA_MESH=.devcarry/meshes/su2/naca0012_inv_su2.su2 WING_MESH=.devcarry/wing.msh \
  bench/newton_bench.sh --bin "$bdir" --device cuda --cases "${CASES:-naca wing bump}" \
  --schemes "${SCHEMES:-newton lusgs rk3}" --work /tmp/newton_bench --tag "${TAG:-gpu}"
cp bench/results/newton_cuda_"${TAG:-gpu}".csv "$out/" 2>/dev/null
log "done"
