#include "formats/mesh_uuid.hpp"

#include "common/error.hpp"
#include "formats/checksum.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace fv {

// Hash128 is a member of MeshUuidStream::State (external linkage): a named namespace, not an
// anonymous one
namespace mesh_uuid_detail {

constexpr std::uint64_t kSeedLo = 0;
constexpr std::uint64_t kSeedHi = 0x6676'6b69'742d'7575ULL; // "fvkit-uu"

/// Feeds both halves of the 128-bit hash. Small inputs (a cell's type, count and ids) are
/// collected into a buffer first (hash_cell() writes cells straight into it): the hash of a stream
/// does not depend on how it is split, and one update per 64 KiB is far cheaper than three per
/// cell.
struct Hash128 {
  Xxh64 lo{kSeedLo}, hi{kSeedHi};
  std::vector<unsigned char> pending = std::vector<unsigned char>(kBuffer);
  std::size_t used = 0;
  static constexpr std::size_t kBuffer = 64 * 1024;
  void flush() {
    lo.update(pending.data(), used);
    hi.update(pending.data(), used);
    used = 0;
  }
  void update(const void* p, std::size_t n) {
    if (used + n > kBuffer) flush();
    if (n >= kBuffer) {
      lo.update(p, n);
      hi.update(p, n);
      return;
    }
    std::memcpy(pending.data() + used, p, n);
    used += n;
  }
  template <class T>
  void value(T v) {
    update(&v, sizeof v);
  }
  std::string uuid() {
    flush();
    std::uint64_t a = hi.digest(), b = lo.digest();
    a = (a & ~0xF000ULL) | 0x8000ULL;       // version 8 (custom)
    b = (b & ~(3ULL << 62)) | (2ULL << 62); // RFC 4122/9562 variant
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08llx-%04llx-%04llx-%04llx-%012llx",
                  static_cast<unsigned long long>(a >> 32),
                  static_cast<unsigned long long>((a >> 16) & 0xFFFF),
                  static_cast<unsigned long long>(a & 0xFFFF),
                  static_cast<unsigned long long>(b >> 48),
                  static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFULL));
    return buf;
  }
};

} // namespace mesh_uuid_detail

namespace {
using mesh_uuid_detail::Hash128;

/// The bytes hashed for one cell (the one definition of their layout): its type (int8), node
/// count (int64) and node ids (int64 each).
template <class I>
void write_cell(CellType type, const I* nodes, std::size_t n, unsigned char* out) {
  const auto t = static_cast<std::int8_t>(type);
  const auto count = static_cast<std::int64_t>(n);
  std::memcpy(out, &t, sizeof t);
  std::memcpy(out + sizeof t, &count, sizeof count);
  static_assert(sizeof t + sizeof count == MeshUuidStream::kCellHeadBytes, "cell head layout");
  out += MeshUuidStream::kCellHeadBytes;
  for (std::size_t k = 0; k < n; ++k, out += sizeof(std::int64_t)) {
    const auto id = static_cast<std::int64_t>(nodes[k]);
    std::memcpy(out, &id, sizeof id);
  }
}

/// Hashes one cell, written straight into the hash's buffer.
template <class I>
void hash_cell(Hash128& h, CellType type, const I* nodes, std::size_t n) {
  const std::size_t bytes = MeshUuidStream::kCellHeadBytes + sizeof(std::int64_t) * n;
  if (bytes > Hash128::kBuffer) {
    std::vector<unsigned char> big(bytes);
    write_cell(type, nodes, n, big.data());
    h.update(big.data(), bytes);
    return;
  }
  if (h.used + bytes > Hash128::kBuffer) h.flush();
  write_cell(type, nodes, n, h.pending.data() + h.used);
  h.used += bytes;
}

void hash_prologue(Hash128& h, std::int64_t nNodes, std::int64_t nCells) {
  static const char tag[] = "fvkit-mesh-v1";
  h.update(tag, sizeof tag - 1);
  h.value(nNodes);
  h.value(nCells);
}

} // namespace

struct MeshUuidStream::State {
  mesh_uuid_detail::Hash128 h;
};

MeshUuidStream::MeshUuidStream(gidx_t nNodes, gidx_t nCells) : s_(std::make_unique<State>()) {
  hash_prologue(s_->h, nNodes, nCells);
}
MeshUuidStream::~MeshUuidStream() = default;
void MeshUuidStream::add_nodes(const real_t* xyz, std::size_t n) {
  s_->h.update(xyz, 3 * n * sizeof(real_t));
}
void MeshUuidStream::add_cell(CellType type, const gidx_t* nodes, std::size_t n) {
  hash_cell(s_->h, type, nodes, n);
}
void MeshUuidStream::add_cell(CellType type, const idx_t* nodes, std::size_t n) {
  hash_cell(s_->h, type, nodes, n);
}
void MeshUuidStream::add_bytes(const unsigned char* bytes, std::size_t n) {
  s_->h.update(bytes, n);
}
void MeshUuidStream::cell_bytes(CellType type, const idx_t* nodes, std::size_t n,
                                unsigned char* out) {
  write_cell(type, nodes, n, out);
}
std::string MeshUuidStream::uuid() const {
  return s_->h.uuid();
}

std::string mesh_uuid(const std::vector<real_t>& xyz, const std::vector<CellType>& cellType,
                      const Csr& cellNodes) {
  FV_VERIFY(xyz.size() % 3 == 0,
            "mesh_uuid: coordinate array size " << xyz.size() << " is not a multiple of 3");
  FV_VERIFY(cellNodes.rows() == static_cast<idx_t>(cellType.size()),
            "mesh_uuid: " << cellType.size() << " cell types but " << cellNodes.rows()
                          << " cell-node rows");
  MeshUuidStream h(static_cast<gidx_t>(xyz.size() / 3), static_cast<gidx_t>(cellType.size()));
  h.add_nodes(xyz.data(), xyz.size() / 3);
  for (idx_t c = 0; c < cellNodes.rows(); ++c)
    h.add_cell(cellType[static_cast<std::size_t>(c)], cellNodes.row(c),
               static_cast<std::size_t>(cellNodes.size(c)));
  return h.uuid();
}

std::string mesh_uuid(const std::vector<Zone>& zones, gidx_t nGlobalCells, gidx_t nGlobalNodes) {
  FV_VERIFY(nGlobalCells >= 0 && nGlobalNodes >= 0, "mesh_uuid: negative global counts");
  const auto nC = static_cast<std::size_t>(nGlobalCells);
  const auto nN = static_cast<std::size_t>(nGlobalNodes);
  // Gather: where (zone, local cell) each global cell lives, and each node's coordinates.
  std::vector<std::int32_t> cellZone(nC, -1);
  std::vector<idx_t> cellLocal(nC, -1);
  std::vector<real_t> xyz(3 * nN, 0.0);
  std::vector<char> haveNode(nN, 0);
  for (std::size_t zi = 0; zi < zones.size(); ++zi) {
    const Zone& z = zones[zi];
    for (idx_t c = 0; c < z.nCells; ++c) {
      const gidx_t g = z.cellGlobalId[static_cast<std::size_t>(c)];
      FV_VERIFY(g >= 0 && g < nGlobalCells, "mesh_uuid: zone "
                                                << z.zoneId << ", cell " << c << ": global id " << g
                                                << " outside [0, " << nGlobalCells << ")");
      FV_VERIFY(cellZone[static_cast<std::size_t>(g)] < 0,
                "mesh_uuid: global cell " << g << " is owned by zones "
                                          << cellZone[static_cast<std::size_t>(g)] << " and "
                                          << z.zoneId);
      cellZone[static_cast<std::size_t>(g)] = static_cast<std::int32_t>(zi);
      cellLocal[static_cast<std::size_t>(g)] = c;
    }
    for (idx_t n = 0; n < z.nNodes; ++n) {
      const gidx_t g = z.nodeGlobalId[static_cast<std::size_t>(n)];
      FV_VERIFY(g >= 0 && g < nGlobalNodes, "mesh_uuid: zone "
                                                << z.zoneId << ", node " << n << ": global id " << g
                                                << " outside [0, " << nGlobalNodes << ")");
      std::memcpy(&xyz[3 * static_cast<std::size_t>(g)],
                  &z.nodeXyz[3 * static_cast<std::size_t>(n)], 3 * sizeof(real_t));
      haveNode[static_cast<std::size_t>(g)] = 1;
    }
  }
  for (std::size_t g = 0; g < nN; ++g)
    FV_VERIFY(haveNode[g], "mesh_uuid: global node " << g << " belongs to no zone");

  MeshUuidStream h(nGlobalNodes, nGlobalCells);
  h.add_nodes(xyz.data(), nN);
  std::vector<gidx_t> ids;
  for (std::size_t g = 0; g < nC; ++g) {
    FV_VERIFY(cellZone[g] >= 0, "mesh_uuid: global cell " << g << " is owned by no zone");
    const Zone& z = zones[static_cast<std::size_t>(cellZone[g])];
    const idx_t c = cellLocal[g];
    const idx_t n = z.cellNodes.size(c);
    ids.resize(static_cast<std::size_t>(n));
    const idx_t* row = z.cellNodes.row(c);
    for (idx_t k = 0; k < n; ++k)
      ids[static_cast<std::size_t>(k)] = z.nodeGlobalId[static_cast<std::size_t>(row[k])];
    h.add_cell(static_cast<CellType>(z.cellType[static_cast<std::size_t>(c)]), ids.data(),
               ids.size());
  }
  return h.uuid();
}

} // namespace fv
