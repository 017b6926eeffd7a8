#pragma once
/// \file zone_shape.hpp
/// fv::ZoneShape: what the zone-file writer needs to lay a zone out in the file without its
/// bytes: the zone's counts (the attributes of its group) and the element count of each of its
/// datasets. A distributed fvprep sends it, as bytes, from the rank that built a zone to the
/// rank that owns the ZoneFileWriter (ZoneFileWriter::place_zone_shape()); the building rank
/// then writes the bytes itself (write_zone_pieces()). docs/zone-file-format.md, "Writing from
/// many processes".
///
/// A zone's *pieces* are its datasets in the writer's order: visit_zone_arrays() order, a CSR
/// relation as two pieces (name/offsets, then name/indices). Every process of one run runs the
/// same build, so both sides agree on the order, the names and the element types.
#include "common/zone.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace fv {

namespace detail {
template <class F>
struct PieceVisitor {
  F& f;
  template <class A>
  void array(const ArrayInfo& info, A& a) {
    f(std::string(info.name), a);
  }
  template <class A>
  void optional_array(const ArrayInfo& info, A& a) {
    f(std::string(info.name), a);
  }
  /// Not in the file: a reader computes it (derive_zone_arrays()).
  template <class A>
  void derived_array(const ArrayInfo&, A&) {}
  template <class C>
  void csr(const CsrInfo& info, C& c) {
    f(std::string(info.name) + "/offsets", c.offsets());
    f(std::string(info.name) + "/indices", c.indices());
  }
};
} // namespace detail

/// Calls f(path, array) for every piece of zone `z` in the writer's order, `path` being the
/// dataset path inside the zone group ("cells/volume", "conn/cellFaces/offsets", ...) and
/// `array` the fv::Array<T> (const when Z is const Zone).
template <class Z, class F>
void visit_zone_pieces(Z& z, F&& f) {
  visit_zone_arrays(z, detail::PieceVisitor<std::remove_reference_t<F>>{f});
}

/// Dataset paths of a zone's pieces, in the writer's order.
const std::vector<std::string>& zone_piece_paths();

/// Names of a zone's counts (the attributes of its group), in visit_zone_counts() order.
const std::vector<std::string>& zone_count_names();

/// The shape of a zone: enough to create its group and datasets in a zone file.
struct ZoneShape {
  /// The zone's counts in visit_zone_counts() order (zoneId, nCells, ...): zone_count_names().
  std::vector<std::int32_t> counts;
  /// Element count of each piece (not bytes), in the writer's order: zone_piece_paths().
  std::vector<std::uint64_t> elements;

  /// The zone id (the zoneId entry of counts).
  std::int32_t zone_id() const;
};

/// The shape of `zone`.
ZoneShape zone_shape(const Zone& zone);

/// The shape as bytes (a few hundred), to send between processes of one run: a tag and a
/// version, the number of counts and of pieces, then the counts (int32) and the element counts
/// (uint64), in host (little-endian) byte order.
std::vector<std::uint8_t> to_bytes(const ZoneShape& shape);

/// The shape back from to_bytes()'s output. Throws fv::Error when the bytes are no zone shape
/// or one of another schema (other counts or pieces than this build's).
ZoneShape zone_shape_from_bytes(const void* data, std::size_t bytes);
inline ZoneShape zone_shape_from_bytes(const std::vector<std::uint8_t>& bytes) {
  return zone_shape_from_bytes(bytes.data(), bytes.size());
}

} // namespace fv
