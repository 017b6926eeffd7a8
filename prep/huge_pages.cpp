#include "prep/huge_pages.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

// A sanitizer's runtime replaces malloc: glibc's malloc tunables do not apply to it.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FV_SANITIZER_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define FV_SANITIZER_MALLOC 1
#endif
#endif

#if defined(__GLIBC__) && defined(__linux__) && !defined(FV_SANITIZER_MALLOC)
#include <gnu/libc-version.h>
#include <unistd.h>
#define FV_HAVE_GLIBC_TUNABLES 1
#endif

namespace fv {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

/// The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled ("always", "madvise",
/// "never"); empty when the file cannot be read.
std::string thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const auto open = line.find('['), close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  return line.substr(open + 1, close - open - 1);
}

bool tunable_set() {
  const char* t = std::getenv("GLIBC_TUNABLES");
  return t != nullptr && std::strstr(t, kTunable) != nullptr;
}

bool disabled_by_user() {
  const char* v = std::getenv("FV_HUGE_PAGES");
  return v != nullptr && std::strcmp(v, "0") == 0;
}

#if defined(FV_HAVE_GLIBC_TUNABLES)
/// glibc.malloc.hugetlb exists from glibc 2.35 on.
bool glibc_has_tunable() {
  int major = 0, minor = 0;
  if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2) return false;
  return major > 2 || (major == 2 && minor >= 35);
}
#endif

} // namespace

void reexec_with_huge_pages(char** argv) {
#if defined(FV_HAVE_GLIBC_TUNABLES)
  if (disabled_by_user() || tunable_set() || !glibc_has_tunable() || thp_mode() != "madvise")
    return;
  const char* old = std::getenv("GLIBC_TUNABLES");
  std::string value = std::string(kTunable) + "=1";
  if (old != nullptr && *old != '\0') value = std::string(old) + ":" + value;
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // the exec failed (no /proc, say): run as is, without the variable in the environment of
  // the processes this one starts
  if (old != nullptr)
    setenv("GLIBC_TUNABLES", old, 1);
  else
    unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

std::string huge_pages_state() {
#if defined(FV_SANITIZER_MALLOC)
  return "large allocations: the sanitizer's allocator (glibc's tunables do not apply)";
#endif
  const std::string mode = thp_mode();
  if (tunable_set())
    return std::string("large allocations: GLIBC_TUNABLES ") + std::getenv("GLIBC_TUNABLES") +
           " (transparent huge pages: " + (mode.empty() ? "unknown" : mode) + ")";
  if (mode == "always") return "large allocations: transparent huge pages (the kernel's default)";
  if (disabled_by_user() && mode == "madvise")
    return "large allocations: 4 KiB pages (FV_HUGE_PAGES=0)";
  return "large allocations: 4 KiB pages (transparent huge pages: " +
         (mode.empty() ? std::string("unavailable") : mode) + ")";
}

} // namespace fv
