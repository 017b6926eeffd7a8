#pragma once
/// \file mini_xml.hpp
/// A strict little XML parser for tests (XDMF checks): elements, attributes, text, comments,
/// the XML declaration and the five predefined entities. Throws std::runtime_error on anything
/// not well-formed (mismatched tags, duplicate attributes, unquoted values, trailing junk).
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fv::testing::xml {

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<Element>> children;
  std::string text; ///< concatenated character data, entities decoded, trimmed

  /// Children named `n`.
  std::vector<const Element*> all(const std::string& n) const {
    std::vector<const Element*> out;
    for (const auto& c : children)
      if (c->name == n) out.push_back(c.get());
    return out;
  }
  /// The one child named `n` (throws if there is not exactly one).
  const Element& one(const std::string& n) const {
    const auto v = all(n);
    if (v.size() != 1)
      throw std::runtime_error("<" + name + "> has " + std::to_string(v.size()) + " <" + n + ">");
    return *v[0];
  }
  const std::string& attr(const std::string& a) const {
    const auto it = attrs.find(a);
    if (it == attrs.end()) throw std::runtime_error("<" + name + "> has no attribute " + a);
    return it->second;
  }
};

class Parser {
 public:
  explicit Parser(std::string s) : s_(std::move(s)) {}

  std::unique_ptr<Element> parse() {
    skip_misc();
    if (s_.compare(p_, 5, "<?xml") == 0) {
      const auto e = s_.find("?>", p_);
      if (e == std::string::npos) fail("unterminated XML declaration");
      p_ = e + 2;
    }
    skip_misc();
    auto root = element();
    skip_misc();
    if (p_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("XML: " + what + " at offset " + std::to_string(p_));
  }
  static bool space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == ':' || c == '-' || c == '.';
  }
  void skip_space() {
    while (p_ < s_.size() && space(s_[p_]))
      ++p_;
  }
  void skip_misc() {
    for (;;) {
      skip_space();
      if (s_.compare(p_, 4, "<!--") == 0) {
        const auto e = s_.find("-->", p_ + 4);
        if (e == std::string::npos) fail("unterminated comment");
        p_ = e + 3;
      } else {
        return;
      }
    }
  }
  std::string name() {
    const std::size_t b = p_;
    while (p_ < s_.size() && name_char(s_[p_]))
      ++p_;
    if (b == p_) fail("expected a name");
    return s_.substr(b, p_ - b);
  }
  std::string decode(const std::string& raw) const {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '<') fail("'<' in character data");
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const auto e = raw.find(';', i);
      if (e == std::string::npos) fail("unterminated entity");
      const std::string ent = raw.substr(i + 1, e - i - 1);
      if (ent == "amp")
        out += '&';
      else if (ent == "lt")
        out += '<';
      else if (ent == "gt")
        out += '>';
      else if (ent == "quot")
        out += '"';
      else if (ent == "apos")
        out += '\'';
      else
        fail("unknown entity &" + ent + ";");
      i = e;
    }
    return out;
  }
  std::unique_ptr<Element> element() {
    if (p_ >= s_.size() || s_[p_] != '<') fail("expected '<'");
    ++p_;
    auto el = std::make_unique<Element>();
    el->name = name();
    for (;;) {
      skip_space();
      if (p_ >= s_.size()) fail("unterminated start tag");
      if (s_.compare(p_, 2, "/>") == 0) {
        p_ += 2;
        return el;
      }
      if (s_[p_] == '>') {
        ++p_;
        break;
      }
      const std::string a = name();
      skip_space();
      if (p_ >= s_.size() || s_[p_] != '=') fail("expected '=' after attribute " + a);
      ++p_;
      skip_space();
      if (p_ >= s_.size() || (s_[p_] != '"' && s_[p_] != '\'')) fail("unquoted attribute " + a);
      const char q = s_[p_++];
      const auto e = s_.find(q, p_);
      if (e == std::string::npos) fail("unterminated attribute " + a);
      if (!el->attrs.emplace(a, decode(s_.substr(p_, e - p_))).second)
        fail("duplicate attribute " + a);
      p_ = e + 1;
    }
    std::string text;
    for (;;) {
      const auto lt = s_.find('<', p_);
      if (lt == std::string::npos) fail("unterminated element <" + el->name + ">");
      text += s_.substr(p_, lt - p_);
      p_ = lt;
      if (s_.compare(p_, 4, "<!--") == 0) {
        skip_misc();
      } else if (s_.compare(p_, 2, "</") == 0) {
        p_ += 2;
        if (name() != el->name) fail("mismatched end tag for <" + el->name + ">");
        skip_space();
        if (p_ >= s_.size() || s_[p_] != '>') fail("bad end tag");
        ++p_;
        break;
      } else {
        el->children.push_back(element());
      }
    }
    text = decode(text);
    const auto b = text.find_first_not_of(" \n\t\r");
    el->text =
        b == std::string::npos ? "" : text.substr(b, text.find_last_not_of(" \n\t\r") - b + 1);
    return el;
  }

  std::string s_;
  std::size_t p_ = 0;
};

inline std::unique_ptr<Element> parse(const std::string& text) {
  return Parser(text).parse();
}

} // namespace fv::testing::xml
