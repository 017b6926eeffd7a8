// fvrun: the solver runtime. Placeholder entry point until the solver lands.
#include "common/error.hpp"
#include "common/main.hpp"
#include "common/version.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  return fv::run_main("fvrun", [&] {
    CLI::App app{"fvrun: run a finite-volume case on a prepared mesh"};
    app.set_version_flag("--version", std::string("fvkit ") + fv::kVersion);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    return 0;
  });
}
