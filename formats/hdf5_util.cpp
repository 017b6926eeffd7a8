#include "formats/hdf5_util.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace fv::h5 {

void silence_errors() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

namespace {
herr_t first_error(unsigned n, const H5E_error2_t* err, void* client) {
  auto* out = static_cast<std::string*>(client);
  if (n == 0 && err && err->desc) *out = err->desc;
  return 0;
}
} // namespace

std::string error_detail() {
  std::string msg;
  // Walking upward starts at the innermost (most specific) error.
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first_error, &msg);
  H5Eclear2(H5E_DEFAULT);
  return msg;
}

Id unlocked_access() {
  Id fapl = plist(H5Pcreate(H5P_FILE_ACCESS));
#if H5_VERSION_GE(1, 10, 7)
  H5Pset_file_locking(fapl.get(), false, true);
#endif
  return fapl;
}

namespace {

/// Fixed-length NUL-padded UTF-8 string type of `size` bytes (at least 1).
Id fixed_string_type(std::size_t size) {
  Id t = datatype(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.get(), size == 0 ? 1 : size);
  H5Tset_strpad(t.get(), H5T_STR_NULLPAD);
  H5Tset_cset(t.get(), H5T_CSET_UTF8);
  return t;
}

/// Byte size of one entry of a stored string type, 0 when the type is not a fixed-length
/// string of at most kMaxStringBytes.
std::size_t fixed_string_size(hid_t type) {
  if (type < 0 || H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) != 0) return 0;
  const std::size_t size = H5Tget_size(type);
  return size <= kMaxStringBytes ? size : 0;
}

std::string until_nul(const char* p, std::size_t n) {
  std::size_t len = 0;
  while (len < n && p[len] != '\0')
    ++len;
  return std::string(p, len);
}

} // namespace

bool write_string_attr(hid_t obj, const char* name, const std::string& value) {
  if (H5Aexists(obj, name) > 0 && H5Adelete(obj, name) < 0) return false;
  Id type = fixed_string_type(value.size());
  Id space = dataspace(H5Screate(H5S_SCALAR));
  Id attr = attribute(H5Acreate2(obj, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  const std::string padded = value.empty() ? std::string(1, '\0') : value;
  return attr && H5Awrite(attr.get(), type.get(), padded.data()) >= 0;
}

bool read_string_attr(hid_t obj, const char* name, std::string& value) {
  if (H5Aexists(obj, name) <= 0) return false;
  Id attr = attribute(H5Aopen(obj, name, H5P_DEFAULT));
  if (!attr) return false;
  Id ftype = datatype(H5Aget_type(attr.get()));
  const std::size_t size = fixed_string_size(ftype.get());
  Id space = dataspace(H5Aget_space(attr.get()));
  if (size == 0 || !space || H5Sget_simple_extent_npoints(space.get()) != 1) return false;
  Id mem = fixed_string_type(size);
  std::string buf(size, '\0');
  if (H5Aread(attr.get(), mem.get(), buf.data()) < 0) return false;
  value = until_nul(buf.data(), size);
  return true;
}

bool write_string_dataset(hid_t parent, const char* name, const std::vector<std::string>& values,
                          hid_t dcpl) {
  std::size_t width = 1;
  for (const std::string& v : values)
    width = std::max(width, v.size() + 1);
  std::string packed(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    packed.replace(i * width, values[i].size(), values[i]);
  Id type = fixed_string_type(width);
  const hsize_t n = values.size();
  Id space = dataspace(H5Screate_simple(1, &n, &n));
  Id ds =
      dataset(H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT, dcpl, H5P_DEFAULT));
  return ds && (n == 0 ||
                H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) >= 0);
}

bool read_string_dataset(hid_t parent, const char* name, std::vector<std::string>& values) {
  Id ds = dataset(H5Dopen2(parent, name, H5P_DEFAULT));
  if (!ds) return false;
  Id ftype = datatype(H5Dget_type(ds.get()));
  const std::size_t width = fixed_string_size(ftype.get());
  Id space = dataspace(H5Dget_space(ds.get()));
  if (width == 0 || !space || H5Sget_simple_extent_ndims(space.get()) != 1) return false;
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0 || static_cast<std::size_t>(n) > kMaxStringBytes / width) return false;
  std::string packed(static_cast<std::size_t>(n) * width, '\0');
  Id mem = fixed_string_type(width);
  if (n > 0 && H5Dread(ds.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) < 0)
    return false;
  values.clear();
  for (hssize_t i = 0; i < n; ++i)
    values.push_back(until_nul(packed.data() + static_cast<std::size_t>(i) * width, width));
  return true;
}

} // namespace fv::h5
