#!/usr/bin/env bash
# fvkit against its peer OpenFOAM v1912 (Debian 12 package), both run LIVE on this machine in
# one call, on the same meshes and the same cores (issue 9):
#   1. OpenFOAM through /work/shared/peers/openfoam/run_peer.sh (stages install plugins mesh prep
#      solver table; it waits for a quiet machine before every timed command and records the
#      other load): blockMesh 100^3 hex box, gmsh tet box (TET_H), renumberMesh (RCM),
#      decomposePar metis into 2/8/64 parts, rhoCentralFoam Euler 25 steps serial and on 2 ranks.
#   2. fvprep on the same meshes (bench/prep.sh): the hex box from fvgen (the same 100^3 unit box
#      as blockMesh) and the very box.msh gmsh made for OpenFOAM, --parts 2 8 64.
#   3. fvrun's CPU backend on the 100^3 box, 1 and 2 threads (bench/solver_cpu.sh).
# Prints the comparison tables and writes them to bench/results/peer_live_<host>_<date>.md.
#
#   bench/peer_live.sh [--out DIR] [--no-build]
# Environment: PEER_DIR (default /work/shared/peers/openfoam), PEER_SIZES (hex box sizes N, N^3
# cells, default 100), TET_H (0.018; 0: no tet box), SOLVER (1; 0: preparation only), NSTEPS
# (25), QUIET_WAIT (s run_peer.sh waits for a quiet machine, default 600), BUILD, JOBS.
# Heavy: ~15-25 min on a 2-core machine when OpenFOAM is already installed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${TMPDIR:-/tmp}/fvkit-peer
nobuild=()
while [ $# -gt 0 ]; do
  case "$1" in
  --out) out=$2; shift ;;
  --no-build) nobuild=(--no-build) ;;
  -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "peer_live.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
peer=${PEER_DIR:-/work/shared/peers/openfoam}
[ -x "$peer/run_peer.sh" ] || [ -f "$peer/run_peer.sh" ] ||
  { echo "peer_live.sh: $peer/run_peer.sh not found (set PEER_DIR)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
log() { echo "[peer_live.sh $(date -u +%H:%M:%S)] $*" >&2; }

export PEER_LIVE=1 # the comparison tables say the peer ran live
log "OpenFOAM (run_peer.sh) into $out/of_peer"
sizes=${PEER_SIZES:-100}
tet_h=${TET_H:-0.018}
solver=${SOLVER:-1}
stages=(install plugins mesh prep)
[ "$solver" = 1 ] && stages+=(solver)
OUT=$out/of_peer SIZES=$sizes TET_H=$tet_h NPARTS="2 8 64" METHODS=metis \
  NSTEPS=${NSTEPS:-25} SOLVER_N=100 QUIET_WAIT=${QUIET_WAIT:-600} \
  bash "$peer/run_peer.sh" "${stages[@]}" table >"$out/of_peer.log" 2>&1 ||
  { tail -30 "$out/of_peer.log" >&2; echo "peer_live.sh: run_peer.sh failed" >&2; exit 1; }
table=$out/of_peer/table.txt
sed -n '/^=== stage table/,$p' "$out/of_peer.log" >"$table"
[ -s "$table" ] || cp "$out/of_peer.log" "$table"

log "fvprep on the same meshes"
tet_env=(PEER_TET=0)
[ "$tet_h" != 0 ] && tet_env=(PEER_TET_MESH="$out/of_peer/cases/tet/box.msh")
env GENERATED=0 PEER_HEX_N="$sizes" "${tet_env[@]}" PEER_RESULTS="$table" \
  bash bench/prep.sh --cpu "${nobuild[@]}" --out "$out/prep" >"$out/prep.log" 2>&1 ||
  { tail -30 "$out/prep.log" >&2; exit 1; }
if [ "$solver" = 1 ]; then
  log "fvrun CPU backend vs rhoCentralFoam"
  PEER_RESULTS=$table bash bench/solver_cpu.sh "${nobuild[@]}" --out "$out/solver" \
    >"$out/solver.log" 2>&1 || { tail -30 "$out/solver.log" >&2; exit 1; }
fi

res=bench/results/peer_live_$(hostname -s)_$(date -u +%Y%m%d)${PEER_TAG:+_$PEER_TAG}.md
{
  echo "# fvkit vs OpenFOAM v1912, both run live on $(hostname -s) ($(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)), $(date -u +%F)"
  echo
  cat "$out/prep/prep.md"
  echo
  [ "$solver" = 1 ] && cat "$out/solver/solver_cpu.md"
  echo
  echo '### OpenFOAM stage table (this run)'
  echo '```'
  cat "$table"
  echo '```'
} >"$res"
cat "$res"
log "written $res"
