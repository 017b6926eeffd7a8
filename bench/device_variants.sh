#!/usr/bin/env bash
# Kernel variants chosen at run time by an environment variable, on one GPU in one call: one
# CUDA build; for each mesh, fvbench once per value of VAR (VALUES), alternately REP times, and
# SSP-RK3 histories of each value compared with the first (compare_runs: bitwise).
# Used for the node-slot gradient (bench/results/issue19_20261128g/, a prototype's
# FV_GRADIENT_SLOTS, removed once a form was chosen).
#   OUT=/path VAR=FV_X VALUES="0 1 2" [MESHES="tet hex"] [SIZE=10M] [REP=2] [REPEATS=10]
#   [TESTS=0 | TEST_FILTER=gtest filter of test_solver_runs] [KERNELS=fvbench rows regex]
#   [FVBENCH_ARGS="--kernels gather"] bench/device_variants.sh
#   (carry .deps)
name=device_variants
. bench/device_common.sh
: "${VAR:?set VAR}" "${VALUES:?set VALUES}"
size=${SIZE:-10M}
meshes=/tmp/ab_meshes
mkdir -p $meshes
tests="test_solver_runs test_solver_backends"
[ "${TESTS:-1}" = 0 ] && tests=
JOBS=16 device_build fvgen fvprep fvbench fvrun compare_runs $tests
[ "${TESTS:-1}" = 0 ] || (cd $bdir && for v in $VALUES; do
  log "$VAR=$v: GPU tests"
  env "$VAR=$v" ./tests/solver/test_solver_runs --gtest_filter="${TEST_FILTER:-UniformFaces.*}" 2>&1 | tail -3
  env "$VAR=$v" ./tests/solver/test_solver_backends 2>&1 | grep -E "PASSED|FAILED|max rel" | head -8
done)
for cells in ${MESHES:-tet hex}; do
  channel_zones $cells || continue
  for rep in $(seq ${REP:-2}); do
    for v in $VALUES; do
      env "$VAR=$v" $bdir/bench/fvbench "$zones" --device cuda --repeats ${REPEATS:-10} --runs 1 \
        --no-checksum ${FVBENCH_ARGS:-} >"$out/fvbench_${cells}_${v}_$rep.txt" 2>&1 || log "fvbench $v FAILED"
      log "$cells $VAR=$v rep $rep: $(grep -E "^kernel +(${KERNELS:-gradient_and_limiter|green_gauss_gradient}) " "$out/fvbench_${cells}_${v}_$rep.txt" | awk '{print $2, $4}' | tr '\n' ' ')$(grep -E "rk_stage_total +gather" "$out/fvbench_${cells}_${v}_$rep.txt" | awk '{print "stage", $4, $7}')"
    done
  done
  channel_iteration_case
  first=
  for v in $VALUES; do
    env "$VAR=$v" $bdir/runtime/fvrun "$zones" -c $meshes/iteration.ini --device cuda --iterations 20 \
      --output-dir /tmp/it_${cells}_$v --no-checksums -v --set monitor.write_solution=false \
      >"$out/it_${cells}_$v.log" 2>&1 || log "fvrun $v FAILED"
    log "$cells $VAR=$v: $(grep FVRUN_TIMING "$out/it_${cells}_$v.log")"
    if [ -n "$first" ]; then
      log "history $v vs $first: $($bdir/tests/mpi_run/compare_runs history /tmp/it_${cells}_$v/history.csv \
        /tmp/it_${cells}_$first/history.csv 1e-300 CL CD 2>&1 | tail -1)"
    else first=$v; fi
  done
done
log "done"
