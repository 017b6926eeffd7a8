#!/usr/bin/env bash
# Generates a structured C-grid (quadrilaterals, 2D) around the NASA TMR NACA 0012 (sharp trailing
# edge, chord 1) for the TMR validation case (SA, M 0.15, Re 6 million, alpha 10 deg), with gmsh
# from bench/naca0012_cgrid.geo. Refinement K gives (224 K + 1) x (64 K + 1) nodes like the TMR
# grid family: K = 1: 225 x 65 (14,336 cells, spacings of the TMR/SU2 225 x 65 grid), K = 2:
# 449 x 129 (57,344), K = 4: 897 x 257. Wall spacing 3.66e-6 / K, far field 500 chords.
# Patches airfoil and farfield (C-shaped boundary and outflow plane); fvprep extrudes the 2D
# mesh and names the two new sides `symmetry`.
# With --hybrid, a hybrid mesh for laminar cases instead (bench/naca0012_hybrid.geo: a layer of
# quadrilaterals on the airfoil, triangles out to 30 chords; K = 1: 30,484 cells, K = 2:
# 118,698), written as OUT_DIR/naca0012_hybrid_rK.msh, with the same patch names.
#
#   bench/naca0012_cgrid.sh OUT_DIR [--refine K] [--hybrid]   e.g. bench/naca0012_cgrid.sh /tmp/naca --refine 2
#   fvprep OUT_DIR/naca0012_cgrid_r2.msh --extrude 1 --walls airfoil -o naca.zones.h5
#
# Environment: GMSH (default gmsh), FORMAT (msh41 | msh22, default msh41), BINARY (1, default,
# or 0), FVPREP (default build/cpu/prep/fvprep: `fvprep info` counts the cells and checks the
# mesh; skipped if absent), GEO_ARGS (more gmsh arguments, e.g. "-setnumber R 1000"). Writes
# OUT_DIR/naca0012_cgrid_rK.msh and OUT_DIR/naca0012_cgrid_rK_gmsh.log. K = 2: under a second.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -lt 1 ] && exit 2 || exit 0
fi
out=$1
shift
refine=1
kind=cgrid
while [ $# -gt 0 ]; do
  case "$1" in
  --refine) refine=${2:-}; shift 2 ;;
  --hybrid) kind=hybrid; shift ;;
  *) echo "naca0012_cgrid.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$refine" in
'' | *[!0-9]* | 0) echo "naca0012_cgrid.sh: --refine needs a positive integer, got '$refine'" >&2; exit 2 ;;
esac
gmsh=${GMSH:-gmsh}
fvprep=${FVPREP:-$root/build/cpu/prep/fvprep}
command -v "$gmsh" >/dev/null || { echo "naca0012_cgrid.sh: $gmsh not found (apt-get install gmsh)" >&2; exit 2; }

mkdir -p "$out"
msh=$out/naca0012_${kind}_r$refine.msh
log=$out/naca0012_${kind}_r${refine}_gmsh.log
bin=()
[ "${BINARY:-1}" = 1 ] && bin=(-bin)
# shellcheck disable=SC2086  # GEO_ARGS is a list of words
"$gmsh" "$here/naca0012_$kind.geo" -2 -setnumber refine "$refine" ${GEO_ARGS:-} \
  -format "${FORMAT:-msh41}" "${bin[@]}" -o "$msh" >"$log" 2>&1 ||
  { tail -20 "$log" >&2; echo "naca0012_cgrid.sh: gmsh failed (log: $log)" >&2; exit 1; }
if grep -E "^(Warning|Error)" "$log" >&2; then
  echo "naca0012_cgrid.sh: gmsh reported problems (log: $log)" >&2
  exit 1
fi
grep "^naca0012_cgrid:" "$log" || true
echo "naca0012_cgrid.sh: wrote $msh"

# Count the cells (and validate the mesh) with fvprep if it is built.
if [ -x "$fvprep" ]; then
  "$fvprep" info "$msh" --extrude 1 | grep -E "^(cells|  hexahedron|  prism|  [a-z]+ +[A-Za-z]+ +[0-9]+ faces|volume)"
else
  echo "naca0012_cgrid.sh: $fvprep not built; cells: $(grep -oE '[0-9]+ quads' "$log")"
fi
