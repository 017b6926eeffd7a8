#pragma once
/// \file side_stream.hpp
/// fv::backend::SideStream: a second queue of device work that runs concurrently with the
/// kernels of the compute stream (the one fv::forall launches on) and is ordered against it only
/// through explicit points. Halo exchanges pack, stage through page-locked host memory and
/// unpack on it while the interior kernels run, so that neither the staging copies nor the
/// host's wait for them stall the compute stream:
///
///   side.wait_for_compute();                 // after the kernels that produced the field
///   side.launch([&] { pack(...); });         // fv::forall kernels queued on the side stream
///   side.copy_to_host_async(host, dev, n);   // page-locked host memory
///   side.mark();  ...  if (side.done()) post_sends();   // or side.wait()
///   side.copy_to_device_async(dev, host, n); side.launch([&] { unpack(...); });
///   side.compute_waits();                    // later compute kernels see the unpacked values
///
/// CUDA: a non-blocking stream of the highest priority (its small kernels overtake queued
/// interior blocks) and three events. CPU backend: every operation runs at once on the calling
/// thread, so a mark is always done. Owned resources are released in the destructor (errors at
/// exit ignored). Not copyable.
#include "runtime/backend/forall.hpp"

#include <cstddef>
#include <memory>

namespace fv::backend {

class SideStream {
 public:
  /// On the device active now (fv::active_device()).
  SideStream();
  ~SideStream();
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;

  /// Work queued on the side stream from now on starts after all work queued so far on the
  /// compute stream.
  void wait_for_compute();
  /// Work queued on the compute stream from now on starts after all work queued so far on the
  /// side stream (the host does not wait).
  void compute_waits();
  /// Runs body() with fv::forall launches going to the side stream.
  template <class F>
  void launch(F&& body) {
    Redirect r(*this);
    body();
  }
  /// Asynchronous copies on the side stream; the host memory must be page-locked
  /// (fv::PinnedBuffer) and stay untouched until a later mark() is done.
  void copy_to_host_async(void* dst, const void* src, std::size_t bytes);
  void copy_to_device_async(void* dst, const void* src, std::size_t bytes);
  /// Marks the work queued on the side stream so far; done() tells whether it has completed,
  /// wait() blocks the host until it has.
  void mark();
  bool done() const;
  void wait() const;
  /// The underlying cudaStream_t (nullptr on the CPU backend), for libraries that take a stream
  /// (NCCL, CUDA IPC copies).
  void* native_handle() const;

 private:
  /// Redirects fv::forall to the side stream for its lifetime (restores the previous stream).
  struct Redirect {
    explicit Redirect(SideStream& s);
    ~Redirect();
    Redirect(const Redirect&) = delete;
    Redirect& operator=(const Redirect&) = delete;
    void* previous = nullptr;
  };
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fv::backend
