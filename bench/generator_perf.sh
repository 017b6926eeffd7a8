#!/usr/bin/env bash
# Measures fvgen: generation wall time, CPU time (user+sys of the whole run, which includes
# start-up and the summary) and peak RSS (no output), then CGNS write time and file
# size, for tetrahedra and hexahedra at the given sizes; appends rows to a CSV.
#
#   bench/generator_perf.sh [SCRATCH_DIR] [SIZES...]    (default /tmp, 1M 5M 10M)
#
# Output: bench/results/generator.csv (CSV_OUT overrides). Needs /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${1:-/tmp}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1M 5M 10M)
fvgen=${FVGEN:-build/prep/fvgen}
csv=${CSV_OUT:-bench/results/generator.csv}
family=${FAMILY:-channel}
[ -x "$fvgen" ] || { echo "generator_perf.sh: $fvgen not found" >&2; exit 2; }

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//;s/,/ /g')
machine="nproc=$(nproc) cpu=$cpu date=$(date -u +%Y-%m-%dT%H:%MZ) threads=${OMP_NUM_THREADS:-$(nproc)}"
if [ ! -s "$csv" ]; then
  echo "family,cells,target,n_cells,n_nodes,gen_s,gen_cpu_s,gen_peak_rss_mb,cgns_write_s,cgns_mb,total_peak_rss_mb,machine" > "$csv"
fi
measure() { # args... -> sets $rss_mb and $stdout_text
  local log
  log=$(mktemp)
  /usr/bin/time -v "$@" > "$log.out" 2> "$log"
  rss_mb=$(awk -F: '/Maximum resident/ {printf "%.0f", $2/1024}' "$log")
  cpu_s=$(awk -F: '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$log")
  stdout_text=$(cat "$log.out")
  rm -f "$log" "$log.out"
}
for size in "${sizes[@]}"; do
  for cells in tet hex; do
    args=("$family" --cells "$cells" --target "$size" --shuffle --perturb 0.1 -q)
    measure "$fvgen" "${args[@]}"
    gen_rss=$rss_mb
    gen_cpu=$cpu_s
    gen_s=$(echo "$stdout_text" | awk '/generate/ {print $2}')
    ncells=$(echo "$stdout_text" | awk '/^  cells/ {print $2}')
    nnodes=$(echo "$stdout_text" | awk '/^  nodes/ {print $2}')
    file="$scratch/fvgen_perf_${cells}_${size}.cgns"
    measure "$fvgen" "${args[@]}" -o "$file"
    write_s=$(echo "$stdout_text" | awk '/^  write/ {print $2}')
    mb=$(echo "$stdout_text" | awk '/^  write/ {gsub(/[()]/, "", $5); print $5}')
    rm -f "$file"
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo "$family,$cells,$size,$ncells,$nnodes,$gen_s,$gen_cpu,$gen_rss,$write_s,$mb,$rss_mb,$machine load=$load" | tee -a "$csv"
  done
done
