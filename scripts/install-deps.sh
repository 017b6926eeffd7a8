#!/usr/bin/env bash
# Installs fvkit's build and test dependencies from Debian 12 packages. Idempotent: packages
# already installed are left alone and apt is not called at all when nothing is missing.
set -euo pipefail

PACKAGES=(build-essential cmake pkg-config
          libmetis-dev libcgns-dev libhdf5-dev libboost-graph-dev
          libptscotch-dev # the distributed partitioner (PT-Scotch)
          libopenmpi-dev openmpi-bin libcli11-dev libgtest-dev
          hdf5-tools cgns-convert python3
          clang libclang-rt-14-dev    # the readers' libFuzzer harnesses (scripts/fuzz.sh)
          openfoam openfoam-examples) # tests: OpenFOAM's tutorial meshes against its checkMesh

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
