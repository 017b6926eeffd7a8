#!/usr/bin/env bash
# Long libFuzzer campaigns on a many-core machine (the GPU host's CPUs; no GPU is used). The
# harnesses are built here with clang by scripts/fuzz.sh (the device image has no clang), then
# packed with their seed corpora into build/devfuzz/ by `bench/device_fuzz.sh pack`; the device
# runs them with the carried Debian libraries (.deps, scripts/device-setup.sh):
#   bench/device_fuzz.sh pack                          # here: build/devfuzz/{bin,seeds_*}
#   OUT=/path FUZZERS="cgns x" RUNS=1000000 bench/device_fuzz.sh run   # there (carry .deps, build/devfuzz)
# RUNS executions per harness in all, spread over JOBS libFuzzer jobs (default nproc - 1, each
# with its own random seed); a
# crash, leak or sanitizer report leaves the input in $OUT/ and fails the script. Per harness,
# $OUT/fuzz_<name>.txt sums the executions and lists what the jobs reported. Artifacts named
# oom-* from fuzz_cgns come from the reading child of CGNS/ADF files (formats/cgns_reader.cpp):
# libFuzzer's malloc limit also watches the forked child, which libcgns makes ask for huge
# blocks on corrupt files (it refuses them cleanly without the limit: "ADF 35").
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
pack)
  rm -rf build/devfuzz && mkdir -p build/devfuzz/bin
  cp build/fuzz/tests/fuzz/fuzz_* build/devfuzz/bin/
  for d in build/fuzz/corpus/seeds_*; do cp -r "$d" build/devfuzz/; done
  cp tests/sanitizer/lsan.supp build/devfuzz/
  du -sh build/devfuzz
  exit 0
  ;;
run) ;;
*) echo "usage: bench/device_fuzz.sh pack | run" >&2; exit 2 ;;
esac
out=${OUT:?set OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -d .deps ] && . scripts/device-setup.sh >/dev/null
jobs=${JOBS:-$(( $(nproc) - 1 ))}
runs=${RUNS:-1000000}
per=$(( (runs + jobs - 1) / jobs ))
export LSAN_OPTIONS="suppressions=$(pwd)/build/devfuzz/lsan.supp"
export ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16
status=0
for fz in ${FUZZERS:-cgns x zone_file}; do
  exe=build/devfuzz/bin/fuzz_$fz
  work=/tmp/devfuzz_$fz
  # KEEP_CORPUS=1: go on from the corpus an earlier call left on this (still warm) machine
  [ -n "${KEEP_CORPUS:-}" ] || rm -rf "$work"
  mkdir -p "$work/corpus" && rm -f "$work"/fuzz-*.log
  t0=$(date +%s)
  (cd "$work" && "$OLDPWD/$exe" corpus "$OLDPWD/build/devfuzz/seeds_$fz" -jobs="$jobs" \
    -workers="$jobs" -runs="$per" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$out/$fz-" -print_final_stats=1 >/dev/null 2>&1)
  rc=$?
  total=$(cat "$work"/fuzz-*.log | awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}')
  crashes=$(cat "$work"/fuzz-*.log | grep -c "ERROR: \|deadly signal\|Timeout\|out-of-memory" || true)
  {
    echo "fuzz_$fz: $total executions in $(( $(date +%s) - t0 )) s over $jobs jobs, exit $rc, $crashes reports"
    grep -h "ERROR: \|SUMMARY" "$work"/fuzz-*.log | sort | uniq -c | head -20
  } | tee "$out/fuzz_$fz.txt"
  [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
done
exit $status
