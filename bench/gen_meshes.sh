#!/usr/bin/env bash
# Generates the benchmark meshes: 1M, 10M and 50M cells of tetrahedra and of hexahedra,
# shuffled (cells and nodes in random order, as in real meshes) and slightly perturbed.
#
#   bench/gen_meshes.sh OUT_DIR [SIZES...]       e.g. bench/gen_meshes.sh /data/meshes 1M 10M
#
# Environment: FVGEN (default build/prep/fvgen), FAMILY (channel | box | wedge, default
# channel), FORMAT (cgns | su2, default cgns), SEED (default 1), PERTURB (default 0.1).
# Files are named <family>_<cells>_<size>.<format>, e.g. channel_tet_10M.cgns; existing files
# are kept (delete them to regenerate). Needs about 65 (hex) / 27 (tet) bytes of memory and
# writes about 57 (hex) / 21 (tet) bytes of CGNS per cell: 50M hexahedra = 3.3 GB RAM, 2.9 GB.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -lt 1 ] && exit 2 || exit 0
fi
out=$1
shift
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1M 10M 50M)
fvgen=${FVGEN:-build/prep/fvgen}
family=${FAMILY:-channel}
format=${FORMAT:-cgns}
seed=${SEED:-1}
perturb=${PERTURB:-0.1}

[ -x "$fvgen" ] || { echo "gen_meshes.sh: $fvgen not found; build it: cmake --build build --target fvgen" >&2; exit 2; }
mkdir -p "$out"
for size in "${sizes[@]}"; do
  for cells in tet hex; do
    file="$out/${family}_${cells}_${size}.${format}"
    if [ -e "$file" ]; then
      echo "gen_meshes.sh: keeping $file"
      continue
    fi
    "$fvgen" "$family" --cells "$cells" --target "$size" --shuffle --seed "$seed" \
      --perturb "$perturb" -o "$file"
  done
done
