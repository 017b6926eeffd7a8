// libFuzzer harness of fvrun's case-file reader: the input is a case file that IniFile::parse()
// reads and resolve_case() resolves against a mesh of three patches, the command line's
// overrides included (the text after a first "\n--\n" line is "section.key=value" lines, as
// --set gives them). A usage error (fv::Error) is the expected outcome of a bad file; a crash,
// a hang or a sanitizer report is a bug.
#include "common/error.hpp"
#include "common/zone.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/config/ini.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<fv::Patch> patches = {
      {"wall", "BCWall"}, {"far field", "BCFarfield"}, {"symmetry", "BCSymmetryPlane"}};
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find("\n--\n");
  try {
    fv::IniFile ini = fv::IniFile::parse(input.substr(0, split), "fuzz.ini");
    if (split != std::string::npos) {
      std::istringstream sets(input.substr(split + 4));
      for (std::string line; std::getline(sets, line);)
        ini.set_override(line);
    }
    const fv::CaseConfig c = fv::resolve_case(ini, patches);
    // the resolved case reads back as the same case
    const fv::CaseConfig again =
        fv::resolve_case(fv::IniFile::parse(c.resolvedIni, "case.resolved.ini"), patches);
    if (again.resolvedIni != c.resolvedIni) __builtin_trap();
  } catch (const fv::Error&) {
  }
  return 0;
}
