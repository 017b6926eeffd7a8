#!/usr/bin/env bash
# Generates the transonic wing test mesh (steady Euler, M 0.84, AoA 3 deg): an ONERA M6-like
# wing (M6 planform, NACA 0010 section with a sharp trailing edge, flat tip) in a half-sphere
# far field of radius 12 m (15 root chords), tetrahedra refined on the wing and more on its
# leading/trailing edges and tip, graded outwards (bench/wing_mesh.geo; Gmsh >= 4.8 with
# OpenCASCADE, e.g. Debian 12's gmsh 4.8.4). Patches wing, farfield, symmetry (y = 0).
#
#   bench/wing_mesh.sh OUT_DIR [--cells N] [--scale S]    e.g. bench/wing_mesh.sh /tmp/wing --cells 80k
#       --cells  approximate tetrahedra, k/M suffixes allowed (default 730k, i.e. scale 1)
#       --scale  multiplies every mesh size (tets ~ scale^-2.8); overrides --cells
#
# Environment: WING_SCALE (as --scale), GMSH (default gmsh), THREADS (gmsh -nt, default 1: the
# mesh is then reproducible, and 3D Delaunay is serial anyway), ALGO3D (1 Delaunay, default;
# 10 HXT: about 25 % fewer tets at the same scale, --cells assumes Delaunay), FORMAT (msh41 |
# msh22, default msh41), BINARY (1, default, or 0), FVPREP (default build/cpu/prep/fvprep:
# `fvprep info` counts the cells and checks the mesh; skipped if absent). Writes
# OUT_DIR/wing.msh and OUT_DIR/wing_gmsh.log. Scale 1: about 730k tets, 25 s, 0.5 GB, 35 MB.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -lt 1 ] && exit 2 || exit 0
fi
out=$1
shift
cells=730k scale=${WING_SCALE:-}
while [ $# -gt 0 ]; do
  case "$1" in
  --cells) cells=$2; shift 2 ;;
  --scale) scale=$2; shift 2 ;;
  *) echo "wing_mesh.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
gmsh=${GMSH:-gmsh}
fvprep=${FVPREP:-$root/build/cpu/prep/fvprep}
command -v "$gmsh" >/dev/null || { echo "wing_mesh.sh: $gmsh not found (apt-get install gmsh)" >&2; exit 2; }

# Cells -> scale: 730k tets at scale 1, tets ~ scale^-2.8 (measured between 100k and 730k).
if [ -z "$scale" ]; then
  scale=$(echo "$cells" | awk '{n = $1 + 0; if ($1 ~ /[kK]$/) n *= 1e3; if ($1 ~ /M$/) n *= 1e6;
    if (n <= 0) exit 1; printf "%.4g", (730e3 / n) ^ (1 / 2.8)}') ||
    { echo "wing_mesh.sh: bad --cells '$cells'" >&2; exit 2; }
fi

mkdir -p "$out"
bin=()
[ "${BINARY:-1}" = 1 ] && bin=(-bin)
echo "wing_mesh.sh: meshing with scale $scale -> $out/wing.msh"
start=$(date +%s.%N)
"$gmsh" "$here/wing_mesh.geo" -3 -setnumber scale "$scale" -nt "${THREADS:-1}" \
  -setnumber algo3d "${ALGO3D:-1}" -format "${FORMAT:-msh41}" "${bin[@]}" \
  -o "$out/wing.msh" >"$out/wing_gmsh.log" 2>&1 ||
  { tail -20 "$out/wing_gmsh.log" >&2; echo "wing_mesh.sh: gmsh failed (log: $out/wing_gmsh.log)" >&2; exit 1; }
end=$(date +%s.%N)
grep -E "^(Warning|Error)" "$out/wing_gmsh.log" >&2 || true
awk -v s="$start" -v e="$end" 'BEGIN {printf "wing_mesh.sh: gmsh took %.1f s\n", e - s}'

# Count the tetrahedra (and validate the mesh) with fvprep if it is built.
if [ -x "$fvprep" ]; then
  "$fvprep" info "$out/wing.msh" | grep -E "^(cells|  tetrahedron|  [a-z]+ +UserDefined|volume|warnings)"
else
  echo "wing_mesh.sh: $fvprep not built; gmsh: $(grep -E '^Info +: [0-9]+ nodes' "$out/wing_gmsh.log" | tail -1)"
fi
