#include "runtime/config/ini.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace fv {
namespace {
std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    --e;
  return s.substr(b, e - b);
}
std::string lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
bool valid_key(const std::string& k) {
  if (k.empty()) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}
} // namespace

std::string IniFile::normalise_section(const std::string& raw) {
  // "kind name": the kind lower-cased, one space, the name as written (runs of spaces inside
  // it kept: patch names are compared as the mesh writes them); a name in double quotes is
  // taken verbatim, leading and trailing spaces included
  const std::string s = trim(raw);
  std::size_t end = 0;
  while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])))
    ++end;
  const std::string kind = lower(s.substr(0, end));
  std::string name = trim(s.substr(end));
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
    name = name.substr(1, name.size() - 2);
  return name.empty() ? kind : kind + " " + name;
}

std::string IniFile::section_header(const std::string& section) {
  const std::size_t sp = section.find(' ');
  if (sp == std::string::npos) return "[" + section + "]";
  const std::string name = section.substr(sp + 1);
  const bool plain = trim(name) == name && name.find_first_of("#;\"") == std::string::npos;
  return "[" + section.substr(0, sp) + " " + (plain ? name : "\"" + name + "\"") + "]";
}

IniFile IniFile::parse(const std::string& text, const std::string& source) {
  IniFile ini;
  ini.source_ = source;
  std::istringstream in(text);
  std::string raw, section;
  int lineNo = 0;
  while (std::getline(in, raw)) {
    ++lineNo;
    std::string line = raw;
    FV_VERIFY_USAGE(line.find('\0') == std::string::npos,
                    source << ":" << lineNo << ": a NUL byte (is this a text file?)");
    // strip comments: whole-line '#'/';' or inline " #", " ;" (not inside double quotes)
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"') quoted = !quoted;
      if (!quoted && (line[i] == '#' || line[i] == ';') &&
          (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1])))) {
        line.resize(i);
        break;
      }
    }
    line = trim(line);
    if (line.empty()) continue;
    if (line.front() == '[') {
      FV_VERIFY_USAGE(line.back() == ']', source << ":" << lineNo << ": section header '" << line
                                                 << "' lacks its closing ']'");
      section = normalise_section(line.substr(1, line.size() - 2));
      FV_VERIFY_USAGE(!section.empty(), source << ":" << lineNo << ": empty section name");
      if (!ini.data_.count(section)) {
        ini.order_.push_back(section);
        ini.data_[section];
      }
      continue;
    }
    const std::size_t eq = line.find('=');
    FV_VERIFY_USAGE(eq != std::string::npos,
                    source << ":" << lineNo << ": expected 'key = value' or '[section]', got '"
                           << line << "'");
    const std::string key = lower(trim(line.substr(0, eq)));
    const std::string value = trim(line.substr(eq + 1));
    FV_VERIFY_USAGE(!section.empty(), source << ":" << lineNo << ": key '" << key
                                             << "' appears before any [section]");
    FV_VERIFY_USAGE(valid_key(key), source << ":" << lineNo << ": invalid key name '" << key
                                           << "' (letters, digits and '_' only)");
    auto& sec = ini.data_[section];
    auto it = sec.find(key);
    FV_VERIFY_USAGE(it == sec.end(), source << ":" << lineNo << ": key '" << key << "' of ["
                                            << section << "] is already set on line "
                                            << it->second.line);
    sec[key] = IniValue{value, lineNo};
  }
  return ini;
}

IniFile IniFile::read(const std::string& path) {
  std::ifstream f(path);
  FV_VERIFY_USAGE(f.good(), "cannot open case file '" << path << "'");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parse(ss.str(), path);
}

void IniFile::set(const std::string& section, const std::string& key, const std::string& value,
                  int line) {
  const std::string s = normalise_section(section);
  if (!data_.count(s)) order_.push_back(s);
  data_[s][lower(trim(key))] = IniValue{trim(value), line};
}

void IniFile::set_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  const std::size_t dot = assignment.substr(0, eq).rfind('.');
  FV_VERIFY_USAGE(eq != std::string::npos && dot != std::string::npos && dot > 0,
                  "--set expects section.key=value, got '" << assignment << "'");
  const std::string key = lower(trim(assignment.substr(dot + 1, eq - dot - 1)));
  FV_VERIFY_USAGE(valid_key(key), "--set " << assignment << ": invalid key name '" << key << "'");
  set(assignment.substr(0, dot), key, assignment.substr(eq + 1), 0);
}

const std::map<std::string, IniValue>& IniFile::section(const std::string& s) const {
  static const std::map<std::string, IniValue> empty;
  auto it = data_.find(s);
  return it == data_.end() ? empty : it->second;
}

} // namespace fv
