#pragma once
/// \file parallel_work.hpp
/// When a loop of fvprep runs on the OpenMP threads: large enough, and not inside an active
/// parallel region. A zone built by one of several pipeline threads (prep/zones.cpp) takes the
/// serial path; the only zone of a one-part prepare, built outside an active region, uses every
/// thread. The loops that use it give the same results for any thread count, and so do the
/// tasks of run_concurrently().
#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

/// True when `work` items (cells, faces, nodes or relation entries) are worth the threads here.
inline bool threads_pay_off(std::int64_t work) {
#if defined(_OPENMP)
  return work > 200000 && !omp_in_parallel() && omp_get_max_threads() > 1;
#else
  (void)work;
  return false;
#endif
}

/// Runs independent tasks, each on a thread of its own where `work` items make threads pay
/// off (threads_pay_off()), else one after the other in the given order. Tasks must not share
/// what they write; what each computes is then the same either way (their own loops see an
/// active parallel region and run serially). The exception of the first task, in the given
/// order, that threw is rethrown once all have finished.
inline void run_concurrently(std::int64_t work, const std::vector<std::function<void()>>& tasks) {
  const int n = static_cast<int>(tasks.size());
#if defined(_OPENMP)
  const int nThreads = std::max(1, std::min(n, omp_get_max_threads()));
#else
  const int nThreads = 1;
#endif
  std::vector<std::exception_ptr> errors(tasks.size());
#pragma omp parallel for schedule(dynamic, 1)                                                      \
    num_threads(nThreads) if (threads_pay_off(work) && nThreads > 1)
  for (int i = 0; i < n; ++i) {
    try {
      tasks[static_cast<std::size_t>(i)]();
    } catch (...) {
      errors[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

} // namespace fv
