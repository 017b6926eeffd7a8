#include "formats/su2_writer.hpp"

#include "common/atomic_file.hpp"
#include "common/cell_shapes.hpp"
#include "common/error.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <vector>

namespace fv {
namespace {

/// Buffered writer of text to a FILE*, checking every write.
class Out {
 public:
  Out(std::FILE* f, const std::string& path) : f_(f), path_(path) { buf_.reserve(kSize + 256); }
  ~Out() = default;
  void str(const char* s) {
    buf_.append(s);
    maybe_flush();
  }
  void str(const std::string& s) {
    buf_.append(s);
    maybe_flush();
  }
  void num(long long v) {
    char tmp[32];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void real(double v) {
    char tmp[40];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void ch(char c) {
    buf_.push_back(c);
    if (c == '\n') maybe_flush();
  }
  void flush() {
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
      FV_THROW(path_ << ": cannot write: " << std::strerror(errno));
    buf_.clear();
  }

 private:
  static constexpr std::size_t kSize = 1 << 22;
  void maybe_flush() {
    if (buf_.size() >= kSize) flush();
  }
  std::FILE* f_;
  const std::string& path_;
  std::string buf_;
};

} // namespace

void write_su2(const Mesh& m, const std::string& path) {
  AtomicFile out(path);
  std::FILE* f = std::fopen(out.temp_path().c_str(), "wb");
  FV_VERIFY(f, path << ": cannot create " << out.temp_path() << ": " << std::strerror(errno));
  struct Closer {
    std::FILE*& f;
    ~Closer() {
      if (f) std::fclose(f);
    }
  } closer{f};
  Out w(f, path);
  w.str("% SU2 mesh written by fvkit\nNDIME= 3\nNELEM= ");
  w.num(m.nCells());
  w.ch('\n');
  for (idx_t c = 0; c < m.nCells(); ++c) {
    const CellType t = m.cellType[static_cast<std::size_t>(c)];
    FV_VERIFY(t != CellType::Polyhedron,
              path << ": cell " << c << " is a polyhedron, which SU2 files cannot hold");
    w.num(cell_shape(t).vtkType); // SU2 element ids are VTK's
    const idx_t* n = m.cellNodes.row(c);
    const idx_t cnt = m.cellNodes.size(c);
    FV_VERIFY(cnt == cell_node_count(t), path << ": cell " << c << " (" << cell_type_name(t)
                                              << ") has " << cnt << " nodes, expected "
                                              << cell_node_count(t));
    for (idx_t v = 0; v < cnt; ++v) {
      w.ch('\t');
      w.num(n[vtk_corner(t, static_cast<int>(v))]);
    }
    w.ch('\t');
    w.num(c);
    w.ch('\n');
  }
  w.str("NPOIN= ");
  w.num(m.nNodes());
  w.ch('\n');
  for (idx_t i = 0; i < m.nNodes(); ++i) {
    const real_t* p = m.xyz.data() + 3 * static_cast<std::size_t>(i);
    for (int d = 0; d < 3; ++d) {
      w.real(p[d]);
      w.ch('\t');
    }
    w.num(i);
    w.ch('\n');
  }
  std::vector<std::vector<idx_t>> faces(m.patches.size());
  for (idx_t fc = 0; fc < m.nBoundaryFaces(); ++fc) {
    const idx_t p = m.bfacePatch[static_cast<std::size_t>(fc)];
    FV_VERIFY(p >= 0 && static_cast<std::size_t>(p) < m.patches.size(),
              path << ": boundary face " << fc << " has patch " << p << " of " << m.patches.size());
    const idx_t n = m.bfaceNodes.size(fc);
    FV_VERIFY(n == 3 || n == 4,
              path << ": boundary face " << fc << " has " << n << " nodes; SU2 needs 3 or 4");
    faces[static_cast<std::size_t>(p)].push_back(fc);
  }
  w.str("NMARK= ");
  w.num(static_cast<long long>(m.patches.size()));
  w.ch('\n');
  for (std::size_t p = 0; p < m.patches.size(); ++p) {
    w.str("MARKER_TAG= " + m.patches[p].name + "\nMARKER_ELEMS= ");
    w.num(static_cast<long long>(faces[p].size()));
    w.ch('\n');
    for (idx_t fc : faces[p]) {
      const idx_t n = m.bfaceNodes.size(fc);
      w.num(n == 3 ? 5 : 9);
      for (idx_t k = 0; k < n; ++k) {
        w.ch('\t');
        w.num(m.bfaceNodes.row(fc)[k]);
      }
      w.ch('\n');
    }
  }
  w.flush();
  const int rc = std::fclose(f);
  f = nullptr;
  FV_VERIFY(rc == 0, path << ": cannot write: " << std::strerror(errno));
  out.commit();
}

} // namespace fv
