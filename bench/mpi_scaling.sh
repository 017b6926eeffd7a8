#!/usr/bin/env bash
# Weak and strong scaling of fvrun over MPI ranks (one GPU per rank) on a multi-GPU node, per
# halo transport, with the steady implicit integrators at one size.
#
#   bench/mpi_scaling.sh [SCRATCH]              # default SCRATCH=/tmp/fv_mpi_scaling
#   RANKS="1 2 4" ITERS=40 WEAK=10M STRONG="20M 40M" TRANSPORTS="nccl cuda_ipc host_staged_mpi" \
#     IMPLICIT=20M bench/mpi_scaling.sh /scratch
#
# Settings (environment):
#   RANKS       rank counts; the first is the baseline of the efficiencies (default "1 2 4")
#   WEAK        cells per rank of the weak-scaling meshes (default 5M; empty: no weak runs)
#   STRONG      strong-scaling mesh sizes (default 20M; empty: none)
#   TRANSPORTS  [run] transports to time (default $TRANSPORT, else auto: CUDA IPC, NCCL,
#               CUDA-aware MPI, host-staged MPI). A one-rank run exchanges nothing: it is run
#               once and is every transport's baseline.
#   SPLIT_TRANSPORTS  transports that also get a --comm-timing run (device synchronised around
#               every exchange) for the split into compute, pack+unpack and wait (default: all)
#   IMPLICIT    mesh size of the steady implicit runs (Newton-Krylov and LU-SGS, IMPLICIT_ITERS
#               iterations each, on the first transport; empty: none)
#   PREP_ONLY=1 stops once the meshes and zone files are ready (OMP_NUM_THREADS applies to
#   fvprep there, to fvrun's host threads otherwise: default 4).
#   ITERS, IMPLICIT_ITERS, DEVICE (cuda), ARCH (90), BUILD (a build dir with the binaries skips
#   the build), OVERLAP_OFF=1 (adds --no-overlap strong runs), RTOL (1e-12), MPIRUN.
#
# Steps: build (CUDA on, Release) fvgen/fvprep/fvrun/compare_runs in $BUILD; generate the meshes
# (shuffled, perturbed hexahedral channels with a bump: WEAK x N cells for the weak runs, each
# STRONG size) and every zone file they need, all in parallel; then each distinct run once (the
# weak run of N ranks is the strong run of N ranks where the sizes coincide, and is timed once).
# Each run's time per iteration is fvrun's FVRUN_TIMING line (wall / iterations on rank 0, no
# device synchronisation for timing); the split is the slowest rank's of each part
# (docs/parallel.md). The explicit runs' residual and force histories of N ranks must agree with
# one rank's to RTOL (compare_runs), per transport and size; compare_runs' largest relative
# difference is recorded. Efficiency: weak t(1)/t(N), strong and implicit t(1)/(N t(N)); the implicit rows
# also give the time per GMRES iteration (Newton's linear iterations depend on the partition:
# its block ILU does not couple zones).
# Writes bench/results/mpi_scaling_<host>_<date>.csv and prints the table.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/channel_patches.sh"
scratch=${1:-/tmp/fv_mpi_scaling}
BUILD=${BUILD:-$here/build-bench}
RANKS=${RANKS:-"1 2 4"}
ITERS=${ITERS:-100}
WEAK=${WEAK-5M}
STRONG=${STRONG-20M}
DEVICE=${DEVICE:-cuda}
ARCH=${ARCH:-90}
MPIRUN=${MPIRUN:-mpirun}
TRANSPORTS=${TRANSPORTS:-${TRANSPORT:-auto}}
SPLIT_TRANSPORTS=${SPLIT_TRANSPORTS:-$TRANSPORTS}
IMPLICIT=${IMPLICIT:-}
IMPLICIT_ITERS=${IMPLICIT_ITERS:-10}
RTOL=${RTOL:-1e-12}
export NCCL_NVLS_ENABLE=0 # never NVLink multicast (the device tool's rule)
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

# ---- case files: subsonic channel with a bump, fixed iteration counts (no convergence stop)
case_file() { # SCHEME -> case file on stdout
  cat <<'INI'
[freestream]
mach = 0.5
lift_axis = y
[scheme]
flux = roe
order = 2
limiter = venkat
[monitor]
force_patches = lower_wall
output_interval = 1000
write_solution = false
INI
  case "$1" in
    ssprk3) printf '[time]\nintegrator = ssprk3\ncfl = 1.5\nconvergence = 0\n' ;;
    # fvrun's Newton-Krylov defaults but a shorter Krylov basis (40 B per cell per vector)
    newton) printf '[time]\nintegrator = newton\nconvergence = 0\nnewton_krylov_dim = 15\n' ;;
    # a CFL ramp: one 20M-cell zone swept by hyperplanes diverged at iteration 1 from the free
    # stream at CFL 50 (bench/results/mpi_scaling_h100x4_20261128.md)
    lusgs) printf '[time]\nintegrator = lusgs\nlusgs_ordering = hyperplane\nlusgs_dissipation = roe\n'
           printf 'lusgs_sweeps = 4\ncfl_start = 5\ncfl = 50\ncfl_ramp_iterations = 30\nconvergence = 0\n' ;;
  esac
  channel_patches
}
for s in ssprk3 newton lusgs; do case_file $s > "$scratch/case_$s.ini"; done

mesh_path() { echo "$scratch/channel_hex_$1.cgns"; }        # CELLS (a number) -> CGNS path
zones_path() { echo "${1%.cgns}.p$2.zones.h5"; }             # MESH PARTS -> zone file

# ---- meshes and zone files, all in parallel (fvprep builds one zone per thread at most)
weak_per_rank=$(to_num "${WEAK:-0}")
declare -A need # mesh cells -> part counts
if [[ -n $WEAK ]]; then
  for n in $RANKS; do need[$((weak_per_rank * n))]+=" $n"; done
fi
for s in $STRONG $IMPLICIT; do
  for n in $RANKS; do need[$(to_num "$s")]+=" $n"; done
done
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
[[ ${PREP_ONLY:-0} == 1 ]] && exit 0

# ---- runs: each distinct (zone file, scheme, transport, options) once
declare -A timed split # run key -> FVRUN_TIMING line
field() { sed "s/.* $1=\([^ ]*\).*/\1/" <<< "$2"; }
fvrun_timing() { # N ZONES SCHEME TRANSPORT OUTDIR [ARGS...] -> the FVRUN_TIMING line
  local n=$1 z=$2 s=$3 t=$4 out=$5
  shift 5
  timeout "${RUN_TIMEOUT:-300}" "$MPIRUN" -np "$n" --oversubscribe --bind-to none "$FVRUN" "$z" -c "$scratch/case_$s.ini" \
    --iterations "$([[ $s == ssprk3 ]] && echo "$ITERS" || echo "$IMPLICIT_ITERS")" \
    --device "$DEVICE" --set "run.transport=$t" --output-dir "$out" --no-checksums -v "$@" \
    > "$out.log" 2>&1 || true
  grep FVRUN_TIMING "$out.log" || {
    # a failed run (out of memory, say) is a row of nan, not the end of the whole table
    echo "mpi_scaling.sh: fvrun failed ($out.log):" >&2
    tail -3 "$out.log" >&2
    echo "FVRUN_TIMING ranks=$n cells=nan iterations=0 time_per_iter_s=nan compute_s=nan pack_unpack_s=nan wait_s=nan"
  }
}
run_once() { # N ZONES SCHEME TRANSPORT [ARGS...]: sets $key; runs what is not cached
  local n=$1 z=$2 s=$3 t=$4
  shift 4
  [[ $n == 1 ]] && t=- # nothing to exchange: every transport's one-rank baseline
  key="$(basename "$z" .zones.h5)_${s}_${t}${*:+_nooverlap}"
  if [[ -z ${timed[$key]:-} ]]; then
    timed[$key]=$(fvrun_timing "$n" "$z" "$s" "$([[ $t == - ]] && echo auto || echo "$t")" \
      "$scratch/run_$key" "$@")
    echo "  $key: $(field time_per_iter_s "${timed[$key]}") s/iter" >&2
  fi
  if [[ -z ${split[$key]:-} ]]; then
    if [[ $n -gt 1 && " $SPLIT_TRANSPORTS " == *" $t "* ]]; then
      split[$key]=$(fvrun_timing "$n" "$z" "$s" "$t" "$scratch/split_$key" --comm-timing "$@")
    else
      split[$key]=${timed[$key]}
    fi
  fi
}

declare -a rows
declare -A added # run key -> already a row (the one-rank runs are every transport's)
first=$(awk '{print $1}' <<< "$RANKS")
check=ok
add_row() { # MODE TRANSPORT N SCHEME ZONES [ARGS...]
  local mode=$1 t=$2 n=$3 s=$4 z=$5
  shift 5
  run_once "$n" "$z" "$s" "$t" "$@"
  [[ -n ${added[$mode$key]:-} ]] && return
  added[$mode$key]=1
  [[ $n == 1 ]] && t=-
  local line=${timed[$key]} sl=${split[$key]} same=- lin=-
  local ref
  ref="$scratch/run_$(basename "${z%.p*}").p${first}_${s}_$([[ $first == 1 ]] && echo - || echo "$t")"
  if [[ $s == ssprk3 && $n != "$first" && $mode != weak && -f $scratch/run_$key/history.csv &&
    -f $ref/history.csv ]]; then
    local cmp
    cmp=$("$COMPARE" history "$ref/history.csv" "$scratch/run_$key/history.csv" "$RTOL" rms_rho \
      rms_rhoE CL CD) || check=DIFFERENT
    same=$(sed -n 's/.*largest relative difference \([^ ]*\) .*/\1/p' <<< "$cmp" | tail -n1)
  fi
  if [[ $s == newton && -f $scratch/run_$key/history.csv ]]; then
    lin=$(awk -F, '/^#/{next} !h{for(i=1;i<=NF;i++) if($i=="linear_its") c=i; h=1; next} {s+=$c} END{print s}' \
      "$scratch/run_$key/history.csv")
  fi
  rows+=("$mode,$t,$n,$(field cells "$line"),$(field time_per_iter_s "$line"),$(field time_per_iter_s "$sl"),$(field compute_s "$sl"),$(field pack_unpack_s "$sl"),$(field wait_s "$sl"),$same,$lin")
}

for t in $TRANSPORTS; do
  echo "transport $t" >&2
  for n in ${WEAK:+$RANKS}; do
    add_row weak "$t" "$n" ssprk3 "$(zones_path "$(mesh_path $((weak_per_rank * n)))" "$n")"
  done
  for s in $STRONG; do
    for n in $RANKS; do
      z=$(zones_path "$(mesh_path "$(to_num "$s")")" "$n")
      add_row strong "$t" "$n" ssprk3 "$z"
      [[ ${OVERLAP_OFF:-0} == 1 ]] && add_row strong-no-overlap "$t" "$n" ssprk3 "$z" --no-overlap
    done
  done
done
if [[ -n $IMPLICIT ]]; then
  t=$(awk '{print $1}' <<< "$TRANSPORTS")
  for s in newton lusgs; do
    for n in $RANKS; do
      add_row "$s" "$t" "$n" "$s" "$(zones_path "$(mesh_path "$(to_num "$IMPLICIT")")" "$n")"
    done
  done
fi

csv="$here/bench/results/mpi_scaling_$(hostname -s)_$(date -u +%Y%m%dT%H%MZ).csv"
{
  echo "# fvrun MPI scaling; $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1 || echo cpu) x $(nvidia-smi -L 2>/dev/null | wc -l); driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true); ranks $RANKS; transports $TRANSPORTS; $ITERS explicit / $IMPLICIT_ITERS implicit iterations; $(date -u +%F); explicit histories of N ranks against ${first} (rtol $RTOL): $check"
  echo "# time_per_iter_s: run without --comm-timing; the split columns come from a second run with --comm-timing (device synchronised around each exchange; its own time per iteration in split_time_per_iter_s); transport '-': one rank, nothing exchanged; max_rel_diff_vs_1: largest relative difference of the rms_rho, rms_rhoE, CL, CD histories against the one-rank run; linear_its: GMRES iterations of the whole run (newton)"
  echo "mode,transport,ranks,cells,time_per_iter_s,efficiency,split_time_per_iter_s,compute_s,pack_unpack_s,wait_s,max_rel_diff_vs_1,linear_its"
  for r in "${rows[@]}"; do
    IFS=, read -r mode t n cells tt ts comp pu wait same lin <<< "$r"
    base=""
    for q in "${rows[@]}"; do
      IFS=, read -r m2 _ n2 c2 t2 _ <<< "$q"
      [[ $m2 == "$mode" && $n2 == "$first" && ($mode == weak || $c2 == "$cells") ]] && base=$t2
    done
    if [[ -z $base || $base == nan || $tt == nan ]]; then
      eff=nan
    elif [[ $mode == weak ]]; then
      eff=$(awk -v a="$base" -v b="$tt" 'BEGIN{printf "%.3f", a/b}')
    else
      eff=$(awk -v a="$base" -v b="$tt" -v n="$n" -v f="$first" 'BEGIN{printf "%.3f", a*f/(n*b)}')
    fi
    echo "$mode,$t,$n,$cells,$tt,$eff,$ts,$comp,$pu,$wait,$same,$lin"
  done
} > "$csv"
printf "%-8s %-16s %5s %10s %9s %6s | %11s %9s %11s %8s | %9s %7s\n" mode transport ranks cells \
  "ms/iter" eff "timed ms/it" compute "pack+unpk" wait "rel diff" "lin its"
grep -v '^#' "$csv" | tail -n +2 | while IFS=, read -r mode t n cells tt eff ts comp pu wait same lin; do
  awk -v m="$mode" -v tr="$t" -v n="$n" -v c="$cells" -v t="$tt" -v e="$eff" -v s="$ts" -v a="$comp" \
    -v p="$pu" -v w="$wait" -v d="$same" -v l="$lin" \
    'BEGIN{printf "%-8s %-16s %5d %10d %9.2f %6.3f | %11.2f %9.2f %11.2f %8.2f | %9s %7s\n", m, tr, n, c, 1e3*t, e, 1e3*s, 1e3*a, 1e3*p, 1e3*w, d, l}'
done
echo "explicit histories across rank counts: $check"
echo "CSV: $csv"
[[ $check == ok ]]
