#pragma once
/// \file parallel_work.hpp
/// When a loop of fvprep runs on the OpenMP threads: large enough, and not inside an active
/// parallel region. A zone built by one of several pipeline threads (prep/zones.cpp) takes the
/// serial path; the only zone of a one-part prepare, built outside an active region, uses every
/// thread. The loops that use it give the same results for any thread count.
#include <cstdint>

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

} // namespace fv
