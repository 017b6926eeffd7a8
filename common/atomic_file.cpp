#include "common/atomic_file.hpp"

#include "common/error.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace fv {

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  static std::atomic<int> counter{0};
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(target_).parent_path();
  std::error_code ec;
  FV_VERIFY(dir.empty() || fs::is_directory(dir, ec),
            target_ << ": cannot write: directory '" << dir.string() << "' does not exist");
  FV_VERIFY(!fs::is_directory(target_, ec), target_ << ": cannot write: it is a directory");
  temp_ = target_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

AtomicFile::~AtomicFile() {
  if (!committed_) std::remove(temp_.c_str());
}

void AtomicFile::commit() {
  FV_VERIFY(!committed_, target_ << ": already committed");
  const int fd = ::open(temp_.c_str(), O_RDONLY);
  if (fd < 0) {
    FV_THROW(target_ << ": temporary file " << temp_ << " was not written: " << std::strerror(errno));
  }
  const int sync_rc = ::fsync(fd);
  const int sync_errno = errno;
  ::close(fd);
  FV_VERIFY(sync_rc == 0, target_ << ": cannot flush " << temp_ << ": " << std::strerror(sync_errno));
  FV_VERIFY(std::rename(temp_.c_str(), target_.c_str()) == 0,
            target_ << ": cannot rename " << temp_ << " over it: " << std::strerror(errno));
  committed_ = true;
}

} // namespace fv
