#!/usr/bin/env bash
# Downloads the Debian 12 packages that the GPU device image lacks (METIS, CGNS and the HDF5
# runtime CGNS links against, PT-Scotch and its ParMETIS interface) into .deps/, which is
# git-ignored and carried to the device. PT-Scotch's runtime packages hold its error libraries
# too (libscotcherr in libscotch-7.0, libptscotcherr in libptscotch-7.0). Not carried: what
# they link against besides, Open MPI's libmpi.so.40 and the zlib, bzip2 and xz libraries
# (the device's own). libjemalloc2 is for the allocator variants of bench/device_prep_ab.sh's
# sweep phase only (fvkit does not link it).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps && cd .deps
apt-get download libmetis5 libmetis-dev libcgns3.4 libcgns-dev libhdf5-103-1 libaec0 libsz2 \
                 libscotch-7.0 libptscotch-7.0 libscotch-dev libptscotch-dev libjemalloc2
