#pragma once
/// \file ini.hpp
/// A small INI reader for case files:
///
///   # comment            ; comment
///   [section]            section names are lower-cased and whitespace-normalised, except the
///   key = value          part after "patch " which is a patch name (kept as written)
///
/// Keys are lower-case identifiers; values are trimmed; inline comments start with " #" or
/// " ;". Duplicate sections merge; a duplicate key is an error naming both lines.
#include <map>
#include <string>
#include <vector>

namespace fv {

/// One value with the line it came from (0 for values set on the command line).
struct IniValue {
  std::string value;
  int line = 0;
};

/// Parsed INI text: sections in order of first appearance, keys sorted.
class IniFile {
 public:
  /// Parses text; `source` names it in errors ("case.ini"). Usage errors (exit 2) name the line.
  static IniFile parse(const std::string& text, const std::string& source);
  /// Reads and parses a file.
  static IniFile read(const std::string& path);

  /// Sets (or overrides) a value; creates the section when needed.
  void set(const std::string& section, const std::string& key, const std::string& value,
           int line = 0);
  /// Applies "section.key=value" (as given to --set); the section may contain spaces or dots
  /// only in the patch name ("patch inlet.pressure=1e5": the last '.' splits the key).
  void set_override(const std::string& assignment);

  const std::vector<std::string>& sections() const { return order_; }
  bool has_section(const std::string& s) const { return data_.count(s) != 0; }
  /// Keys of a section (empty map when absent).
  const std::map<std::string, IniValue>& section(const std::string& s) const;
  const std::string& source() const { return source_; }

  /// Normalises a section header: "Patch  wall" -> "patch wall", "FreeStream" -> "freestream".
  static std::string normalise_section(const std::string& raw);
  /// The header line of a normalised section, "[patch NAME]", its name quoted ("[patch
  /// \" x \"]") where reading it back would change it (leading or trailing spaces, a '#', ';'
  /// or '"' in it): normalise_section() of the text between the brackets is `section` again.
  static std::string section_header(const std::string& section);

 private:
  std::string source_;
  std::vector<std::string> order_;
  std::map<std::string, std::map<std::string, IniValue>> data_;
};

} // namespace fv
