#include "common/error.hpp"

namespace fv::detail {

void throw_error(const std::string& msg, ErrorKind kind, const char* file, int line) {
  // Messages are for users: the source location is only added in debug builds.
#if defined(FV_DEBUG)
  std::ostringstream oss;
  oss << msg << " [" << file << ":" << line << "]";
  throw Error(oss.str(), kind);
#else
  (void)file;
  (void)line;
  throw Error(msg, kind);
#endif
}

} // namespace fv::detail
