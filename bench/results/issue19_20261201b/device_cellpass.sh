#!/usr/bin/env bash
# PROTOTYPE (issue 19): the hexahedral cell pass with per-slot geometry (FV_CELLPASS bits), one
# CUDA build; fvbench and 20 SSP-RK3 iterations per value (histories against the first), then
# Nsight Compute on the cell pass for NCU_VALUES.
#   OUT=/path [VALUES="0 1 3 7 15"] [NCU_VALUES="0 15"] bench/device_cellpass.sh  (carry .deps)
name=device_cellpass
. bench/device_common.sh
size=${SIZE:-10M}
meshes=/tmp/ab_meshes
mkdir -p $meshes
raw=/tmp/cellpass
mkdir -p $raw
JOBS=16 device_build fvgen fvprep fvbench fvrun compare_runs
channel_zones hex || exit 1
channel_iteration_case
for rep in $(seq ${REP:-2}); do
  for v in ${VALUES:-0 1 3 7 15}; do
    FV_CELLPASS=$v $bdir/runtime/fvbench "$zones" --device cuda --repeats 10 --runs 1 --no-checksum \
      --kernels gather >"$raw/fvbench_hex_${v}_$rep.txt" 2>&1 || log "fvbench $v FAILED"
    log "hex $v rep $rep: $(grep -E "^kernel +(gradient_limiter_states|interior_state_fluxes) " "$raw/fvbench_hex_${v}_$rep.txt" | awk '{print $2, $4}' | tr '\n' ' ')$(grep -E "rk_stage_total +gather" "$raw/fvbench_hex_${v}_$rep.txt" | awk '{print "stage", $4, $7}')"
  done
done
first=
for v in ${VALUES:-0 1 3 7 15}; do
  FV_CELLPASS=$v $bdir/runtime/fvrun "$zones" -c $meshes/iteration.ini --device cuda --iterations 20 \
    --output-dir /tmp/it_$v --no-checksums --set monitor.write_solution=false >/tmp/it_$v.log 2>&1 || log "fvrun $v FAILED"
  log "hex $v: $(grep -E 'FV_CELLPASS' /tmp/it_$v.log) $(grep FVRUN_TIMING /tmp/it_$v.log | grep -o 'time_per_iter_s=[^ ]*')"
  if [ -n "$first" ]; then
    log "history $v vs $first: $($bdir/tests/mpi_run/compare_runs history /tmp/it_$v/history.csv /tmp/it_$first/history.csv 1e-300 CL CD 2>&1 | tail -1)"
  else first=$v; fi
done
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for v in ${NCU_VALUES-0 15}; do
  [ -n "$ncu" ] || break
  log "ncu $v"
  FV_CELLPASS=$v timeout 100 "$ncu" --clock-control none --kernel-name-base demangled \
    --kernel-name "regex:gradient_limiter_states" --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section Occupancy --section WarpStateStats --section SourceCounters -o /tmp/ncu_$v -f \
    $bdir/runtime/fvrun "$zones" -c $meshes/iteration.ini --device cuda --iterations 2 \
    --output-dir /tmp/ncu_it_$v --no-checksums --set monitor.write_solution=false >/tmp/ncu_$v.log 2>&1 ||
    { log "ncu $v FAILED: $(tail -3 /tmp/ncu_$v.log)"; continue; }
  "$ncu" -i /tmp/ncu_$v.ncu-rep --page details >"$raw/ncu_details_$v.txt" 2>&1
  "$ncu" -i /tmp/ncu_$v.ncu-rep --page source --csv --print-source sass >/tmp/ncu_source_$v.csv 2>&1 &&
    gzip -c /tmp/ncu_source_$v.csv >"$raw/ncu_source_$v.csv.gz"
done
tar czf "$out/cellpass.tgz" -C /tmp cellpass
log "done"
