#!/usr/bin/env bash
# A campaign against its cold single runs (issue 49): the NACA 0012 Euler case of
# examples/naca0012.ini (M 0.8) swept over alpha in one fvrun (--sweep), then one cold fvrun per
# alpha. Prints per point the campaign's and the cold run's iterations and orders, the totals
# and their ratio (the issue asks <= 0.40), and every point's relative CL/CD difference from its
# cold run and their largest (the issue asks <= 1e-8 at alpha = 1.25, which the default sweep
# does not hold: every point is compared instead).
#
#   bench/campaign_naca.sh BUILD_DIR ZONES OUT [DEVICE] [SWEEP]
#
#   BUILD_DIR  a build with runtime/fvrun (build/cpu, build/release)
#   ZONES      fvprep ../shared/meshes/su2/naca0012_inv_su2.su2 --extrude 1 -o naca.zones.h5
#   OUT        output folder (OUT/campaign: the campaign, OUT/cold_<alpha>: the cold runs)
#   DEVICE     cpu | cuda | auto (default auto)
#   SWEEP      the alpha sweep (default -2:4:0.5, 13 points)
# Environment: MPIRUN (e.g. "mpirun -np 2", with a zone file of 2 parts), COLD=0 skips the cold
# runs (the table then reads those already in OUT).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
build=$1 zones=$2 out=$3 device=${4:-auto} sweep=${5:--2:4:0.5}
fvrun="${MPIRUN:-} $build/runtime/fvrun"
case_ini=$here/examples/naca0012.ini
mkdir -p "$out"

start=$(date +%s.%N)
$fvrun "$zones" -c "$case_ini" --device "$device" --output-dir "$out/campaign" \
  --sweep "aoa=$sweep" > "$out/campaign.log" 2>&1 || echo "campaign: fvrun exited with $?"
campaign_s=$(python3 -c "print($(date +%s.%N) - $start)") # (no bc on every machine)

cold_s=0
if [ "${COLD:-1}" != 0 ]; then
  for a in $(python3 -c "
import csv,sys
rows=[r for r in csv.reader(l for l in open('$out/campaign/polar.csv') if not l.startswith('#'))]
print(' '.join(r[0] for r in rows[1:]))"); do
    start=$(date +%s.%N)
    $fvrun "$zones" -c "$case_ini" --device "$device" --output-dir "$out/cold_$a" \
      --set "freestream.aoa=$a" > "$out/cold_$a.log" 2>&1 || echo "cold $a: fvrun exited with $?"
    cold_s=$(python3 -c "print($cold_s + $(date +%s.%N) - $start)")
  done
fi

python3 - "$out" "$campaign_s" "$cold_s" <<'PY'
import csv, math, os, sys
out, campaign_s, cold_s = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])

def table(path):
    rows = list(csv.reader(l for l in open(path) if not l.startswith('#')))
    return [dict(zip(rows[0], r)) for r in rows[1:]]

def cold(a):
    h = table(os.path.join(out, 'cold_' + a, 'history.csv'))
    last = h[-1]
    orders = -max(float(last['res_rho']), float(last['res_rhoE']))
    return len(h), orders, float(last['CL']), float(last['CD'])

polar = table(os.path.join(out, 'campaign', 'polar.csv'))
print('| alpha | campaign its | orders | status | warm from | cold its | cold orders '
      '| CL rel. diff. | CD rel. diff. |')
print('|---|---|---|---|---|---|---|---|---|')
tc = tw = 0
worst = 0.0
for r in polar:
    its, orders, cl, cd = cold(r['aoa'])
    tc += its
    tw += int(r['iterations'])
    dcl = abs(float(r['CL']) - cl) / max(abs(cl), 1e-2) # near alpha = 0 against 0.01
    dcd = abs(float(r['CD']) - cd) / max(abs(cd), 1e-2)
    worst = max(worst, dcl, dcd)
    print('| %s | %s | %.2f | %s | %s | %d | %.2f | %.1e | %.1e |' % (r['aoa'], r['iterations'],
          float(r['orders']), r['status'], r['warm_source'], its, orders, dcl, dcd))
print()
print('campaign: %d iterations, %.1f s; cold runs: %d iterations, %.1f s' % (tw, campaign_s, tc, cold_s))
print('iteration ratio campaign / cold: %.3f (issue 49: <= 0.40)' % (tw / tc))
print('lowest orders of a campaign point: %.2f' % min(float(r['orders']) for r in polar))
print('largest relative CL or CD difference of a point from its cold run: %.1e (issue 49: <= 1e-8)' % worst)
PY
