#pragma once
/// \file json.hpp
/// Minimal JSON output helpers for the `--json` summaries of the command-line tools.
#include <string>

namespace fv {

/// `s` as a JSON string literal: quoted, with ", \ and control characters escaped.
std::string json_quote(const std::string& s);

} // namespace fv
