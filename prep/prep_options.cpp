#include "prep/prep_options.hpp"

#include "common/error.hpp"

namespace fv {

Renumber parse_renumber(const std::string& text) {
  if (text == "rcm") return Renumber::Rcm;
  if (text == "none") return Renumber::None;
  FV_VERIFY_USAGE(false, "--renumber: unknown ordering '" << text << "' (expected rcm or none)");
  return Renumber::Rcm;
}

const char* renumber_name(Renumber r) {
  return r == Renumber::Rcm ? "rcm" : "none";
}

} // namespace fv
