#include "tests/readers/plot3d_writers.hpp"

#include "tests/readers/mesh_writers.hpp"

#include <cstdio>
#include <cstring>

namespace fv::testing {

namespace {

template <class T>
void put(std::string& s, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  s.append(b, sizeof(T));
}

/// Appends a Fortran record (markers around) or the raw bytes.
void record(std::string& out, const std::string& data, bool fortran) {
  if (fortran) put<std::int32_t>(out, static_cast<std::int32_t>(data.size()));
  out += data;
  if (fortran) put<std::int32_t>(out, static_cast<std::int32_t>(data.size()));
}

std::string ascii(const std::vector<P3dBlock>& blocks, const P3dLayout& l) {
  std::string s;
  char buf[64];
  if (l.multi) s += std::to_string(blocks.size()) + "\n";
  for (const P3dBlock& b : blocks) {
    for (int d = 0; d < l.dim; ++d)
      s += std::to_string(b.nv[d]) + (d + 1 < l.dim ? " " : "\n");
  }
  for (const P3dBlock& b : blocks) {
    const std::vector<double>* c[3] = {&b.x, &b.y, &b.z};
    for (int d = 0; d < l.dim; ++d) {
      for (std::size_t v = 0; v < c[d]->size(); ++v) {
        std::snprintf(buf, sizeof buf, "%.17e%s", (*c[d])[v], v % 4 == 3 ? "\n" : " ");
        s += buf;
      }
      s += "\n";
    }
    if (!l.iblank) continue;
    for (int v = 0; v < b.nodes(l.dim); ++v)
      s += std::to_string(b.iblank.empty() ? 1 : b.iblank[static_cast<std::size_t>(v)]) + " ";
    s += "\n";
  }
  return s;
}

std::string binary(const std::vector<P3dBlock>& blocks, const P3dLayout& l) {
  const bool fortran = l.storage == P3dStorage::Fortran;
  std::string out, rec;
  if (l.multi) {
    put<std::int32_t>(rec, static_cast<std::int32_t>(blocks.size()));
    record(out, rec, fortran);
  }
  rec.clear();
  for (const P3dBlock& b : blocks)
    for (int d = 0; d < l.dim; ++d)
      put<std::int32_t>(rec, b.nv[d]);
  record(out, rec, fortran);
  for (const P3dBlock& b : blocks) {
    rec.clear();
    const std::vector<double>* c[3] = {&b.x, &b.y, &b.z};
    for (int d = 0; d < l.dim; ++d)
      for (double v : *c[d])
        l.float32 ? put<float>(rec, static_cast<float>(v)) : put<double>(rec, v);
    if (l.iblank)
      for (int v = 0; v < b.nodes(l.dim); ++v)
        put<std::int32_t>(rec, b.iblank.empty() ? 1 : b.iblank[static_cast<std::size_t>(v)]);
    record(out, rec, fortran);
  }
  return out;
}

} // namespace

P3dBlock p3d_box(int ni, int nj, int nk, double x0) {
  P3dBlock b;
  b.nv = {ni, nj, nk};
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < nj; ++j)
      for (int i = 0; i < ni; ++i) {
        b.x.push_back(x0 + i);
        b.y.push_back(j);
        b.z.push_back(k);
      }
  return b;
}

std::string plot3d_bytes(const std::vector<P3dBlock>& blocks, const P3dLayout& layout) {
  P3dLayout l = layout;
  l.multi |= blocks.size() > 1;
  return l.storage == P3dStorage::Ascii ? ascii(blocks, l) : binary(blocks, l);
}

void write_plot3d(const std::string& path, const std::vector<P3dBlock>& blocks,
                  const P3dLayout& layout) {
  write_text(path, plot3d_bytes(blocks, layout));
}

} // namespace fv::testing
