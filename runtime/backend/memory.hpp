#pragma once
/// \file memory.hpp
/// Raw memory of the active backend (cudaMalloc'd device memory with CUDA, host memory on the
/// CPU backend) and fv::DeviceArray<T>, the RAII owner used for every array the kernels touch.
///
///   fv::DeviceArray<real_t> vol(zone.cellVolume, "cellVolume");   // one copy to the device
///   fv::DeviceArray<real_t> res(5 * n, "residual");               // zero-initialised
///   std::vector<real_t> h = res.to_host();                        // copy back (monitoring)
///
/// Memory is allocated on the device that is active (fv::active_device()) when the array is
/// created and freed on the same one. Every CUDA call is checked (FV_CUDA_CHECK -> fv::Error).
#include "common/array.hpp"
#include "common/types.hpp"
#include "runtime/backend/forall.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace fv {
namespace backend {
/// Allocates `bytes` on device `d`, zero-filled; `what` names the array in errors.
void* allocate(Device d, std::size_t bytes, const char* what);
/// Frees `bytes` of memory from allocate(); never throws (errors at exit are ignored).
void release(Device d, void* p, std::size_t bytes) noexcept;
/// Copies between host memory and memory of device `d` (both directions) and within `d`.
void copy_to_device(Device d, void* dst, const void* src, std::size_t bytes);
void copy_to_host(Device d, void* dst, const void* src, std::size_t bytes);
void copy_on_device(Device d, void* dst, const void* src, std::size_t bytes);
/// Waits for all queued kernels of the active device (no-op on the CPU).
void synchronize();
/// Total bytes currently allocated through allocate() (for the memory report).
std::size_t bytes_allocated();
/// The most bytes allocated through allocate() at any one time so far.
std::size_t bytes_peak();
/// The memory of the active device: the GPU's global memory, or the host's physical memory on
/// the CPU backend.
std::size_t device_memory_total();
} // namespace backend

/// An array of n T in the memory of the device that was active at construction. Move-only
/// owner; data() is a device pointer to capture (by value) in fv::forall kernels.
template <class T>
class DeviceArray {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceArray holds plain data only");

 public:
  DeviceArray() = default;
  /// n zero-initialised elements.
  explicit DeviceArray(std::size_t n, const char* what = "array") : n_(n), dev_(active_device()) {
    if (n_) p_ = static_cast<T*>(backend::allocate(dev_, n_ * sizeof(T), what));
  }
  /// A device copy of a host array (copied once).
  DeviceArray(const T* host, std::size_t n, const char* what) : DeviceArray(n, what) {
    if (n_) backend::copy_to_device(dev_, p_, host, n_ * sizeof(T));
  }
  DeviceArray(const Array<T>& a, const char* what) : DeviceArray(a.data(), a.size(), what) {}
  DeviceArray(const std::vector<T>& v, const char* what) : DeviceArray(v.data(), v.size(), what) {}
  ~DeviceArray() { backend::release(dev_, p_, n_ * sizeof(T)); }
  DeviceArray(DeviceArray&& o) noexcept { swap(o); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    DeviceArray tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() noexcept { return p_; }
  const T* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }
  std::size_t bytes() const noexcept { return n_ * sizeof(T); }
  bool empty() const noexcept { return n_ == 0; }

  /// Copies n() elements from host memory.
  void assign(const T* host) {
    if (n_) backend::copy_to_device(dev_, p_, host, bytes());
  }
  /// Copies the whole array from another device array of the same size.
  void assign(const DeviceArray& o) {
    FV_VERIFY(o.n_ == n_, "DeviceArray::assign: size " << o.n_ << " != " << n_);
    if (n_) backend::copy_on_device(dev_, p_, o.p_, bytes());
  }
  /// Copies the array to host memory (size() elements at dst).
  void copy_to(T* dst) const {
    if (n_) backend::copy_to_host(dev_, dst, p_, bytes());
  }
  std::vector<T> to_host() const {
    std::vector<T> h(n_);
    copy_to(h.data());
    return h;
  }

 private:
  void swap(DeviceArray& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(dev_, o.dev_);
  }
  T* p_ = nullptr;
  std::size_t n_ = 0;
  Device dev_ = Device::Cpu;
};

} // namespace fv
