#include "formats/zone_shape.hpp"

#include "common/error.hpp"
#include "formats/byte_io.hpp"

#include <cstring>

namespace fv {

namespace {
constexpr char kShapeTag[5] = "FVZS";
constexpr std::uint32_t kShapeVersion = 1;

/// Index of zoneId in visit_zone_counts() order.
std::size_t zone_id_index() {
  static const std::size_t index = [] {
    const auto& names = zone_count_names();
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == "zoneId") return i;
    FV_THROW("zone schema: visit_zone_counts() lists no zoneId");
  }();
  return index;
}
} // namespace

const std::vector<std::string>& zone_piece_paths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> out;
    const Zone empty;
    visit_zone_pieces(empty, [&](const std::string& path, const auto&) { out.push_back(path); });
    return out;
  }();
  return paths;
}

const std::vector<std::string>& zone_count_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    const Zone empty;
    visit_zone_counts(empty,
                      [&](const char* name, const std::int32_t&) { out.emplace_back(name); });
    return out;
  }();
  return names;
}

std::int32_t ZoneShape::zone_id() const {
  const std::size_t i = zone_id_index();
  FV_VERIFY(i < counts.size(), "zone shape without counts");
  return counts[i];
}

ZoneShape zone_shape(const Zone& zone) {
  ZoneShape s;
  visit_zone_counts(zone, [&](const char*, const std::int32_t& v) { s.counts.push_back(v); });
  visit_zone_pieces(zone, [&](const std::string&, const auto& a) {
    s.elements.push_back(static_cast<std::uint64_t>(a.size()));
  });
  return s;
}

std::vector<std::uint8_t> to_bytes(const ZoneShape& shape) {
  bytes::Writer w;
  bytes::put_tag(w, kShapeTag, kShapeVersion);
  w.put(static_cast<std::uint32_t>(shape.counts.size()));
  w.put(static_cast<std::uint32_t>(shape.elements.size()));
  for (std::int32_t c : shape.counts)
    w.put(c);
  for (std::uint64_t n : shape.elements)
    w.put(n);
  return w.take();
}

ZoneShape zone_shape_from_bytes(const void* data, std::size_t nBytes) {
  bytes::Reader r(data, nBytes, "zone shape");
  bytes::check_tag(r, kShapeTag, kShapeVersion);
  const auto nCounts = r.get<std::uint32_t>();
  const auto nPieces = r.get<std::uint32_t>();
  FV_VERIFY(nCounts == zone_count_names().size() && nPieces == zone_piece_paths().size(),
            "zone shape: " << nCounts << " counts and " << nPieces
                           << " datasets, this build's zone schema has "
                           << zone_count_names().size() << " and " << zone_piece_paths().size());
  const std::size_t expected =
      std::size_t{16} + std::size_t{4} * nCounts + std::size_t{8} * nPieces;
  FV_VERIFY(nBytes == expected, "zone shape: " << nBytes << " bytes, expected " << expected);
  ZoneShape s;
  s.counts.resize(nCounts);
  s.elements.resize(nPieces);
  for (std::int32_t& c : s.counts)
    c = r.get<std::int32_t>();
  for (std::uint64_t& n : s.elements)
    n = r.get<std::uint64_t>();
  return s;
}

} // namespace fv
