#include "formats/mesh_transfer.hpp"

#include "common/error.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace fv {

namespace {

constexpr char kMagic[8] = {'F', 'V', 'M', 'E', 'S', 'H', '1', '\0'};

struct Writer {
  std::FILE* out;
  bool ok = true;
  void bytes(const void* p, std::size_t n) {
    if (ok && n > 0) ok = std::fwrite(p, 1, n, out) == n;
  }
  void count(std::uint64_t n) { bytes(&n, sizeof n); }
  template <class T>
  void vec(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    count(v.size());
    bytes(v.data(), v.size() * sizeof(T));
  }
  void arr(const Array<idx_t>& a) {
    count(a.size());
    bytes(a.data(), a.size() * sizeof(idx_t));
  }
  void csr(const Csr& c) {
    arr(c.offsets());
    arr(c.indices());
  }
  void str(const std::string& s) {
    count(s.size());
    bytes(s.data(), s.size());
  }
  void strs(const std::vector<std::string>& v) {
    count(v.size());
    for (const std::string& s : v)
      str(s);
  }
};

struct Reader {
  const char* p;
  std::size_t left;
  const std::string& what;
  void bytes(void* out, std::size_t n) {
    FV_VERIFY(n <= left,
              what << ": mesh stream truncated (" << n << " bytes wanted, " << left << " left)");
    if (n > 0) std::memcpy(out, p, n);
    p += n;
    left -= n;
  }
  std::uint64_t count(std::size_t elementSize) {
    std::uint64_t n = 0;
    bytes(&n, sizeof n);
    FV_VERIFY(elementSize == 0 || n <= left / elementSize,
              what << ": mesh stream announces " << n << " entries, more than it holds");
    return n;
  }
  template <class T>
  std::vector<T> vec() {
    std::vector<T> v(static_cast<std::size_t>(count(sizeof(T))));
    bytes(v.data(), v.size() * sizeof(T));
    return v;
  }
  Csr csr() {
    Array<idx_t> off(vec<idx_t>());
    Array<idx_t> ind(vec<idx_t>());
    return off.empty() && ind.empty() ? Csr() : Csr(std::move(off), std::move(ind));
  }
  std::string str() {
    std::string s(static_cast<std::size_t>(count(1)), '\0');
    bytes(s.data(), s.size());
    return s;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v(static_cast<std::size_t>(count(sizeof(std::uint64_t))));
    for (std::string& s : v)
      s = str();
    return v;
  }
};

} // namespace

bool write_mesh_stream(std::FILE* out, const Mesh& m) {
  Writer w{out};
  w.bytes(kMagic, sizeof kMagic);
  w.vec(m.xyz);
  w.vec(m.cellType);
  w.csr(m.cellNodes);
  w.vec(m.polyCell);
  w.csr(m.polyCellFaces);
  w.csr(m.polyFaceNodes);
  w.csr(m.bfaceNodes);
  w.vec(m.bfacePatch);
  w.count(m.patches.size());
  for (const Patch& p : m.patches) {
    w.str(p.name);
    w.str(p.bcType);
  }
  w.count(m.nodeSetPatches.size());
  for (const NodeSetPatch& n : m.nodeSetPatches) {
    w.count(static_cast<std::uint64_t>(n.patch));
    w.vec(n.nodes);
  }
  w.vec(m.cellFileId);
  w.vec(m.bfaceFileId);
  w.str(m.path);
  w.str(m.format);
  w.str(m.writer);
  w.strs(m.warnings);
  w.vec(m.nodeFileId);
  w.strs(m.fileZones);
  w.vec(m.cellFileZone);
  w.vec(m.bfaceFileZone);
  w.bytes(&m.extrusion.thickness, sizeof m.extrusion.thickness);
  w.bytes(m.extrusion.direction.data(), sizeof m.extrusion.direction);
  return w.ok && std::fflush(out) == 0;
}

Mesh read_mesh_stream(const char* data, std::size_t size, const std::string& what) {
  Reader r{data, size, what};
  char magic[sizeof kMagic];
  r.bytes(magic, sizeof magic);
  FV_VERIFY(std::memcmp(magic, kMagic, sizeof kMagic) == 0, what << ": not a mesh stream");
  Mesh m;
  m.xyz = r.vec<real_t>();
  m.cellType = r.vec<CellType>();
  m.cellNodes = r.csr();
  m.polyCell = r.vec<idx_t>();
  m.polyCellFaces = r.csr();
  m.polyFaceNodes = r.csr();
  m.bfaceNodes = r.csr();
  m.bfacePatch = r.vec<idx_t>();
  m.patches.resize(static_cast<std::size_t>(r.count(2 * sizeof(std::uint64_t))));
  for (Patch& p : m.patches) {
    p.name = r.str();
    p.bcType = r.str();
  }
  m.nodeSetPatches.resize(static_cast<std::size_t>(r.count(2 * sizeof(std::uint64_t))));
  for (NodeSetPatch& n : m.nodeSetPatches) {
    n.patch = static_cast<idx_t>(r.count(0));
    n.nodes = r.vec<idx_t>();
  }
  m.cellFileId = r.vec<gidx_t>();
  m.bfaceFileId = r.vec<gidx_t>();
  m.path = r.str();
  m.format = r.str();
  m.writer = r.str();
  m.warnings = r.strs();
  m.nodeFileId = r.vec<gidx_t>();
  m.fileZones = r.strs();
  m.cellFileZone = r.vec<std::int32_t>();
  m.bfaceFileZone = r.vec<std::int32_t>();
  r.bytes(&m.extrusion.thickness, sizeof m.extrusion.thickness);
  r.bytes(m.extrusion.direction.data(), sizeof m.extrusion.direction);
  FV_VERIFY(r.left == 0, what << ": " << r.left << " bytes after the mesh stream");
  return m;
}

} // namespace fv
