#!/usr/bin/env bash
# fvprep time and peak memory on large generated meshes (issues 4 and 5): for each SIZE
# (e.g. 20M) and cell type, fvgen writes a shuffled, perturbed channel mesh and fvprep prepares
# it into PARTS zones; the zone file is then checked. Prints one line per run and appends CSV
# rows to bench/results/prep_large.csv (or $OUT/prep_large.csv when OUT is set).
#   bench/prep_large.sh [--bin BUILD_DIR] [--parts N] [--types "tet hex"] SIZE...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/release parts=64 types="tet hex" sizes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$(cd "$2" && pwd); shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    --types) types=$2; shift 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(20M)
work=${WORK:-/tmp/fv_prep_large}
mkdir -p "$work"
csv=${OUT:-$root/bench/results}/prep_large.csv
[ -f "$csv" ] || echo "date,host_cpus,mesh,cells,parts,fvprep_wall_s,fvprep_peak_rss_mib,zone_file_mib,check_wall_s" > "$csv"
measure() { # prints "wall_s peak_rss_mib" of the command
  python3 "$root/bench/measure_cmd.py" "$@"
}
for size in "${sizes[@]}"; do
  for t in $types; do
    mesh=$work/channel_${t}_$size.cgns zones=$work/channel_${t}_$size.p$parts.zones.h5
    "$bin/prep/fvgen" channel --cells "$t" --target "$size" --shuffle --perturb 0.1 -o "$mesh" -q
    read -r wall rss < <(measure "$bin/prep/fvprep" "$mesh" --parts "$parts" -o "$zones" -q)
    read -r cwall _ < <(measure "$bin/prep/fvprep" check "$zones" --no-checksums)
    cells=$("$bin/prep/fvprep" info "$zones" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["nGlobalCells"])' 2>/dev/null || echo "?")
    mib=$(( $(stat -c %s "$zones") / 1048576 ))
    echo "$t $size: $cells cells into $parts zones: fvprep ${wall} s, peak ${rss} MiB, zone file ${mib} MiB; check ${cwall} s"
    echo "$(date -u +%F),$(nproc),channel_${t}_$size,$cells,$parts,$wall,$rss,$mib,$cwall" >> "$csv"
    rm -f "$mesh" "$zones"
  done
done
