#!/usr/bin/env bash
# Weak and strong scaling of fvrun over MPI ranks (one GPU per rank) on a multi-GPU node.
#
#   bench/mpi_scaling.sh [SCRATCH]              # default SCRATCH=/tmp/fv_mpi_scaling
#   RANKS="1 2 4" ITERS=50 WEAK=5M STRONG=20M DEVICE=cuda bench/mpi_scaling.sh /scratch
#   TRANSPORT=host_staged_mpi bench/mpi_scaling.sh   # [run] transport (default auto: NCCL, CUDA
#                                                    # IPC, CUDA-aware MPI, host-staged MPI)
#
# Steps: build (CUDA on, Release) fvgen/fvprep/fvrun/compare_runs in $BUILD (BUILD=DIR with the
# binaries already built skips it); generate the meshes (weak: WEAK cells per rank, shuffled
# hexahedral channel with a bump; strong: one STRONG-cell channel, the same file as the weak one
# when the sizes coincide) and all zone files in parallel; per rank count, mpirun -np N fvrun for
# ITERS iterations twice: once as in production (the time and the efficiency) and once with
# --comm-timing (device synchronised around every exchange) for the split into compute,
# pack+unpack and wait (OVERLAP_OFF=1 adds --no-overlap runs); checks that the strong-scaling
# runs' residual histories agree across rank counts (compare_runs, RTOL=1e-12); prints the table
#   mode ranks cells ms/iter eff | timed ms/iter compute pack+unpack wait
# and writes it as CSV to bench/results/mpi_scaling_<host>_<date>.csv.
# Timings are fvrun's FVRUN_TIMING line: time per iteration (wall / iterations, rank 0),
# compute = time - pack - unpack - wait, each the maximum over ranks (docs/parallel.md).
# Efficiency: weak t(1)/t(N), strong t(1)/(N t(N)).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/channel_patches.sh"
scratch=${1:-/tmp/fv_mpi_scaling}
BUILD=${BUILD:-$here/build-bench}
RANKS=${RANKS:-"1 2 4"}
ITERS=${ITERS:-100}
WEAK=${WEAK:-5M}
STRONG=${STRONG:-20M}
DEVICE=${DEVICE:-cuda}
ARCH=${ARCH:-90}
MPIRUN=${MPIRUN:-mpirun}
TRANSPORT=${TRANSPORT:-auto}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
mkdir -p "$scratch" "$here/bench/results"

cuda=ON
[[ $DEVICE == cpu ]] && cuda=OFF
if [[ ! -x $BUILD/runtime/fvrun ]] || [[ ${REBUILD:-0} == 1 ]]; then
  cmake -S "$here" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DFV_ENABLE_CUDA=$cuda \
    -DCMAKE_CUDA_ARCHITECTURES=$ARCH > "$scratch/cmake.log"
  cmake --build "$BUILD" -j "$(nproc)" --target fvgen fvprep fvrun compare_runs \
    > "$scratch/build.log"
fi
bin() { find "$BUILD" -type f -name "$1" -perm -u+x | head -n1; }
FVGEN=$(bin fvgen) FVPREP=$(bin fvprep) FVRUN=$(bin fvrun) COMPARE=$(bin compare_runs)

to_num() { # 5M -> 5000000
  awk -v s="$1" 'BEGIN{m=1; u=toupper(substr(s,length(s))); if(u=="M"){m=1e6;s=substr(s,1,length(s)-1)}
    else if(u=="K"){m=1e3;s=substr(s,1,length(s)-1)}; printf "%d", s*m}'
}

{
  cat <<'INI'
# subsonic channel with a bump, fixed iteration count (no convergence stop)
[freestream]
mach = 0.5
lift_axis = y
[scheme]
flux = roe
order = 2
limiter = venkat
[time]
integrator = ssprk3
cfl = 1.5
iterations = 50
convergence = 0
[monitor]
force_patches = lower_wall
output_interval = 1000
INI
  channel_patches
} >"$scratch/case.ini"

mesh_path() { echo "$scratch/channel_hex_$1.cgns"; }        # CELLS (a number) -> CGNS path
zones_path() { echo "${1%.cgns}.p$2.zones.h5"; }             # MESH PARTS -> zone file
declare -a rows
run() { # run MODE N ZONES OUT [ARGS...]: one timed run (no device synchronisation for timing)
  #                                      and one --comm-timing run for the split
  local mode=$1 n=$2 z=$3 out=$4
  shift 4
  local line split
  line=$("$MPIRUN" -np "$n" --oversubscribe --bind-to none "$FVRUN" "$z" -c "$scratch/case.ini" \
    --iterations "$ITERS" --device "$DEVICE" --set "run.transport=$TRANSPORT" --output-dir "$out" \
    -q "$@" | grep FVRUN_TIMING)
  if [[ $n -gt 1 ]]; then
    split=$("$MPIRUN" -np "$n" --oversubscribe --bind-to none "$FVRUN" "$z" -c "$scratch/case.ini" \
      --iterations "$ITERS" --device "$DEVICE" --set "run.transport=$TRANSPORT" \
      --output-dir "$out.split" -q --comm-timing "$@" |
      grep FVRUN_TIMING)
  else
    split=$line
  fi
  field() { sed "s/.* $1=\([^ ]*\).*/\1/" <<< "$2"; }
  rows+=("$mode,$n,$(field cells "$line"),$(field time_per_iter_s "$line"),$(field time_per_iter_s "$split"),$(field compute_s "$split"),$(field pack_unpack_s "$split"),$(field wait_s "$split")")
}

# meshes and zone files first, all in parallel (fvprep builds one zone per thread at most);
# the strong-scaling mesh is the weak one of the same size when the sizes coincide
weak_per_rank=$(to_num "$WEAK")
strong_cells=$(to_num "$STRONG")
declare -A need # mesh cells -> part counts
for n in $RANKS; do need[$((weak_per_rank * n))]+=" $n"; done
for n in $RANKS; do need[$strong_cells]+=" $n"; done
t0=$SECONDS
for c in "${!need[@]}"; do
  (
    m=$(mesh_path "$c")
    [[ -f $m ]] || "$FVGEN" channel --cells hex --target "$c" --shuffle --perturb 0.1 -o "$m" -q
    for p in $(tr ' ' '\n' <<< "${need[$c]}" | sort -un); do
      z=$(zones_path "$m" "$p")
      [[ -f $z ]] || "$FVPREP" "$m" --parts "$p" -o "$z" -q &
    done
    wait
  ) > "$scratch/prep_$c.log" 2>&1 &
done
wait
for c in "${!need[@]}"; do
  for p in $(tr ' ' '\n' <<< "${need[$c]}" | sort -un); do
    [[ -f $(zones_path "$(mesh_path "$c")" "$p") ]] || {
      echo "mpi_scaling.sh: preparing $c cells in $p parts failed:" >&2
      cat "$scratch/prep_$c.log" >&2
      exit 1
    }
  done
done
echo "meshes and zone files ready in $((SECONDS - t0)) s" >&2

for n in $RANKS; do
  run weak "$n" "$(zones_path "$(mesh_path $((weak_per_rank * n)))" "$n")" "$scratch/weak_$n"
done
ms=$(mesh_path "$strong_cells")
for n in $RANKS; do
  z=$(zones_path "$ms" "$n")
  run strong "$n" "$z" "$scratch/strong_$n"
  [[ ${OVERLAP_OFF:-0} == 1 ]] && run strong-no-overlap "$n" "$z" "$scratch/strong_no_$n" --no-overlap
done

# residual histories of the strong-scaling runs must agree across rank counts
first=$(awk '{print $1}' <<< "$RANKS")
check="ok"
for n in $RANKS; do
  [[ $n == "$first" ]] && continue
  "$COMPARE" history "$scratch/strong_$first/history.csv" "$scratch/strong_$n/history.csv" \
    "${RTOL:-1e-12}" rms_rho rms_rhoE CL CD || check="DIFFERENT"
done

csv="$here/bench/results/mpi_scaling_$(hostname -s)_${TRANSPORT}_$(date -u +%Y%m%dT%H%MZ).csv"
{
  echo "# fvrun MPI scaling; $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1 || echo cpu); $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true); ranks $RANKS; transport $TRANSPORT; $ITERS iterations; $(date -u +%F); residuals across ranks (rtol ${RTOL:-1e-12}): $check"
  echo "# time_per_iter_s: run without --comm-timing; the split columns come from a second run with --comm-timing (device synchronised around each exchange; its own time per iteration in split_time_per_iter_s)"
  echo "mode,ranks,cells,time_per_iter_s,efficiency,split_time_per_iter_s,compute_s,pack_unpack_s,wait_s"
  for r in "${rows[@]}"; do
    IFS=, read -r mode n cells t ts comp pu wait <<< "$r"
    base=""
    for q in "${rows[@]}"; do
      IFS=, read -r m2 n2 _ t2 _ <<< "$q"
      [[ $m2 == "$mode" && $n2 == "$first" ]] && base=$t2
    done
    if [[ $mode == weak ]]; then
      eff=$(awk -v a="$base" -v b="$t" 'BEGIN{printf "%.3f", a/b}')
    else
      eff=$(awk -v a="$base" -v b="$t" -v n="$n" -v f="$first" 'BEGIN{printf "%.3f", a*f/(n*b)}')
    fi
    echo "$mode,$n,$cells,$t,$eff,$ts,$comp,$pu,$wait"
  done
} > "$csv"
printf "%-18s %5s %10s %9s %6s | %12s %10s %12s %9s\n" mode ranks cells "ms/iter" eff \
  "timed ms/it" "compute" "pack+unpack" "wait"
grep -v '^#' "$csv" | tail -n +2 | while IFS=, read -r mode n cells t eff ts comp pu wait; do
  awk -v m="$mode" -v n="$n" -v c="$cells" -v t="$t" -v e="$eff" -v s="$ts" -v a="$comp" -v p="$pu" -v w="$wait" \
    'BEGIN{printf "%-18s %5d %10d %9.2f %6.2f | %12.2f %10.2f %12.2f %9.2f\n", m, n, c, 1e3*t, e, 1e3*s, 1e3*a, 1e3*p, 1e3*w}'
done
echo "residual histories across rank counts: $check"
echo "CSV: $csv"
[[ $check == ok ]]
