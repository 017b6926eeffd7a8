#include "prep/stored_options.hpp"

#include "common/error.hpp"

#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>
#include <vector>

namespace fv {

namespace {

// The options string is "key=value; key=value; ...". A value may hold any character: a
// backslash, ';' and ',' (the separators of items and of list elements) are written with a
// backslash before them, so that names from a mesh (a default patch "a;b", walls) read back
// as they were. Files written before the escapes hold no backslash in these values.

/// `text` with '\', ';' and ',' escaped by a backslash.
std::string escaped(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    if (ch == '\\' || ch == ';' || ch == ',') out += '\\';
    out += ch;
  }
  return out;
}

/// `text` split at every `sep` not escaped by a backslash, each piece unescaped.
std::vector<std::string> split_unescaped(const std::string& text, char sep) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size())
      out.back() += text[++i];
    else if (text[i] == sep)
      out.emplace_back();
    else
      out.back() += text[i];
  }
  return out;
}

/// The raw (still escaped) value of `key` in an options string, "" when absent.
std::string raw_value(const std::string& options, const std::string& key) {
  std::size_t begin = 0;
  while (begin <= options.size()) {
    std::size_t end = begin;
    while (end < options.size() && options[end] != ';')
      end += options[end] == '\\' && end + 1 < options.size() ? 2 : 1;
    std::string item = options.substr(begin, end - begin);
    item.erase(0, item.find_first_not_of(' ')); // the separator's space
    if (item.compare(0, key.size() + 1, key + "=") == 0) return item.substr(key.size() + 1);
    begin = end + 1;
  }
  return "";
}

/// The value of `key`, unescaped.
std::string option_value(const std::string& options, const std::string& key) {
  const std::string raw = raw_value(options, key);
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i)
    out += raw[i] == '\\' && i + 1 < raw.size() ? raw[++i] : raw[i];
  return out;
}

/// A stored number: all of `text` a finite double (subnormal ones included, which std::stod
/// refuses as out of range).
double stored_number(const std::string& text, const char* key, const std::string& path) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  FV_VERIFY(end != text.c_str() && *end == '\0' && std::isfinite(v),
            path << ": stored option " << key << "=" << text << " is not a finite number");
  return v;
}

} // namespace

std::string describe_prepare_options(const PrepareOptions& o) {
  std::ostringstream os;
  // max_digits10: every double reads back as the same double
  os << std::setprecision(std::numeric_limits<double>::max_digits10);
  os << "renumber=" << renumber_name(o.prep.renumber) << "; parts=" << o.parts
     << "; imbalance=" << o.partition.imbalance
     << "; objective=" << partition_objective_name(o.partition.objective)
     << "; seed=" << o.partition.seed << "; default-patch=" << escaped(o.prep.faces.defaultPatch)
     << "; closure-tol=" << o.prep.closureTol;
  if (!o.prep.wavefrontOrder) os << "; zone-order=rcm";
  if (!o.prep.walls.empty()) {
    os << "; walls=";
    for (std::size_t i = 0; i < o.prep.walls.size(); ++i)
      os << (i ? "," : "") << escaped(o.prep.walls[i]);
  }
  return os.str();
}

PrepOptions prep_options_of(const ZoneFileHeader& header, const std::string& path) {
  PrepOptions o;
  const std::string renumber = option_value(header.options, "renumber");
  if (!renumber.empty()) o.renumber = parse_renumber(renumber);
  o.wavefrontOrder = option_value(header.options, "zone-order") != "rcm";
  o.faces.defaultPatch = option_value(header.options, "default-patch");
  const std::string closure = option_value(header.options, "closure-tol");
  if (!closure.empty()) o.closureTol = stored_number(closure, "closure-tol", path);
  const std::string walls = raw_value(header.options, "walls");
  if (!walls.empty()) o.walls = split_unescaped(walls, ',');
  return o;
}

} // namespace fv
