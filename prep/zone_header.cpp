#include "common/version.hpp"
#include "prep/zones.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace fv {

namespace {

// FNV-1a over raw bytes, 64-bit.
struct Fnv {
  std::uint64_t h;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= 1099511628211ull;
    }
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    const std::uint64_t n = v.size();
    bytes(&n, sizeof n);
    bytes(v.data(), v.size() * sizeof(T));
  }
  template <class T>
  void arr(const Array<T>& v) {
    const std::uint64_t n = v.size();
    bytes(&n, sizeof n);
    bytes(v.data(), v.size() * sizeof(T));
  }
};

} // namespace

ZoneFileHeader make_zone_header(const Mesh& mesh, const GlobalMesh& g, int nZones) {
  ZoneFileHeader h;
  h.creator = std::string("fvkit ") + kVersion;
  h.sourceMesh = mesh.path;
  h.nZones = nZones;
  h.nGlobalCells = g.nCells();
  h.nGlobalFaces = g.nFaces();
  h.nGlobalNodes = g.nNodes();
  h.patches = g.patches;
  Fnv a{1469598103934665603ull}, b{0x84222325cbf29ce4ull};
  b.bytes("fvkit", 5); // decorrelate the second half
  for (Fnv* f : {&a, &b}) {
    f->vec(g.xyz);
    f->vec(g.cellType);
    f->arr(g.cellNodes.offsets());
    f->arr(g.cellNodes.indices());
    f->vec(g.patchFaceOffsets);
    for (const Patch& p : g.patches)
      f->bytes(p.name.data(), p.name.size() + 1);
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(a.h >> 32),
                static_cast<unsigned>((a.h >> 16) & 0xffff), static_cast<unsigned>(a.h & 0xffff),
                static_cast<unsigned>(b.h >> 48),
                static_cast<unsigned long long>(b.h & 0xffffffffffffull));
  h.meshUuid = buf;
  return h;
}

} // namespace fv
