#pragma once
/// \file array.hpp
/// fv::Array<T>: a contiguous host array that either owns its storage or views memory owned by
/// someone else (a memory-mapped zone file), kept alive by a shared keep-alive handle.
///
/// Copies are shallow (they share storage), like a std::shared_ptr; use clone() for a deep
/// copy. A view of a read-only mapping must not be written: the mapping is PROT_READ, so a
/// write faults at once (is_view() tells them apart; reading through a non-const Array is fine).
#include "common/error.hpp"

#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace fv {

template <class T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "fv::Array holds plain data only");

public:
  using value_type = T;

  Array() = default;
  /// Owning array of n value-initialised elements.
  explicit Array(std::size_t n, const T& value = T{}) { adopt(std::vector<T>(n, value)); }
  /// Owning array taking over a vector's storage (no copy).
  Array(std::vector<T>&& v) { adopt(std::move(v)); } // NOLINT: implicit by design
  Array(std::initializer_list<T> init) { adopt(std::vector<T>(init)); }

  /// Read-only view of n elements at p, kept valid by `keep_alive` (e.g. a mapping).
  static Array view(const T* p, std::size_t n, std::shared_ptr<const void> keep_alive) {
    Array a;
    a.data_ = const_cast<T*>(p);
    a.size_ = n;
    a.keep_ = std::move(keep_alive);
    a.readonly_ = true;
    return a;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool is_view() const noexcept { return readonly_; }

  const T* data() const noexcept { return data_; }
  T* data() { return data_; }
  const T& operator[](std::size_t i) const {
    FV_ASSERT(i < size_, "index " << i << " out of range " << size_);
    return data_[i];
  }
  T& operator[](std::size_t i) {
    FV_ASSERT(i < size_, "index " << i << " out of range " << size_);
    return data_[i];
  }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }

  /// Deep, owning copy.
  Array clone() const { return Array(std::vector<T>(begin(), end())); }
  /// Owning copy as a std::vector.
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

private:
  void adopt(std::vector<T>&& v) {
    auto holder = std::make_shared<std::vector<T>>(std::move(v));
    data_ = holder->data();
    size_ = holder->size();
    keep_ = std::move(holder);
    readonly_ = false;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<const void> keep_;
  bool readonly_ = false;
};

} // namespace fv
