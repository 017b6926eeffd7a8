#include "common/error.hpp"

namespace fv::detail {

void throw_error(const std::string& msg, ErrorKind kind, const char* file, int line) {
  // Messages are for users and identical in every build type: no source location (a debugger
  // breakpoint on this function finds the thrower).
  (void)file;
  (void)line;
  throw Error(msg, kind);
}

} // namespace fv::detail
