#!/usr/bin/env bash
# Installs dependencies, configures, builds and runs every test. Exits non-zero on any failure.
#   scripts/test.sh                 release build (CUDA compiled when nvcc is found), all tests,
#                                   the readers' fuzz harnesses briefly, then the sanitizer suite
#                                   (debug preset: ASan/UBSan with line tables, CPU backend;
#                                   libraries at -O1 in unity batches, the programs' and tests'
#                                   own sources at -O0, no benchmark programs)
#   scripts/test.sh --no-sanitize   without the sanitizer suite (a quicker local run)
# Environment: FV_BUILD_DIR (default build/ci), FV_JOBS (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=1
for a in "$@"; do
  case "$a" in
    --sanitize) sanitize=1 ;;
    --no-sanitize) sanitize=0 ;;
    *) echo "usage: scripts/test.sh [--no-sanitize]" >&2; exit 2 ;;
  esac
done

scripts/install-deps.sh
jobs=${FV_JOBS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# ctest runs $jobs tests at once, each with OpenMP threads: threads that wait sleep instead of
# spinning on cores another test needs (tests/CMakeLists.txt sets it for the gtests too)
export OMP_WAIT_POLICY=passive

run_suite() { # preset build_dir [ctest args...]
  local preset=$1 dir=$2
  shift 2
  echo "== configure ($preset) =="
  cmake --preset "$preset" -B "$dir" >/dev/null
  echo "== build ($preset, $jobs jobs) =="
  cmake --build "$dir" -j "$jobs"
  echo "== test ($preset) =="
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 900 "$@"
}

start=$(date +%s)
phases="" # "name N s, ..." for the last line: where CI's minutes go
phase_done() { # phase_done NAME: appends NAME's seconds since the previous phase
  local now
  now=$(date +%s)
  phases="$phases${phases:+, }$1 $((now - ${last:-$start})) s"
  last=$now
}
trap 'rc=$?; [ $rc -eq 0 ] || echo "test.sh: failed (exit $rc) after $(( $(date +%s) - start )) s (${phases:-no phase finished})"' EXIT
run_suite ci "${FV_BUILD_DIR:-build/ci}"
phase_done release
# the readers' libFuzzer harnesses: built with clang and run briefly on their seeds
echo "== fuzz (short runs) =="
scripts/fuzz.sh --runs 1000
phase_done fuzz
if [ $sanitize -eq 1 ]; then
  # LeakSanitizer: third-party allocations kept until exit are suppressed by library
  # (tests/sanitizer/lsan.supp); Open MPI and PMIx keep their dlopen'd components loaded, so
  # that their leaks are named (and suppressed) instead of "<unknown module>"; TLS is not
  # scanned (LSan's dynamic-TLS walk crashes on Open MPI's threads with glibc 2.36: "Tracer
  # caught signal 11"). Malloc stacks are unwound the fast way (frame pointers: measured
  # faster, bench/results/ci_times_vm/), except in the fvrun processes
  # that tests start and that initialise Open MPI with leak checking on (tests/solver/
  # test_fvrun_cli.cpp): their full stacks reach past Open MPI's frame-pointer-less frames to
  # the library a suppression names. MPI tests under mpiexec check no leaks
  # (tests/CMakeLists.txt).
  export LSAN_OPTIONS="suppressions=$(pwd)/tests/sanitizer/lsan.supp:print_suppressions=0:use_tls=0"
  export OMPI_MCA_mca_base_component_disable_dlclose=1 PMIX_MCA_mca_base_component_disable_dlclose=1
  # Every test except four long validation runs (minutes each under ASan, for which CI's 30
  # minutes leave no room: bench/results/ci_times_vm/) and the rank groups' SIGTERM test (a
  # 2-rank campaign stopped once its first row is written: over a minute under ASan, its
  # timing at the mercy of the load). The release suite runs them, and shorter tests run their
  # code (Newton-Krylov, Navier-Stokes, Spalart-Allmaras, mixed precision on the transonic
  # channel, rank groups, stop signals; on the CPU backend) under the sanitizers.
  long='NavierStokesRuns.LaminarCylinderAtReynolds40|Naca0012.NewtonTenOrdersWithSu2LiftAndDragInDoubleAndMixedPrecision|NavierStokesRuns.LaminarFlatPlateFollowsBlasius|RansRuns.FlatPlateSkinFrictionMatchesTheTmr|Campaign.RankGroupsResumeAfterSigterm'
  run_suite debug build/debug -E "${FV_SANITIZE_EXCLUDE:-^($long)\$}"
  phase_done sanitizer
fi
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s ($phases)"
