#!/usr/bin/env bash
# Carried (git-ignored): .deps, .devcarry (meshes/su2), .devcarry_sa (naca0012_cgrid_r2/r4.msh from bench/naca0012_cgrid.sh). OUT=/path bench/device_limiter_region.sh
# limiter_region (supersonic default of the viscous models): GPU-vs-CPU tests, RANS runs, the
# NACA 0012 SA grid family with defaults, and a viscous transonic case (limiter active at the
# shock only) on cuda and cpu, histories compared.
set -uo pipefail
SKIP_WING=1 CELLS=200000 bench/device_rans.sh
name=region; . bench/device_common.sh; bdir=build-device
w=/tmp/nsa; mkdir -p $w
P=$bdir/prep/fvprep; R=$bdir/runtime/fvrun
$P .devcarry_sa/naca0012_cgrid_r2.msh --extrude 1 --walls airfoil -o $w/g2.zones.h5 >/dev/null 2>&1
$P .devcarry_sa/naca0012_cgrid_r4.msh --extrude 1 --walls airfoil -o $w/g4.zones.h5 >/dev/null 2>&1
for g in g2 g4; do
  ini=$w/$g.ini; sed 's/^output_dir.*//' examples/naca0012_sa.ini > $ini
  log "$g defaults"; $R $w/$g.zones.h5 -c $ini --device cuda --output-dir $w/$g 2>&1 | grep -E "^fvrun:|rror" | tail -1
  cp $w/$g/history.csv $out/${g}_default.history.csv 2>/dev/null
done
$P .devcarry/meshes/su2/naca0012_inv_su2.su2 --extrude 1 -o $w/inv.zones.h5 >/dev/null 2>&1
sed 's/^output_dir.*//; s/^iterations.*/iterations = 40/' examples/naca0012.ini > $w/vt.ini
sed -i 's/type = slip_wall/type = no_slip_wall/' $w/vt.ini
VT="--set physics.model=navier_stokes --set freestream.reynolds=5000 --set freestream.reynolds_length=1 --set freestream.temperature=288"
for d in cuda cpu; do
  log "viscous transonic NACA, $d"; OMP_NUM_THREADS=16 $R $w/inv.zones.h5 -c $w/vt.ini $VT --device $d --output-dir $w/vt_$d 2>&1 | grep -E "^fvrun:|rror" | tail -1
  cp $w/vt_$d/history.csv $out/vt_$d.history.csv
done
python3 - "$w/vt_cuda/history.csv" "$w/vt_cpu/history.csv" <<'PY'
import sys
def rows(p):
    L=[l for l in open(p) if l[0].isdigit()]
    return [l.split(',') for l in L]
a,b=rows(sys.argv[1]),rows(sys.argv[2])
hdr=[l for l in open(sys.argv[1]) if not l[0].isdigit() and not l.startswith('#')][0].strip().split(',')
m=0
for x,y in zip(a,b):
    for k,h in enumerate(hdr):
        if h.startswith('rms') or h in ('CL','CD'):
            u,v=float(x[k]),float(y[k]); m=max(m,abs(u-v)/max(abs(u),abs(v),1e-300))
print("viscous transonic: %d vs %d iterations, largest relative difference %.2e"%(len(a),len(b),m))
PY
log done
