#pragma once
/// \file hdf5_file.hpp
/// An HDF5 file as fvkit's output files (solution, restart) use it: whole datasets of 1 or 2
/// dimensions and scalar/string attributes of the root group, with every failure turned into
/// one fv::Error line naming the file and the object. Built on formats/hdf5_util.hpp (the one
/// HDF5 layer; zone files use it directly, as they map their datasets).
#include "common/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fv::h5 {

/// Turns off HDF5's own shutdown at exit: every file fvkit writes is closed explicitly
/// (File::close()), and the library's atexit shutdown of objects a failed library call left
/// open (a corrupt input, a full disk) crashes or prints "infinite loop closing library" after
/// the one-line error. A program's first HDF5 call.
void skip_library_shutdown();

/// An open HDF5 file. Move-only. A written file is finished by close(), which reports what
/// HDF5 could not write (a full disk); the destructor closes silently (an abandoned file).
class File {
 public:
  /// Creates (truncating) `path` for writing.
  static File create(const std::string& path);
  /// Opens an existing `path` read-only; `what` names the file kind in errors ("restart file").
  static File open_read(const std::string& path, const std::string& what);
  File(File&& o) noexcept : id_(o.id_), path_(std::move(o.path_)) { o.id_ = -1; }
  File& operator=(File&&) = delete;
  File(const File&) = delete;
  ~File();

  const std::string& path() const { return path_; }
  /// Flushes and closes the file; throws fv::Error naming the file when HDF5 cannot complete
  /// it (its buffered data or metadata not written: a full disk, a quota, an I/O error). A
  /// writer calls it before committing the file (AtomicFile::commit()).
  void close();

  /// Creates group `name` (and its parents) if absent.
  void make_group(const std::string& name);

  // ---- datasets: `rows` x `cols` (cols == 1: a 1-D dataset of `rows` entries)
  void write(const std::string& name, const real_t* data, std::uint64_t rows, int cols = 1);
  void write(const std::string& name, const std::int64_t* data, std::uint64_t rows, int cols = 1);
  void write(const std::string& name, const std::int32_t* data, std::uint64_t rows, int cols = 1);
  void write(const std::string& name, const std::int8_t* data, std::uint64_t rows, int cols = 1);

  bool exists(const std::string& name) const;
  /// Shape of dataset `name`: {rows} or {rows, cols}.
  std::vector<std::uint64_t> shape(const std::string& name) const;
  /// Whole dataset converted to the requested type (HDF5 converts integer/float widths).
  std::vector<real_t> read_real(const std::string& name) const;
  std::vector<std::int64_t> read_int64(const std::string& name) const;
  /// Names of the members of group `group`, in HDF5 name order.
  std::vector<std::string> members(const std::string& group) const;

  // ---- attributes of the root group
  void attr(const std::string& name, const std::string& value);
  void attr(const std::string& name, std::int64_t value);
  void attr(const std::string& name, double value);
  bool has_attr(const std::string& name) const;
  std::string attr_string(const std::string& name) const;
  std::int64_t attr_int(const std::string& name) const;
  double attr_real(const std::string& name) const;

 private:
  File(std::int64_t id, std::string path) : id_(id), path_(std::move(path)) {}
  std::int64_t id_ = -1; // hid_t
  std::string path_;
};

} // namespace fv::h5
