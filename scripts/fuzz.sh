#!/usr/bin/env bash
# Builds the libFuzzer harnesses of the readers (cmake --preset fuzz: clang, ASan/UBSan;
# tests/fuzz/) and runs each on a corpus seeded from tiny meshes written below, the shared meshes
# (../shared/meshes, when present) and a zone file fvprep makes of a seed (when build/ci's
# fvprep exists). A crash, hang (> 10 s), leak or sanitizer report fails the script and
# leaves the input in build/fuzz/artifacts/.
#   scripts/fuzz.sh                 short runs (CI): 1000 executions per harness
#   scripts/fuzz.sh --runs N        N executions per harness
#   scripts/fuzz.sh --time S        S seconds per harness (-max_total_time)
#   FUZZERS="su2 msh" scripts/fuzz.sh   a subset (su2 msh cgns x polymesh zone_file; x: Plot3D)
#   FUZZ_SEED=0 scripts/fuzz.sh         libFuzzer's random seed (default 1: repeatable runs, as
#                                       CI needs; 0 = a new one each time)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=(-runs=1000)
case "${1:-}" in
  --runs) limit=(-runs="$2") ;;
  --time) limit=(-max_total_time="$2") ;;
  "") ;;
  *) echo "usage: scripts/fuzz.sh [--runs N | --time S]" >&2; exit 2 ;;
esac
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (Debian: clang libclang-rt-14-dev)"; exit 2; }
cmake --preset fuzz >/dev/null
cmake --build build/fuzz -j "${FV_JOBS:-$(nproc)}" >/dev/null
shared=${FV_SHARED_DIR:-../shared}/meshes
work=build/fuzz/corpus
mkdir -p build/fuzz/artifacts
seed() { # seed FUZZER FILE...: copies the existing files into the fuzzer's seed folder
  local d=$work/seeds_$1
  mkdir -p "$d"
  shift
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$d/"; done
  return 0
}
rm -rf "$work" && mkdir -p "$work"
# one hexahedron (SU2) and one tetrahedron (Gmsh 2.2): small seeds keep the executions fast
mkdir -p "$work/seeds_su2" "$work/seeds_msh"
cat >"$work/seeds_su2/hex.su2" <<'SU2'
NDIME= 3
NELEM= 1
12 0 1 2 3 4 5 6 7 0
NPOIN= 8
0 0 0 0
1 0 0 1
1 1 0 2
0 1 0 3
0 0 1 4
1 0 1 5
1 1 1 6
0 1 1 7
NMARK= 2
MARKER_TAG= wall
MARKER_ELEMS= 5
9 0 3 2 1
9 4 5 6 7
9 0 1 5 4
9 1 2 6 5
9 2 3 7 6
MARKER_TAG= farfield
MARKER_ELEMS= 1
9 3 0 4 7
SU2
cat >"$work/seeds_msh/tet.msh" <<'MSH'
$MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
2
2 1 "wall"
3 2 "fluid"
$EndPhysicalNames
$Nodes
4
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
$EndNodes
$Elements
5
1 4 2 2 1 1 2 3 4
2 2 2 1 1 1 3 2
3 2 2 1 1 1 2 4
4 2 2 1 1 1 4 3
5 2 2 1 1 2 3 4
$EndElements
MSH
# CGNS: a one-hexahedron file that fvgen writes (HDF5) and its ADF copy, and three shared files
if [ -x build/ci/prep/fvgen ]; then
  mkdir -p "$work/seeds_cgns"
  build/ci/prep/fvgen box --n 1,1,1 -o "$work/seeds_cgns/hex.cgns" -q >/dev/null
  if command -v hdf2adf >/dev/null; then
    hdf2adf "$work/seeds_cgns/hex.cgns" "$work/seeds_cgns/hex_adf.cgns" >/dev/null 2>&1 || true
  fi
fi
# Plot3D: two 2x2x2 blocks (ASCII), and one 2x2 2D block as Fortran records (float64)
mkdir -p "$work/seeds_x"
cat >"$work/seeds_x/two.x" <<'P3D'
2
2 2 2
2 2 2
0.0 1.0 0.0 1.0 0.0 1.0 0.0 1.0
0.0 0.0 1.0 1.0 0.0 0.0 1.0 1.0
0.0 0.0 0.0 0.0 1.0 1.0 1.0 1.0
1.0 2.0 1.0 2.0 1.0 2.0 1.0 2.0
0.0 0.0 1.0 1.0 0.0 0.0 1.0 1.0
0.0 0.0 0.0 0.0 1.0 1.0 1.0 1.0
P3D
i4_8='\x08\x00\x00\x00' i4_2='\x02\x00\x00\x00' i4_64='\x40\x00\x00\x00'
d0='\x00\x00\x00\x00\x00\x00\x00\x00' d1='\x00\x00\x00\x00\x00\x00\xf0\x3f'
printf "$i4_8$i4_2$i4_2$i4_8$i4_64$d0$d1$d0$d1$d0$d0$d1$d1$i4_64" >"$work/seeds_x/one2d.x"
# OpenFOAM polyMesh: a unit tetrahedron's five files, joined by \x01 (tests/fuzz/fuzz_polymesh.cpp)
mkdir -p "$work/seeds_polymesh"
{
  printf 'FoamFile\n{\n    version 2.0;\n    format ascii;\n    class vectorField;\n    object points;\n}\n'
  printf '// the corners\n4\n(\n(0 0 0)\n(1 0 0)\n(0 1 0)\n(0 0 1)\n)\n\001'
  printf 'FoamFile { version 2.0; format ascii; class faceList; object faces; }\n'
  printf '4 ( 3(0 2 1) 3(0 1 3)\n 3(1 2 3) 3(0 3 2) )\n\001'
  printf 'FoamFile { version 2.0; format ascii; class labelList; object owner; }\n4{0}\n\001'
  printf 'FoamFile { version 2.0; format ascii; class labelList; object neighbour; }\n0()\n\001'
  printf 'FoamFile { version 2.0; format ascii; class polyBoundaryMesh; object boundary; }\n'
  printf '1\n(\n    walls\n    {\n        type wall;\n        nFaces 4;\n        startFace 0;\n    }\n)\n'
} >"$work/seeds_polymesh/tet"
seed cgns "$shared/cgns/wedge_2d_quads.cgns" "$shared/cgns/multiblock_5blocks_structured.cgns" \
  "$shared/cgns/static_mixer_cfx_mixed.cgns"
# case files: the examples, and one with command-line overrides after a "--" line
mkdir -p "$work/seeds_case_file"
cp examples/*.ini "$work/seeds_case_file/"
printf '[freestream]\nmach = 0.8\n[patch wall]\ntype = slip_wall\n[patch "far field"]\ntype = farfield\n[patch symmetry]\ntype = symmetry\n--\ntime.cfl=5\nsweep.aoa=0:2:0.5\n' \
  >"$work/seeds_case_file/overrides.ini"
mkdir -p "$work/seeds_zone_file"
if [ -x build/ci/prep/fvprep ]; then
  build/ci/prep/fvprep "$work/seeds_su2/hex.su2" -o "$work/seeds_zone_file/hex.zones.h5" -q >/dev/null
fi
# allocations libcgns and HDF5 keep after a corrupt file (not fvkit's: the zone-file harness
# checks that no HDF5 object stays open)
export LSAN_OPTIONS="suppressions=$(pwd)/tests/sanitizer/lsan.supp"
status=0
for fz in ${FUZZERS:-su2 msh cgns x polymesh zone_file case_file}; do
  exe=build/fuzz/tests/fuzz/fuzz_$fz
  mkdir -p "$work/$fz"
  if [ -z "$(ls -A "$work/seeds_$fz" 2>/dev/null)" ]; then
    echo "fuzz_$fz: no seed here, skipped"
    continue
  fi
  log=build/fuzz/fuzz_$fz.log
  # a small ASan quarantine keeps the process small, so that the CGNS reader's probe fork (its
# page tables) stays cheap: more executions per second (bench/results/ci_times_vm/)
if ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 "$exe" "$work/$fz" "$work/seeds_$fz" "${limit[@]}" -seed="${FUZZ_SEED:-1}" -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix=build/fuzz/artifacts/"$fz"- -print_final_stats=1 \
    >"$log" 2>&1; then
    echo "fuzz_$fz: $(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$log" |
      awk '{print $2}') executions, no crash"
  else
    status=1
    echo "fuzz_$fz: FAILED (build/fuzz/artifacts/, $log):"
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$log" | head -5
  fi
done
exit $status
