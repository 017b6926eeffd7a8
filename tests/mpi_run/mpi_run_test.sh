#!/usr/bin/env bash
# End-to-end tests of fvrun on several MPI ranks (one zone per rank), driven by CTest
# (tests/mpi_run/CMakeLists.txt). Every run is the real toolchain: fvgen / a shared mesh ->
# fvprep --parts N -> mpiexec -n N fvrun. Runs on 1, 2 and 4 ranks must agree to RTOL
# (relative; summation order is the only difference), checked by compare_runs on history.csv
# (17 significant digits) and on solution.h5 (global cell order).
#
#   mpi_run_test.sh MODE BIN_DIR WORK_DIR [SHARED_DIR]
#   MODE: channel | brick | restart | failure
# FVRUN_EXTRA: more fvrun arguments for every run, e.g. on a GPU machine
#   FVRUN_EXTRA="--device cuda --set run.transport=cuda_ipc" (bench/device_transport.sh).
# Exit 0 pass, 1 fail, 77 skip (shared mesh absent).
set -euo pipefail
mode=$1 bin=$2 work=$3 shared=${4:-}
FVGEN=$bin/fvgen FVPREP=$bin/fvprep FVRUN=$bin/fvrun COMPARE=$bin/compare_runs
MPIEXEC=${MPIEXEC:-mpiexec}
RTOL=${RTOL:-1e-12}
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work" && cd "$work"

run() { # run NP ZONES CASE OUTDIR ARGS...
  local np=$1 zones=$2 case=$3 out=$4
  shift 4
  local quiet=-q # -v (the FVRUN_TIMING line) instead when asked for
  [[ " $* " == *" -v "* ]] && quiet=
  # shellcheck disable=SC2086 # FVRUN_EXTRA is a word list; $quiet is one word or none
  "$MPIEXEC" -n "$np" --oversubscribe "$FVRUN" "$zones" -c "$case" --output-dir "$out" $quiet \
    ${FVRUN_EXTRA:-} "$@"
}
prep() { # prep MESH PARTS -> mesh.pN.zones.h5
  "$FVPREP" "$1" --parts "$2" -o "mesh.p$2.zones.h5" -q
}
compare_all() { # compare_all DIR_A DIR_B: history columns + final solution
  "$COMPARE" history "$1/history.csv" "$2/history.csv" "$RTOL" rms_rho rms_rhoE CL CD dt
  "$COMPARE" solution "$1/solution.h5" "$2/solution.h5" "$RTOL"
}

channel_case() {
  cat > channel.ini <<'INI'
# subsonic channel with a bump (examples/channel_bump.ini), 100 iterations
[freestream]
mach = 0.5
lift_axis = y
[scheme]
flux = roe
order = 2
limiter = venkat
[time]
integrator = ssprk3
cfl = 2.0
cfl_start = 0.5
cfl_ramp_iterations = 20
iterations = 100
convergence = 0
[monitor]
force_patches = lower_wall
reference_area = 0.5
output_interval = 50
[patch inlet]
type = subsonic_inflow
[patch outlet]
type = subsonic_outflow
[patch lower_wall]
type = slip_wall
[patch upper_wall]
type = slip_wall
[patch side1]
type = symmetry
[patch side2]
type = symmetry
INI
}

case $mode in
channel) # generated, shuffled and perturbed channel with a bump; 1, 2, 4 ranks, overlap on/off
  "$FVGEN" channel --cells hex --n 16,8,4 --shuffle --seed 3 --perturb 0.1 -o mesh.cgns -q
  channel_case
  for np in 1 2 4; do prep mesh.cgns $np; done
  run 1 mesh.p1.zones.h5 channel.ini r1
  run 2 mesh.p2.zones.h5 channel.ini r2
  run 4 mesh.p4.zones.h5 channel.ini r4
  run 4 mesh.p4.zones.h5 channel.ini r4n --no-overlap
  compare_all r1 r2
  compare_all r1 r4
  # one surface file whatever the rank count, faces in global order
  for d in r2 r4; do
    [[ $(cut -d, -f1 r1/surface_lower_wall.csv) == $(cut -d, -f1 $d/surface_lower_wall.csv) ]] ||
      { echo "FAIL: $d/surface_lower_wall.csv has other faces than r1's"; exit 1; }
  done
  # overlap changes only when work is done, not what: bitwise the same
  RTOL=1e-15 compare_all r4 r4n
  # 4 parts added to the 2-part file (fvprep partition add): fvrun on 4 ranks takes them, says
  # so, and runs as on the fresh 4-part file (the zones are the same, bitwise)
  cp mesh.p2.zones.h5 multi.zones.h5
  "$FVPREP" partition add multi.zones.h5 --parts 4 -q >/dev/null
  # shellcheck disable=SC2086 # FVRUN_EXTRA is a word list
  "$MPIEXEC" -n 4 --oversubscribe "$FVRUN" multi.zones.h5 -c channel.ini --output-dir r4a \
    ${FVRUN_EXTRA:-} >r4a.log 2>&1 || { cat r4a.log; echo "FAIL: run on the added partitioning"; exit 1; }
  grep -q "multi.zones.h5: the partitioning of 4 zones (the file holds 2, 4)" r4a.log ||
    { cat r4a.log; echo "FAIL: fvrun does not say which partitioning it runs"; exit 1; }
  RTOL=1e-15 compare_all r4 r4a
  # --comm-timing splits the time (numbers, not nan) and changes nothing else; without it the
  # split is nan (no device synchronisation around the exchanges)
  timed=$(run 2 mesh.p2.zones.h5 channel.ini r2t --comm-timing -v | grep FVRUN_TIMING)
  untimed=$(run 2 mesh.p2.zones.h5 channel.ini r2u -v | grep FVRUN_TIMING)
  grep -Eq "compute_s=[0-9.e+-]+ pack_unpack_s=[0-9.e+-]+ wait_s=[0-9.e+-]+$" <<< "$timed" ||
    { echo "FAIL: --comm-timing line: $timed"; exit 1; }
  grep -q "compute_s=nan pack_unpack_s=nan wait_s=nan" <<< "$untimed" ||
    { echo "FAIL: untimed line: $untimed"; exit 1; }
  # the FVRUN_TIMING line is a developer's: only with -v
  ! run 2 mesh.p2.zones.h5 channel.ini r2q | grep -q FVRUN_TIMING ||
    { echo "FAIL: an FVRUN_TIMING line without -v"; exit 1; }
  RTOL=1e-15 compare_all r2 r2t
  # stored face states on several ranks (the default): the faces between owned cells read two
  # stored states, the interface faces reconstruct their halo side from the exchanged gradient;
  # bitwise the fluxes of face_states = off, so the same histories and solutions
  run 2 mesh.p2.zones.h5 channel.ini r2g --set scheme.face_states=off
  run 4 mesh.p4.zones.h5 channel.ini r4g --set scheme.face_states=off
  RTOL=1e-300 compare_all r2 r2g
  RTOL=1e-300 compare_all r4 r4g
  # --profile on several ranks: rank 0's profile.csv has the two interior-face passes of the
  # overlap apart (owned faces, then interface faces once the halo arrived), 3 stages x 2
  run 2 mesh.p2.zones.h5 channel.ini r2p --profile --iterations 2 >/dev/null
  for row in "interior_state_fluxes (owned)" interface_state_fluxes; do
    grep -q "^$row,6," r2p/profile.csv ||
      { cat r2p/profile.csv; echo "FAIL: no '$row' row"; exit 1; }
  done
  run 2 mesh.p2.zones.h5 channel.ini r2q --profile --iterations 2 --set scheme.face_states=off \
    >/dev/null
  for pass in owned interface; do
    grep -q "^interior_fluxes ($pass),6," r2q/profile.csv ||
      { cat r2q/profile.csv; echo "FAIL: no 'interior_fluxes ($pass)' row"; exit 1; }
  done
  # the transport is chosen once for the job and named at start-up
  # shellcheck disable=SC2086 # FVRUN_EXTRA is a word list
  start=$("$MPIEXEC" -n 2 --oversubscribe "$FVRUN" mesh.p2.zones.h5 -c channel.ini \
    --output-dir r2s --iterations 1 ${FVRUN_EXTRA:-} 2>&1)
  grep -Eq "; transport [^,]+, overlapped" <<< "$start" ||
    { echo "FAIL: no transport in the start-up line: $start"; exit 1; }
  if [[ -z ${FVRUN_EXTRA:-} ]]; then # CPU: a device transport is one usage error on every rank
    set +e
    bad=$("$MPIEXEC" -n 2 --oversubscribe "$FVRUN" mesh.p2.zones.h5 -c channel.ini \
      --output-dir r2x --iterations 1 --set run.transport=nccl 2>&1)
    code=$?
    set -e
    [[ $code == 2 && $(grep -c "error: \[run\] transport = nccl: " <<< "$bad") == 1 ]] &&
      ! grep -q MPI_ABORT <<< "$bad" ||
      { echo "FAIL: transport = nccl on the CPU (exit $code): $bad"; exit 1; }
  fi
  ;;
brick) # shared SU2 hex brick: a pressure jump released in a closed box, global time stepping
  mesh=$shared/meshes/su2/mesh_brick_hex_ffd.su2
  if [[ ! -f $mesh ]]; then echo "SKIP: $mesh absent"; exit 77; fi
  cat > brick.ini <<'INI'
[freestream]
mach = 0.3
[scheme]
order = 2
limiter = venkat
[time]
integrator = rk2
stepping = global
cfl = 0.8
iterations = 100
[initial]
type = split
axis = x
position = 0.93
left = 1.0, 0.3, 0.1, 0.05, 1.0
right = 0.6, 0.3, 0.1, 0.05, 0.5
[monitor]
force_patches = x_p, y_m
output_interval = 50
[patch x_m]
type = slip_wall
[patch x_p]
type = slip_wall
[patch y_m]
type = slip_wall
[patch y_p]
type = slip_wall
[patch z_m]
type = slip_wall
[patch z_p]
type = slip_wall
INI
  for np in 1 2 4; do prep "$mesh" $np; done
  run 1 mesh.p1.zones.h5 brick.ini r1
  run 2 mesh.p2.zones.h5 brick.ini r2
  run 4 mesh.p4.zones.h5 brick.ini r4
  compare_all r1 r2
  compare_all r1 r4
  ;;
restart) # 20 iterations on 2 ranks + 20 on 4 ranks from the restart (--iterations 40: the
  # total) == 40 on 1 rank
  "$FVGEN" channel --cells hex --n 16,8,4 --shuffle --seed 5 --perturb 0.1 -o mesh.cgns -q
  channel_case
  for np in 1 2 4; do prep mesh.cgns $np; done
  run 1 mesh.p1.zones.h5 channel.ini r1 --iterations 40
  run 2 mesh.p2.zones.h5 channel.ini a2 --iterations 20
  run 4 mesh.p4.zones.h5 channel.ini b4 --iterations 40 --restart a2/restart.h5
  "$COMPARE" solution r1/solution.h5 b4/solution.h5 "${RTOL_RESTART:-1e-11}"
  # restarted in its own output folder, a run continues history.csv: 10 more iterations from
  # iteration 20 log rows 21..30; a second restart from iteration 20 drops them and logs 21..40,
  # and the history equals the continuous run's row for row (residual reference carried over)
  cp -r a2 c
  run 4 mesh.p4.zones.h5 channel.ini c --more 10 --restart a2/restart.h5
  run 2 mesh.p2.zones.h5 channel.ini c --iterations 40 --restart a2/restart.h5
  "$COMPARE" history r1/history.csv c/history.csv "${RTOL_RESTART:-1e-11}" rms_rho rms_rhoE CL CD \
    dt res_rho res_rhoE
  [[ $(grep -c "^# restarted at iteration 20$" c/history.csv) -eq 2 ]] ||
    { echo "FAIL: history.csv does not name its two restarts"; exit 1; }
  # another mesh (different UUID) is refused on every rank with one message
  "$FVGEN" channel --cells hex --n 12,6,4 -o other.cgns -q
  "$FVPREP" other.cgns --parts 2 -o other.p2.zones.h5 -q
  set +e
  msg=$(run 2 other.p2.zones.h5 channel.ini o2 --restart a2/restart.h5 2>&1)
  rc=$?
  set -e
  echo "$msg"
  [[ $rc -ne 0 ]] || { echo "FAIL: restart of another mesh was accepted"; exit 1; }
  [[ $(grep -c "restart belongs to mesh" <<< "$msg") -eq 1 ]] ||
    { echo "FAIL: expected one 'restart belongs to mesh' message"; exit 1; }
  ;;
failure) # a diverging run stops every rank with one message; wrong rank count is a usage error
  "$FVGEN" channel --cells hex --n 16,8,4 --seed 2 --perturb 0.1 -o mesh.cgns -q
  channel_case
  prep mesh.cgns 4
  prep mesh.cgns 1
  set +e
  msg=$(run 4 mesh.p4.zones.h5 channel.ini f4 --cfl 500 --set time.cfl_ramp_iterations=0 2>&1)
  rc=$?
  set -e
  echo "$msg"
  [[ $rc -eq 1 ]] || { echo "FAIL: diverging run exited $rc (expected 1)"; exit 1; }
  [[ $(grep -c "non-physical state" <<< "$msg") -eq 1 ]] ||
    { echo "FAIL: expected exactly one 'non-physical state' message"; exit 1; }
  [[ -f f4/solution_last_good.h5 ]] || { echo "FAIL: no solution_last_good.h5"; exit 1; }
  set +e
  msg=$(run 2 mesh.p4.zones.h5 channel.ini u2 2>&1)
  rc=$?
  set -e
  echo "$msg"
  [[ $rc -eq 2 ]] || { echo "FAIL: rank-count mismatch exited $rc (expected 2)"; exit 1; }
  [[ $(grep -c "holds 4 zones but fvrun runs on 2 MPI ranks" <<< "$msg") -eq 1 ]] ||
    { echo "FAIL: expected one rank-count message"; exit 1; }
  # only the partitionings of this file: mesh.p1.zones.h5 next to it is another file (issue 50)
  grep -q "the file's partitionings: 4 zones;" <<< "$msg" ||
    { echo "FAIL: the message does not name the file's part count 4 alone"; exit 1; }
  ;;
*)
  echo "usage: mpi_run_test.sh channel|brick|restart|failure BIN_DIR WORK_DIR [SHARED_DIR]"
  exit 2
  ;;
esac
echo "PASS: $mode"
