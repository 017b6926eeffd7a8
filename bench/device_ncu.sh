#!/usr/bin/env bash
# Nsight Compute (ncu) counters of the explicit stage's kernels in fvrun on one GPU: DRAM and L2
# bytes actually moved, cache hit rates, occupancy, warp stall reasons, per kernel, where the
# fvbench tables only have time against the byte model. Needs the Firecracker runtime (ncu
# reads no counters on gVisor: /work/.library/device/KINDS.md); clocks left alone.
#   OUT=/path [MESHES="hex tet"] [SIZE=10M] [KERNELS=ncu name regex] [SKIP=5] [COUNT=10]
#   bench/device_ncu.sh   (carry .deps)
name=device_ncu
. bench/device_common.sh
size=${SIZE:-10M}
meshes=/tmp/ab_meshes
mkdir -p $meshes
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { log "no ncu"; exit 1; }
JOBS=16 device_build fvgen fvprep fvrun
kernels=${KERNELS:-regex:primitives<|interpolate_to_nodes<|gradient_and_limiter_shaped|interior_fluxes<|flux_sum_rk_stage_shaped|boundary_fluxes<}
for cells in ${MESHES:-hex}; do
  channel_zones $cells || continue
  channel_iteration_case
  log "ncu $cells"
  "$ncu" --clock-control none --kernel-name-base demangled --kernel-name "$kernels" \
    --launch-skip ${SKIP:-6} --launch-count ${COUNT:-12} \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --section ComputeWorkloadAnalysis --section InstructionStats \
    -o "$out/ncu_$cells" -f \
    $bdir/runtime/fvrun "$zones" -c $meshes/iteration.ini --device cuda --iterations 2 \
    --output-dir /tmp/ncu_$cells --no-checksums --set monitor.write_solution=false \
    >"$out/ncu_${cells}_run.log" 2>&1 || log "ncu $cells FAILED: $(tail -5 "$out/ncu_${cells}_run.log")"
  "$ncu" -i "$out/ncu_$cells.ncu-rep" --page details >"$out/ncu_${cells}_details.txt" 2>&1
  "$ncu" -i "$out/ncu_$cells.ncu-rep" --page raw --csv >"$out/ncu_${cells}_raw.csv" 2>&1
  log "$(grep -cE '^  [a-z_]' "$out/ncu_${cells}_details.txt") kernel sections; $(du -h "$out/ncu_$cells.ncu-rep" | cut -f1)"
done
log "done"
