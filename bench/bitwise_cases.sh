#!/usr/bin/env bash
# The cases a refactoring must leave bitwise unchanged: the NACA 0012 Euler case to convergence
# (examples/naca0012.ini), and short runs of every solver path: 2 ranks, mixed precision, RANS
# (SA, TMR 225 x 65 C-grid), laminar Navier-Stokes (cylinder), a transonic wing (bench/
# wing_mesh.sh, 60k tetrahedra), SSP-RK3 with and without face states, LU-SGS, Newton with SGS,
# global time stepping with Barth's limiter, and tetrahedra on 2 ranks (Newton; RK4, Rusanov,
# Venkatakrishnan). Compare two runs' folders with bench/compare_outputs.py.
#
#   bench/bitwise_cases.sh prep  BUILD ZONES_DIR [MESHES_DIR]   make the zone files (once)
#   bench/bitwise_cases.sh run   BUILD ZONES_DIR OUT_DIR [DEVICE] [FILTER]
#
# BUILD is a build folder (BUILD/prep/fvprep, BUILD/runtime/fvrun); MESHES_DIR holds su2/ as
# ../shared/meshes does (default ../shared/meshes); DEVICE cpu (default) or cuda; FILTER a regex
# of case names. Prints one line per case.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mode=${1:?prep or run}
B=$(cd "${2:?build folder}" && pwd)
Z=${3:?zones folder}
mkdir -p "$Z"
Z=$(cd "$Z" && pwd)
fvprep=$B/prep/fvprep fvgen=$B/prep/fvgen fvrun=$B/runtime/fvrun
[ -x "$fvrun" ] || fvrun=$(ls "$B"/runtime/fvrun "$B"/fvrun 2>/dev/null | head -1)

if [ "$mode" = prep ]; then
  set -e
  S=${4:-$root/../shared/meshes}
  cd "$Z"
  $fvprep "$S/su2/naca0012_inv_su2.su2" --extrude 1 -o naca.zones.h5 -q
  $fvprep partition add naca.zones.h5 --parts 2 -q
  $fvprep "$S/su2/naca0012_turb_225x65.su2" --extrude 1 --walls airfoil -o naca_sa.zones.h5 -q
  $fvprep "$S/su2/cylinder_lam.su2" --extrude 1 --walls cylinder -o cyl.zones.h5 -q
  $fvgen channel --cells hex --n 24,12,6 --shuffle --seed 1 --perturb 0.1 -o chan_hex.cgns -q
  $fvprep chan_hex.cgns -o chan_hex.zones.h5 -q
  $fvgen channel --cells tet --n 16,8,4 --shuffle --seed 2 --perturb 0.1 -o chan_tet.cgns -q
  $fvprep chan_tet.cgns --parts 2 -o chan_tet.zones.h5 -q
  [ -f wing/wing.msh ] || FVPREP=$fvprep "$here/wing_mesh.sh" "$Z/wing" --cells 60k >/dev/null
  $fvprep wing/wing.msh -o wing.zones.h5 -q >/dev/null
  exit 0
fi

O=${4:?output folder}
dev=${5:-cpu}
F=${6:-.}
E=$root/examples
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$O"
wing_ini=$O/wing.ini
printf '[freestream]\nmach = 0.84\naoa = 3.06\n[monitor]\nreference_area = 0.7532\n[patch wing]\ntype = slip_wall\n[patch farfield]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n' >"$wing_ini"
run() { # tag zonefile casefile np args...
  local tag=$1 z=$2 c=$3 np=$4
  shift 4
  [[ $tag =~ $F ]] || return 0
  rm -rf "${O:?}/$tag"
  if [ "$np" -gt 1 ]; then
    mpirun --oversubscribe -np "$np" "$fvrun" "$Z/$z" -c "$c" --device "$dev" --output-dir "$O/$tag" "$@" >"$O/$tag.log" 2>&1
  else
    "$fvrun" "$Z/$z" -c "$c" --device "$dev" --output-dir "$O/$tag" "$@" >"$O/$tag.log" 2>&1
  fi
  echo "$tag rc=$? $(grep -E '^fvrun: .* after ' "$O/$tag.log" | head -1 | cut -c1-110)"
}
rk3="--set time.integrator=ssprk3 --set time.cfl=0.8"
run naca_euler naca.zones.h5 "$E/naca0012.ini" 1
run naca_euler_np2 naca.zones.h5 "$E/naca0012.ini" 2 --iterations 8
run naca_mixed naca.zones.h5 "$E/naca0012.ini" 1 --iterations 8 --set scheme.precision=mixed
run naca_sa naca_sa.zones.h5 "$E/naca0012_sa.ini" 1 --iterations 12
run cyl_ns cyl.zones.h5 "$E/cylinder_re40.ini" 1 --iterations 8
run wing wing.zones.h5 "$wing_ini" 1 --iterations 4
run chan_rk3 chan_hex.zones.h5 "$E/channel_bump.ini" 1 --iterations 40 $rk3
run chan_rk3_fsoff chan_hex.zones.h5 "$E/channel_bump.ini" 1 --iterations 10 $rk3 --set scheme.face_states=off
run chan_lusgs chan_hex.zones.h5 "$E/channel_bump.ini" 1 --iterations 15 --set time.integrator=lusgs --set time.cfl=5
run chan_newton_sgs chan_hex.zones.h5 "$E/channel_bump.ini" 1 --iterations 6 --set time.newton_preconditioner=sgs
run chan_unsteady chan_hex.zones.h5 "$E/channel_bump.ini" 1 --iterations 10 --set time.stepping=global --set time.cfl=0.5 --set scheme.limiter=barth
run tet_np2 chan_tet.zones.h5 "$E/channel_bump.ini" 2 --iterations 6
run tet_np2_rk chan_tet.zones.h5 "$E/channel_bump.ini" 2 --iterations 20 --set time.integrator=rk4 --set scheme.flux=rusanov --set scheme.limiter=venkat
exit 0
