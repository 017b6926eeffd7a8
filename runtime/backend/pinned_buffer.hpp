#pragma once
/// \file pinned_buffer.hpp
/// fv::PinnedBuffer<T>: an owning host array for device <-> host transfers (MPI staging).
/// Page-locked (cudaMallocHost) when made for the CUDA device, so that copies run at full PCIe/
/// NVLink speed; ordinary aligned host memory otherwise. Move-only. Device arrays themselves
/// are fv::DeviceArray (memory.hpp).
#include "runtime/backend/forall.hpp"

#include <cstddef>
#include <utility>

namespace fv {
namespace backend {
/// Host memory for transfers with device `d` (page-locked for Cuda); throws naming `what`.
void* allocate_pinned(Device d, std::size_t bytes, const char* what);
void release_pinned(Device d, void* p) noexcept;
} // namespace backend

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  /// n uninitialised elements for transfers with device `d`.
  PinnedBuffer(std::size_t n, Device d, const char* what = "staging buffer")
      : p_(static_cast<T*>(backend::allocate_pinned(d, n * sizeof(T), what))), n_(n), dev_(d) {}
  ~PinnedBuffer() { backend::release_pinned(dev_, p_); }
  PinnedBuffer(PinnedBuffer&& o) noexcept { swap(o); }
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    PinnedBuffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() noexcept { return p_; }
  const T* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }

 private:
  void swap(PinnedBuffer& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(dev_, o.dev_);
  }
  T* p_ = nullptr;
  std::size_t n_ = 0;
  Device dev_ = Device::Cpu;
};

} // namespace fv
