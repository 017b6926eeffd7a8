#pragma once
/// \file huge_pages.hpp
/// Transparent huge pages for fvprep's large arrays.
///
/// fvprep's global passes (face matching, the cell order, the face and node renumbering) read
/// and write arrays of hundreds of MB at scattered places, where every 4 KiB page is a TLB
/// entry. With the kernel's transparent huge pages in `madvise` mode (Debian's default), glibc
/// backs its mappings with 2 MiB pages only when its tunable `glibc.malloc.hugetlb=1` is set,
/// and glibc reads tunables only when a process starts.
#include <string>

namespace fv {

/// When the kernel's THP mode is `madvise`, the C library is glibc 2.35 or later (and its
/// malloc is in use: not in a sanitizer build, whose runtime replaces it), and neither
/// GLIBC_TUNABLES already names `glibc.malloc.hugetlb` nor FV_HUGE_PAGES=0 is set: executes
/// /proc/self/exe again with the same arguments and `glibc.malloc.hugetlb=1` added to
/// GLIBC_TUNABLES (the new image sees it set, so this happens once). Returns otherwise, and
/// when the exec fails (the program then runs as it would have). Call first in main(), before
/// MPI or any thread starts.
void reexec_with_huge_pages(char** argv);

/// One line for `-v`: whether glibc was asked for huge pages, and how.
std::string huge_pages_state();

} // namespace fv
