#include "formats/hdf5_file.hpp"

#include "common/error.hpp"
#include "formats/hdf5_util.hpp"

#include <filesystem>
#include <hdf5.h>
#include <type_traits>

namespace fv::h5 {
namespace {

template <class T>
void write_dataset(hid_t file, const std::string& path, const std::string& name, const T* data,
                   std::uint64_t rows, int cols) {
  Quiet quiet;
  FV_VERIFY(cols >= 1, path << ": dataset " << name << ": bad column count " << cols);
  const hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols)};
  Id space = dataspace(H5Screate_simple(cols == 1 ? 1 : 2, dims, nullptr));
  Id lcpl = plist(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  Id dset = dataset(H5Dcreate2(file, name.c_str(), file_type<T>(), space.get(), lcpl.get(),
                               H5P_DEFAULT, H5P_DEFAULT));
  FV_VERIFY(space && dset, path << ": cannot create dataset " << name);
  if (rows > 0) {
    FV_VERIFY(H5Dwrite(dset.get(), mem_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0,
              path << ": cannot write dataset " << name);
  }
}

template <class T>
std::vector<T> read_dataset(hid_t file, const std::string& path, const std::string& name) {
  Quiet quiet;
  Id dset = dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  FV_VERIFY(dset, path << ": dataset " << name << " is missing");
  Id space = dataspace(H5Dget_space(dset.get()));
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  FV_VERIFY(n >= 0, path << ": dataset " << name << ": cannot read its size");
  std::vector<T> out(static_cast<std::size_t>(n));
  if (n > 0) {
    FV_VERIFY(H5Dread(dset.get(), mem_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) >= 0,
              path << ": cannot read dataset " << name << " as " << (sizeof(T) * 8) << "-bit "
                   << (std::is_floating_point_v<T> ? "reals" : "integers"));
  }
  return out;
}

template <class T>
void write_scalar_attr(hid_t file, const std::string& path, const std::string& name, T value) {
  Quiet quiet;
  if (H5Aexists(file, name.c_str()) > 0) H5Adelete(file, name.c_str());
  FV_VERIFY(write_attr<T>(file, name.c_str(), value), path << ": cannot write attribute " << name);
}

template <class T>
T read_scalar_attr(hid_t file, const std::string& path, const std::string& name) {
  Quiet quiet;
  FV_VERIFY(H5Aexists(file, name.c_str()) > 0, path << ": attribute '" << name << "' is missing");
  T value{};
  FV_VERIFY(read_attr<T>(file, name.c_str(), value),
            path << ": attribute '" << name << "' is not a single number");
  return value;
}

} // namespace

void skip_library_shutdown() { H5dont_atexit(); }

File File::create(const std::string& path) {
  Quiet quiet;
  // HDF5 >= 1.8 format: attributes larger than 64 KiB (long configuration texts) are allowed.
  Id fapl = plist(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST);
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
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
  Quiet quiet; // an abandoned file's close errors are no news
  if (id_ >= 0) H5Fclose(id_);
}

void File::close() {
  Quiet quiet;
  FV_VERIFY(id_ >= 0, path_ << ": already closed");
  const bool flushed = H5Fflush(id_, H5F_SCOPE_GLOBAL) >= 0;
  const bool closed = H5Fclose(id_) >= 0;
  id_ = -1;
  FV_VERIFY(flushed && closed, path_ << ": write error (disk full?): HDF5 could not complete the "
                                        "file");
}

void File::make_group(const std::string& name) {
  Quiet quiet;
  if (H5Lexists(id_, name.c_str(), H5P_DEFAULT) > 0) return;
  Id lcpl = plist(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  Id g = group(H5Gcreate2(id_, name.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT));
  FV_VERIFY(g, path_ << ": cannot create group " << name);
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
  Id dset = dataset(H5Dopen2(id_, name.c_str(), H5P_DEFAULT));
  FV_VERIFY(dset, path_ << ": dataset " << name << " is missing");
  Id space = dataspace(H5Dget_space(dset.get()));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  FV_VERIFY(rank >= 0 && rank <= 8, path_ << ": dataset " << name << ": bad rank");
  hsize_t dims[8] = {};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
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
  Id g = h5::group(H5Gopen2(id_, group.c_str(), H5P_DEFAULT));
  FV_VERIFY(g, path_ << ": group " << group << " is missing");
  H5G_info_t info;
  FV_VERIFY(H5Gget_info(g.get(), &info) >= 0, path_ << ": cannot list group " << group);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t len =
        H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    FV_VERIFY(len >= 0, path_ << ": cannot list group " << group);
    std::string name(static_cast<std::size_t>(len) + 1, '\0');
    H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(),
                       H5P_DEFAULT);
    name.resize(static_cast<std::size_t>(len));
    out.push_back(name);
  }
  return out;
}

void File::attr(const std::string& name, const std::string& value) {
  Quiet quiet;
  FV_VERIFY(write_string_attr(id_, name.c_str(), value),
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
  FV_VERIFY(H5Aexists(id_, name.c_str()) > 0, path_ << ": attribute '" << name << "' is missing");
  std::string out;
  FV_VERIFY(read_string_attr(id_, name.c_str(), out),
            path_ << ": attribute '" << name << "' is not a fixed-length string");
  return out;
}

std::int64_t File::attr_int(const std::string& name) const {
  return read_scalar_attr<std::int64_t>(id_, path_, name);
}
double File::attr_real(const std::string& name) const {
  return read_scalar_attr<double>(id_, path_, name);
}

} // namespace fv::h5
