#pragma once
/// \file device_buffer.hpp
/// Minimal memory of the active backend, for the runtime until a richer device array lands:
///   fv::DeviceBuffer<T>  owning, move-only array in the memory fv::forall kernels read: GPU
///                        global memory (cudaMalloc) when the active device is CUDA, ordinary
///                        host memory otherwise. Its data() may be captured by forall lambdas.
///   fv::HostBuffer<T>    owning host array for transfers: page-locked (cudaMallocHost) when
///                        the active device is CUDA, so that copies are fast; ordinary
///                        otherwise.
/// Copies between them go through fv::backend::copy_* (synchronous with the current stream).
/// Backend #ifdefs live in device_buffer.cpp only.
#include "common/types.hpp"
#include "runtime/backend/forall.hpp"

#include <cstddef>
#include <utility>

namespace fv {
namespace backend {

/// Allocates `bytes` in the memory of `where` (nullptr for 0 bytes); throws fv::Error naming
/// `what` when out of memory.
void* allocate(std::size_t bytes, Device where, const char* what);
void deallocate(void* p, Device where) noexcept;
/// Host memory, page-locked when `where` is Cuda.
void* allocate_host(std::size_t bytes, Device where, const char* what);
void deallocate_host(void* p, Device where) noexcept;

/// Copies between device memory of `where` and host memory; complete when they return.
void copy_to_host(void* host_dst, const void* dev_src, std::size_t bytes, Device where);
void copy_to_device(void* dev_dst, const void* host_src, std::size_t bytes, Device where);
/// Waits until all kernels queued on the current stream have finished (no-op on the CPU).
void synchronize(Device where);

} // namespace backend

/// Owning array in the active backend's memory (see file comment). Move-only.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n, Device where = active_device(),
                        const char* what = "device buffer")
      : data_(static_cast<T*>(backend::allocate(n * sizeof(T), where, what))), size_(n),
        where_(where) {}
  ~DeviceBuffer() { backend::deallocate(data_, where_); }
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    DeviceBuffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  Device device() const { return where_; }

  /// Copies n host values in (n <= size()).
  void copy_from_host(const T* src, std::size_t n) {
    backend::copy_to_device(data_, src, n * sizeof(T), where_);
  }
  /// Copies the first n values out to host memory.
  void copy_to_host(T* dst, std::size_t n) const {
    backend::copy_to_host(dst, data_, n * sizeof(T), where_);
  }

 private:
  void swap(DeviceBuffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(where_, o.where_);
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  Device where_ = Device::Cpu;
};

/// Owning host array, page-locked when used with a CUDA device (see file comment). Move-only.
template <class T>
class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::size_t n, Device where = active_device(),
                      const char* what = "host buffer")
      : data_(static_cast<T*>(backend::allocate_host(n * sizeof(T), where, what))), size_(n),
        where_(where) {}
  ~HostBuffer() { backend::deallocate_host(data_, where_); }
  HostBuffer(HostBuffer&& o) noexcept { swap(o); }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    HostBuffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  void swap(HostBuffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(where_, o.where_);
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  Device where_ = Device::Cpu;
};

} // namespace fv
