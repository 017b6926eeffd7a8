#!/usr/bin/env bash
# Issue 49's GPU figures in one or two device calls: campaigns on one prepared mesh.
#   naca  bench/campaign_naca.sh on the GPU: NACA 0012 Euler (M 0.8) --sweep aoa=-2:4:0.5 against
#         13 cold runs (iterations, orders, each point against its cold run), alpha 1's CPU run
#         against the GPU's, 2 ranks on the GPU with and without --sweep-groups 2; the TMR 225 x 65
#         NACA 0012 SA (M 0.15, Re 6M) --sweep aoa=0,5,10,15 to 8 orders; fixed lift
#         (target_cl = 0.3) and a Mach sweep at fixed lift.
#   wing  the 700k-tetrahedra transonic wing (bench/wing_mesh.sh --cells 700k; M 0.84): one cold
#         point (alpha 3.06) against a 9-point alpha sweep, wall times; batched conditions
#         (fvbench --batched 1,4,8 and --batched-model) on its zone.
#   OUT=... PART=naca|wing|all bench/device_campaign.sh   (carry .deps and .devcarry: meshes/su2,
#                                                          meshes/wing700/wing.msh)
# Writes to $OUT: device.log, build.log, naca.txt, sa_polar.csv, lift.txt, wing.txt.
name=device_campaign
. bench/device_common.sh
part=${PART:-all}
device_build fvrun fvprep $([ "$part" = naca ] || echo fvbench)
M=$PWD/.devcarry/meshes Z=/tmp/campaign_zones R=/tmp/campaign_runs
mkdir -p $Z $R
fvprep=$bdir/prep/fvprep fvrun=$bdir/runtime/fvrun
secs() { python3 -c "import time; print(f'{time.time() - $1:.2f}')"; }
if [ "$part" != wing ]; then
  [ -f $Z/naca.zones.h5 ] || $fvprep $M/su2/naca0012_inv_su2.su2 --extrude 1 -o $Z/naca.zones.h5 -q
  [ -f $Z/naca_sa.zones.h5 ] || $fvprep $M/su2/naca0012_turb_225x65.su2 --extrude 1 \
    --walls airfoil -o $Z/naca_sa.zones.h5 -q
  log "NACA 0012 Euler sweep against cold runs"
  bench/campaign_naca.sh $bdir $Z/naca.zones.h5 $R/naca cuda | tee "$out/naca.txt"
  # alpha 1 is a point of the sweep (-2:4:0.5), so it has a cold GPU run to compare with
  a=$(python3 -c "
import csv
rows = [r for r in csv.reader(l for l in open('$R/naca/campaign/polar.csv') if not l.startswith('#'))]
print(next(r[0] for r in rows[1:] if float(r[0]) == 1.0))")
  log "NACA 0012 Euler alpha $a on the CPU backend against the GPU's cold run"
  $fvrun $Z/naca.zones.h5 -c examples/naca0012.ini --device cpu --output-dir $R/naca_cpu \
    --set freestream.aoa=$a >"$R/naca_cpu.log" 2>&1
  python3 - $R/naca/cold_$a/history.csv $R/naca_cpu/history.csv <<'PY' | tee "$out/naca_gpu_cpu.txt"
import sys
def rows(p):
    r = [l.strip().split(",") for l in open(p) if l.strip() and not l.startswith("#")]
    h = r[0]
    return [{k: v for k, v in zip(h, x) if k != "wall_s"} for x in r[1:]]
g, c = rows(sys.argv[1]), rows(sys.argv[2])
print(f"GPU {len(g)} / CPU {len(c)} iterations; histories (wall_s aside) "
      + ("bitwise equal" if g == c else "DIFFER"), "; CL", g[-1]["CL"], "CD", g[-1]["CD"])
PY
  log "rank groups on the one GPU: 2 ranks, every point on both against --sweep-groups 2"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  [ -f $Z/naca2.zones.h5 ] || { $fvprep $M/su2/naca0012_inv_su2.su2 --extrude 1 --parts 2 \
    -o $Z/naca2.zones.h5 -q && $fvprep partition add $Z/naca2.zones.h5 --parts 1 -q; }
  {
    for g in 1 2; do
      t0=$(date +%s.%N)
      mpirun -np 2 --oversubscribe --bind-to none $fvrun $Z/naca2.zones.h5 -c examples/naca0012.ini \
        --device cuda --sweep aoa=-2:4:0.5 --sweep-groups $g --set monitor.write_solution=false \
        --output-dir $R/groups_$g >"$R/groups_$g.log" 2>&1
      echo "2 ranks, --sweep-groups $g: rc $?, $(secs $t0) s; iterations $(python3 -c "
import csv
r = list(csv.DictReader(l for l in open('$R/groups_$g/polar.csv') if not l.startswith('#')))
print(sum(int(x['iterations']) for x in r), 'in', len(r), 'points,', sum(x['converged'] == 'yes' for x in r), 'converged')")"
    done
  } 2>&1 | tee "$out/groups.txt"
  log "NACA 0012 SA sweep"
  t0=$(date +%s.%N)
  $fvrun $Z/naca_sa.zones.h5 -c examples/naca0012_sa.ini --device cuda --output-dir $R/sa \
    --sweep aoa=0,5,10,15 --set time.convergence=8 >"$R/sa.log" 2>&1
  log "SA sweep: rc $?, $(secs $t0) s; $(grep -E '^fvrun: ' "$R/sa.log" | tail -2 | tr '\n' ' ')"
  cp $R/sa/polar.csv "$out/sa_polar.csv"
  for a in 0; do # the cold single run beside the campaign's first point
    $fvrun $Z/naca_sa.zones.h5 -c examples/naca0012_sa.ini --device cuda --output-dir $R/sa_cold_$a \
      --set freestream.aoa=$a --set time.convergence=8 >"$R/sa_cold_$a.log" 2>&1
    log "SA cold alpha $a: $(grep -E '^fvrun: ' "$R/sa_cold_$a.log" | tail -1)"
  done
  log "fixed lift"
  {
    t0=$(date +%s.%N)
    $fvrun $Z/naca.zones.h5 -c examples/naca0012.ini --device cuda --output-dir $R/lift \
      --set freestream.target_cl=0.3 >"$R/lift.log" 2>&1
    echo "target_cl 0.3: rc $?, $(secs $t0) s"
    grep -iE "alpha|dCL|^fvrun: " "$R/lift.log" | tail -6
    t0=$(date +%s.%N)
    $fvrun $Z/naca.zones.h5 -c examples/naca0012.ini --device cuda --output-dir $R/lift_mach \
      --set freestream.target_cl=0.3 --sweep mach=0.7:0.8:0.05 >"$R/lift_mach.log" 2>&1
    echo "Mach sweep at target_cl 0.3: rc $?, $(secs $t0) s"
    cat $R/lift_mach/polar.csv | grep -v '^#'
  } 2>&1 | tee "$out/lift.txt"
fi
if [ "$part" != naca ]; then
  [ -f $Z/wing.zones.h5 ] || $fvprep $M/wing700/wing.msh -o $Z/wing.zones.h5 -q
  printf '[freestream]\nmach = 0.84\naoa = 3.06\n[time]\nconvergence = 8\n[monitor]\nreference_area = 0.7532\n[patch wing]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n' >$R/wing.ini
  {
    t0=$(date +%s.%N)
    $fvrun $Z/wing.zones.h5 -c $R/wing.ini --device cuda --output-dir $R/wing_cold >"$R/wing_cold.log" 2>&1
    cold=$(secs $t0)
    echo "cold point alpha 3.06 (whole fvrun, mapping included): rc $?, $cold s; $(grep -E '^fvrun: ' "$R/wing_cold.log" | tail -1)"
    t0=$(date +%s.%N)
    $fvrun $Z/wing.zones.h5 -c $R/wing.ini --device cuda --output-dir $R/wing_sweep \
      --sweep aoa=0:4:0.5 >"$R/wing_sweep.log" 2>&1
    sweep=$(secs $t0)
    echo "9-point sweep aoa=0:4:0.5: rc $?, $sweep s; ratio to the cold point $(python3 -c "print(f'{$sweep / $cold:.2f}')")"
    grep -v '^#' $R/wing_sweep/polar.csv
    echo "batched conditions on the wing (fvbench --batched; bench/results/batched_conditions_2026-12-07)"
    $bdir/bench/fvbench $Z/wing.zones.h5 --device cuda --batched 1,4,8 --runs 2
    $bdir/bench/fvbench --batched-model $Z/wing.zones.h5 --label wing700k
  } 2>&1 | tee "$out/wing.txt"
fi
log done
