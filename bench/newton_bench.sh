#!/usr/bin/env bash
# Steady convergence benchmark (issue 13): iterations, wall time and orders of residual drop to
# a 10-order drop for Newton-Krylov (fvrun's defaults: a case file with only the free stream,
# the patches and the iteration count) against SSP-RK3 and LU-SGS, on
#   naca  SU2's inv_NACA0012 mesh (10216 triangles, extruded: fvprep --extrude 1), Euler,
#         M 0.8, AoA 1.25 (SU2 on the same mesh: CL 0.3348, CD 0.0222);
#   wing  the ONERA M6-like wing of bench/wing_mesh.sh (about 730k tetrahedra), M 0.84, AoA 3;
#   bump  the 1M-cell transonic channel bump of the LU-SGS benchmark (256x128x32 hexahedra,
#         M 0.8, 3 % bump).
# Each case runs on 1 zone and, for naca and wing, on ZONES (default "2 4") zones (mpirun, one
# rank per zone; on one GPU the ranks share it: the iteration counts are the measure there).
# Writes bench/results/newton_<device>_<tag>.csv (one row per run) and prints the table.
#
#   bench/newton_bench.sh [--bin DIR] [--device cpu|cuda] [--cases "naca wing bump"]
#                         [--schemes "newton lusgs rk3"] [--work DIR] [--tag TAG]
# Environment: NACA_MESH (default ../shared/meshes/su2/naca0012_inv_su2.su2), WING_MESH (a
# wing.msh of bench/wing_mesh.sh; made with gmsh when absent), NEWTON_KEYS (extra [time] lines
# for the newton scheme, e.g. "newton_block_cells = 1024"), ZONES, MAXIT (newton, default
# 300), RKMAXIT (default 3000), LUSGSMAXIT (default 1500), FVRUN_ARGS, OMP_NUM_THREADS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/channel_patches.sh"
bin="" device=cpu cases="naca wing bump" schemes="newton lusgs rk3" work="" tag=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --schemes) schemes=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --tag) tag=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "newton_bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
find_bin() {
  for d in "$bin" "$bin/prep" "$bin/runtime" "$root/build/cpu/prep" "$root/build/cpu/runtime" \
           "$root/build/prep" "$root/build/runtime"; do
    [[ -n "$d" && -x "$d/$1" ]] && { echo "$d/$1"; return; }
  done
  command -v "$1" || { echo "newton_bench.sh: $1 not found (use --bin)" >&2; exit 2; }
}
fvgen=$(find_bin fvgen) fvprep=$(find_bin fvprep) fvrun=$(find_bin fvrun)
work=${work:-$(mktemp -d -t newton_bench.XXXXXX)}
mkdir -p "$work" "$here/results"
zones=${ZONES:-2 4}
tag=${tag:-$(date -u +%Y%m%d)}
csv="$here/results/newton_${device}_${tag}.csv"
echo "case,zones,cells,device,scheme,iterations,converged,orders,wall_s,ms_per_iteration,ns_per_cell_iteration,linear_iterations,CL,CD" >"$csv"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# ---- meshes and case files: free stream and patches only (plus reference values)
prepare() { # case parts -> zone file (fvprep's messages in prep_<case>_<parts>.log)
  local c=$1 p=$2 z="$work/$1.p$2.zones.h5"
  [[ -f "$z" ]] || case "$c" in
    naca) "$fvprep" "${NACA_MESH:-$root/../shared/meshes/su2/naca0012_inv_su2.su2}" --extrude 1 \
            --parts "$p" -o "$z" >"$work/prep_${c}_$p.log" 2>&1 ;;
    wing) local m=${WING_MESH:-$work/wing/wing.msh}
          [[ -f "$m" ]] || "$here/wing_mesh.sh" "$work/wing" >/dev/null
          "$fvprep" "$m" --parts "$p" -o "$z" >"$work/prep_${c}_$p.log" 2>&1 ;;
    bump) [[ -f "$work/bump.cgns" ]] || "$fvgen" channel --cells hex --n 256,128,32 \
            --extent 3,1,0.25 --bump-height 0.03 -o "$work/bump.cgns" >/dev/null
          "$fvprep" "$work/bump.cgns" --parts "$p" -o "$z" >"$work/prep_${c}_$p.log" 2>&1 ;;
  esac
  echo "$z"
}
case_file() { # case -> the sections every scheme shares
  case "$1" in
    naca) printf '[freestream]\nmach = 0.8\naoa = 1.25\nlift_axis = y\n[patch airfoil]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n' ;;
    wing) printf '[freestream]\nmach = 0.84\naoa = 3\n[monitor]\nreference_area = 0.75296\nreference_length = 0.64607\n[patch wing]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n' ;;
    bump) printf '[freestream]\nnondimensional = true\nmach = 0.8\nlift_axis = y\n'; channel_patches farfield farfield ;;
  esac
}
scheme_keys() { # scheme -> [time] keys ([time] is appended to the case file)
  case "$1" in
    newton) echo "iterations = ${MAXIT:-300}"
            if [[ -n ${NEWTON_KEYS:-} ]]; then printf '%b\n' "$NEWTON_KEYS"; fi ;;
    rk3) printf 'integrator = ssprk3\ncfl = 1.5\niterations = %s\n' "${RKMAXIT:-3000}" ;;
    lusgs) printf 'integrator = lusgs\nlusgs_ordering = hyperplane\nlusgs_dissipation = roe\nlusgs_sweeps = 4\ncfl_start = 5\ncfl = 1000\ncfl_ramp_iterations = 30\niterations = %s\n' "${LUSGSMAXIT:-1500}" ;;
  esac
}

printf "%-6s %5s %9s %-7s %10s %6s %10s %10s %12s %8s %9s %9s\n" case zones cells scheme \
  iterations orders "wall s" "ms/iter" "ns/cell/it" "lin its" CL CD
for c in $cases; do
  for p in 1 $( [[ $c == bump ]] || echo "$zones"); do
    z=$(prepare "$c" "$p")
    for s in $schemes; do
      [[ $p != 1 && $s != newton ]] && continue # zone counts: the Newton iteration counts
      dir="$work/$c.p$p.$s"
      mkdir -p "$dir"
      { case_file "$c"; printf '[time]\nconvergence = 10\n'; scheme_keys "$s"
        printf '[monitor]\noutput_interval = 10\nwrite_solution = false\noutput_dir = %s\n[run]\ndevice = %s\n' "$dir/out" "$device"; } >"$dir/case.ini"
      launch=()
      [[ $p -gt 1 ]] && launch=(mpirun -np "$p")
      if ! "${launch[@]}" "$fvrun" "$z" -c "$dir/case.ini" ${FVRUN_ARGS:-} >"$dir/fvrun.log" 2>&1; then
        echo "newton_bench.sh: $c/$p/$s failed, see $dir/fvrun.log" >&2
        tail -3 "$dir/fvrun.log" >&2
        continue
      fi
      cells=$(grep -m1 -o 'fvrun: [0-9]* cells' "$dir/fvrun.log" | awk '{print $2}')
      # history.csv: iteration,...,res_rho(4),...,res_rhoE(8),...,CL(11),CD(12),...,cfl(17),
      # linear_its(18),wall_s(19)
      read -r it orders conv wall lin cl cd < <(grep -v '^#' "$dir/out/history.csv" | awk -F, '
        NR > 1 { lin += $18; last = $0; it = $1; r = ($4 > $8 ? $4 : $8); w = $19; cl = $11; cd = $12 }
        END { printf "%d %.2f %s %.3f %d %.6f %.6f\n", it, -r, (-r >= 10 ? "yes" : "no"), w, lin, cl, cd }')
      ms=$(awk -v w="$wall" -v i="$it" 'BEGIN { printf "%.3f", 1000 * w / i }')
      ns=$(awk -v w="$wall" -v i="$it" -v n="$cells" 'BEGIN { printf "%.1f", 1e9 * w / i / n }')
      printf "%-6s %5s %9s %-7s %10s %6s %10s %10s %12s %8s %9s %9s\n" "$c" "$p" "$cells" "$s" \
        "$it" "$orders" "$wall" "$ms" "$ns" "$lin" "$cl" "$cd"
      echo "$c,$p,$cells,$device,$s,$it,$conv,$orders,$wall,$ms,$ns,$lin,$cl,$cd" >>"$csv"
    done
  done
done
echo "# CSV: $csv (work dir $work)"
