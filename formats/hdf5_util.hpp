#pragma once
/// \file hdf5_util.hpp
/// The one HDF5 layer of fvkit: RAII identifiers, type tables, attribute and string helpers
/// over the HDF5 C API. The zone-file writer and reader use it directly (they map datasets
/// themselves); the output files (solution, restart) use its File class (formats/hdf5_file.hpp).
/// Internal to formats/: other layers use the file APIs, never HDF5 directly.
///
/// Strings are stored fixed-length (NUL-padded). Variable-length strings are refused when read:
/// HDF5 1.10 reads them through the file's global heap and trusts a corrupt heap object's length
/// (a crash in H5HG_read found by tests/fuzz/fuzz_zone_file), so a corrupt file could not be
/// refused cleanly.
#include <hdf5.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fv::h5 {

/// Owns one HDF5 identifier and closes it with the matching H5?close on destruction.
class Id {
 public:
  using Closer = herr_t (*)(hid_t);
  Id() = default;
  Id(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Id() { reset(); }
  Id(Id&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), closer_(o.closer_) {}
  Id& operator=(Id&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, H5I_INVALID_HID);
      closer_ = o.closer_;
    }
    return *this;
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  explicit operator bool() const { return valid(); }
  /// Gives up ownership (the caller closes the id).
  hid_t release() { return std::exchange(id_, H5I_INVALID_HID); }
  void reset() {
    if (id_ >= 0 && closer_) closer_(id_);
    id_ = H5I_INVALID_HID;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

inline Id file(hid_t id) {
  return Id(id, H5Fclose);
}
inline Id group(hid_t id) {
  return Id(id, H5Gclose);
}
inline Id dataset(hid_t id) {
  return Id(id, H5Dclose);
}
inline Id dataspace(hid_t id) {
  return Id(id, H5Sclose);
}
inline Id attribute(hid_t id) {
  return Id(id, H5Aclose);
}
inline Id datatype(hid_t id) {
  return Id(id, H5Tclose);
}
inline Id plist(hid_t id) {
  return Id(id, H5Pclose);
}

/// Silences HDF5's error-stack printing while in scope and restores the previous handler.
class Quiet {
 public:
  Quiet() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~Quiet() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  Quiet(const Quiet&) = delete;
  Quiet& operator=(const Quiet&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

/// Turns off HDF5's automatic printing of error stacks (fvkit reports its own one-line
/// errors, with the innermost HDF5 message from error_detail()). Idempotent.
void silence_errors();

/// The most specific message of the current HDF5 error stack (e.g. "truncated file: eof =
/// ..."), or "" when the stack is empty. Clears the stack.
std::string error_detail();

/// File access properties without HDF5's file locks (zone files are read-only inputs, often on
/// parallel file systems without flock()). Every read-only open of a zone file uses them: HDF5
/// refuses to open one file twice with different locking settings.
Id unlocked_access();

/// Little-endian file type of T (H5T_STD_I32LE, H5T_IEEE_F64LE, ...) and the native memory type.
template <class T>
hid_t file_type();
template <class T>
hid_t mem_type();

template <>
inline hid_t file_type<std::int8_t>() {
  return H5T_STD_I8LE;
}
template <>
inline hid_t file_type<std::int32_t>() {
  return H5T_STD_I32LE;
}
template <>
inline hid_t file_type<std::int64_t>() {
  return H5T_STD_I64LE;
}
template <>
inline hid_t file_type<std::uint64_t>() {
  return H5T_STD_U64LE;
}
template <>
inline hid_t file_type<double>() {
  return H5T_IEEE_F64LE;
}
template <>
inline hid_t mem_type<std::int8_t>() {
  return H5T_NATIVE_INT8;
}
template <>
inline hid_t mem_type<std::int32_t>() {
  return H5T_NATIVE_INT32;
}
template <>
inline hid_t mem_type<std::int64_t>() {
  return H5T_NATIVE_INT64;
}
template <>
inline hid_t mem_type<std::uint64_t>() {
  return H5T_NATIVE_UINT64;
}
template <>
inline hid_t mem_type<double>() {
  return H5T_NATIVE_DOUBLE;
}

/// Human-readable name of the element type ("int32 little-endian", ...).
template <class T>
const char* type_name();
template <>
inline const char* type_name<std::int8_t>() {
  return "int8 little-endian";
}
template <>
inline const char* type_name<std::int32_t>() {
  return "int32 little-endian";
}
template <>
inline const char* type_name<std::int64_t>() {
  return "int64 little-endian";
}
template <>
inline const char* type_name<std::uint64_t>() {
  return "uint64 little-endian";
}
template <>
inline const char* type_name<double>() {
  return "float64 little-endian";
}

/// Writes a scalar attribute of type T on object `obj` (a file, group or dataset). Returns
/// false on HDF5 failure.
template <class T>
bool write_attr(hid_t obj, const char* name, const T& value) {
  Id space = dataspace(H5Screate(H5S_SCALAR));
  Id attr = attribute(H5Acreate2(obj, name, file_type<T>(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  return attr && H5Awrite(attr.get(), mem_type<T>(), &value) >= 0;
}

/// Reads a scalar numeric attribute; false if absent, not scalar or not convertible.
template <class T>
bool read_attr(hid_t obj, const char* name, T& value) {
  if (H5Aexists(obj, name) <= 0) return false;
  Id attr = attribute(H5Aopen(obj, name, H5P_DEFAULT));
  if (!attr) return false;
  Id space = dataspace(H5Aget_space(attr.get()));
  if (!space || H5Sget_simple_extent_npoints(space.get()) != 1) return false;
  return H5Aread(attr.get(), mem_type<T>(), &value) >= 0;
}

/// Writes a 1-D attribute of the N values of `values`. Returns false on HDF5 failure.
template <class T, std::size_t N>
bool write_attr(hid_t obj, const char* name, const std::array<T, N>& values) {
  const hsize_t n = N;
  Id space = dataspace(H5Screate_simple(1, &n, &n));
  Id attr = attribute(H5Acreate2(obj, name, file_type<T>(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  return attr && H5Awrite(attr.get(), mem_type<T>(), values.data()) >= 0;
}

/// Reads a 1-D numeric attribute of exactly N values; false if absent, of another size or
/// not convertible.
template <class T, std::size_t N>
bool read_attr(hid_t obj, const char* name, std::array<T, N>& values) {
  if (H5Aexists(obj, name) <= 0) return false;
  Id attr = attribute(H5Aopen(obj, name, H5P_DEFAULT));
  if (!attr) return false;
  Id space = dataspace(H5Aget_space(attr.get()));
  if (!space || H5Sget_simple_extent_ndims(space.get()) != 1 ||
      H5Sget_simple_extent_npoints(space.get()) != static_cast<hssize_t>(N))
    return false;
  return H5Aread(attr.get(), mem_type<T>(), values.data()) >= 0;
}

/// Largest string (attribute, or all entries of a string dataset) read back, in bytes: a
/// corrupt size cannot make a reader allocate more.
inline constexpr std::size_t kMaxStringBytes = std::size_t{1} << 26;

/// Writes a scalar fixed-length (NUL-padded, UTF-8) string attribute, replacing one of the
/// same name. Returns false on HDF5 failure.
bool write_string_attr(hid_t obj, const char* name, const std::string& value);
/// Reads a scalar fixed-length string attribute (trailing NULs dropped). False when absent,
/// not a scalar string, variable-length, or larger than kMaxStringBytes.
bool read_string_attr(hid_t obj, const char* name, std::string& value);

/// Writes a 1-D dataset `name` (relative to `parent`) of fixed-length strings, as wide as the
/// longest entry plus one NUL. Returns false on HDF5 failure.
/// `dcpl`: its creation properties (the zone-file writer turns off object timestamps).
bool write_string_dataset(hid_t parent, const char* name, const std::vector<std::string>& values,
                          hid_t dcpl = H5P_DEFAULT);
/// Reads a 1-D fixed-length string dataset written by write_string_dataset(). False when
/// absent, not strings, variable-length, or larger than kMaxStringBytes in all.
bool read_string_dataset(hid_t parent, const char* name, std::vector<std::string>& values);

} // namespace fv::h5
