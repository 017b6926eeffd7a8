#include "prep/stored_options.hpp"

#include <sstream>

namespace fv {

namespace {

/// Value of `key` in an options string "key=value; key=value", "" when absent.
std::string option_value(const std::string& options, const std::string& key) {
  std::istringstream in(options);
  std::string item;
  while (std::getline(in, item, ';')) {
    item.erase(0, item.find_first_not_of(' '));
    if (item.compare(0, key.size() + 1, key + "=") == 0) return item.substr(key.size() + 1);
  }
  return "";
}

} // namespace

std::string describe_prepare_options(const PrepareOptions& o) {
  std::ostringstream os;
  os << "renumber=" << renumber_name(o.prep.renumber) << "; parts=" << o.parts
     << "; imbalance=" << o.partition.imbalance
     << "; objective=" << partition_objective_name(o.partition.objective)
     << "; seed=" << o.partition.seed << "; default-patch=" << o.prep.faces.defaultPatch
     << "; closure-tol=" << o.prep.closureTol;
  if (!o.prep.wavefrontOrder) os << "; zone-order=rcm";
  if (!o.prep.walls.empty()) {
    os << "; walls=";
    for (std::size_t i = 0; i < o.prep.walls.size(); ++i)
      os << (i ? "," : "") << o.prep.walls[i];
  }
  return os.str();
}

PrepOptions prep_options_of(const ZoneFileHeader& header) {
  PrepOptions o;
  const std::string renumber = option_value(header.options, "renumber");
  if (!renumber.empty()) o.renumber = parse_renumber(renumber);
  o.wavefrontOrder = option_value(header.options, "zone-order") != "rcm";
  o.faces.defaultPatch = option_value(header.options, "default-patch");
  const std::string closure = option_value(header.options, "closure-tol");
  if (!closure.empty()) o.closureTol = std::stod(closure);
  std::istringstream walls(option_value(header.options, "walls"));
  for (std::string w; std::getline(walls, w, ',');)
    o.walls.push_back(w);
  return o;
}

} // namespace fv
