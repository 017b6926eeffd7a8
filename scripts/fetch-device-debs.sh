#!/usr/bin/env bash
# Downloads the Debian 12 packages that the GPU device image lacks (METIS, CGNS and the HDF5
# runtime CGNS links against) into .deps/, which is git-ignored and carried to the device.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps && cd .deps
apt-get download libmetis5 libmetis-dev libcgns3.4 libcgns-dev libhdf5-103-1 libaec0 libsz2
