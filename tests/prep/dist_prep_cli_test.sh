#!/usr/bin/env bash
# `mpiexec -n N fvprep` end to end (issue 17), driven by CTest (tests/prep/CMakeLists.txt):
#   - a generated mixed-cell channel prepared serially and on 2 and 3 processes (PT-Scotch, and
#     METIS on the first process) gives the same mesh UUID, and every file passes `fvprep check`;
#   - a 2D mesh's extrusion is in the header of the serial and the distributed prepare's file;
#   - a corrupt mesh (a cell naming a node the file lacks) fails on every process with exit code
#     1, one error line from the first process only, and no zone file or temporary left behind.
#   dist_prep_cli_test.sh FVGEN FVPREP WORK_DIR
set -euo pipefail
FVGEN=$1 FVPREP=$2 work=$3
MPIEXEC=${MPIEXEC:-mpiexec}
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
uuid() { "$FVPREP" info "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["meshUuid"])'; }

"$FVGEN" channel --cells mixed --n 16,8,4 --shuffle --perturb 0.2 -o mesh.cgns -q
"$FVPREP" mesh.cgns --parts 5 -o serial.zones.h5 -q
ref=$(uuid serial.zones.h5)
for np in 2 3; do
  for who in ptscotch metis; do
    out=np$np.$who.zones.h5
    "$MPIEXEC" -n $np --oversubscribe "$FVPREP" mesh.cgns --parts 5 --partitioner $who -o $out -q
    [ "$(uuid $out)" = "$ref" ] || fail "$out: mesh UUID $(uuid $out), serial $ref"
    "$FVPREP" check $out >/dev/null || fail "$out: fvprep check failed"
    echo "np $np $who: UUID $ref, check OK"
  done
done

# A 2D mesh (two triangles) extruded by 0.5: the distributed prepare's header records the
# extrusion as the serial one does (fvrun's 2D reference area and lift axis come from it).
printf 'NDIME= 2\nNELEM= 2\n5 0 1 2 0\n5 0 2 3 1\nNPOIN= 4\n0 0 0\n2 0 1\n2 1 2\n0 1 3\n%s\n' \
  'NMARK= 1
MARKER_TAG= wall
MARKER_ELEMS= 4
3 0 1
3 1 2
3 2 3
3 3 0' > flat.su2
extrusion() { "$FVPREP" info "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["extrusion"])'; }
"$FVPREP" flat.su2 --extrude 0.5 --parts 2 -o flat.serial.zones.h5 -q
"$MPIEXEC" -n 2 --oversubscribe "$FVPREP" flat.su2 --extrude 0.5 --parts 2 -o flat.np2.zones.h5 -q
want="{'thickness': 0.5, 'direction': [0, 0, 1]}"
for f in flat.serial.zones.h5 flat.np2.zones.h5; do
  [ "$(extrusion $f)" = "$want" ] || fail "$f: extrusion $(extrusion $f), expected $want"
done
echo "2D mesh: serial and np 2 record the extrusion $want"

# Corrupt meshes from the SU2 writer's file: a cell naming a node out of range (the reader,
# on every process, finds it) and an inverted cell (two nodes swapped: found by the process
# whose cells hold it, after the distributed face matching).
"$FVGEN" box --cells tet --n 4,3,2 -o good.su2 -q
awk 'BEGIN{done=0} /^NELEM=/{inelem=1; print; next}
     inelem && !done && NF>=5 {$2=999999; done=1} {print}' good.su2 > bad_node.su2
awk 'BEGIN{done=0} /^NELEM=/{inelem=1; print; next}
     inelem && !done && NF>=5 {t=$2; $2=$3; $3=t; done=1} {print}' good.su2 > bad_inverted.su2
for bad in bad_node bad_inverted; do
serialMsg=$("$FVPREP" $bad.su2 --parts 3 -o bad.zones.h5 2>&1 >/dev/null) && fail "serial fvprep accepted $bad.su2"
for np in 2 3; do
  rm -f status.*
  set +e
  "$MPIEXEC" -n $np --oversubscribe sh -c \
    "\"$FVPREP\" $bad.su2 --parts 3 -o bad.zones.h5 -q 2>err.\$OMPI_COMM_WORLD_RANK; echo \$? > status.\$OMPI_COMM_WORLD_RANK"
  set -e
  for r in $(seq 0 $((np - 1))); do
    [ "$(cat status.$r)" = 1 ] || fail "np $np: rank $r exited with $(cat status.$r), expected 1"
  done
  [ "$(cat err.0)" = "$serialMsg" ] || fail "np $np: rank 0 said '$(cat err.0)', serial '$serialMsg'"
  for r in $(seq 1 $((np - 1))); do
    [ ! -s err.$r ] || fail "np $np: rank $r printed '$(cat err.$r)'"
  done
  if ls | grep -q "bad.zones"; then fail "np $np: a zone file or temporary was left: $(ls)"; fi
  echo "np $np: every rank exits 1, one line: $serialMsg"
done
done
