#pragma once
/// \file text_scanner.hpp
/// TextScanner: a fast tokenizer over a whole file held in memory (no iostreams), for the
/// ASCII mesh formats. Errors name the file and the line.
#include "common/error.hpp"

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace fv {

/// Reads a whole file into a string (binary-safe). Throws fv::Error naming the file.
std::string read_file_bytes(const std::string& path);

/// Forward-only tokenizer over a text buffer. Tokens are separated by blanks (space, tab, CR,
/// LF, and optionally '=' ); lines are counted only when an error is reported.
class TextScanner {
 public:
  TextScanner(std::string_view text, std::string path) : s_(text), path_(std::move(path)) {}

  bool at_end() {
    skip_blanks();
    return pos_ >= s_.size();
  }
  std::size_t pos() const { return pos_; }
  void seek(std::size_t p) { pos_ = p; }
  std::string_view text() const { return s_; }

  /// Next blank-separated token ("" at end of input).
  std::string_view token() {
    skip_blanks();
    const std::size_t b = pos_;
    while (pos_ < s_.size() && !is_blank(s_[pos_]))
      ++pos_;
    return s_.substr(b, pos_ - b);
  }
  /// Rest of the current line (without the line break), then moves to the next line.
  std::string_view line() {
    const std::size_t b = pos_;
    while (pos_ < s_.size() && s_[pos_] != '\n')
      ++pos_;
    std::size_t e = pos_;
    if (pos_ < s_.size()) ++pos_;
    if (e > b && s_[e - 1] == '\r') --e;
    return s_.substr(b, e - b);
  }
  /// Skips blanks but not line breaks; true if the current line has more tokens.
  bool more_on_line() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r'))
      ++pos_;
    return pos_ < s_.size() && s_[pos_] != '\n';
  }
  /// Next token as an integer; `what` names it in the error message.
  std::int64_t integer(const char* what) {
    const std::string_view t = token();
    std::int64_t v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) fail_token(what, t);
    return v;
  }
  /// Next token as a floating-point number.
  double real(const char* what) {
    const std::string_view t = token();
    double v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) fail_token(what, t);
    return v;
  }
  /// Line number (1-based) of the current position.
  std::size_t line_number() const;
  /// Throws "path:line: msg".
  [[noreturn]] void fail(const std::string& msg) const;

 private:
  static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  void skip_blanks() {
    while (pos_ < s_.size() && is_blank(s_[pos_]))
      ++pos_;
  }
  [[noreturn]] void fail_token(const char* what, std::string_view t) const;

  std::string_view s_;
  std::string path_;
  std::size_t pos_ = 0;
};

} // namespace fv
