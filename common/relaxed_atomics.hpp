#pragma once
/// \file relaxed_atomics.hpp
/// The two atomic updates the threaded scatters of fvprep use (counts and slots of a CSR fill,
/// first positions): relaxed, because every result is put in a deterministic order afterwards
/// (rows sorted, minima compared), so no ordering between threads is needed.
#include "common/types.hpp"

namespace fv {

/// Returns `counter` and adds 1 to it, atomically.
inline idx_t fetch_increment(idx_t& counter) {
  return __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
}

/// Sets `target` to min(target, value), atomically.
inline void store_min(idx_t& target, idx_t value) {
  idx_t cur = __atomic_load_n(&target, __ATOMIC_RELAXED);
  while (value < cur && !__atomic_compare_exchange_n(&target, &cur, value, true, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED)) {
  }
}

} // namespace fv
