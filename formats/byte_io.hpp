#pragma once
/// \file byte_io.hpp
/// Plain values to and from a byte buffer in host byte order (fvkit requires a little-endian
/// host), for the small records that processes of one run exchange (internal to formats/:
/// fv::ZoneShape, ZoneFileWriter::RemotePlacement).
#include "common/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace fv::bytes {

/// Appends plain values to a byte vector.
class Writer {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t at = out_.size();
    out_.resize(at + sizeof(T));
    std::memcpy(out_.data() + at, &v, sizeof(T));
  }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  std::vector<std::uint8_t> out_;
};

/// Reads plain values from a byte range; running past its end throws fv::Error naming `what`.
class Reader {
 public:
  Reader(const void* data, std::size_t bytes, const char* what)
      : p_(static_cast<const std::uint8_t*>(data)), left_(bytes), what_(what) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    FV_VERIFY(left_ >= sizeof(T),
              what_ << ": truncated (" << left_ << " bytes left, " << sizeof(T) << " needed)");
    T v;
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    left_ -= sizeof(T);
    return v;
  }
  std::size_t left() const { return left_; }
  const char* what() const { return what_; }

 private:
  const std::uint8_t* p_;
  std::size_t left_;
  const char* what_;
};

/// A record's first eight bytes: a four-character tag and a format version.
inline void put_tag(Writer& w, const char (&tag)[5], std::uint32_t version) {
  std::uint32_t t;
  std::memcpy(&t, tag, 4);
  w.put(t);
  w.put(version);
}

/// Reads and checks the tag and version that put_tag() wrote.
inline void check_tag(Reader& r, const char (&tag)[5], std::uint32_t version) {
  std::uint32_t t;
  std::memcpy(&t, tag, 4);
  FV_VERIFY(r.get<std::uint32_t>() == t, r.what() << ": not a " << tag << " record");
  const auto v = r.get<std::uint32_t>();
  FV_VERIFY(v == version,
            r.what() << ": record version " << v << ", this build reads version " << version);
}

} // namespace fv::bytes
