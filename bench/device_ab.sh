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
#   zones  several zones on the one GPU (time-sliced ranks): tests/mpi_run's channel checks
#          with --device cuda (1, 2 and 4 ranks agree; face states on and off bitwise equal),
#          then SSP-RK3 iterations of the new build on a ZONES_SIZE (default 4M) hexahedral
#          channel in 2 zones on 2 ranks with face states on and off (the ratio means
#          something; the absolute times are two ranks sharing one GPU)
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
[ "${TESTS:-1}" = 0 ] && tests= # TESTS=0: no test programs built (the phases but tests)
tests="$tests mpi_run_tools"
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
    --output-dir /tmp/it_$tag --no-checksums -v --set monitor.write_solution=false "$@" \
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
    $b/bench/fvbench "$zones" --device cuda --repeats ${REPEATS:-10} --runs ${RUNS:-1} \
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
    (cd $bdir && ctest -R "Cuda|Gpu|Reduce|DeviceZone|Pipeline|LimiterScales|AssemblyChoice|UniformFaces|FaceStates|FusedUpdate|StoredPrimitives|Profile" \
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
  zones)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    FVRUN_EXTRA="--device cuda" bash tests/mpi_run/mpi_run_test.sh channel \
      "$PWD/$bdir/tests/mpi_run/bin" /tmp/mpi_channel >"$out/mpi_channel.log" 2>&1 &&
      log "mpi_run channel on the GPU: passed" ||
      { log "mpi_run channel on the GPU: FAILED"; tail -20 "$out/mpi_channel.log"; }
    zs=${ZONES_SIZE:-4M}
    [ -f $meshes/zones_$zs.zones.h5 ] || { $bdir/prep/fvgen channel --cells hex --target $zs \
      --shuffle --seed 1 --perturb 0.1 -o $meshes/zones.cgns -q &&
      $bdir/prep/fvprep $meshes/zones.cgns --parts 2 -o $meshes/zones_$zs.zones.h5 -q; }
    channel_iteration_case
    for rep in 1 2; do
      for fs in on off; do
        mpirun -np 2 --oversubscribe --bind-to none $bdir/runtime/fvrun $meshes/zones_$zs.zones.h5 \
          -c $meshes/iteration.ini --device cuda --iterations ${ITERATIONS:-20} --no-checksums \
          --output-dir /tmp/it_zones_$fs$rep --set monitor.write_solution=false \
          --set scheme.face_states=$fs >"$out/it_zones_$fs$rep.log" 2>&1 || log "zones $fs FAILED"
        log "2 zones, face_states = $fs: $(grep -o 'time_per_iter_s=[^ ]*' "$out/it_zones_$fs$rep.log")"
      done
    done
    same zones_on1 zones_off1 CL CD
    for fs in on off; do # the interface faces' FP32 offsets
      mpirun -np 2 --oversubscribe --bind-to none $bdir/runtime/fvrun $meshes/zones_$zs.zones.h5 \
        -c $meshes/iteration.ini --device cuda --iterations ${ITERATIONS:-20} --no-checksums \
        --output-dir /tmp/it_zones_mixed_$fs --set monitor.write_solution=false \
        --set scheme.face_states=$fs --set scheme.precision=mixed >"$out/it_zones_mixed_$fs.log" 2>&1 ||
        log "zones mixed $fs FAILED"
    done
    same zones_mixed_on zones_mixed_off CL CD
    ;;
  esac
done
log "done"
