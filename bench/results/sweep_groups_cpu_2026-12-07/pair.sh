#!/bin/bash
# one pair: (a) every point on both ranks, (b) --sweep-groups 2; load sampled every 5 s
# usage: BENCH_DIR=DIR BUILD=build/cpu CASE=examples/naca0012.ini pair.sh TAG (writes aTAG*, bTAG*)
cd "${BENCH_DIR:-.}" || exit 1 # holds naca.zones.h5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
B=${BUILD:-build/cpu}
tag=$1
run() { # name extra-args
  rm -rf "$1"
  uptime > "$1.uptime"
  /usr/bin/time -f "wall %e s" mpiexec --oversubscribe -n 2 $B/runtime/fvrun naca.zones.h5 \
    -c ${CASE:-examples/naca0012.ini} --device cpu --sweep aoa=0:2:0.5 \
    --set monitor.write_solution=false --output-dir "$1" $2 > "$1.log" 2>&1
  uptime >> "$1.uptime"
}
(while true; do echo "$(date +%T) $(cut -d' ' -f1 /proc/loadavg) $(ps -eo stat,comm --no-headers | awk '$1 ~ /^R/ && $2 != "ps" && $2 != "awk" {print $2}' | tr '\n' ' ')"; sleep 5; done > load_$tag.log) &
LP=$!
run a$tag ""
run b$tag "--sweep-groups 2"
kill $LP
