#include "formats/text_scanner.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace fv {

std::string read_file_bytes(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  FV_VERIFY(f, path << ": cannot open: " << std::strerror(errno));
  std::string data;
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  if (size > 0) {
    data.resize(static_cast<std::size_t>(size));
    const std::size_t got = std::fread(data.data(), 1, data.size(), f);
    data.resize(got);
  }
  const bool err = std::ferror(f);
  std::fclose(f);
  FV_VERIFY(!err, path << ": read error");
  return data;
}

std::size_t TextScanner::line_number() const {
  return 1 + static_cast<std::size_t>(
                 std::count(s_.begin(), s_.begin() + std::min(pos_, s_.size()), '\n'));
}

void TextScanner::fail(const std::string& msg) const {
  FV_THROW(path_ << ":" << line_number() << ": " << msg);
}

void TextScanner::fail_token(const char* what, std::string_view t) const {
  if (t.empty()) fail(std::string("unexpected end of file, expected ") + what);
  std::string shown(t.substr(0, 40));
  fail(std::string("expected ") + what + ", found '" + shown + "'");
}

} // namespace fv
