#!/usr/bin/env bash
# fvprep cost in one call: time and peak RSS (/usr/bin/time -v) of `fvprep MESH --parts P` on
# generated shuffled channel meshes of tetrahedra and hexahedra, and the comparison with
# OpenFOAM's renumberMesh (RCM) + decomposePar (metis) on the same 1M-cell hex box
# (fvgen box --n 100,100,100 = blockMesh 100^3) and a ~0.92M-cell tet box.
#
#   bench/prep.sh [--cpu] [--out DIR] [--no-build] [SIZES...]
#       default sizes 1M 10M 50M; --cpu: 1M only and -j2 build (shared 2-core machine)
#       --run-peer: also run OpenFOAM (/work/shared/peers/openfoam/run_peer.sh, stages
#                   install plugins mesh prep table) when the 1-min load is < 1 -- heavy.
#
# Environment: BUILD (default build-bench-cpu), JOBS, PARTS (default "1 8 64"; the peer
# comparison uses 2 8 64), CELLS (default "tet hex"), PEER_RESULTS (recorded OpenFOAM run,
# default /work/shared/peers/openfoam/results-2026-11-21.txt), MESHES (scratch, default
# OUT/meshes), GENERATED (1; 0 skips the generated channel sizes), PEER_TET_MESH (a Gmsh/CGNS
# file used as the tet peer mesh instead of fvgen's 54^3 box, e.g. the very box.msh that
# run_peer.sh made for OpenFOAM: bench/peer_live.sh passes it), PEER_HEX_N (hex box sizes N,
# default 100), PEER_TET (0: no tet peer mesh), PEER_PARTS (default 2 8 64). Writes OUT/prep.tsv (one row
# per fvprep run) and OUT/prep.md (tables).
set -euo pipefail
cd "$(dirname "$0")/.."

cpu=0
build=1
peer=0
out=${TMPDIR:-/tmp}/fvkit-bench
sizes=()
while [ $# -gt 0 ]; do
  case "$1" in
  --cpu) cpu=1 ;;
  --no-build) build=0 ;;
  --run-peer) peer=1 ;;
  --out) out=$2; shift ;;
  -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "prep.sh: unknown option $1" >&2; exit 2 ;;
  *) sizes+=("$1") ;;
  esac
  shift
done
if [ $cpu = 1 ]; then
  [ ${#sizes[@]} -eq 0 ] && sizes=(1M)
  jobs=${JOBS:-2}
else
  [ ${#sizes[@]} -eq 0 ] && sizes=(1M 10M 50M)
  jobs=${JOBS:-$(nproc)}
fi
bdir=${BUILD:-build-bench-cpu}
parts=${PARTS:-"1 8 64"}
cells_list=${CELLS:-"tet hex"}
peer_results=${PEER_RESULTS:-/work/shared/peers/openfoam/results-2026-11-21.txt}
mkdir -p "$out"
out=$(cd "$out" && pwd)
meshes=${MESHES:-$out/meshes}
mkdir -p "$meshes"
tsv=$out/prep.tsv
log() { echo "[prep.sh $(date -u +%H:%M:%S)] $*" >&2; }

if [ $build = 1 ]; then
  log "building fvgen fvprep in $bdir (-j$jobs)"
  cmake -S . -B "$bdir" -DFV_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Release -DFV_BUILD_TESTS=OFF \
    >"$out/prep-configure.log" 2>&1 || { tail -30 "$out/prep-configure.log" >&2; exit 1; }
  cmake --build "$bdir" -j"$jobs" --target fvgen fvprep >"$out/prep-build.log" 2>&1 ||
    { tail -40 "$out/prep-build.log" >&2; exit 1; }
fi
fvgen=$bdir/prep/fvgen
fvprep=$bdir/prep/fvprep
[ -x "$fvprep" ] && [ -x "$fvgen" ] || { echo "prep.sh: fvgen/fvprep missing in $bdir" >&2; exit 2; }

[ -s "$tsv" ] || printf 'date\tmesh\tcells\tparts\twall_s\tpeak_rss_mib\tbytes_per_cell\tnproc\tload1\tcpu_s\n' >"$tsv"

# time_prep NAME MESH PARTS: one fvprep run, appended to prep.tsv
time_prep() {
  local name=$1 mesh=$2 p=$3 tv=$out/.time-v.txt load cells
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -v -o "$tv" "$fvprep" "$mesh" --parts "$p" -o "$meshes/$name.p$p.zones.h5" -q
  cells=$("$fvprep" info "$meshes/$name.p$p.zones.h5" --json 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("cells", d.get("nGlobalCells", 0)))' 2>/dev/null || echo 0)
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$tv")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$tv")
  local cpus
  cpus=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$tv")
  local bpc=0
  [ "$cells" != 0 ] && bpc=$(awk -v r="$rss" -v c="$cells" 'BEGIN {printf "%.0f", r*1048576/c}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$cells" "$p" \
    "$wall" "$rss" "$bpc" "$(nproc)" "$load" "$cpus" >>"$tsv"
  log "fvprep $name --parts $p: ${wall} s (${cpus} s CPU), ${rss} MiB peak RSS ($cells cells, load $load)"
  rm -f "$meshes/$name.p$p.zones.h5"
}

# ---- generated channel meshes
[ "${GENERATED:-1}" = 0 ] && sizes=()
for size in "${sizes[@]}"; do
  for cells in $cells_list; do
    name=channel_${cells}_${size}
    mesh=$meshes/$name.cgns
    [ -e "$mesh" ] || "$fvgen" channel --cells "$cells" --target "$size" --shuffle --seed 1 \
      --perturb 0.1 -o "$mesh" -q
    for p in $parts; do time_prep "$name" "$mesh" "$p"; done
    rm -f "$mesh"
  done
done

# ---- the OpenFOAM peer meshes: hexN (blockMesh N^3 unit box, PEER_HEX_N, default 100) and a
# tet box (~0.92M from fvgen, or PEER_TET_MESH; PEER_TET=0 skips it)
for nh in ${PEER_HEX_N:-100}; do
  "$fvgen" box --cells hex --n "$nh,$nh,$nh" -o "$meshes/peer_hex$nh.cgns" -q
  for p in ${PEER_PARTS:-2 8 64}; do time_prep "peer_hex$nh" "$meshes/peer_hex$nh.cgns" "$p"; done
  rm -f "$meshes/peer_hex$nh.cgns"
done
if [ "${PEER_TET:-1}" != 0 ]; then
  tet_mesh=${PEER_TET_MESH:-$meshes/peer_tet.cgns}
  [ -n "${PEER_TET_MESH:-}" ] || "$fvgen" box --cells tet --n 54,54,54 -o "$tet_mesh" -q
  for p in ${PEER_PARTS:-2 8 64}; do time_prep peer_tet "$tet_mesh" "$p"; done
  rm -f "$meshes/peer_tet.cgns"
fi

if [ $peer = 1 ]; then
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" 'BEGIN {exit !(l < 1)}'; then
    log "running OpenFOAM (run_peer.sh) -- heavy"
    OUT=$out/of_peer SIZES=100 NPARTS="2 8 64" METHODS=metis \
      bash /work/shared/peers/openfoam/run_peer.sh install plugins mesh prep table \
      >"$out/of_peer.log" 2>&1 || log "run_peer.sh failed, see $out/of_peer.log"
    [ -s "$out/of_peer.log" ] && peer_results=$out/of_peer.log
  else
    log "not running OpenFOAM: load $load >= 1; comparing with the recorded run $peer_results"
  fi
fi

python3 bench/prep_compare.py "$tsv" "$peer_results" >"$out/prep.md"
cat "$out/prep.md"
