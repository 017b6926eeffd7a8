#include "runtime/solver/kernel_choice_cache.hpp"

#include "common/error.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace fv {

std::string utc_timestamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string default_kernel_cache_path() {
  if (const char* p = std::getenv("FV_KERNEL_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/fvkit/kernel-choice.tsv";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/fvkit/kernel-choice.tsv";
  return "fvkit-kernel-choice.tsv";
}

std::optional<std::string> lookup_kernel_choice(const std::string& path, const std::string& uuid,
                                                const std::string& device) {
  std::ifstream in(path);
  std::optional<std::string> found;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, '\t'))
      f.push_back(field);
    if (f.size() >= 3 && f[0] == uuid && f[1] == device) found = f[2];
  }
  return found;
}

void store_kernel_choice(const std::string& path, const std::string& uuid,
                         const std::string& device, const std::string& variant, double ms,
                         const std::string& date) {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(path, std::ios::app);
  FV_VERIFY(out, "cannot write the kernel-choice cache " << path);
  out << uuid << '\t' << device << '\t' << variant << '\t' << ms << '\t' << date << '\n';
  FV_VERIFY(out.good(), "cannot write the kernel-choice cache " << path);
}

} // namespace fv
