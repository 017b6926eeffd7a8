#pragma once
/// \file atomic_file.hpp
/// Safe output: write to a temporary file next to the target, then rename over it.
///
///   fv::AtomicFile out("mesh.zones.h5");      // nothing touches mesh.zones.h5 yet
///   write_everything(out.temp_path());          // write the temporary file
///   out.commit();                               // fsync + rename(temp, target): atomic
///
/// If commit() is never reached (exception, crash), the destructor removes the temporary
/// file and the previous good target file is untouched. The temporary lives in the same
/// directory as the target so that rename() is atomic (same filesystem).
#include <string>

namespace fv {

class AtomicFile {
public:
  /// Chooses a unique temporary name "<target>.tmp.<pid>.<n>"; checks the directory exists.
  explicit AtomicFile(std::string target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& target() const { return target_; }
  const std::string& temp_path() const { return temp_; }

  /// Flushes the temporary file to disk and renames it to the target. Throws fv::Error on
  /// failure (the temporary is then removed).
  void commit();

private:
  std::string target_, temp_;
  bool committed_ = false;
};

} // namespace fv
