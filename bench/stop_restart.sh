#!/usr/bin/env bash
# Issue 50's stop test at production length: a CPU run of about two minutes stopped by SIGTERM
# at a random moment, then restarted from what it left, against the same run uninterrupted.
#   bench/stop_restart.sh BUILD ZONES CASE OUT [fvrun args...]
# e.g. bench/stop_restart.sh build/cpu naca_sa.zones.h5 examples/naca0012_sa.ini /tmp/sr
# Prints: the uninterrupted run's iterations, CL, CD; the moment of the signal, the iteration the
# run had reached, the restart's iteration (at most [monitor] checkpoint_interval = 5 older); the
# restarted run's final iteration, CL, CD and their differences. Exit 1 when the restart is older
# than the checkpoint interval, the iterations differ by more than 1 or CL/CD by more than 1e-10
# relative. SEED (default: the clock) picks the moment.
set -euo pipefail
build=$1 zones=$2 case=$3 out=$4
shift 4
fvrun=$build/runtime/fvrun
interval=5
mkdir -p "$out"
rm -rf "${out:?}"/whole "${out:?}"/part
last() { grep -v '^#' "$1" | tail -1; }
col() { # HISTORY NAME -> the last row's value of column NAME
  python3 - "$1" "$2" <<'EOF'
import sys
rows = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
h = rows[0].split(",")
print(rows[-1].split(",")[h.index(sys.argv[2])])
EOF
}
t0=$(date +%s.%N)
"$fvrun" "$zones" -c "$case" --device cpu --output-dir "$out/whole" "$@" > "$out/whole.log" 2>&1
whole=$(python3 -c "import time; print(time.time() - $t0)")
wi=$(col "$out/whole/history.csv" iteration)
echo "uninterrupted: $wi iterations in $(printf %.1f "$whole") s; CL $(col "$out/whole/history.csv" CL), CD $(col "$out/whole/history.csv" CD)"

RANDOM=${SEED:-$(date +%s)}
at=$(python3 -c "import random; random.seed($RANDOM); print(f'{random.uniform(0.1, 0.9) * $whole:.2f}')")
"$fvrun" "$zones" -c "$case" --device cpu --output-dir "$out/part" \
  --set monitor.checkpoint_interval=$interval "$@" > "$out/part.log" 2>&1 &
pid=$!
sleep "$at"
kill -TERM $pid
rc=0
wait $pid || rc=$?
reached=$(col "$out/part/history.csv" iteration)
restart=$(grep -oE "restart.h5 \(iteration [0-9]+\)" "$out/part.log" | tail -1 | grep -oE "[0-9]+\)" |
  tr -d ')' || true)
echo "SIGTERM after $at s: exit $rc, iteration $reached reached, restart.h5 of iteration $restart"
echo "  $(grep -E 'stopped by|continue with' "$out/part.log" | tr '\n' ' ')"
"$fvrun" "$zones" -c "$case" --device cpu --output-dir "$out/part" --restart "$out/part/restart.h5" \
  "$@" > "$out/resumed.log" 2>&1
ri=$(col "$out/part/history.csv" iteration)
python3 - "$out" "$wi" "$ri" "$reached" "$restart" "$interval" <<'EOF'
import sys
out, wi, ri, reached, restart, interval = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5] or -1), int(sys.argv[6])
def last(path):
    rows = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
    h = rows[0].split(",")
    return dict(zip(h, map(float, rows[-1].split(","))))
a, b = last(out + "/whole/history.csv"), last(out + "/part/history.csv")
dcl = abs(b["CL"] - a["CL"]) / abs(a["CL"])
dcd = abs(b["CD"] - a["CD"]) / abs(a["CD"])
ok = 0 <= reached - restart <= interval and abs(ri - wi) <= 1 and dcl <= 1e-10 and dcd <= 1e-10
print(f"restarted: {ri} iterations in all (uninterrupted {wi}); CL {b['CL']:.12g} ({dcl:.1e} relative), "
      f"CD {b['CD']:.12g} ({dcd:.1e}); restart {reached - restart} iterations old; "
      + ("PASS" if ok else "FAIL"))
sys.exit(0 if ok else 1)
EOF
