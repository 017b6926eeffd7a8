#!/usr/bin/env bash
# Carried (git-ignored): .deps. OUT=/path PHASE=prep|explicit|implicit|diagnose bench/device_scaling.sh
# The multi-GPU scaling run of issue 20 on a lent machine of several GPUs, in calls that each fit
# the device tool's 10 minutes (the machine stays warm between them, so each phase reuses the
# build and the zone files of the one before; a fresh machine redoes them):
#   prep      build with NCCL (Python's nvidia-nccl via NCCL_HOME), nvidia-smi topo, the meshes
#             and zone files of every run (bench/mpi_scaling.sh with PREP_ONLY=1)
#   explicit  SSP-RK3 weak (WEAK per GPU) and strong (each STRONG size) on every transport of
#             TRANSPORTS, 1 vs N histories to 1e-12
#   implicit  Newton-Krylov and LU-SGS at IMPLICIT cells on the first of TRANSPORTS (cuda_ipc)
#   diagnose  the multi-zone compute factor and NCCL's groups: 1-GPU runs alone and on every GPU
#             at once, --profile of 1 zone and of rank 0 of 2 and 4, NCCL_DEBUG=INFO transport
#             (WEAK in millions, e.g. 10M)
# Defaults: RANKS="1 2 4", WEAK=10M, STRONG="20M 40M", IMPLICIT=20M,
# TRANSPORTS="nccl cuda_ipc host_staged_mpi", SPLIT_TRANSPORTS="nccl cuda_ipc".
# The CSV of each phase is copied to $OUT (and stays in bench/results/ of the device's tree).
set -uo pipefail
name=scaling-${PHASE:-prep}
. bench/device_common.sh
use_nccl
export NCCL_NVLS_ENABLE=0 OMPI_MCA_rmaps_base_oversubscribe=1
export RANKS=${RANKS:-"1 2 4"} WEAK=${WEAK-10M} STRONG=${STRONG-"20M 40M"} \
  IMPLICIT=${IMPLICIT:-20M} ITERS=${ITERS:-40} BUILD=$PWD/$bdir
scratch=/tmp/fv_scaling
case ${PHASE:-prep} in
  prep)
    nvidia-smi topo -m 2>/dev/null | head -8
    if [ -x "$bdir/runtime/fvrun" ]; then log "build kept"; else
      device_build fvgen fvprep fvrun compare_runs
    fi
    grep -E "fvkit .*CUDA=" "$out/build.log" | head -1
    log "meshes and zone files"
    PREP_ONLY=1 OMP_NUM_THREADS=${PREP_THREADS:-16} bench/mpi_scaling.sh $scratch
    du -sh $scratch; df -h /tmp | tail -1 ;;
  explicit)
    TRANSPORTS=${TRANSPORTS:-"nccl cuda_ipc host_staged_mpi"} \
      SPLIT_TRANSPORTS=${SPLIT_TRANSPORTS:-"nccl cuda_ipc"} IMPLICIT= bench/mpi_scaling.sh $scratch ;;
  implicit)
    TRANSPORTS=${TRANSPORTS:-cuda_ipc} WEAK= STRONG= bench/mpi_scaling.sh $scratch ;;
  diagnose) # what the multi-zone compute factor f and NCCL's slow groups are made of (docs/
    # parallel.md table (e)); needs the weak zone files (PHASE=prep STRONG= IMPLICIT= is enough)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
    z1=$scratch/channel_hex_$(( ${WEAK%M} * 1000000 )).p1.zones.h5
    run1() { "$bdir/runtime/fvrun" "$z1" -c $scratch/case_ssprk3.ini --iterations "$ITERS" \
      --device cuda --no-checksums -v --output-dir "$1" "${@:2}" | grep FVRUN_TIMING; }
    log "1. node contention: one 1-GPU run alone, then one on each GPU at once (no exchange)"
    run1 /tmp/d_alone
    for g in $(seq 0 $(( $(nvidia-smi -L | wc -l) - 1 ))); do
      CUDA_VISIBLE_DEVICES=$g run1 /tmp/d_gpu$g > /tmp/d_gpu$g.txt &
    done
    wait; cat /tmp/d_gpu*.txt
    log "2. per-kernel profile: one zone alone, rank 0 (an end zone) of 2 and 4 ranks (cuda_ipc)"
    run1 /tmp/d_prof1 --profile > /dev/null; cp /tmp/d_prof1/profile.csv "$out/profile_1.csv"
    for n in 2 4; do
      mpirun -np $n --bind-to none "$bdir/runtime/fvrun" \
        $scratch/channel_hex_$(( ${WEAK%M} * 1000000 * n )).p$n.zones.h5 -c $scratch/case_ssprk3.ini \
        --iterations "$ITERS" --device cuda --no-checksums -v --set run.transport=cuda_ipc \
        --profile --output-dir /tmp/d_prof$n | grep FVRUN_TIMING
      cp /tmp/d_prof$n/profile.csv "$out/profile_$n.csv"
    done
    log "3. NCCL's transport choice between two GPUs"
    NCCL_DEBUG=INFO mpirun -np 2 --bind-to none "$bdir/runtime/fvrun" \
      $scratch/channel_hex_$(( ${WEAK%M} * 2000000 )).p2.zones.h5 -c $scratch/case_ssprk3.ini \
      --iterations 5 --device cuda --no-checksums -q --set run.transport=nccl \
      --output-dir /tmp/d_nccl 2>&1 | grep -E "via|Channel 00|NVLS|P2P|SHM|FVRUN" | head -20 ;;
esac
cp bench/results/mpi_scaling_*.csv "$out/" 2>/dev/null
log done
