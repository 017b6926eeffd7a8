#include "runtime/config/fvrun_cli.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "common/version.hpp"
#include "runtime/config/case_config.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

namespace fv {

IniFile FvrunCommandLine::case_file() const {
  IniFile ini = IniFile::read(casePath);
  for (const auto& s : sets)
    ini.set_override(s);
  for (const auto& [key, value] : shortcuts) // given, even empty: resolve_case judges the text
    ini.set(key->section, key->key, value);
  std::vector<std::string> swept;
  for (const std::string& s : sweeps) {
    const auto eq = s.find('=');
    const std::string key = s.substr(0, eq);
    std::string valid;
    bool known = false;
    for (const char* k : kSweptKeys) {
      valid += (valid.empty() ? "" : ", ") + std::string(k);
      known = known || key == k;
    }
    FV_VERIFY_USAGE(eq != std::string::npos && known,
                    "--sweep '" << s << "': expected KEY=SPEC with KEY one of " << valid);
    FV_VERIFY_USAGE(std::find(swept.begin(), swept.end(), key) == swept.end(),
                    "--sweep " << key << " is given twice");
    swept.push_back(key);
    ini.set("sweep", key, s.substr(eq + 1));
  }
  return ini;
}

std::optional<int> parse_fvrun_command_line(int argc, char** argv, FvrunCommandLine& cl) {
  CLI::App app{"fvrun: run a compressible Euler, Navier-Stokes or RANS (Spalart-Allmaras) case "
               "on a prepared zone file (fvprep)"};
  app.set_version_flag("--version", std::string("fvkit ") + kVersion);
  app.add_flag_callback(
      "--keys",
      [] {
        std::cout << case_keys_markdown();
        throw CLI::Success();
      },
      "print every case-file key (section, key, type, unit, default, meaning) as a Markdown "
      "table");
  bool quiet = false, verbose = false;
  app.add_option("zones", cl.zonePath, "zone file written by fvprep (mesh.zones.h5)")->required();
  app.add_option("-c,--case", cl.casePath, "case file (INI; see README for every key)")->required();
  app.add_option("--set", cl.sets,
                 "override a case key: section.key=value (repeatable), e.g. "
                 "--set 'patch wall.type=slip_wall'");
  // the case keys' own options: the value text goes to the key as given (or the flag's value)
  struct Shortcut {
    const CaseKey* key;
    std::string value;
    CLI::Option* option = nullptr;
  };
  std::vector<Shortcut> shortcuts;
  shortcuts.reserve(case_keys().size()); // `value` is bound by address
  for (const CaseKey& k : case_keys()) {
    if (!k.cli.name) continue;
    Shortcut& sc = shortcuts.emplace_back(Shortcut{&k, {}});
    const std::string set = std::string(" (same as --set ") + k.section + "." + k.key + "=";
    const std::string name = k.cli.name;
    if (k.cli.flagValue) {
      const std::string help = std::string(k.cli.help) + set + k.cli.flagValue + ")";
      sc.option = app.add_flag(name, help);
    } else
      sc.option =
          app.add_option(name, sc.value, k.meaning + set + "VALUE)")->type_name(k.type_text());
  }
  app.add_flag("-q,--quiet", quiet, "only warnings and errors");
  app.add_flag("-v,--verbose", verbose,
               "also a line per iteration (CFL, linear iterations and residual, relaxation) and "
               "the FVRUN_TIMING line of the bench scripts");
  app.add_option("--restart", cl.restartPath,
                 "start from a restart file (restart.h5 of a run on any number of ranks of the "
                 "same mesh)");
  app.add_flag("--no-checksums", cl.noChecksums, "skip verifying the zone file's checksums");
  app.add_option("--sweep", cl.sweeps,
                 "run a campaign: KEY=SPEC sets [sweep] KEY (mach, reynolds, sideslip, aoa) to a "
                 "list v1,v2,... or a range start:stop:step (repeatable: the product of the "
                 "keys; README \"Campaigns\")")
      ->type_name("KEY=SPEC");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (const Shortcut& sc : shortcuts)
    if (sc.option->count() > 0)
      cl.shortcuts.emplace_back(sc.key, sc.key->cli.flagValue ? std::string(sc.key->cli.flagValue)
                                                              : sc.value);
  if (quiet) log::set_level(log::Level::Warn);
  if (verbose && !quiet) log::set_level(log::Level::Debug);
  return std::nullopt;
}

} // namespace fv
