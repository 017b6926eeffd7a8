#!/usr/bin/env bash
# The zone's cell order on one GPU in one call: the same meshes prepared with each of ORDERS
# (fvprep --zone-order: wavefront = the RCM numbering with the wavefront sweep, the default;
# morton = the global space-filling-curve numbering with the same sweep), then on each
# fvbench's kernels and stage (REP times, alternately) and whole iterations of fvrun (SSP-RK3
# and LU-SGS, without --profile) on 10M-cell channels (MESHES) and on the wing
# (.devcarry/wing.msh, when carried). Prints the rows that matter; the full outputs go to $OUT.
#   OUT=/path [ORDERS="wavefront morton"] [MESHES="hex tet"] [SIZE=10M] [REP=2] [WING=1]
#   [FVBENCH_ARGS="--kernels gather"]
#   bench/device_cell_order.sh    (carry .deps and .devcarry)
name=device_cell_order
. bench/device_common.sh
# the outputs of every run into one archive ($OUT brings back few files), also when killed
top=$out
out=/tmp/order_out
mkdir -p $out
trap 'tar czf $top/details.tgz -C $out . 2>/dev/null' EXIT
size=${SIZE:-10M}
orders=${ORDERS:-wavefront morton}
meshes=/tmp/order_meshes
mkdir -p $meshes
JOBS=16 device_build fvgen fvprep fvbench fvrun compare_runs
G=$bdir/prep/fvgen P=$bdir/prep/fvprep B=$bdir/runtime/fvbench R=$bdir/runtime/fvrun

prepare() { # MESH TAG: one zone file per order, prepared side by side
  local mesh=$1 tag=$2 pids=()
  for o in $orders; do
    /usr/bin/time -f "$tag $o: fvprep %e s, %M KiB" $P "$mesh" --zone-order $o \
      -o $meshes/${tag}_$o.zones.h5 -q >"$out/prep_${tag}_$o.txt" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  for o in $orders; do tail -1 "$out/prep_${tag}_$o.txt"; done
}
iterate() { # TAG ZONES INI ITER [fvrun --set ...]
  local tag=$1 zones=$2 ini=$3 it=$4
  shift 4
  $R "$zones" -c "$ini" --device cuda --iterations $it --output-dir /tmp/it_$tag --no-checksums \
    --set monitor.write_solution=false "$@" >"$out/it_$tag.log" 2>&1 || log "fvrun $tag FAILED"
  log "$tag: $(grep -o 'time_per_iter_s=[^ ]*' "$out/it_$tag.log")"
}
lusgs=(--set time.integrator=lusgs --set time.lusgs_ordering=hyperplane --set time.cfl=50
  --set time.cfl_start=5 --set time.cfl_ramp_iterations=10)

for cells in ${MESHES:-hex tet}; do
  log "generating $cells $size"
  $G channel --cells $cells --target $size --shuffle --seed 1 --perturb 0.1 \
    -o $meshes/$cells.cgns -q || { log "fvgen $cells failed"; continue; }
  prepare $meshes/$cells.cgns $cells
  rm -f $meshes/$cells.cgns
  for rep in $(seq ${REP:-2}); do
    for o in $orders; do
      $B $meshes/${cells}_$o.zones.h5 --device cuda --repeats ${REPEATS:-10} --runs 1 \
        --no-checksum ${FVBENCH_ARGS:-} --label "channel_${cells}_$size $o" --csv "$out/kernels.csv" \
        >"$out/fvbench_${cells}_${o}_$rep.txt" 2>&1 || log "fvbench $cells $o FAILED"
      log "$cells $o rep $rep:"
      grep -E "^kernel +(primitives|interpolate_to_nodes|gradient_limiter_states|interior_state_fluxes|boundary_state_fluxes|flux_sum_rk_stage) |rk_stage_total +gather|rk_stage_total_gradient" \
        "$out/fvbench_${cells}_${o}_$rep.txt" | awk '{print "   ", $2, $4, $5, $6, $7}'
    done
  done
  channel_iteration_case
  for o in $orders; do
    iterate ${cells}_${o}_rk $meshes/${cells}_$o.zones.h5 $meshes/iteration.ini 20
    iterate ${cells}_${o}_lusgs $meshes/${cells}_$o.zones.h5 $meshes/iteration.ini 20 "${lusgs[@]}"
  done
  rm -f $meshes/${cells}_*.zones.h5
done

if [ "${WING:-1}" = 1 ] && [ -f .devcarry/wing.msh ]; then
  prepare .devcarry/wing.msh wing
  printf '[freestream]\nmach = 0.84\naoa = 3\n[time]\nconvergence = 0\n[monitor]\noutput_interval = 1000\nwrite_solution = false\nreference_area = 0.75296\nforce_patches = wing\n[patch wing]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n' >$meshes/w.ini
  for rep in 1 2; do
    for o in $orders; do
      iterate wing_${o}_rk$rep $meshes/wing_$o.zones.h5 $meshes/w.ini 100 \
        --set time.integrator=ssprk3 --set time.cfl=1.5
      iterate wing_${o}_lusgs$rep $meshes/wing_$o.zones.h5 $meshes/w.ini 100 "${lusgs[@]}"
    done
  done
  for o in $orders; do grep -E "converged|CL" "$out/it_wing_${o}_lusgs1.log" | tail -1; done
fi
log done
