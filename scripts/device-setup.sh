#!/usr/bin/env bash
# Prepares a bare GPU machine that lacks METIS, CGNS and PT-Scotch (the lent device image):
# unpacks the Debian .debs carried in .deps/ (fetch them here with scripts/fetch-device-debs.sh)
# into .deps/prefix and prints the CMake/ld settings to use. Source it:  . scripts/device-setup.sh
# Every .deb is unpacked once (a stamp per .deb), so that debs added later reach a prefix
# made before them. CMake finds PT-Scotch's 32-bit flavour there (include/parmetis-int32,
# lib/x86_64-linux-gnu/scotch-int32) through CMAKE_PREFIX_PATH, as METIS and CGNS.
set -eu
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix="$root/.deps/prefix"
mkdir -p "$prefix/.unpacked"
for f in "$root"/.deps/*.deb; do
  stamp="$prefix/.unpacked/$(basename "$f")"
  if [ ! -e "$stamp" ]; then dpkg -x "$f" "$prefix" && touch "$stamp"; fi
done
export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CPATH="$prefix/usr/include${CPATH:+:$CPATH}"
export LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}"
echo "device-setup: METIS, CGNS and PT-Scotch from $prefix"
set +eu
