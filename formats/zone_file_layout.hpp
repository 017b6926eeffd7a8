#pragma once
/// \file zone_file_layout.hpp
/// Names shared by the zone-file writer and reader (internal to formats/). The layout itself is
/// described in docs/zone-file-format.md; the datasets of a zone come from visit_zone_arrays().
#include <cstdio>
#include <string>

namespace fv::zonefile {

/// Root attribute identifying the file kind, and its value.
inline constexpr const char* kFormatAttr = "format";
inline constexpr const char* kFormatName = "fvkit zone file";
/// Per-dataset checksum attribute (uint64 XXH64 of the dataset's raw little-endian bytes).
inline constexpr const char* kChecksumAttr = "xxh64";

/// Root attributes of an extruded 2D mesh (fv::Extrusion), absent otherwise: the thickness
/// (float64) and the unit direction (3 float64).
inline constexpr const char* kExtrusionThicknessAttr = "extrusionThickness";
inline constexpr const char* kExtrusionDirectionAttr = "extrusionDirection";

/// Group of the extra partitionings (`fvprep partition add`): one subgroup per part count.
inline constexpr const char* kPartitioningsGroup = "partitionings";

/// Group holding a partitioning of `parts` zones other than the file's first one:
/// "partitionings/000064/" (with the trailing slash, a prefix of its zone groups).
inline std::string partitioning_prefix(int parts) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s/%06d/", kPartitioningsGroup, parts);
  return buf;
}

/// Group of zone `id` below `prefix` ("" for the file's first partitioning, else
/// partitioning_prefix()): "zones/000042" (6 digits, so names sort numerically up to 999,999).
inline std::string zone_group_name(int id, const std::string& prefix = "") {
  char buf[32];
  std::snprintf(buf, sizeof buf, "zones/%06d", id);
  return prefix + buf;
}

} // namespace fv::zonefile
