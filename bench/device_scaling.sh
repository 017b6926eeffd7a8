#!/usr/bin/env bash
# Carried (git-ignored): .deps. OUT=/path PHASE=prep|explicit|implicit bench/device_scaling.sh
# The multi-GPU scaling run of issue 20 on a lent machine of several GPUs, in calls that each fit
# the device tool's 10 minutes (the machine stays warm between them, so each phase reuses the
# build and the zone files of the one before; a fresh machine redoes them):
#   prep      build with NCCL (Python's nvidia-nccl via NCCL_HOME), nvidia-smi topo, the meshes
#             and zone files of every run (bench/mpi_scaling.sh with PREP_ONLY=1)
#   explicit  SSP-RK3 weak (WEAK per GPU) and strong (each STRONG size) on every transport of
#             TRANSPORTS, 1 vs N histories to 1e-12
#   implicit  Newton-Krylov and LU-SGS at IMPLICIT cells on the first of TRANSPORTS
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
    TRANSPORTS=${TRANSPORTS:-nccl} WEAK= STRONG= bench/mpi_scaling.sh $scratch ;;
esac
cp bench/results/mpi_scaling_*.csv "$out/" 2>/dev/null
log done
