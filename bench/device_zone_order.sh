#!/usr/bin/env bash
# Carried (git-ignored): .deps. OUT=/path bench/device_zone_order.sh
# Why does a zone of a multi-zone run compute slower per cell than one zone of the same size
# (the factor f of docs/parallel.md "Scaling model")? fvbench's kernels on one GPU, no
# communication: the SIZE-cell hexahedral channel as one zone against zone 0 and 1 of the
# 2*SIZE-cell channel in 2 parts, each with the wavefront zone order (default) and the plain
# zone RCM order (fvprep --zone-order rcm); the same for tetrahedra.
set -uo pipefail
name=zoneorder; . bench/device_common.sh
device_build fvgen fvprep fvbench fvrun
w=/tmp/zo; mkdir -p $w
G=$bdir/prep/fvgen P=$bdir/prep/fvprep B=$bdir/bench/fvbench
SIZE=${SIZE:-4M}; DOUBLE=${DOUBLE:-8M}
# (wait on the PIDs: a bare `wait` would also wait for device_common.sh's tee)
pids=()
for cells in ${CELLS:-hex tet}; do
  $G channel --cells $cells --target $SIZE --shuffle --perturb 0.1 -o $w/${cells}1.cgns -q & pids+=($!)
  $G channel --cells $cells --target $DOUBLE --shuffle --perturb 0.1 -o $w/${cells}2.cgns -q & pids+=($!)
done
wait "${pids[@]}"; pids=()
for cells in ${CELLS:-hex tet}; do
  for order in wavefront rcm; do
    $P $w/${cells}1.cgns --zone-order $order -o $w/${cells}1_$order.zones.h5 -q & pids+=($!)
    $P $w/${cells}2.cgns --parts 2 --zone-order $order -o $w/${cells}2_$order.zones.h5 -q & pids+=($!)
  done
done
wait "${pids[@]}"
log "meshes ready"
for cells in ${CELLS:-hex tet}; do
  for order in wavefront rcm; do
    for z in "${cells}1_$order 0" "${cells}2_$order 0" "${cells}2_$order 1"; do
      set -- $z
      $B $w/$1.zones.h5 --zone $2 --device cuda --kernels gather --runs 2 --label "$1/z$2" \
        --csv $out/zone_order.csv 2>&1 | grep -iE "stage|ns/cell" | head -4
    done
  done
done
# whole iterations of the 2-zone files: SSP-RK3 and LU-SGS (hyperplanes), 2 ranks sharing the
# GPU (time-sliced: only the two orders' ratio means something here)
. bench/channel_patches.sh
{ printf '[freestream]\nmach = 0.5\nlift_axis = y\n[scheme]\nflux = roe\norder = 2\nlimiter = venkat\n'
  printf '[time]\ncfl = 1.5\nconvergence = 0\n[monitor]\nwrite_solution = false\noutput_interval = 1000\n'
  channel_patches; } > $w/case.ini
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for cells in ${CELLS:-hex tet}; do
  for order in wavefront rcm; do
    for integ in ssprk3 lusgs; do
      t=$(mpirun -np 2 --oversubscribe --bind-to none $bdir/runtime/fvrun $w/${cells}2_$order.zones.h5 \
        -c $w/case.ini --device cuda --iterations 30 --set time.integrator=$integ \
        --set time.cfl=$([ $integ = lusgs ] && echo 20 || echo 1.5) --output-dir $w/run -v |
        grep FVRUN_TIMING | sed 's/.*time_per_iter_s=\([^ ]*\).*/\1/')
      log "${cells}2 $order $integ: $t s per iteration (2 ranks, one GPU)"
    done
  done
done
log done
