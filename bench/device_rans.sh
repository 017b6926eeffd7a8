#!/usr/bin/env bash
# The RANS (Spalart-Allmaras) checks and benchmarks on a bare GPU machine in ONE call (issue 15),
# with the GPU-vs-CPU tests of every solver path (the model layer's kernels are shared): builds
# the CUDA targets, runs the *CudaMatchesCpu* tests (Newton: Euler, Navier-Stokes, RANS; explicit;
# LU-SGS), the wing with the Newton defaults (newton_bench.sh), the TMR flat plate and NACA 0012
# (alpha 10, 225 x 65 C-grid) RANS runs on the GPU, and fvbench's explicit stage of the Euler,
# Navier-Stokes and RANS models on a generated box of CELLS hexahedra with a wall; all under $OUT.
#
#   OUT=/path bench/device_rans.sh
# Carried files (git-ignored, name them in the device tool's carry): .deps (METIS/CGNS .debs,
# scripts/fetch-device-debs.sh) and .devcarry with wing.msh and meshes/su2/{naca0012_inv_su2,
# flatplate_turb_137x97,naca0012_turb_225x65,cylinder_lam}.su2.
# Environment: JOBS, CUDA_ARCH (default 90), CELLS (default 10000000), SKIP_TESTS=1, SKIP_WING=1.
set -uo pipefail
name=device_rans
. "$(dirname "$0")/device_common.sh"
device_build fvrun fvprep fvgen fvbench test_newton_backends test_solver_backends test_lusgs_backends
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
export FV_SHARED_MESHES="$PWD/.devcarry/meshes"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  for t in newton/test_newton_backends solver/test_solver_backends lusgs/test_lusgs_backends; do
    log "$t"
    "$bdir/tests/$t" --gtest_filter='*CudaMatchesCpu*' 2>&1 |
      grep -E "^\[ +(OK|FAILED|PASSED)|iterations|diff|Failure|Expected|Which" | tail -30
  done
fi
if [ "${SKIP_WING:-0}" != 1 ]; then
  log "wing, Newton defaults"
  WING_MESH=.devcarry/wing.msh ZONES=" " bench/newton_bench.sh --bin "$bdir" --device cuda \
    --cases wing --schemes newton --work /tmp/newton_bench --tag "${TAG:-gpu}" | tail -3
fi
work=/tmp/rans_device
mkdir -p "$work"
rans_run() { # label mesh span walls case-file-text
  local label=$1 mesh=$2 span=$3 walls=$4 text=$5
  "$bdir/prep/fvprep" ".devcarry/meshes/su2/$mesh" --extrude "$span" --walls "$walls" \
    -o "$work/$label.zones.h5" >/dev/null 2>&1
  printf '%b' "$text" >"$work/$label.ini"
  log "$label on the GPU"
  "$bdir/runtime/fvrun" "$work/$label.zones.h5" -c "$work/$label.ini" --device cuda \
    --output-dir "$work/$label" 2>&1 | grep -E "^fvrun:|error" | tail -2
  cp "$work/$label/history.csv" "$out/${label}_history.csv" 2>/dev/null
  cp "$work/$label/surface_wall.csv" "$out/${label}_surface_wall.csv" 2>/dev/null
}
rans_run flat_plate_sa flatplate_turb_137x97.su2 0.1 wall "$(sed 's/^output_dir.*//' examples/flat_plate_sa.ini)"
rans_run naca0012_sa naca0012_turb_225x65.su2 1 airfoil "$(sed 's/^output_dir.*//' examples/naca0012_sa.ini)"
log "explicit stage of the models on ${CELLS:-10000000} hexahedra (a wall at zmin)"
"$bdir/prep/fvgen" box --cells hex --target "${CELLS:-10000000}" -o "$work/box.cgns" >/dev/null 2>&1 &&
  "$bdir/prep/fvprep" "$work/box.cgns" --walls zmin -o "$work/box.zones.h5" >/dev/null 2>&1
for model in euler navier_stokes rans_sa; do
  "$bdir/bench/fvbench" "$work/box.zones.h5" --device cuda --repeats 10 --label "box_$model" \
    --model "$model" --kernels gather 2>&1 | grep -E "device:|rk_stage_total" | tail -2
done
log "done"
