#!/usr/bin/env bash
# fvkit demo: installs the dependencies, builds, generates the bundled example mesh (a Mach 2.5
# flow over a 10-degree wedge, examples/wedge.ini), prepares it with fvprep, runs fvrun and
# prints the result against oblique-shock theory. About a minute on 2 CPU cores after the build.
#   FV_BUILD_DIR  build directory (default build/release)
#   FV_DEMO_DIR   where the demo writes its files (default demo_out)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

scripts/install-deps.sh
build=${FV_BUILD_DIR:-build/release}
echo "== building fvkit into $build"
cmake --preset release -B "$build" >/dev/null
cmake --build "$build" -j "$(nproc)" --target fvgen fvprep fvrun >/dev/null
bin="$root/$build"

out=${FV_DEMO_DIR:-demo_out}
mkdir -p "$out" && cd "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "== 1. generating the example mesh (fvgen wedge, 2400 hexahedra)"
"$bin/prep/fvgen" wedge --n 60,40,1 --angle 10 --extent 1.4,1,0.025 -o wedge.cgns -q

echo "== 2. importing, validating and preparing it (fvprep)"
"$bin/prep/fvprep" info wedge.cgns
"$bin/prep/fvprep" wedge.cgns --parts 1 -o wedge.zones.h5
"$bin/prep/fvprep" check wedge.zones.h5

echo "== 3. running the case (fvrun, CPU backend unless a GPU is present)"
"$bin/runtime/fvrun" wedge.zones.h5 -c "$root/examples/wedge.ini" --output-dir wedge_out

echo "== 4. result"
awk -F, '!/^#/ && $1 ~ /^[0-9]+$/ {last=$0} END {
  n = split(last, v, ",");
  printf "  iterations %d, final log10 residuals: rho %.2f, rhoE %.2f\n", v[1], v[4], v[8];
  printf "  force coefficients on the wall: CL %.5f, CD %.5f\n", v[11], v[12] }' wedge_out/history.csv
# wall pressure behind the shock (ramp faces away from the corner at x = 0.35 m) over p_inf
awk -F, -v pinf=101325 'NR > 1 && $2 > 0.6 { s += $8; n++ } END {
  if (n) printf "  wall pressure behind the shock: p2/p1 = %.4f (%d wall faces)\n", s / n / pinf, n }' \
  wedge_out/surface_lower_wall.csv
echo "  oblique-shock theory for M 2.5, 10 deg: shock angle 31.85 deg, p2/p1 = 1.8639"
echo "  outputs: $out/wedge_out/ (history.csv, solution.xmf for ParaView, surface_lower_wall.csv, restart.h5, case.resolved.ini)"
