#!/usr/bin/env bash
# fvprep at scale on the GPU host's CPU cores (issue 17): for each "TYPE:SIZE" in $MESHES
# (default "tet:10M hex:10M"), fvgen writes a shuffled, perturbed channel mesh, fvprep prepares
# it into $PARTS zones (default 64) under /usr/bin/time (wall, peak RSS) with -v phase timings,
# and `fvprep check` checks the result. Appends CSV rows to $OUT/prep_large.csv and keeps each
# run's phase line in $OUT/prep_TYPE_SIZE.log.
#   OUT=/path MESHES="tet:10M" bench/device_prep_scale.sh        (carry .deps)
name=device_prep
. bench/device_common.sh
device_build fvprep fvgen
b=$bdir
parts=${PARTS:-64}
csv=$out/prep_large.csv
[ -f "$csv" ] || echo "date,host_cpus,mesh,cells,parts,fvprep_wall_s,fvprep_peak_rss_mib,zone_file_mib,check_wall_s" >"$csv"
for spec in ${MESHES:-tet:10M hex:10M}; do
  t=${spec%%:*} size=${spec#*:}
  mesh=/tmp/channel_${t}_$size.cgns zones=/tmp/channel_${t}_$size.zones.h5
  log "generating $t $size"
  $b/prep/fvgen channel --cells "$t" --target "$size" --shuffle --perturb 0.1 -o "$mesh" -q || exit 1
  log "preparing"
  read -r wall rss < <(python3 bench/measure_cmd.py --log "$out/prep_${t}_$size.log" \
    $b/prep/fvprep "$mesh" --parts "$parts" -o "$zones" -v)
  grep -E "^•|^timings" "$out/prep_${t}_$size.log" | tail -25
  read -r cwall _ < <(python3 bench/measure_cmd.py $b/prep/fvprep check "$zones" --no-checksums)
  cells=$($b/prep/fvprep info "$zones" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["nGlobalCells"])')
  mib=$(($(stat -c %s "$zones") / 1048576))
  log "$t $size: $cells cells into $parts zones: fvprep $wall s, peak $rss MiB ($((rss * 1048576 / cells)) B/cell), zone file $mib MiB; check $cwall s"
  echo "$(date -u +%F),$(nproc),channel_${t}_$size,$cells,$parts,$wall,$rss,$mib,$cwall" >>"$csv"
  rm -f "$mesh" "$zones"
done
