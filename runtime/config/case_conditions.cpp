#include "runtime/config/case_conditions.hpp"

#include <map>
#include <sstream>
#include <utility>

namespace fv {
namespace {

/// True for a key of the flow conditions (see case_conditions.hpp).
bool condition_key(const std::string& section, const std::string& key) {
  return section == "freestream" || section == "sweep" || section.rfind("patch ", 0) == 0 ||
         (section == "monitor" && key == "output_dir");
}

/// The resolved text's values by (section, key), in text order.
std::vector<std::pair<std::string, std::string>> resolved_values(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line, section;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      section = line.substr(1, line.find(']') - 1);
      continue;
    }
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    if (!condition_key(section, key))
      out.emplace_back("[" + section + "] " + key, line.substr(eq + 3));
  }
  return out;
}

} // namespace

CaseConfig resolve_case_again(const CaseConfig& c, const std::vector<std::string>& sets) {
  IniFile ini = c.source;
  for (const std::string& s : sets)
    ini.set_override(s);
  return resolve_case(ini, c.mesh);
}

std::string non_flow_difference(const CaseConfig& a, const CaseConfig& b) {
  const auto va = resolved_values(a.resolvedIni), vb = resolved_values(b.resolvedIni);
  std::map<std::string, std::string> was(va.begin(), va.end());
  for (const auto& [key, value] : vb) {
    const auto it = was.find(key);
    if (it == was.end()) return key + " = " + value + " (absent before)";
    if (it->second != value) return key + " = " + value + " (was " + it->second + ")";
  }
  return va.size() == vb.size() ? std::string() : std::string("the set of keys");
}

} // namespace fv
