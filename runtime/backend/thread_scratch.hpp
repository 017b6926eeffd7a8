#pragma once
/// \file thread_scratch.hpp
/// fv::ThreadScratch: a small array private to the thread that runs one index of an fv::forall
/// functor, indexed by values known only at run time. On the CUDA backend it lives in shared
/// memory, one column per thread of the block (element i of thread t at i * Block + t: the
/// threads of a warp touch consecutive words, so an access is one shared-memory request with no
/// bank conflict), where a local array indexed at run time would go to local memory. Elsewhere
/// it is an ordinary array. Results never depend on where it lives.
///
/// Block must be the block size of the launch (fv::forall<Block>: with larger blocks the
/// columns would overlap; not checked, to keep the kernels' code as measured); each kernel that
/// uses it holds L * Block values of T in static shared memory. No synchronisation is needed or
/// done: a thread touches only its own column. On the GPU every object of one ThreadScratch type in
/// a kernel is that one array: keep at most one of each type alive at a time.
#include "common/types.hpp"
#include "runtime/backend/forall.hpp"

namespace fv {

template <class T, int L, int Block = kForallBlock>
class ThreadScratch {
 public:
#if defined(__CUDA_ARCH__)
  __device__ FV_FORCEINLINE ThreadScratch() {
    __shared__ T columns[L * Block];
    mine_ = columns + threadIdx.x;
  }
  __device__ FV_FORCEINLINE T& operator[](int i) {
    return mine_[i * Block];
  }

 private:
  T* mine_;
#else
  FV_FORCEINLINE T& operator[](int i) {
    return values_[i];
  }

 private:
  T values_[L];
#endif
};

} // namespace fv
