#pragma once
/// \file stored_options.hpp
/// The resolved fvprep options as a zone file's header stores them (its `options` attribute,
/// docs/zone-file-format.md), and back: `fvprep partition add` builds its zones with the
/// options of the prepare that wrote the file.
#include "common/zone.hpp"
#include "prep/prep_options.hpp"
#include "prep/prepare.hpp"

#include <string>

namespace fv {

/// "renumber=rcm; parts=4; imbalance=1.03; objective=cut; seed=0; default-patch=" — the
/// resolved options as stored in the zone-file header.
std::string describe_prepare_options(const PrepareOptions& opts);

/// The PrepOptions fvprep used for the file (renumbering and zone order, from the header's
/// options string), which the zones of a new partitioning are built with. Every value reads
/// back as it was given: numbers are stored with max_digits10 digits (subnormal ones too), and
/// a backslash escapes '\\', ';' and ',' in names. `path`: the zone file, for messages.
PrepOptions prep_options_of(const ZoneFileHeader& header, const std::string& path);

} // namespace fv
