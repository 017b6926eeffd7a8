#!/usr/bin/env bash
# A/B of a kernel change on one GPU in the same call: the working tree's build ("new") and a
# baseline build of the same tree with BASE_PATCH reverse-applied ("base": the source before the
# change), run on the same zone files (issue 19: the gather layout, the launch bounds and the
# fused flux sum + Runge-Kutta update were measured with it; bench/results/issue19_20261128/).
# Phases (PHASES, default "build tests naca tet hex"), so that a device session can split them
# over calls while the machine stays warm (the meshes are reused when present):
#   build  both CUDA builds, in parallel (new: the tools and the GPU-vs-CPU test targets)
#   new    the new build only (a base kept from an earlier call on the same machine is used;
#          without one, tet/hex/wing run the new build alone)
#   tests  the new build's GPU-vs-CPU and device tests
#   naca   bench/device_naca_check.sh with the new build (GPU = CPU, 1 vs 2 ranks, mixed)
#   tet    10M shuffled tetrahedral channel (fvgen, fvprep RCM): fvbench of each build
#          (per-kernel table, layout rows, whole stage), then SSP-RK3 iterations without
#          --profile of each build, and compare_runs of the two histories (same arithmetic:
#          expected bitwise equal)
#   hex    the same on 10M hexahedra
#   wing   SSP-RK3 and LU-SGS on the wing (.devcarry/wing.msh), each build
# RUNS=2: fvbench's --runs (its reproducibility columns). BASE_SET=section.key=value: the
# iterations (channels and wing) run a second time with the new build and that option (fvrun
# --set), and the two histories are compared: an A/B of a run-time switch without a base build
# (PHASES="new tests tet hex"; issue 19's face_states, bench/results/issue19_20261129/).
#   git diff HEAD > ab.patch; OUT=/path BASE_PATCH=$PWD/ab.patch [SIZE=10M] bench/device_ab.sh
#   (carry .deps and .devcarry)
name=device_ab
. bench/device_common.sh
phases=${PHASES:-build tests naca tet hex}
size=${SIZE:-10M}
base=/tmp/fvbase
bbase=$base/build-device
tests="test_reduce test_bench_variants test_solver_backends test_lusgs_backends test_newton_backends test_solver_runs"
meshes=/tmp/ab_meshes
mkdir -p $meshes

build_base() {
  rm -rf $base && mkdir -p $base
  tar --exclude=./build --exclude=./build-device --exclude=./.git -cf - . | tar -xf - -C $base
  (cd $base && patch -R -p1 -s <"$BASE_PATCH") || { log "base patch failed"; return 1; }
  cmake -S $base -B $bbase -DFV_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_BUILD_TYPE=Release -DFV_BUILD_TESTS=OFF >"$out/base-build.log" 2>&1 &&
    cmake --build $bbase -j6 --target fvbench fvrun >>"$out/base-build.log" 2>&1
}

iterations() { # TAG BUILD ZONES INI [fvrun args...]
  local tag=$1 b=$2 zones=$3 ini=$4
  shift 4
  $b/runtime/fvrun "$zones" -c "$ini" --device cuda --iterations ${ITERATIONS:-20} \
    --output-dir /tmp/it_$tag --no-checksums --set monitor.write_solution=false "$@" \
    >"$out/it_$tag.log" 2>&1 || log "fvrun $tag FAILED"
  log "$tag: $(grep FVRUN_TIMING "$out/it_$tag.log")"
}
same() { # TAG_A TAG_B COLUMN...: compare_runs of two histories (its largest relative difference;
  # tolerance 1e-300: only bitwise equal histories pass)
  local a=$1 b=$2
  shift 2
  log "history $a vs $b: $($bdir/tests/mpi_run/compare_runs history /tmp/it_$a/history.csv \
    /tmp/it_$b/history.csv 1e-300 "$@" 2>&1 | tail -1)"
}

channel() { # CELLS
  local cells=$1 zones # channel_zones sets it
  channel_zones $cells || return
  local builds="new"
  [ -x $bbase/runtime/fvrun ] && builds="new base" || log "no base build: the new one only"
  for which in $builds; do
    local b=$bdir
    [ $which = base ] && b=$bbase
    log "fvbench $cells $which"
    $b/runtime/fvbench "$zones" --device cuda --repeats ${REPEATS:-10} --runs ${RUNS:-1} \
      --csv "$out/kernels_$which.csv" --label "channel_${cells}_$size rcm $which" --no-checksum \
      >"$out/fvbench_${cells}_$which.txt" 2>&1 || log "fvbench $which FAILED"
    grep -E "interpolate_to_nodes|gradient_and_limiter|gradient_limiter_states|green_gauss|limiter|interior_|boundary_|flux_sum |primitives|rk_stage|memcpy|triad" \
      "$out/fvbench_${cells}_$which.txt" | head -30
  done
  channel_iteration_case
  for rep in 1 2; do
    iterations ${cells}_new$rep $bdir "$zones" $meshes/iteration.ini
    [ "$builds" = new ] || iterations ${cells}_base$rep $bbase "$zones" $meshes/iteration.ini
    [ -z "$BASE_SET" ] || iterations ${cells}_set$rep $bdir "$zones" $meshes/iteration.ini \
      --set "$BASE_SET"
  done
  [ "$builds" = new ] || same ${cells}_new1 ${cells}_base1 CL CD
  [ -z "$BASE_SET" ] || same ${cells}_new1 ${cells}_set1 CL CD
}

for phase in $phases; do
  case $phase in
  new) JOBS=16 device_build fvgen fvprep fvbench fvrun compare_runs $tests ;;
  build)
    log "building base (background) and new"
    build_base &
    bpid=$!
    JOBS=10 device_build fvgen fvprep fvbench fvrun compare_runs $tests
    wait $bpid || { log "BASE BUILD FAILED"; tail -30 "$out/base-build.log"; }
    log "builds done"
    ;;
  tests)
    (cd $bdir && ctest -R "Cuda|Gpu|Reduce|DeviceZone|Pipeline|LimiterScales|AssemblyChoice|UniformFaces|FaceStates" \
      --timeout 300 2>&1 | tail -15)
    ;;
  naca)
    OUT=$out/naca bash bench/device_naca_check.sh 2>&1 | grep -E "gpu|cpu|compare|partition" | head -20
    ;;
  tet) channel tet ;;
  hex) channel hex ;;
  wing)
    [ -f .devcarry/wing.msh ] || { log "no .devcarry/wing.msh"; continue; }
    [ -f /tmp/w.zones.h5 ] || $bdir/prep/fvprep .devcarry/wing.msh -o /tmp/w.zones.h5 -q >/dev/null
    printf '[freestream]\nmach = 0.84\naoa = 3\n[time]\nconvergence = 0\n[monitor]\noutput_interval = 1000\nwrite_solution = false\nreference_area = 0.75296\nforce_patches = wing\n[patch wing]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n' >/tmp/w.ini
    builds="new"
    [ -x $bbase/runtime/fvrun ] && builds="new base"
    [ -z "$BASE_SET" ] || builds="new set"
    for rep in 1 2; do
      for which in $builds; do
        b=$bdir extra=()
        [ $which = base ] && b=$bbase
        [ $which = set ] && extra=(--set "$BASE_SET")
        ITERATIONS=100 iterations wing_ssprk3_${which}$rep $b /tmp/w.zones.h5 /tmp/w.ini \
          --set time.integrator=ssprk3 --set time.cfl=1.5 "${extra[@]}"
        ITERATIONS=100 iterations wing_lusgs_${which}$rep $b /tmp/w.zones.h5 /tmp/w.ini \
          --set time.integrator=lusgs --set time.lusgs_ordering=hyperplane --set time.cfl=50 \
          --set time.cfl_start=5 --set time.cfl_ramp_iterations=10 "${extra[@]}"
      done
    done
    if [ "$builds" != new ]; then
      other=${builds#new }
      same wing_ssprk3_new1 wing_ssprk3_${other}1 CL CD
      same wing_lusgs_new1 wing_lusgs_${other}1 CL CD
    fi
    ;;
  esac
done
log "done"
