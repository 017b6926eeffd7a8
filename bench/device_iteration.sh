#!/usr/bin/env bash
# Issue 19's checks and measurements on the device, by stage (STAGES, default "tests naca wing
# kernels"), after one CUDA build:
#   tests   the GPU-vs-CPU and device tests (ctest -R "Cuda|Gpu|Reduce|DeviceZone|Pipeline|LimiterScales|AssemblyChoice")
#   naca    bench/device_naca_check.sh: the NACA 0012 case on the GPU and the CPU backend
#   wing    the whole iteration on the transonic wing (bench/wing_mesh.sh's 730k tetrahedra,
#           carried as .devcarry/wing.msh; M 0.84, AoA 3): fvrun (--profile and without), SSP-RK3
#           in FP64 and with precision = mixed, and LU-SGS, WING_ITERATIONS (default 100)
#           iterations each (WING_RUNS picks the runs); WING_CHECK=N adds N iterations of
#           SSP-RK3 and of LU-SGS on the GPU and on the CPU backend, compared bitwise
#   kernels bench/kernels.sh on shuffled channels (SIZES, default 10M; tet and hex; zone RCM):
#           fvbench (per-kernel bandwidth, layout comparison, whole stage), fvrun --profile
#   OUT=/path [STAGES=...] [SIZES="1M 10M"] [RUNS=1] bench/device_iteration.sh
#   (carry .deps and .devcarry)
name=device_iteration
. bench/device_common.sh
stages=${STAGES:-tests naca wing kernels}
targets="fvgen fvprep fvbench fvrun compare_runs"
case " $stages " in *" tests "*)
  targets="$targets test_reduce test_bench_variants test_solver_backends test_lusgs_backends test_newton_backends test_solver_runs" ;;
esac
device_build $targets
b=$bdir
for stage in $stages; do
  case $stage in
  tests)
    log "device tests"
    (cd $b && ctest -R "Cuda|Gpu|Reduce|DeviceZone|Pipeline|LimiterScales|AssemblyChoice" --timeout 300 2>&1 | tail -25)
    ;;
  naca)
    OUT=$out/naca bash bench/device_naca_check.sh 2>&1 | grep -E "gpu|cpu|compare" | head -20
    ;;
  wing)
    [ -f .devcarry/wing.msh ] || { log "no .devcarry/wing.msh"; continue; }
    $b/prep/fvprep .devcarry/wing.msh -o /tmp/w.zones.h5 -q >/dev/null || log "wing fvprep failed"
    printf '[freestream]\nmach = 0.84\naoa = 3\n[time]\nconvergence = 0\n[monitor]\noutput_interval = 1000\nwrite_solution = false\nreference_area = 0.75296\nforce_patches = wing\n[patch wing]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n' >/tmp/w.ini
    # tags: scheme[-mixed][-persistent][-noprof] (mixed: [scheme] precision = mixed; persistent:
    # lusgs_launch = persistent; noprof: without --profile, whose per-kernel events cost time of
    # their own)
    for tag in ${WING_RUNS:-ssprk3 ssprk3-noprof ssprk3-mixed-noprof lusgs lusgs-noprof lusgs-persistent-noprof}; do
      scheme=${tag%%-*}
      extra=(--set time.integrator=$scheme)
      [ $scheme = ssprk3 ] && extra+=(--set time.cfl=1.5)
      [ $scheme = lusgs ] && extra+=(--set time.lusgs_ordering=hyperplane --set time.cfl=50
                                     --set time.cfl_start=5 --set time.cfl_ramp_iterations=10)
      case $tag in *-mixed*) extra+=(--set scheme.precision=mixed) ;; esac
      case $tag in *-persistent*) extra+=(--set time.lusgs_launch=persistent) ;; esac
      case $tag in *-noprof) ;; *) extra+=(--profile) ;; esac
      log "wing $tag"
      $b/runtime/fvrun /tmp/w.zones.h5 -c /tmp/w.ini --iterations ${WING_ITERATIONS:-100} --output-dir /tmp/w_$tag \
        --no-checksums -v "${extra[@]}" >"$out/wing_$tag.log" 2>&1 || log "wing $tag FAILED"
      sed -n '/kernel profile/,/^total/p' "$out/wing_$tag.log"
      grep -E "^fvrun: |FVRUN_TIMING" "$out/wing_$tag.log"
      tail -1 /tmp/w_$tag/history.csv | cut -c1-200
    done
    # GPU against the CPU backend on the wing (mixed faces: the kernels' general path), the
    # same WING_CHECK iterations of SSP-RK3 and LU-SGS on each; the histories must be bitwise
    # equal (compare_runs prints the largest relative difference)
    for scheme in ${WING_CHECK:+ssprk3 lusgs}; do
      extra=(--set time.integrator=$scheme)
      [ $scheme = ssprk3 ] && extra+=(--set time.cfl=1.5)
      [ $scheme = lusgs ] && extra+=(--set time.lusgs_ordering=hyperplane --set time.cfl=50
                                     --set time.cfl_start=5 --set time.cfl_ramp_iterations=10)
      for dev in cuda cpu; do
        $b/runtime/fvrun /tmp/w.zones.h5 -c /tmp/w.ini --iterations "$WING_CHECK" --device $dev \
          --output-dir /tmp/wc_${scheme}_$dev --no-checksums "${extra[@]}" \
          >"$out/wingcheck_${scheme}_$dev.log" 2>&1 || log "wing check $scheme $dev FAILED"
      done
      $b/tests/mpi_run/compare_runs history /tmp/wc_${scheme}_cuda/history.csv \
        /tmp/wc_${scheme}_cpu/history.csv 1e-300 CL CD >"$out/wingcheck_$scheme.txt" 2>&1
      log "wing $scheme, $WING_CHECK iterations, GPU vs CPU: rc $? $(tail -1 "$out/wingcheck_$scheme.txt")"
    done
    ;;
  kernels)
    BUILD=$b RUNS=${RUNS:-1} AUTO=0 RENUMBER=rcm REPEATS=${REPEATS:-10} \
      bash bench/kernels.sh --no-build --out "$out" ${SIZES:-10M} 2>&1 | grep -v "^$"
    ;;
  esac
done
log "done"
