// fvprep: offline mesh preparation. Placeholder entry point until the pipeline lands.
#include "common/error.hpp"
#include "common/main.hpp"
#include "common/version.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  return fv::run_main("fvprep", [&] {
    CLI::App app{"fvprep: prepare an unstructured mesh for fvrun"};
    app.set_version_flag("--version", std::string("fvkit ") + fv::kVersion);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    return 0;
  });
}
