#!/usr/bin/env bash
# `fvprep partition add` against a fresh prepare (issue 18): for each generated 1M-cell mesh
# (a hexahedral box in file order; shuffled, perturbed tetrahedra), fvprep prepares FROM parts,
# then TO parts are added to that zone file and, separately, prepared fresh from the mesh. Both
# are timed (wall, peak RSS) and the added zones are compared with the fresh ones dataset by
# dataset (h5diff). Appends CSV rows to bench/results/partition_add.csv ($OUT when set).
#   bench/partition_add.sh [--bin BUILD_DIR] [--from N] [--to M]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/ci from=8 to=64
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$(cd "$2" && pwd); shift 2 ;;
    --from) from=$2; shift 2 ;;
    --to) to=$2; shift 2 ;;
    *) echo "usage: bench/partition_add.sh [--bin DIR] [--from N] [--to M]" >&2; exit 2 ;;
  esac
done
fvgen=$bin/prep/fvgen fvprep=$bin/prep/fvprep
work=${WORK:-/tmp/fv_partition_add}
mkdir -p "$work"
csv=${OUT:-$root/bench/results}/partition_add.csv
[ -f "$csv" ] || echo "date,host_cpus,mesh,cells,from_parts,to_parts,fresh_wall_s,fresh_peak_rss_mib,add_wall_s,add_peak_rss_mib,speedup,zones_identical" >"$csv"
measure() { # prints "wall_s peak_rss_mib" of the command
  python3 "$root/bench/measure_cmd.py" "$@"
}
for spec in "hex_box:box --cells hex --target 1M" "tet_shuffled:box --cells tet --target 1M --shuffle --perturb 0.1"; do
  name=${spec%%:*} args=${spec#*:}
  mesh=$work/$name.cgns
  # shellcheck disable=SC2086 # args is a word list
  [ -f "$mesh" ] || "$fvgen" $args -o "$mesh" -q >/dev/null
  "$fvprep" "$mesh" --parts "$from" -o "$work/$name.from.zones.h5" -q >/dev/null
  cp "$work/$name.from.zones.h5" "$work/$name.multi.zones.h5"
  read -r fresh_s fresh_mib < <(measure "$fvprep" "$mesh" --parts "$to" -o "$work/$name.fresh.zones.h5" -q)
  read -r add_s add_mib < <(measure "$fvprep" partition add "$work/$name.multi.zones.h5" --parts "$to" -q)
  same=no
  if h5diff -q "$work/$name.fresh.zones.h5" "$work/$name.multi.zones.h5" /zones \
    "/partitionings/$(printf %06d "$to")/zones" >/dev/null 2>&1; then same=yes; fi
  cells=$("$fvprep" info "$work/$name.from.zones.h5" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["nGlobalCells"])')
  speedup=$(python3 -c "print(f'{$fresh_s / $add_s:.2f}')")
  echo "$name: $cells cells, $from -> $to parts: fresh ${fresh_s} s ${fresh_mib} MiB, add ${add_s} s ${add_mib} MiB (${speedup}x), zones identical: $same"
  echo "$(date -u +%F),$(nproc),$name,$cells,$from,$to,$fresh_s,$fresh_mib,$add_s,$add_mib,$speedup,$same" >>"$csv"
done
