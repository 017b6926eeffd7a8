#!/usr/bin/env bash
# Prepares a bare GPU machine that lacks METIS and CGNS (the lent device image): unpacks the
# Debian .debs carried in .deps/ (fetch them here with scripts/fetch-device-debs.sh) into
# .deps/prefix and prints the CMake/ld settings to use. Source it:  . scripts/device-setup.sh
set -eu
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix="$root/.deps/prefix"
if [ ! -d "$prefix/usr" ]; then
  mkdir -p "$prefix"
  for f in "$root"/.deps/*.deb; do dpkg -x "$f" "$prefix"; done
fi
export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CPATH="$prefix/usr/include${CPATH:+:$CPATH}"
export LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}"
echo "device-setup: METIS and CGNS from $prefix"
set +eu
