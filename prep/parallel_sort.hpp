#pragma once
/// \file parallel_sort.hpp
/// std::sort on the OpenMP threads (libstdc++'s parallel mode) when OpenMP is on, and a merge
/// of sorted runs.
#include <algorithm>
#include <cstdint>
#include <vector>

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

namespace fv {

/// Merges the sorted runs [v[runs[i]], v[runs[i + 1]]) of v (runs ascending, runs.front() = 0,
/// runs.back() = v.size()) into one sorted sequence, pairwise (O(n log runs)).
template <class T, class Less>
void merge_sorted_runs(std::vector<T>& v, std::vector<std::int64_t> runs, Less less) {
  while (runs.size() > 2) {
    std::vector<std::int64_t> next{runs.front()};
    for (std::size_t i = 0; i + 2 < runs.size(); i += 2) {
      std::inplace_merge(v.begin() + runs[i], v.begin() + runs[i + 1], v.begin() + runs[i + 2],
                         less);
      next.push_back(runs[i + 2]);
    }
    if (runs.size() % 2 == 0) next.push_back(runs.back());
    runs = std::move(next);
  }
}

} // namespace fv
