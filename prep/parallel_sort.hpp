#pragma once
/// \file parallel_sort.hpp
/// std::sort on the OpenMP threads (libstdc++'s parallel mode) when OpenMP is on.
#include <algorithm>

#if defined(_OPENMP)
#include <parallel/algorithm>
#endif

namespace fv {

/// Sorts [first, last) by `less` (not stable), on every OpenMP thread when there are several.
template <class It, class Less>
void parallel_sort(It first, It last, Less less) {
#if defined(_OPENMP)
  __gnu_parallel::sort(first, last, less);
#else
  std::sort(first, last, less);
#endif
}

} // namespace fv
