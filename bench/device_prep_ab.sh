#!/usr/bin/env bash
# fvprep A/B on a device host's CPU cores in one call (issue 17): the working tree's build
# ("new") and the same tree with BASE_PATCH reverse-applied ("base"), run alternately on the
# same meshes, so that host noise between calls does not enter the comparison. fvprep does not
# use the GPU: both builds are CPU-only. Phases (PHASES, default "build ab"), so that a session
# can split them over calls while the machine stays warm (builds and meshes are kept under
# build-device-prep/, an ignored folder the device keeps between calls):
#   build  both builds, in parallel
#   ab     for each TYPE:SIZE in $MESHES (default "tet:10M"): fvgen (shuffled, perturbed channel),
#          then fvprep --parts $PARTS (64) of base, new, base, new ($RUNS pairs, default 2), each
#          under bench/measure_cmd.py (wall, peak RSS) with -v phases, pinned to $CPUS cores
#          (default all) by taskset; the zone files of base and new are compared with h5diff
#   newonly the new build only (for sweep)
#   sweep  for each mesh of $MESHES, core count in $SWEEP_CPUS (default "4 16") and allocator
#          variant in $VARIANTS (default "glibc"): one fvprep of the new build,
#          pinned to that many cores (OMP_NUM_THREADS the same); variants: glibc (default),
#          jemalloc (LD_PRELOAD of libjemalloc.so.2 from the carried .deps), notrim (glibc with
#          trim_threshold and mmap_threshold raised: freed memory stays in the process),
#          jemalloc_keep (jemalloc that never returns freed pages to the kernel), hugetlb (glibc
#          asking for transparent huge pages on its mappings: glibc.malloc.hugetlb=1, which
#          fvprep now sets for itself where THP is in madvise mode), no_huge_pages (fvprep's own
#          setting off: FV_HUGE_PAGES=0); $RUNS rounds of the whole sweep (default 1)
#   genbig fvgen of $BIG only (a later call's big phase finds it)
#   big    fvgen of $BIG (e.g. tet:200M) and one fvprep of the new build (all cores unless
#          $CPUS), wall and peak recorded, then `fvprep check`; the mesh is kept for a later call
#   git diff HEAD -- prep > prep.patch
#   OUT=/path BASE_PATCH=$PWD/prep.patch PHASES="build ab" bench/device_prep_ab.sh  (carry .deps)
set -u
name=device_prep_ab
. "$(dirname "${BASH_SOURCE[0]}")/device_common.sh" # out, start, log(), the carried packages
keep=$PWD/build-device-prep
mkdir -p "$keep/meshes"
bnew=$keep/new bbase=$keep/base-build
parts=${PARTS:-64}
cpus=${CPUS:-$(nproc)}
pin() { taskset -c "0-$((cpus - 1))" env OMP_NUM_THREADS="$cpus" ${variant_env:-} "$@"; }
csv=$out/prep_ab.csv
[ -f "$csv" ] || echo "date,host_cpus,cpus_used,build,mesh,cells,parts,wall_s,peak_rss_mib" >"$csv"
log "host: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; disk: $(df -h --output=avail . | tail -1)"

cmake_build() { # SRC BUILD
  cmake -S "$1" -B "$2" -DFV_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Release -DFV_BUILD_TESTS=OFF \
    >"$out/$(basename "$2").log" 2>&1 &&
    cmake --build "$2" -j"$(($(nproc) / 2))" --target fvprep fvgen >>"$out/$(basename "$2").log" 2>&1
}

build() {
  log "building new and base"
  rm -rf "$keep/src-base" && mkdir -p "$keep/src-base"
  tar --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . | tar -xf - -C "$keep/src-base"
  (cd "$keep/src-base" && patch -R -p1 -s <"${BASE_PATCH:?set BASE_PATCH}") ||
    { log "base patch failed"; exit 1; }
  # wait for these two only: a bare `wait` also waits for the tee of the log above
  cmake_build . "$bnew" &
  local a=$!
  cmake_build "$keep/src-base" "$bbase" &
  wait $a $!
  [ -x "$bnew/prep/fvprep" ] && [ -x "$bbase/prep/fvprep" ] ||
    { log "BUILD FAILED"; tail -30 "$out"/*.log; exit 1; }
  log "builds done"
}

mesh_of() { # TYPE SIZE -> path (generated once)
  local m=$keep/meshes/channel_$1_$2.cgns
  if [ ! -f "$m" ]; then
    log "generating $1 $2" >&2
    "$bnew/prep/fvgen" channel --cells "$1" --target "$2" --shuffle --perturb 0.1 -o "$m" -q \
      >"$out/fvgen_$1_$2.log" 2>&1 || { log "fvgen failed" >&2; rm -f "$m"; return 1; }
    log "generated: $(grep -m1 cells "$out/fvgen_$1_$2.log")" >&2
  fi
  echo "$m"
}

prepare() { # TAG BUILD MESH ZONES
  local tag=$1 b=$2 mesh=$3 zones=$4 wall rss cells
  read -r wall rss < <(pin python3 bench/measure_cmd.py --log "$out/$tag.log" \
    "$b/prep/fvprep" "$mesh" --parts "$parts" -o "$zones" -v)
  cells=$(grep -m1 -oE "^mesh: [0-9]+" "$out/$tag.log" | grep -oE "[0-9]+")
  log "$tag: ${wall} s, peak ${rss} MiB ($((${rss:-0} * 1048576 / ${cells:-1})) B/cell)"
  grep -E "^timings" "$out/$tag.log"
  echo "$(date -u +%F),$(nproc),$cpus,$tag,$(basename "$mesh"),$cells,$parts,$wall,$rss" >>"$csv"
}

ab() {
  for spec in ${MESHES:-tet:10M}; do
    local t=${spec%%:*} size=${spec#*:} mesh
    mesh=$(mesh_of "$t" "$size") || continue
    for r in $(seq 1 "${RUNS:-2}"); do
      prepare "base_${t}_${size}_$r" "$bbase" "$mesh" "$keep/base.zones.h5"
      prepare "new_${t}_${size}_$r" "$bnew" "$mesh" "$keep/new.zones.h5"
    done
    # same zones: only the stored command line may differ
    command -v h5diff >/dev/null && log "h5diff base vs new: $(h5diff -v "$keep/base.zones.h5" "$keep/new.zones.h5" 2>&1 |
      grep -E '^[0-9]+ differences found' | grep -vc '^0 ') object(s) differ (1 expected: commandLine)"
    rm -f "$keep/base.zones.h5" "$keep/new.zones.h5"
  done
}

newonly() {
  log "building new"
  cmake_build . "$bnew" || { log "BUILD FAILED"; tail -30 "$out"/*.log; exit 1; }
  log "build done"
}

sweep() {
  local spec mesh c v r tag jem
  jem=$(find .deps/prefix -name libjemalloc.so.2 2>/dev/null | head -1)
  log "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
  for spec in ${MESHES:-tet:10M}; do
  mesh=$(mesh_of "${spec%%:*}" "${spec#*:}") || continue
  for r in $(seq 1 "${RUNS:-1}"); do
  for c in ${SWEEP_CPUS:-4 16}; do
    for v in ${VARIANTS:-glibc}; do
      case $v in
      glibc) variant_env="" ;;
      jemalloc) [ -n "$jem" ] || { log "no libjemalloc.so.2 in .deps"; continue; }
        variant_env="LD_PRELOAD=$PWD/$jem" ;;
      jemalloc_keep) [ -n "$jem" ] || { log "no libjemalloc.so.2 in .deps"; continue; }
        variant_env="LD_PRELOAD=$PWD/$jem MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1" ;;
      hugetlb) variant_env="GLIBC_TUNABLES=glibc.malloc.hugetlb=1" ;;
      no_huge_pages) variant_env="FV_HUGE_PAGES=0" ;;
      notrim) variant_env="GLIBC_TUNABLES=glibc.malloc.trim_threshold=68719476736:glibc.malloc.mmap_threshold=33554432" ;;
      *) log "unknown variant $v"; continue ;;
      esac
      cpus=$c tag=sweep_${v}_c${c}_${spec/:/_}_$r
      prepare "$tag" "$bnew" "$mesh" "$keep/sweep.zones.h5"
      grep -E "^large allocations|^• (partitioning|building zones|writing)|^rusage" "$out/$tag.log"
      rm -f "$keep/sweep.zones.h5"
    done
  done
  done
  done
  variant_env=""
}

big() {
  local t=${BIG%%:*} size=${BIG#*:} mesh zones
  mesh=$(mesh_of "$t" "$size") || return
  zones=$keep/big.zones.h5
  prepare "big_new_${t}_$size" "$bnew" "$mesh" "$zones"
  grep -E "^•" "$out/big_new_${t}_$size.log"
  local rc
  python3 bench/measure_cmd.py --log "$out/big_check.log" "$bnew/prep/fvprep" check "$zones" \
    --no-checksums >"$out/big_check.time"
  rc=$?
  log "fvprep check: rc=$rc, $(cut -d' ' -f1 "$out/big_check.time") s, peak $(cut -d' ' -f2 \
    "$out/big_check.time") MiB; zone file $(($(stat -c %s "$zones") / 1048576)) MiB"
  tail -3 "$out/big_check.log"
  rm -f "$zones"
}

for p in ${PHASES:-build ab}; do
  case $p in
  build) build ;;
  newonly) newonly ;;
  sweep) sweep ;;
  ab) ab ;;
  genbig) mesh_of "${BIG%%:*}" "${BIG#*:}" >/dev/null ;;
  big) big ;;
  *) log "unknown phase $p" ;;
  esac
done
log "done"
