#!/usr/bin/env bash
# A refactoring's GPU check in one device call: builds the current tree and a reference tree
# (a `git archive` tarball) with CUDA, prepares bench/bitwise_cases.sh's meshes with the
# reference fvprep, runs every case on the GPU with both fvruns and compares the outputs bitwise
# (bench/compare_outputs.py); then, time allowing, the current tree's whole CTest suite on the
# GPU machine.
#
#   here: git archive -o .devcarry/ref.tar.gz REF; mkdir -p .devcarry/meshes/su2;
#         cp ../shared/meshes/su2/{naca0012_inv_su2,naca0012_turb_225x65,cylinder_lam}.su2 \
#            .devcarry/meshes/su2/; bench/wing_mesh.sh .devcarry/meshes/wing --cells 60k
#   device (carry .deps and .devcarry): OUT=$OUT bench/device_bitwise.sh
# Environment: SKIP_CTEST=1, CTEST_REGEX (default: every test), JOBS (default nproc),
# TARGETS (the current tree's targets; default all), TEST_BINS (test programs of the current
# build, relative to it, run one after another instead of CTest: the backend comparisons).
# The two builds run side by side, half the jobs each.
# Writes to $OUT: device.log, build.log, compare.txt, ctest.log.
name=device_bitwise
. bench/device_common.sh
jobs=${JOBS:-$(nproc)}
JOBS=$(( (jobs + 1) / 2 ))
device_build ${TARGETS:-all} &
cur_build=$!
ref=/tmp/ref_src
[ -x $ref/build/runtime/fvrun ] || { rm -rf $ref && mkdir -p $ref && tar -xzf .devcarry/ref.tar.gz -C $ref; }
log "reference build"
(cd $ref && cmake -S . -B build -DFV_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" \
  -DCMAKE_BUILD_TYPE=Release -DFV_BUILD_TESTS=OFF >"$out/build_ref.log" 2>&1 &&
  cmake --build build -j"$JOBS" --target fvrun fvprep fvgen >>"$out/build_ref.log" 2>&1) ||
  { log "REFERENCE BUILD FAILED"; tail -30 "$out/build_ref.log"; exit 1; }
log "reference build done"
wait $cur_build || exit 1
zones=/tmp/bitwise_zones
mkdir -p $zones/wing && cp .devcarry/meshes/wing/wing.msh $zones/wing/
bench/bitwise_cases.sh prep $ref/build $zones "$PWD/.devcarry/meshes" || { log "prep failed"; exit 1; }
export OMP_NUM_THREADS=4
for t in ref cur; do
  b=$ref/build; [ $t = cur ] && b=$bdir
  log "cases ($t)"
  bench/bitwise_cases.sh run $b $zones /tmp/cases_$t cuda | tee "$out/cases_$t.txt"
done
python3 bench/compare_outputs.py /tmp/cases_ref /tmp/cases_cur | tee "$out/compare.txt"
log "compare rc ${PIPESTATUS[0]}"
for t in ${TEST_BINS:-}; do
  log "$t"
  "$bdir/$t" 2>&1 | tail -3 | tee -a "$out/tests.log"
done
if [ "${SKIP_CTEST:-0}" != 1 ]; then
  log "ctest"
  (cd $bdir && ctest -j"$jobs" --timeout 300 ${CTEST_REGEX:+-R "$CTEST_REGEX"}) >"$out/ctest.full.log" 2>&1
  { grep -E "tests passed|tests failed|Total Test time" "$out/ctest.full.log"
    grep -E "^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess|Not Run)" "$out/ctest.full.log"; } | tee "$out/ctest.log"
  log "ctest done"
fi
