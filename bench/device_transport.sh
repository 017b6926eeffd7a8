#!/usr/bin/env bash
# Carried (git-ignored): .deps. OUT=/path bench/device_transport.sh
# The halo transports (docs/parallel.md "Transports") on a GPU machine in one call: build with
# NCCL (the toolkit's, or Python's nvidia-nccl package via NCCL_HOME), the halo and reduction
# tests on 1, 2 and 4 ranks on the device (every transport available there; two ranks sharing
# one GPU leave out NCCL, which refuses that), the in-process fake, halo_bench per transport,
# 1 vs 2 vs 4 rank fvrun histories (tests/mpi_run channel, 1e-12) per transport, and the
# channel's time split per transport (bench/mpi_scaling.sh, RANKS / WEAK / STRONG below).
set -uo pipefail
name=transport
. bench/device_common.sh
use_nccl
nvidia-smi topo -m 2>/dev/null | head -4
device_build fvrun fvprep fvgen compare_runs mpi_run_tools test_parallel_halo test_fake_transport \
  halo_bench
grep -E "NCCL" "$out/build.log" | head -2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=2
T=$bdir/tests/parallel
log "test_parallel_halo on 1 rank (NCCL can run: reductions on the device)"
mpiexec -n 1 $T/test_parallel_halo --gtest_color=no \
  --gtest_filter='Reduce.*:HaloExchange.DeviceMemory*:HaloExchange.Repeated*' 2>&1 |
  grep -vE "^\[ +(OK|RUN) "
for np in 2 4; do
  log "test_parallel_halo on $np ranks"
  mpiexec -n $np $T/test_parallel_halo --gtest_color=no 2>&1 | grep -vE "^\[ +(OK|RUN) " | sort -u
done
log "test_fake_transport"; $T/test_fake_transport 2>&1 | grep -E "PASSED|FAILED|Failure" | sort -u
log "halo_bench, 2 ranks"; mpiexec -n 2 $T/halo_bench 2000000 100000 5 100 2>&1 | tail -8
for t in ${TRANSPORTS:-host_staged_mpi cuda_ipc auto}; do
  log "fvrun 1 vs 2 vs 4 ranks (tests/mpi_run channel), transport $t"
  if FVRUN_EXTRA="--device cuda --set run.transport=$t" RTOL=1e-12 \
    bash tests/mpi_run/mpi_run_test.sh channel "$PWD/$bdir/tests/mpi_run/bin" /tmp/mr_$t >$out/mr_$t.log 2>&1
  then log "PASS $t"; else log "FAIL $t"; tail -5 $out/mr_$t.log; fi
done
if [ "${SCALING:-1}" = 1 ]; then
  for t in ${SCALE_TRANSPORTS:-host_staged_mpi cuda_ipc}; do
    log "mpi_scaling.sh, transport $t"
    BUILD=$bdir TRANSPORT=$t RANKS="${RANKS:-1 2}" WEAK=${WEAK:-2M} STRONG=${STRONG:-4M} \
      ITERS=${ITERS:-40} bench/mpi_scaling.sh /tmp/fv_scaling 2>&1 | tail -8
  done
  cp bench/results/mpi_scaling_*.csv "$out/" 2>/dev/null
fi
log done
