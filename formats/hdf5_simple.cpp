#include "formats/hdf5_simple.hpp"

#include "common/error.hpp"

#include <filesystem>
#include <hdf5.h>
#include <type_traits>

namespace fv::h5 {
namespace {

/// Silences HDF5's own error stack printing while an fvkit call runs (we report errors ourselves)
/// and restores the previous handler afterwards.
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

/// Closes an hid_t with the matching H5?close on scope exit.
class Hid {
 public:
  using Closer = herr_t (*)(hid_t);
  Hid(hid_t id, Closer close) : id_(id), close_(close) {}
  ~Hid() {
    if (id_ >= 0) close_(id_);
  }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;
  operator hid_t() const { return id_; } // NOLINT: used as the handle
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  Closer close_;
};

template <class T>
hid_t mem_type();
template <>
hid_t mem_type<real_t>() {
  return H5T_NATIVE_DOUBLE;
}
template <>
hid_t mem_type<std::int64_t>() {
  return H5T_NATIVE_INT64;
}
template <>
hid_t mem_type<std::int32_t>() {
  return H5T_NATIVE_INT32;
}
template <>
hid_t mem_type<std::int8_t>() {
  return H5T_NATIVE_INT8;
}

template <class T>
void write_dataset(hid_t file, const std::string& path, const std::string& name, const T* data,
                   std::uint64_t rows, int cols) {
  Quiet quiet;
  FV_VERIFY(cols >= 1, path << ": dataset " << name << ": bad column count " << cols);
  const hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols)};
  Hid space(H5Screate_simple(cols == 1 ? 1 : 2, dims, nullptr), H5Sclose);
  Hid lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(lcpl, 1);
  Hid dset(H5Dcreate2(file, name.c_str(), mem_type<T>(), space, lcpl, H5P_DEFAULT, H5P_DEFAULT),
           H5Dclose);
  FV_VERIFY(space.ok() && dset.ok(), path << ": cannot create dataset " << name);
  if (rows > 0) {
    FV_VERIFY(H5Dwrite(dset, mem_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0,
              path << ": cannot write dataset " << name);
  }
}

template <class T>
std::vector<T> read_dataset(hid_t file, const std::string& path, const std::string& name) {
  Quiet quiet;
  Hid dset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  FV_VERIFY(dset.ok(), path << ": dataset " << name << " is missing");
  Hid space(H5Dget_space(dset), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  FV_VERIFY(n >= 0, path << ": dataset " << name << ": cannot read its size");
  std::vector<T> out(static_cast<std::size_t>(n));
  if (n > 0) {
    FV_VERIFY(H5Dread(dset, mem_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) >= 0,
              path << ": cannot read dataset " << name << " as " << (sizeof(T) * 8) << "-bit "
                   << (std::is_floating_point_v<T> ? "reals" : "integers"));
  }
  return out;
}

Hid open_attr(hid_t file, const std::string& path, const std::string& name) {
  FV_VERIFY(H5Aexists(file, name.c_str()) > 0, path << ": attribute '" << name << "' is missing");
  return Hid(H5Aopen(file, name.c_str(), H5P_DEFAULT), H5Aclose);
}

template <class T>
void write_scalar_attr(hid_t file, const std::string& path, const std::string& name, T value) {
  Quiet quiet;
  if (H5Aexists(file, name.c_str()) > 0) H5Adelete(file, name.c_str());
  Hid space(H5Screate(H5S_SCALAR), H5Sclose);
  Hid a(H5Acreate2(file, name.c_str(), mem_type<T>(), space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  FV_VERIFY(a.ok() && H5Awrite(a, mem_type<T>(), &value) >= 0,
            path << ": cannot write attribute " << name);
}

template <class T>
T read_scalar_attr(hid_t file, const std::string& path, const std::string& name) {
  Quiet quiet;
  Hid a = open_attr(file, path, name);
  Hid space(H5Aget_space(a), H5Sclose);
  FV_VERIFY(H5Sget_simple_extent_npoints(space) == 1,
            path << ": attribute '" << name << "' is not a single value");
  T value{};
  FV_VERIFY(H5Aread(a, mem_type<T>(), &value) >= 0,
            path << ": attribute '" << name << "' is not a number");
  return value;
}

} // namespace

File File::create(const std::string& path) {
  Quiet quiet;
  // HDF5 >= 1.8 format: attributes larger than 64 KiB (long configuration texts) are allowed.
  Hid fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST);
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  FV_VERIFY(id >= 0, path << ": cannot create HDF5 file");
  return File(id, path);
}

File File::open_read(const std::string& path, const std::string& what) {
  Quiet quiet;
  std::error_code ec;
  FV_VERIFY(std::filesystem::is_regular_file(path, ec), path << ": " << what << " not found");
  FV_VERIFY(H5Fis_hdf5(path.c_str()) > 0,
            path << ": cannot open " << what << ": unreadable or not an HDF5 file");
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  FV_VERIFY(id >= 0, path << ": cannot open " << what);
  return File(id, path);
}

File::~File() {
  if (id_ >= 0) H5Fclose(id_);
}

void File::make_group(const std::string& name) {
  Quiet quiet;
  if (H5Lexists(id_, name.c_str(), H5P_DEFAULT) > 0) return;
  Hid lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(lcpl, 1);
  Hid g(H5Gcreate2(id_, name.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  FV_VERIFY(g.ok(), path_ << ": cannot create group " << name);
}

void File::write(const std::string& name, const real_t* d, std::uint64_t rows, int cols) {
  write_dataset(id_, path_, name, d, rows, cols);
}
void File::write(const std::string& name, const std::int64_t* d, std::uint64_t rows, int cols) {
  write_dataset(id_, path_, name, d, rows, cols);
}
void File::write(const std::string& name, const std::int32_t* d, std::uint64_t rows, int cols) {
  write_dataset(id_, path_, name, d, rows, cols);
}
void File::write(const std::string& name, const std::int8_t* d, std::uint64_t rows, int cols) {
  write_dataset(id_, path_, name, d, rows, cols);
}

bool File::exists(const std::string& name) const {
  Quiet quiet;
  // Check each path component so that a missing parent group is not an HDF5 error.
  std::size_t pos = 0;
  while (true) {
    pos = name.find('/', pos + 1);
    const std::string prefix = name.substr(0, pos);
    if (H5Lexists(id_, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (pos == std::string::npos) return true;
  }
}

std::vector<std::uint64_t> File::shape(const std::string& name) const {
  Quiet quiet;
  Hid dset(H5Dopen2(id_, name.c_str(), H5P_DEFAULT), H5Dclose);
  FV_VERIFY(dset.ok(), path_ << ": dataset " << name << " is missing");
  Hid space(H5Dget_space(dset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space);
  FV_VERIFY(rank >= 0 && rank <= 8, path_ << ": dataset " << name << ": bad rank");
  hsize_t dims[8] = {};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  return std::vector<std::uint64_t>(dims, dims + rank);
}

std::vector<real_t> File::read_real(const std::string& name) const {
  return read_dataset<real_t>(id_, path_, name);
}
std::vector<std::int64_t> File::read_int64(const std::string& name) const {
  return read_dataset<std::int64_t>(id_, path_, name);
}

std::vector<std::string> File::members(const std::string& group) const {
  Quiet quiet;
  std::vector<std::string> out;
  Hid g(H5Gopen2(id_, group.c_str(), H5P_DEFAULT), H5Gclose);
  FV_VERIFY(g.ok(), path_ << ": group " << group << " is missing");
  H5G_info_t info;
  FV_VERIFY(H5Gget_info(g, &info) >= 0, path_ << ": cannot list group " << group);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t len =
        H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    FV_VERIFY(len >= 0, path_ << ": cannot list group " << group);
    std::string name(static_cast<std::size_t>(len) + 1, '\0');
    H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(),
                       H5P_DEFAULT);
    name.resize(static_cast<std::size_t>(len));
    out.push_back(name);
  }
  return out;
}

void File::attr(const std::string& name, const std::string& value) {
  Quiet quiet;
  if (H5Aexists(id_, name.c_str()) > 0) H5Adelete(id_, name.c_str());
  Hid type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, value.empty() ? 1 : value.size());
  H5Tset_cset(type, H5T_CSET_UTF8);
  H5Tset_strpad(type, H5T_STR_NULLPAD);
  Hid space(H5Screate(H5S_SCALAR), H5Sclose);
  Hid a(H5Acreate2(id_, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  const char zero = '\0';
  FV_VERIFY(a.ok() && H5Awrite(a, type, value.empty() ? &zero : value.data()) >= 0,
            path_ << ": cannot write attribute " << name);
}
void File::attr(const std::string& name, std::int64_t value) {
  write_scalar_attr(id_, path_, name, value);
}
void File::attr(const std::string& name, double value) {
  write_scalar_attr(id_, path_, name, value);
}

bool File::has_attr(const std::string& name) const {
  Quiet quiet;
  return H5Aexists(id_, name.c_str()) > 0;
}

std::string File::attr_string(const std::string& name) const {
  Quiet quiet;
  Hid a = open_attr(id_, path_, name);
  Hid type(H5Aget_type(a), H5Tclose);
  FV_VERIFY(H5Tget_class(type) == H5T_STRING,
            path_ << ": attribute '" << name << "' is not a string");
  if (H5Tis_variable_str(type) > 0) {
    Hid mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem, H5T_VARIABLE);
    char* s = nullptr;
    FV_VERIFY(H5Aread(a, mem, &s) >= 0, path_ << ": cannot read attribute " << name);
    std::string out = s ? s : "";
    H5free_memory(s);
    return out;
  }
  const std::size_t size = H5Tget_size(type);
  std::string out(size, '\0');
  FV_VERIFY(H5Aread(a, type, out.data()) >= 0, path_ << ": cannot read attribute " << name);
  const auto end = out.find('\0');
  if (end != std::string::npos) out.resize(end);
  return out;
}

std::int64_t File::attr_int(const std::string& name) const {
  return read_scalar_attr<std::int64_t>(id_, path_, name);
}
double File::attr_real(const std::string& name) const {
  return read_scalar_attr<double>(id_, path_, name);
}

} // namespace fv::h5
