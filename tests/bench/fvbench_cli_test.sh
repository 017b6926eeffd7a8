#!/usr/bin/env bash
# fvbench end to end on the CPU backend (a 20k-cell shuffled tetrahedral channel, two runs):
# every section of the table is there (ceilings, kernels with the fused flux_sum_rk_stage, the
# node-interpolation layouts, the residual-assembly variants, the whole stage fused, unfused and
# in mixed precision); every layout computes the solver's node values bit for bit; the
# deterministic assemblies give gather's residual bit for bit and the others within 1e-12; the
# CSV holds every row with the second run's median; --batched's batches equal the sequential
# passes bit for bit; --batched-model prints its three tables.
#   fvbench_cli_test.sh FVGEN FVPREP FVBENCH WORK_DIR
set -euo pipefail
fvgen=$1 fvprep=$2 fvbench=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "fvbench_cli_test: $*" >&2; exit 1; }
"$fvgen" channel --cells tet --target 20k --shuffle --seed 1 -o "$work/c.cgns" -q
"$fvprep" "$work/c.cgns" -o "$work/c.zones.h5" -q >/dev/null
"$fvbench" "$work/c.zones.h5" --device cpu --repeats 2 --warmup 1 --runs 2 --ceiling-mib 8 \
  --csv "$work/rows.csv" --label smoke >"$work/table.txt"
t=$work/table.txt
for row in "ceiling stream_triad" "kernel  interpolate_to_nodes" "kernel  gradient_and_limiter" \
  "kernel  interior_fluxes" "kernel  flux_sum " "kernel  rk_stage " "kernel  flux_sum_rk_stage" \
  "layout  interpolate_to_nodes    sliced_padded_in" "variant residual_assembly       smem" \
  "stage   rk_stage_total          gather" "stage   rk_stage_total_unfused  gather" \
  "stage   rk_stage_total_mixed    gather"; do
  grep -q "^$row" "$t" || fail "no row '$row' in the table:"$'\n'"$(cat "$t")"
done
# layouts: the same sums in the same order as the solver's kernel
layouts=$(grep -c "^layout  interpolate_to_nodes" "$t")
[ "$layouts" -ge 4 ] || fail "$layouts node-interpolation layouts"
[ "$(grep "^layout  interpolate_to_nodes" "$t" | grep -c "max |diff| to the solver's kernel 0.0e+00")" = "$layouts" ] ||
  fail "a layout differs from the solver's kernel:"$'\n'"$(grep "^layout" "$t")"
# assemblies: gather and smem bitwise, the atomics and colourings to rounding
grep "^variant residual_assembly" "$t" | python3 -c '
import re, sys
rows = sys.stdin.read().splitlines()
assert len(rows) == 6, rows
for r in rows:
    name = r.split()[2]
    d = float(re.search(r"max rel. diff to gather ([-+0-9.e]+)", r).group(1))
    limit = 0.0 if name in ("gather", "smem") else 1e-12
    assert d <= limit, f"{name}: max rel. diff {d} > {limit}"
' || fail "residual assemblies disagree with gather"
# the CSV: every row of the table, with the second run's median
rows=$(grep -cE "^(ceiling|kernel|layout|variant|stage) +[a-z_]" "$t")
csv=$(($(wc -l <"$work/rows.csv") - 1))
[ "$csv" = "$rows" ] || fail "CSV has $csv rows, the table $rows"
[ "$(grep -c ',"smoke",.*,2,[0-9.e+-]*,[0-9.e+-]*,\(yes\|no\)$' "$work/rows.csv")" = "$rows" ] ||
  fail "CSV rows without the label or the second run"
# batched conditions: K states in one pass equal K solver passes bit for bit
"$fvbench" "$work/c.zones.h5" --device cpu --repeats 1 --warmup 0 --ceiling-mib 8 --batched 1,4 \
  >"$work/batched.txt"
b=$work/batched.txt
batched=$(grep -cE "^batched (flux_sum|green_gauss_gradient) +(batched|batched_cell|outer) " "$b")
[ "$batched" = 10 ] || fail "$batched batched rows, not 10:"$'\n'"$(cat "$b")"
[ "$(grep -E "^batched .* (batched|batched_cell|outer) " "$b" | grep -c "bitwise equal to seq")" = 10 ] ||
  fail "a batch differs from the sequential passes:"$'\n'"$(grep "^batched" "$b")"
"$fvbench" --batched-model "$work/c.zones.h5" >"$work/model.txt"
[ "$(grep -c "^newton per GMRES it. *total" "$work/model.txt")" = 3 ] ||
  fail "the batched model lacks a table:"$'\n'"$(cat "$work/model.txt")"
echo "fvbench_cli_test: ok ($rows rows, $layouts layouts, $batched batched rows)"
