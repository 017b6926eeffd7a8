#!/usr/bin/env bash
# fvprep asks glibc for transparent huge pages (prep/huge_pages.hpp), driven by CTest:
#   - with the kernel's THP mode `madvise` it starts itself again with glibc.malloc.hugetlb=1
#     in GLIBC_TUNABLES (appended to a user's other tunables), and says so under -v; a user's
#     own setting of the tunable and FV_HUGE_PAGES=0 are kept; in the other modes, and in a
#     sanitizer build (whose allocator is not glibc's), it runs as is;
#   - the zone files are the same either way.
#   huge_pages_cli_test.sh FVGEN FVPREP WORK_DIR
set -euo pipefail
FVGEN=$1 FVPREP=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
first_line() { local out; out=$("$@" 2>&1); head -n 1 <<<"$out"; } # all of the output: no SIGPIPE

mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true)
"$FVGEN" box --cells mixed --n 6,5,4 --shuffle -o mesh.cgns -q

said=$(env -u GLIBC_TUNABLES -u FV_HUGE_PAGES "$FVPREP" mesh.cgns --parts 3 -o huge.zones.h5 -v 2>&1)
line=$(head -n 1 <<<"$said")
if [ "$line" = "large allocations: the sanitizer's allocator (glibc's tunables do not apply)" ]; then
  echo "a sanitizer build: $line (no restart)"
  exit 0
fi
case "$mode" in
  madvise) want="large allocations: GLIBC_TUNABLES glibc.malloc.hugetlb=1 (transparent huge pages: madvise)" ;;
  always) want="large allocations: transparent huge pages (the kernel's default)" ;;
  *) want="large allocations: 4 KiB pages (transparent huge pages: ${mode:-unavailable})" ;;
esac
[ "$line" = "$want" ] || fail "THP mode '$mode': fvprep -v said '$line', expected '$want'"
echo "THP mode '${mode:-unavailable}': $line"

line=$(FV_HUGE_PAGES=0 first_line env -u GLIBC_TUNABLES "$FVPREP" mesh.cgns --parts 3 -o plain.zones.h5 -v)
case "$mode" in
  madvise) [ "$line" = "large allocations: 4 KiB pages (FV_HUGE_PAGES=0)" ] || fail "FV_HUGE_PAGES=0: '$line'" ;;
esac
h5diff -q huge.zones.h5 plain.zones.h5 /zones /zones || fail "zone files differ with and without huge pages"
echo "FV_HUGE_PAGES=0: $line; zones identical"

line=$(GLIBC_TUNABLES=glibc.malloc.hugetlb=0 first_line "$FVPREP" info mesh.cgns -v)
[ "$line" = "large allocations: GLIBC_TUNABLES glibc.malloc.hugetlb=0 (transparent huge pages: ${mode:-unknown})" ] ||
  fail "the user's glibc.malloc.hugetlb=0 was not kept: '$line'"
if [ "$mode" = madvise ]; then
  line=$(GLIBC_TUNABLES=glibc.malloc.perturb=0 first_line "$FVPREP" info mesh.cgns -v)
  [ "$line" = "large allocations: GLIBC_TUNABLES glibc.malloc.perturb=0:glibc.malloc.hugetlb=1 (transparent huge pages: madvise)" ] ||
    fail "another tunable of the user's: '$line'"
fi
echo "a user's GLIBC_TUNABLES is kept"
