#include "formats/hdf5_util.hpp"

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

namespace {
Id vlen_string_type() {
  Id t = datatype(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.get(), H5T_VARIABLE);
  H5Tset_cset(t.get(), H5T_CSET_UTF8);
  return t;
}
} // namespace

bool write_string_attr(hid_t obj, const char* name, const std::string& value) {
  Id type = vlen_string_type();
  Id space = dataspace(H5Screate(H5S_SCALAR));
  Id attr = attribute(H5Acreate2(obj, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  const char* p = value.c_str();
  return attr && H5Awrite(attr.get(), type.get(), &p) >= 0;
}

bool read_string_attr(hid_t obj, const char* name, std::string& value) {
  if (H5Aexists(obj, name) <= 0) return false;
  Id attr = attribute(H5Aopen(obj, name, H5P_DEFAULT));
  if (!attr) return false;
  Id ftype = datatype(H5Aget_type(attr.get()));
  if (!ftype || H5Tget_class(ftype.get()) != H5T_STRING || H5Tis_variable_str(ftype.get()) <= 0)
    return false;
  Id type = vlen_string_type();
  char* p = nullptr;
  if (H5Aread(attr.get(), type.get(), &p) < 0) return false;
  value = p ? p : "";
  H5free_memory(p);
  return true;
}

} // namespace fv::h5
