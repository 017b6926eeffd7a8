#pragma once
/// \file error.hpp
/// fvkit's single exception type and its checking macros.
///
///   FV_VERIFY(cond, "msg " << x)        always checked; throws fv::Error (runtime failure, exit 1)
///   FV_VERIFY_USAGE(cond, "msg " << x)  always checked; throws fv::Error (usage error, exit 2)
///   FV_THROW("msg " << x)               throws unconditionally (runtime failure)
///   FV_ASSERT(cond, "msg")              checked in debug builds (FV_DEBUG) only
///
/// Every program's main() wraps its body in fv::run_main(), which reports an Error as one line
/// "<program>: error: <message>" on stderr and returns its exit code.
#include <sstream>
#include <stdexcept>
#include <string>

namespace fv {

/// Kind of failure, which fixes the process exit code.
enum class ErrorKind : int {
  Runtime = 1, ///< bad input data, I/O failure, numerical breakdown
  Usage = 2    ///< bad command line or configuration
};

/// The one exception type of fvkit. what() is a complete, single-line message.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string& msg, ErrorKind kind = ErrorKind::Runtime)
      : std::runtime_error(msg), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }
  int exit_code() const noexcept { return static_cast<int>(kind_); }

private:
  ErrorKind kind_;
};

namespace detail {
[[noreturn]] void throw_error(const std::string& msg, ErrorKind kind, const char* file, int line);
} // namespace detail

} // namespace fv

#define FV_DETAIL_THROW(kind, msg)                                                                 \
  do {                                                                                             \
    std::ostringstream fv_oss_;                                                                    \
    fv_oss_ << msg;                                                                                \
    ::fv::detail::throw_error(fv_oss_.str(), kind, __FILE__, __LINE__);                            \
  } while (0)

#define FV_THROW(msg) FV_DETAIL_THROW(::fv::ErrorKind::Runtime, msg)

#define FV_VERIFY(cond, msg)                                                                       \
  do {                                                                                             \
    if (!(cond)) FV_DETAIL_THROW(::fv::ErrorKind::Runtime, msg);                                   \
  } while (0)

#define FV_VERIFY_USAGE(cond, msg)                                                                 \
  do {                                                                                             \
    if (!(cond)) FV_DETAIL_THROW(::fv::ErrorKind::Usage, msg);                                     \
  } while (0)

#if defined(FV_DEBUG)
#define FV_ASSERT(cond, msg)                                                                       \
  do {                                                                                             \
    if (!(cond)) FV_DETAIL_THROW(::fv::ErrorKind::Runtime, "internal check failed: " #cond ": " << msg); \
  } while (0)
#else
#define FV_ASSERT(cond, msg)                                                                       \
  do {                                                                                             \
  } while (0)
#endif
