#!/usr/bin/env bash
# The distributed fvprep (`mpirun -np R fvprep`, issue 17) on the GPU host's CPU cores: for each
# "TYPE:SIZE" in $MESHES (default "tet:10M"), fvgen writes a shuffled, perturbed channel mesh;
# fvprep prepares it into $PARTS zones (default 64) once serially ($THREADS threads, default
# nproc) and then under `mpirun -np R` for each R in $RANKS (default "2 4 8"; nproc / R OpenMP
# threads each), with PT-Scotch ($PARTITIONER, default ptscotch). Wall time and the largest
# per-process peak RSS (/usr/bin/time of mpirun: the largest child) go to $OUT/prep_dist.csv;
# fvprep's own line gives the per-process peak and the sum over processes. Every file is
# checked with `fvprep check` (UUID included; CHECK=0 skips it, for time) and its UUID compared
# with the serial one.
#   OUT=/path MESHES="tet:10M hex:50M" RANKS="2 8" bench/device_prep_dist.sh   (carry .deps)
name=device_prep_dist
. bench/device_common.sh
device_build fvprep fvgen
b=$bdir
parts=${PARTS:-64}
ncpu=$(nproc)
csv=$out/prep_dist.csv
[ -f "$csv" ] || echo "date,host_cpus,mesh,cells,parts,ranks,threads_per_rank,partitioner,wall_s,max_rank_peak_mib,sum_rank_peak_mib,uuid_same_as_serial,check" >"$csv"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for spec in ${MESHES:-tet:10M}; do
  t=${spec%%:*} size=${spec#*:}
  mesh=/tmp/channel_${t}_$size.cgns zones=/tmp/channel_${t}_$size.zones.h5
  log "generating $t $size"
  $b/prep/fvgen channel --cells "$t" --target "$size" --shuffle --perturb 0.1 -o "$mesh" -q || exit 1
  uuid0=
  for r in ${SERIAL:-1} ${RANKS:-2 4 8}; do
    [ "$r" = 0 ] && continue
    th=$((${THREADS:-$ncpu} / r))
    [ "$th" -lt 1 ] && th=1
    lg=$out/prep_dist_${t}_${size}_np$r.log
    if [ "$r" = 1 ]; then
      cmd=(env OMP_NUM_THREADS=$th $b/prep/fvprep "$mesh" --parts "$parts" -o "$zones" -v)
      who=metis
    else
      who=${PARTITIONER:-ptscotch}
      cmd=(mpirun -np "$r" --bind-to none -x OMP_NUM_THREADS=$th $b/prep/fvprep "$mesh"
           --parts "$parts" --partitioner "$who" -o "$zones" -v)
    fi
    log "$t $size: $r process(es) x $th threads"
    read -r wall rss < <(python3 bench/measure_cmd.py --log "$lg" "${cmd[@]}")
    grep -E "^•|^timings|^processes" "$lg" | tail -30
    sum=$(sed -n 's/.*all processes \([0-9.]*\) GiB.*/\1/p' "$lg")
    sum=${sum:+$(python3 -c "print(round($sum*1024))")}
    uuid=$(sed -n 's/^wrote .* mesh \(.*\)$/\1/p' "$lg")
    [ -z "$uuid0" ] && uuid0=$uuid
    same=$([ -n "$uuid" ] && [ "$uuid" = "$uuid0" ] && echo yes || echo no)
    chk=skipped
    [ "${CHECK:-1}" = 1 ] &&
      chk=$($b/prep/fvprep check "$zones" --no-checksums >/dev/null 2>&1 && echo OK || echo FAILED)
    cells=$($b/prep/fvprep info "$zones" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["nGlobalCells"])' || echo 0)
    log "$t $size, $r process(es): $wall s, largest process $rss MiB, all ${sum:-$rss} MiB, UUID same: $same, check $chk"
    echo "$(date -u +%F),$ncpu,channel_${t}_$size,$cells,$parts,$r,$th,$who,$wall,$rss,${sum:-$rss},$same,$chk" >>"$csv"
    rm -f "$zones"
  done
  rm -f "$mesh"
done
