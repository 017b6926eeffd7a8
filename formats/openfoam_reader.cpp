// OpenFOAM polyMesh reader: constant/polyMesh/{points, faces, owner, neighbour, boundary}.
// ASCII and binary (little-endian, 32- or 64-bit labels, 64- or 32-bit scalars), faces as
// faceList or faceCompactList, FoamFile headers, // and /* */ comments, `N ( ... )` lists and
// the `N{value}` uniform shorthand. Cells are rebuilt from their faces: tetrahedra, pyramids,
// prisms and hexahedra become standard cells in CGNS node order, any other cell a polyhedron.
// Patch types: wall -> BCWall, symmetryPlane/symmetry/empty (the front and back of a 2D mesh,
// which stays one cell thick) -> BCSymmetryPlane, patch -> UserDefined; cyclic and processor
// patches are errors. Ids in messages are OpenFOAM's 0-based point, face and cell labels.
#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/mesh_builder.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/text_scanner.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>

namespace fv {

namespace {

namespace fs = std::filesystem;

constexpr const char* kPolyMeshFiles[] = {"points", "faces", "owner", "neighbour", "boundary"};

bool is_polymesh_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (const char* f : kPolyMeshFiles)
    if (fs::exists(dir / f, ec) || fs::exists(dir / (std::string(f) + ".gz"), ec)) return true;
  return false;
}

/// One OpenFOAM file held in memory: its FoamFile header and a cursor over its body.
/// Messages are only composed when something is wrong (the list readers run per entry).
class FoamFile {
 public:
  FoamFile(const fs::path& dir, const char* name) : path_((dir / name).string()) {
    std::error_code ec;
    if (!fs::exists(path_, ec)) {
      FV_VERIFY(!fs::exists(path_ + ".gz", ec),
                path_ << ".gz: compressed polyMesh files are not supported (gunzip them first)");
      FV_THROW(path_ << ": no such file (a polyMesh directory holds points, faces, owner, "
                        "neighbour and boundary)");
    }
    data_ = read_file_bytes(path_);
    read_header();
  }

  const std::string& path() const { return path_; }
  bool binary() const { return binary_; }
  const std::string& cls() const { return class_; }
  const std::string& note() const { return note_; }

  /// Throws "path:line: msg".
  [[noreturn]] void fail(const std::string& msg) const {
    const auto end = data_.begin() + static_cast<std::ptrdiff_t>(std::min(pos_, data_.size()));
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(data_.begin(), end, '\n'));
    FV_THROW(path_ << ":" << line << ": " << msg);
  }

  /// Skips blanks and comments; true when something follows.
  bool more() {
    skip_blanks();
    return pos_ < data_.size();
  }
  /// Next character after blanks and comments (0 at the end), not consumed.
  char peek() { return more() ? data_[pos_] : '\0'; }
  /// Consumes c (after blanks and comments); else fails with "expected 'c' <where><what>".
  void expect(char c, const char* where, std::string_view what = {}) {
    const char got = peek();
    if (got == c) {
      ++pos_;
      return;
    }
    const std::string w = std::string(where) + std::string(what);
    if (got == '\0') fail("unexpected end of file, expected '" + std::string(1, c) + "' " + w);
    fail("expected '" + std::string(1, c) + "' " + w + ", found '" + shown() + "'");
  }
  /// Next word or number ("" at a punctuation character or the end).
  std::string_view word() {
    skip_blanks();
    const std::size_t b = pos_;
    while (pos_ < data_.size() && !is_delimiter(data_[pos_]))
      ++pos_;
    return std::string_view(data_).substr(b, pos_ - b);
  }
  /// A word or a "quoted string" (quotes removed).
  std::string word_or_string() {
    if (peek() != '"') return std::string(word());
    const std::size_t b = ++pos_;
    const std::size_t e = data_.find('"', b);
    if (e == std::string::npos) fail("unterminated string");
    pos_ = e + 1;
    return data_.substr(b, e - b);
  }
  std::int64_t integer(const char* what, std::string_view what2 = {}) {
    const std::string_view t = word();
    std::int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
      bad_token(std::string(what) + std::string(what2), t);
    return v;
  }
  double real(const char* what) {
    const std::string_view t = word();
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size()) bad_token(what, t);
    return v;
  }

  /// Size and kind of the list that starts here: `N (` (consumed up to and including '(') or
  /// `N {` (uniform; consumed up to and including '{'). Binary empty lists are a bare `0`.
  struct ListHead {
    std::int64_t n = 0;
    bool uniform = false;
    bool empty = false; ///< a bare 0 without parentheses (binary)
  };
  ListHead list_head(std::string_view what) {
    ListHead h;
    h.n = integer("the size of ", what);
    if (h.n < 0 || h.n >= std::numeric_limits<idx_t>::max())
      fail("size " + std::to_string(h.n) + " of " + std::string(what) +
           " is out of range (fvkit reads up to 2^31 - 2 points, faces and cells)");
    const char c = peek();
    if (c == '{') {
      h.uniform = true;
      ++pos_;
    } else if (c != '(' && h.n == 0 && binary_) {
      h.empty = true;
    } else {
      expect('(', "after the size of ", what);
    }
    return h;
  }

  /// A labelList (ASCII, binary or uniform), appended to out.
  void labels(std::vector<idx_t>& out, std::string_view what) {
    const ListHead h = list_head(what);
    if (h.empty) return;
    if (h.uniform) {
      const idx_t v = to_label(integer("the value of uniform ", what), what);
      expect('}', "after the value of uniform ", what);
      out.insert(out.end(), static_cast<std::size_t>(h.n), v);
      return;
    }
    if (binary_) {
      const std::size_t bytes = need(h.n, labelBytes_, what);
      const char* p = data_.data() + pos_;
      const std::size_t first = out.size();
      out.resize(first + static_cast<std::size_t>(h.n));
      for (std::int64_t i = 0; i < h.n; ++i) {
        std::int64_t v;
        if (labelBytes_ == 4) {
          std::int32_t x;
          std::memcpy(&x, p + 4 * i, 4);
          v = x;
        } else {
          std::memcpy(&v, p + 8 * i, 8);
        }
        if (v < -1 || v >= std::numeric_limits<idx_t>::max())
          fail("binary " + std::string(what) + ": entry " + std::to_string(i) + " is " +
               std::to_string(v) +
               ", not a label (corrupt, or written with other label sizes "
               "than the header's arch, label=" +
               std::to_string(8 * labelBytes_) + ")");
        out[first + static_cast<std::size_t>(i)] = static_cast<idx_t>(v);
      }
      pos_ += bytes;
      close_binary(what);
      return;
    }
    check_room(h.n, 2, what);
    grow(out, static_cast<std::size_t>(h.n));
    for (std::int64_t i = 0; i < h.n; ++i) {
      const std::string_view t = word();
      std::int64_t v = 0;
      const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
        bad_entry(i, h.n, what, t);
      out.push_back(to_label(v, what));
    }
    expect(')', "(too many entries?) at the end of ", what);
  }

  /// A vectorField: 3 coordinates per entry, appended to out.
  void vectors(std::vector<real_t>& out, std::string_view what) {
    const ListHead h = list_head(what);
    if (h.empty) return;
    if (h.uniform) {
      real_t v[3];
      vector_in(v, 0, 1, what);
      expect('}', "after the value of uniform ", what);
      for (std::int64_t i = 0; i < h.n; ++i)
        out.insert(out.end(), v, v + 3);
      return;
    }
    if (binary_) {
      const std::size_t bytes = need(h.n, 3 * scalarBytes_, what);
      const char* p = data_.data() + pos_;
      const std::size_t first = out.size();
      out.resize(first + 3 * static_cast<std::size_t>(h.n));
      for (std::size_t i = 0; i < 3 * static_cast<std::size_t>(h.n); ++i) {
        if (scalarBytes_ == 8) {
          std::memcpy(&out[first + i], p + 8 * i, 8);
        } else {
          float x;
          std::memcpy(&x, p + 4 * i, 4);
          out[first + i] = x;
        }
      }
      pos_ += bytes;
      close_binary(what);
      return;
    }
    check_room(h.n, 8, what);
    grow(out, 3 * static_cast<std::size_t>(h.n));
    for (std::int64_t i = 0; i < h.n; ++i) {
      real_t v[3];
      vector_in(v, i, h.n, what);
      out.insert(out.end(), v, v + 3);
    }
    expect(')', "(too many entries?) at the end of ", what);
  }

 private:
  /// Room for n more entries, growing geometrically (lists are appended to face by face).
  template <class T>
  static void grow(std::vector<T>& v, std::size_t n) {
    if (v.capacity() < v.size() + n) v.reserve(std::max(v.size() + n, 2 * v.capacity()));
  }

  static bool is_delimiter(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '(' || c == ')' || c == '{' ||
           c == '}' || c == ';' || c == '"' || c == '[' || c == ']';
  }

  void skip_blanks() {
    for (;;) {
      while (pos_ < data_.size() && std::isspace(static_cast<unsigned char>(data_[pos_])))
        ++pos_;
      if (pos_ + 1 >= data_.size() || data_[pos_] != '/') return;
      if (data_[pos_ + 1] == '/') {
        const std::size_t e = data_.find('\n', pos_);
        pos_ = e == std::string::npos ? data_.size() : e + 1;
      } else if (data_[pos_ + 1] == '*') {
        const std::size_t e = data_.find("*/", pos_ + 2);
        if (e == std::string::npos) fail("unterminated /* comment");
        pos_ = e + 2;
      } else {
        return;
      }
    }
  }

  /// A few characters from the cursor, for messages.
  std::string shown() const {
    if (pos_ >= data_.size()) return {};
    const std::size_t e = std::min(data_.find_first_of("\r\n", pos_), pos_ + 20);
    return data_.substr(pos_, e - pos_);
  }

  [[noreturn]] void bad_token(const std::string& what, std::string_view t) const {
    if (t.empty() && pos_ >= data_.size())
      fail("unexpected end of file, expected " + what + " (truncated?)");
    if (t.empty()) fail("expected " + what + ", found '" + shown() + "'");
    fail("expected " + what + ", found '" + std::string(t.substr(0, 40)) + "'");
  }
  /// Entry i of a list of n that is missing or not a number.
  [[noreturn]] void bad_entry(std::int64_t i, std::int64_t n, std::string_view what,
                              std::string_view t) const {
    if (t.empty() && pos_ < data_.size() && data_[pos_] == ')')
      fail(std::string(what) + " ends after " + std::to_string(i) + " of its " + std::to_string(n) +
           " entries");
    bad_token(
        "entry " + std::to_string(i) + " of " + std::string(what) + " of " + std::to_string(n), t);
  }

  idx_t to_label(std::int64_t v, std::string_view what) const {
    if (v < -1 || v >= std::numeric_limits<idx_t>::max())
      fail("label " + std::to_string(v) + " in " + std::string(what) +
           " is out of range (fvkit reads up to 2^31 - 2 points, faces and cells)");
    return static_cast<idx_t>(v);
  }

  void vector_in(real_t* v, std::int64_t i, std::int64_t n, std::string_view what) {
    const char c = peek();
    if (c != '(') bad_entry(i, n, what, c == ')' || c == '\0' ? std::string_view() : word());
    ++pos_;
    for (int d = 0; d < 3; ++d) {
      const std::string_view t = word();
      const auto r = std::from_chars(t.data(), t.data() + t.size(), v[d]);
      if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
        bad_token("component " + std::to_string(d) + " of entry " + std::to_string(i) + " of " +
                      std::string(what),
                  t);
    }
    if (peek() != ')')
      fail("entry " + std::to_string(i) + " of " + std::string(what) +
           " has more than 3 components or no ')'");
    ++pos_;
  }

  /// An ASCII list of n entries needs at least minBytes per entry (a bound for reserve()).
  void check_room(std::int64_t n, int minBytes, std::string_view what) const {
    const std::size_t room = (data_.size() - pos_) / static_cast<std::size_t>(minBytes) + 1;
    if (static_cast<std::uint64_t>(n) > room)
      fail("the file is too short for " + std::string(what) + " of " + std::to_string(n) +
           " (truncated?)");
  }
  /// Raw bytes of a binary list of n entries of `size` bytes; fails when the file is shorter.
  std::size_t need(std::int64_t n, int size, std::string_view what) const {
    const std::uint64_t bytes = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(size);
    if (bytes > data_.size() - pos_)
      fail("binary " + std::string(what) + " of " + std::to_string(n) + " entries needs " +
           std::to_string(bytes) + " bytes, the file has " + std::to_string(data_.size() - pos_) +
           " left (truncated, or other label/scalar sizes than the header's arch)");
    return static_cast<std::size_t>(bytes);
  }
  void close_binary(std::string_view what) {
    if (pos_ >= data_.size() || data_[pos_] != ')')
      fail("binary " + std::string(what) +
           " is not followed by ')' (truncated, or other label/scalar sizes than the header's "
           "arch)");
    ++pos_;
  }

  /// FoamFile { version 2.0; format ascii|binary; arch "LSB;label=32;scalar=64"; class ...; }
  void read_header() {
    if (!more()) fail("empty file");
    const std::size_t start = pos_;
    if (word() != "FoamFile") {
      pos_ = start; // no header: plain ASCII
      return;
    }
    expect('{', "after FoamFile");
    std::string format = "ascii", arch;
    while (peek() != '}') {
      const std::string key(word());
      if (key.empty()) fail("expected a FoamFile entry or '}', found '" + shown() + "'");
      std::string value;
      for (char c = peek(); c != ';'; c = peek()) {
        const std::string w = word_or_string();
        if (c == '\0' || c == '}' || (w.empty() && c != '"'))
          fail("FoamFile entry '" + key + "' has no ';'");
        value += (value.empty() ? "" : " ") + w;
      }
      ++pos_;
      if (key == "format") format = value;
      if (key == "class") class_ = value;
      if (key == "arch") arch = value;
      if (key == "note") note_ = value;
    }
    ++pos_;
    if (format == "binary")
      binary_ = true;
    else if (format != "ascii")
      fail("FoamFile format '" + format + "' (expected ascii or binary)");
    if (arch.find("MSB") != std::string::npos)
      fail("big-endian (MSB) binary files are not supported");
    auto bits = [&](const char* key, int dflt) {
      const std::size_t p = arch.find(key);
      return p == std::string::npos ? dflt : std::atoi(arch.c_str() + p + std::strlen(key));
    };
    labelBytes_ = bits("label=", 32) / 8;
    scalarBytes_ = bits("scalar=", 64) / 8;
    if (labelBytes_ != 4 && labelBytes_ != 8)
      fail("arch \"" + arch + "\": labels of " + std::to_string(8 * labelBytes_) +
           " bits (32 and 64 are supported)");
    if (scalarBytes_ != 4 && scalarBytes_ != 8)
      fail("arch \"" + arch + "\": scalars of " + std::to_string(8 * scalarBytes_) +
           " bits (32 and 64 are supported)");
  }

  std::string path_, data_, class_, note_;
  std::size_t pos_ = 0;
  bool binary_ = false;
  int labelBytes_ = 4, scalarBytes_ = 8;
};

/// One entry of the boundary file.
struct FoamPatch {
  std::string name, type;
  std::int64_t nFaces = -1, startFace = -1;
};

/// boundary: N ( name { type T; nFaces N; startFace S; ... } ... )
std::vector<FoamPatch> read_boundary(FoamFile& f) {
  std::vector<FoamPatch> out;
  const std::int64_t n = f.integer("the number of patches");
  if (n < 0) f.fail("negative number of patches " + std::to_string(n));
  f.expect('(', "after the number of patches");
  for (std::int64_t p = 0; p < n; ++p) {
    if (f.peek() == ')')
      f.fail("the patch list ends after " + std::to_string(p) + " of its " + std::to_string(n) +
             " patches");
    FoamPatch fp;
    fp.name = f.word_or_string();
    if (fp.name.empty()) f.fail("expected the name of patch " + std::to_string(p));
    f.expect('{', "after patch ", fp.name);
    while (f.peek() != '}') {
      const std::string key(f.word());
      if (key.empty()) {
        if (f.peek() == '\0') f.fail("patch '" + fp.name + "' has no closing '}' (truncated?)");
        f.fail("expected an entry of patch '" + fp.name + "'");
      }
      if (f.peek() == '{') { // a sub-dictionary: skipped
        int depth = 0;
        do {
          const char c = f.peek();
          if (c == '\0') f.fail("patch '" + fp.name + "': entry '" + key + "' is not closed");
          if (c == '{' || c == '}') {
            depth += c == '{' ? 1 : -1;
            f.expect(c, "");
          } else if (c == '"') {
            f.word_or_string();
          } else if (f.word().empty()) {
            f.expect(c, ""); // other punctuation
          }
        } while (depth > 0);
        continue;
      }
      std::vector<std::string> value;
      int depth = 0;
      for (;;) {
        const char c = f.peek();
        if (c == '\0' || (depth == 0 && c == '}'))
          f.fail("patch '" + fp.name + "': entry '" + key + "' has no ';' (truncated?)");
        if (depth == 0 && c == ';') break;
        if (c == '(' || c == ')' || c == '{' || c == '}' || c == '[' || c == ']' || c == ';') {
          depth += (c == '(' || c == '{' || c == '[') ? 1 : (c == ';' ? 0 : -1);
          f.expect(c, "");
        } else {
          value.push_back(f.word_or_string());
        }
      }
      f.expect(';', "");
      auto number = [&]() {
        std::int64_t v = -1;
        const std::string s = value.size() == 1 ? value[0] : std::string();
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0)
          f.fail("patch '" + fp.name + "': " + key + " is not a non-negative integer");
        return v;
      };
      if (key == "type") fp.type = value.empty() ? std::string() : value[0];
      if (key == "nFaces") fp.nFaces = number();
      if (key == "startFace") fp.startFace = number();
    }
    f.expect('}', "");
    if (fp.type.empty()) f.fail("patch '" + fp.name + "' has no type");
    if (fp.nFaces < 0) f.fail("patch '" + fp.name + "' has no nFaces");
    if (fp.startFace < 0) f.fail("patch '" + fp.name + "' has no startFace");
    out.push_back(std::move(fp));
  }
  f.expect(')', "(too many patches?) at the end of the patch list");
  return out;
}

/// fvkit BC type of an OpenFOAM patch type; fails on types fvkit cannot represent.
std::string bc_type(const FoamFile& f, const FoamPatch& p, MeshBuilder& b) {
  const std::string& t = p.type;
  if (t == "wall" || t == "mappedWall") return "BCWall";
  if (t == "symmetryPlane" || t == "symmetry") return "BCSymmetryPlane";
  if (t == "empty") {
    b.warn("empty patch '" + p.name +
           "' (front and back of a 2D mesh): kept as a symmetry plane (BCSymmetryPlane) of the "
           "one-cell-thick 3D mesh");
    return "BCSymmetryPlane";
  }
  if (t == "wedge") {
    b.warn("wedge patch '" + p.name +
           "' (axisymmetric mesh): read as a symmetry plane (BCSymmetryPlane)");
    return "BCSymmetryPlane";
  }
  FV_VERIFY(p.nFaces == 0 || t.find("yclic") == std::string::npos,
            f.path() << ": patch '" << p.name << "' of type " << t
                     << ": cyclic patches not supported");
  FV_VERIFY(p.nFaces == 0 || t.rfind("processor", 0) != 0,
            f.path() << ": patch '" << p.name << "' of type " << t
                     << ": a decomposed mesh (processor patches); run reconstructParMesh first");
  if (t != "patch" && t != "mappedPatch" && p.nFaces > 0)
    b.warn("patch '" + p.name + "' has OpenFOAM type '" + t + "'; read as UserDefined");
  return "UserDefined";
}

/// A face of a cell seen from the cell: outward when flip is false (the cell owns the face),
/// else the stored loop reversed.
struct CellFace {
  const idx_t* v;
  int n;
  bool flip;
  idx_t at(int k) const { return flip ? v[(n - k) % n] : v[k]; }
  bool has(idx_t x) const { return std::find(v, v + n, x) != v + n; }
};

/// True when the cell's outward face loops are exactly the faces of shape `t` with corners
/// `nodes` (each face once, same orientation, any starting corner).
bool faces_match(const CellFace* f, int nf, CellType t, const idx_t* nodes) {
  bool used[kMaxCellFaces] = {};
  for (int s = 0; s < nf; ++s) {
    const LocalFace& sf = cell_face(t, s);
    bool found = false;
    for (int j = 0; j < nf && !found; ++j) {
      if (used[j] || f[j].n != sf.n) continue;
      for (int r = 0; r < sf.n && !found; ++r) {
        bool same = true;
        for (int k = 0; k < sf.n && same; ++k)
          same = f[j].at((r + k) % sf.n) == nodes[sf.v[k]];
        if (same) found = used[j] = true;
      }
    }
    if (!found) return false;
  }
  return true;
}

/// Rebuilds a tetrahedron, pyramid, prism or hexahedron (CGNS node order) from a cell's
/// outward faces. False when the faces are not one of those shapes (a polyhedron).
bool standard_shape(const CellFace* f, int nf, CellType& type, idx_t* nodes) {
  int tri = 0, quad = 0;
  for (int j = 0; j < nf; ++j) {
    tri += f[j].n == 3;
    quad += f[j].n == 4;
  }
  int base = -1;
  // the standard shape with these numbers of triangles and quadrilaterals, if any
  bool standard = false;
  for (CellType s : {CellType::Tet, CellType::Pyramid, CellType::Prism, CellType::Hex})
    if (!standard && nf == cell_face_count(s) && tri == cell_face_count(s, 3) &&
        quad == cell_face_count(s, 4)) {
      type = s;
      standard = true;
    }
  if (!standard) return false;
  // base face: the pyramid's quadrilateral, a triangle of the prism, any face otherwise
  const int baseSize = type == CellType::Pyramid || type == CellType::Hex ? 4 : 3;
  for (int j = 0; j < nf && base < 0; ++j)
    if (f[j].n == baseSize) base = j;
  const CellFace& b = f[base];
  // the base loop is outward, the shape's base face lists corners 0, n-1, ..., 1
  for (int k = 0; k < b.n; ++k)
    nodes[k] = b.at((b.n - k) % b.n);
  if (type == CellType::Tet || type == CellType::Pyramid) {
    // apex: the one node off the base
    idx_t apex = -1;
    for (int j = 0; j < nf; ++j)
      for (int k = 0; k < f[j].n; ++k) {
        const idx_t x = f[j].v[k];
        if (b.has(x) || x == apex) continue;
        if (apex >= 0) return false;
        apex = x;
      }
    if (apex < 0) return false;
    nodes[b.n] = apex;
  } else {
    // top corner above base corner k: its one edge leaving the base
    for (int k = 0; k < b.n; ++k) {
      idx_t top = -1;
      for (int j = 0; j < nf; ++j) {
        if (j == base) continue;
        for (int e = 0; e < f[j].n; ++e) {
          const idx_t p = f[j].v[e], q = f[j].v[(e + 1) % f[j].n];
          idx_t other = -1;
          if (p == nodes[k] && !b.has(q)) other = q;
          if (q == nodes[k] && !b.has(p)) other = p;
          if (other < 0 || other == top) continue;
          if (top >= 0) return false;
          top = other;
        }
      }
      if (top < 0) return false;
      nodes[b.n + k] = top;
    }
  }
  const int nn = cell_node_count(type);
  for (int i = 0; i < nn; ++i)
    for (int j = 0; j < i; ++j)
      if (nodes[i] == nodes[j]) return false;
  return faces_match(f, nf, type, nodes);
}

} // namespace

std::string find_polymesh_dir(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_regular_file(p, ec)) {
    // a file of a polyMesh directory, or the empty case.foam / case.OpenFOAM that ParaView opens
    const std::string name = p.filename().string();
    std::string ext = p.extension().string();
    for (char& ch : ext)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (ext == ".foam" || ext == ".openfoam") return find_polymesh_dir(parent.string());
    for (const char* f : kPolyMeshFiles)
      if (name == f && is_polymesh_dir(parent)) return parent.string();
    return {};
  }
  if (!fs::is_directory(p, ec)) return {};
  if (is_polymesh_dir(p)) return p.string();
  if (is_polymesh_dir(p / "constant" / "polyMesh")) return (p / "constant" / "polyMesh").string();
  if (is_polymesh_dir(p / "polyMesh")) return (p / "polyMesh").string();
  return {};
}

Mesh read_openfoam(const std::string& path, const ReadOptions& opts) {
  fv::log::Phase phase("reading OpenFOAM polyMesh");
  const std::string dirName = find_polymesh_dir(path);
  if (dirName.empty()) {
    std::error_code ec;
    const fs::path caseDir =
        fs::is_directory(path, ec) ? fs::path(path) : fs::path(path).parent_path();
    FV_VERIFY(!fs::is_directory(caseDir / "processor0", ec),
              path << ": a decomposed OpenFOAM case without constant/polyMesh; run "
                      "reconstructParMesh first");
    FV_THROW(path << ": no OpenFOAM mesh: neither a polyMesh directory (points, faces, owner, "
                     "neighbour, boundary) nor an OpenFOAM case (constant/polyMesh)");
  }
  const fs::path dir(dirName);
  MeshBuilder b;
  b.path = dirName;
  b.writer = "OpenFOAM";

  // ---- points
  bool anyBinary = false;
  {
    FoamFile f(dir, "points");
    anyBinary |= f.binary();
    f.vectors(b.xyz, "the point list");
    if (f.more()) f.fail("unexpected '" + std::string(f.word()) + "' after the point list");
  }
  const idx_t nPoints = b.nNodes();
  b.nodeFileId.resize(static_cast<std::size_t>(nPoints));
  for (idx_t i = 0; i < nPoints; ++i)
    b.nodeFileId[static_cast<std::size_t>(i)] = i;

  // ---- faces: CSR offsets and point labels
  std::vector<idx_t> fOff, fConn;
  {
    FoamFile f(dir, "faces");
    anyBinary |= f.binary();
    if (f.cls() == "faceCompactList") {
      f.labels(fOff, "the face offset list");
      f.labels(fConn, "the face point list");
      if (fOff.empty()) f.fail("the face offset list is empty (expected nFaces + 1 entries)");
      if (fOff.front() != 0) f.fail("the face offset list does not start with 0");
      for (std::size_t i = 1; i < fOff.size(); ++i)
        if (fOff[i] < fOff[i - 1])
          f.fail("face " + std::to_string(i - 1) + ": offsets decrease (" +
                 std::to_string(fOff[i - 1]) + " then " + std::to_string(fOff[i]) + ")");
      if (static_cast<std::size_t>(fOff.back()) != fConn.size())
        f.fail("the face offsets end at " + std::to_string(fOff.back()) +
               " but the face point "
               "list has " +
               std::to_string(fConn.size()) + " entries");
    } else {
      const FoamFile::ListHead h = f.list_head("the face list");
      if (!h.empty) {
        if (h.uniform) f.fail("a uniform face list");
        fOff.reserve(static_cast<std::size_t>(std::min<std::int64_t>(h.n, 1 << 26)) + 1);
        fOff.push_back(0);
        for (std::int64_t i = 0; i < h.n; ++i) {
          if (f.peek() == ')')
            f.fail("the face list ends after " + std::to_string(i) + " of its " +
                   std::to_string(h.n) + " faces");
          f.labels(fConn, "face " + std::to_string(i));
          FV_VERIFY(fConn.size() < static_cast<std::size_t>(std::numeric_limits<idx_t>::max()),
                    f.path() << ": too many face points for 32-bit indices");
          fOff.push_back(static_cast<idx_t>(fConn.size()));
        }
        f.expect(')', "(too many faces?) at the end of the face list");
      }
      if (fOff.empty()) fOff.push_back(0);
    }
    if (f.more()) f.fail("unexpected '" + std::string(f.word()) + "' after the face list");
    const std::size_t nf = fOff.size() - 1;
    for (std::size_t i = 0; i < nf; ++i) {
      if (fOff[i + 1] - fOff[i] < 3)
        FV_THROW(f.path() << ": face " << i << " has " << fOff[i + 1] - fOff[i]
                          << " points (a face needs at least 3)");
      for (idx_t k = fOff[i]; k < fOff[i + 1]; ++k)
        FV_VERIFY(fConn[k] >= 0 && fConn[k] < nPoints, f.path() << ": face " << i
                                                                << " refers to point " << fConn[k]
                                                                << ", outside 0.." << nPoints - 1);
    }
  }
  const idx_t nFaces = static_cast<idx_t>(fOff.size() - 1);

  // ---- owner, neighbour
  std::vector<idx_t> owner, neighbour;
  idx_t nCells = -1;
  std::string ownerPath, neighbourPath;
  {
    FoamFile f(dir, "owner");
    anyBinary |= f.binary();
    ownerPath = f.path();
    f.labels(owner, "the owner list");
    if (f.more()) f.fail("unexpected '" + std::string(f.word()) + "' after the owner list");
    FV_VERIFY(static_cast<idx_t>(owner.size()) == nFaces, ownerPath << ": " << owner.size()
                                                                    << " owners but " << nFaces
                                                                    << " faces in the faces file");
    // the note "nPoints:8 nCells:1 nFaces:6 nInternalFaces:0" gives cells without faces away
    const std::size_t p = f.note().find("nCells:");
    if (p != std::string::npos) {
      const char* s = f.note().c_str() + p + 7;
      while (*s == ' ')
        ++s; // "nCells: 400" (some writers)
      idx_t n = -1;
      const auto r = std::from_chars(s, f.note().c_str() + f.note().size(), n);
      if (r.ec == std::errc() && n >= 0) nCells = n;
    }
  }
  {
    FoamFile f(dir, "neighbour");
    anyBinary |= f.binary();
    neighbourPath = f.path();
    f.labels(neighbour, "the neighbour list");
    if (f.more()) f.fail("unexpected '" + std::string(f.word()) + "' after the neighbour list");
    FV_VERIFY(static_cast<idx_t>(neighbour.size()) <= nFaces,
              neighbourPath << ": " << neighbour.size() << " neighbours but only " << nFaces
                            << " faces in the faces file");
    // old files list every face, -1 on the boundary faces
    const auto firstMinus = std::find(neighbour.begin(), neighbour.end(), -1);
    FV_VERIFY(std::all_of(firstMinus, neighbour.end(), [](idx_t v) { return v == -1; }),
              neighbourPath << ": face " << firstMinus - neighbour.begin()
                            << " has neighbour -1 but a later face has a neighbour cell");
    neighbour.erase(firstMinus, neighbour.end());
  }
  const idx_t nInternal = static_cast<idx_t>(neighbour.size());
  if (nCells < 0) {
    nCells = 0;
    for (idx_t c : owner)
      nCells = std::max(nCells, c + 1);
    for (idx_t c : neighbour)
      nCells = std::max(nCells, c + 1);
  }
  for (idx_t i = 0; i < nFaces; ++i)
    FV_VERIFY(owner[i] >= 0 && owner[i] < nCells, ownerPath << ": face " << i << " has owner cell "
                                                            << owner[i] << ", outside 0.."
                                                            << nCells - 1);
  for (idx_t i = 0; i < nInternal; ++i) {
    FV_VERIFY(neighbour[i] >= 0 && neighbour[i] < nCells,
              neighbourPath << ": face " << i << " has neighbour cell " << neighbour[i]
                            << ", outside 0.." << nCells - 1);
    FV_VERIFY(neighbour[i] != owner[i],
              neighbourPath << ": face " << i << " has cell " << owner[i] << " on both sides");
  }

  // ---- boundary
  std::vector<FoamPatch> foamPatches;
  std::vector<idx_t> bfacePatch(static_cast<std::size_t>(nFaces - nInternal), -1);
  {
    FoamFile f(dir, "boundary");
    foamPatches = read_boundary(f);
    if (f.more()) f.fail("unexpected '" + std::string(f.word()) + "' after the patch list");
    for (const FoamPatch& p : foamPatches) {
      const std::string t = bc_type(f, p, b);
      const idx_t idx = b.patch(p.name, t);
      if (p.nFaces == 0) continue;
      FV_VERIFY(p.startFace >= nInternal && p.startFace + p.nFaces <= nFaces,
                f.path() << ": patch '" << p.name << "' has faces " << p.startFace << ".."
                         << p.startFace + p.nFaces - 1 << ", outside the boundary faces "
                         << nInternal << ".." << nFaces - 1);
      for (std::int64_t i = p.startFace; i < p.startFace + p.nFaces; ++i) {
        idx_t& slot = bfacePatch[static_cast<std::size_t>(i - nInternal)];
        FV_VERIFY(slot < 0, f.path() << ": face " << i << " is in patch '" << p.name
                                     << "' and in patch '"
                                     << b.patches[static_cast<std::size_t>(slot)].name << "'");
        slot = idx;
      }
    }
    for (idx_t i = nInternal; i < nFaces; ++i)
      FV_VERIFY(bfacePatch[static_cast<std::size_t>(i - nInternal)] >= 0,
                f.path() << ": boundary face " << i << " (owner cell " << owner[i]
                         << ") is in no patch");
  }
  b.format = anyBinary ? "OpenFOAM polyMesh (binary)" : "OpenFOAM polyMesh (ASCII)";

  // ---- faces of each cell (owner side: outward as stored; neighbour side: reversed)
  std::vector<idx_t> cOff(static_cast<std::size_t>(nCells) + 1, 0);
  for (idx_t i = 0; i < nFaces; ++i)
    ++cOff[static_cast<std::size_t>(owner[i]) + 1];
  for (idx_t i = 0; i < nInternal; ++i)
    ++cOff[static_cast<std::size_t>(neighbour[i]) + 1];
  for (std::size_t c = 0; c < static_cast<std::size_t>(nCells); ++c)
    cOff[c + 1] += cOff[c];
  std::vector<idx_t> cFace(static_cast<std::size_t>(cOff.back()));
  {
    std::vector<idx_t> fill(cOff.begin(), cOff.end() - 1);
    for (idx_t i = 0; i < nFaces; ++i)
      cFace[static_cast<std::size_t>(fill[static_cast<std::size_t>(owner[i])]++)] = i;
    for (idx_t i = 0; i < nInternal; ++i)
      cFace[static_cast<std::size_t>(fill[static_cast<std::size_t>(neighbour[i])]++)] = ~i;
  }

  std::vector<idx_t> polyFace; // OpenFOAM face -> polyhedron face, built on first use
  std::vector<CellFace> cf;
  std::vector<idx_t> refs;
  idx_t nPoly = 0;
  b.cellType.reserve(static_cast<std::size_t>(nCells));
  for (idx_t c = 0; c < nCells; ++c) {
    const int nf = cOff[c + 1] - cOff[c];
    FV_VERIFY(nf >= 4, ownerPath << ": cell " << c << " has " << nf
                                 << " faces in owner and neighbour (a closed cell needs at "
                                    "least 4)");
    cf.clear();
    for (idx_t k = cOff[c]; k < cOff[c + 1]; ++k) {
      const idx_t e = cFace[static_cast<std::size_t>(k)], i = e < 0 ? ~e : e;
      cf.push_back({&fConn[fOff[i]], fOff[i + 1] - fOff[i], e < 0});
    }
    CellType t = CellType::Tet;
    idx_t nodes[8];
    if (nf <= 6 && standard_shape(cf.data(), nf, t, nodes)) {
      b.add_cell(t, nodes, cell_node_count(t), c);
      continue;
    }
    if (polyFace.empty()) polyFace.assign(static_cast<std::size_t>(nFaces), -1);
    refs.clear();
    for (idx_t k = cOff[c]; k < cOff[c + 1]; ++k) {
      const idx_t e = cFace[static_cast<std::size_t>(k)], i = e < 0 ? ~e : e;
      idx_t& pf = polyFace[static_cast<std::size_t>(i)];
      if (pf < 0) pf = b.add_poly_face(&fConn[fOff[i]], fOff[i + 1] - fOff[i]);
      refs.push_back(e < 0 ? ~pf : pf);
    }
    b.add_poly_cell(refs.data(), nf, c);
    ++nPoly;
  }
  if (nPoly > 0)
    FV_LOG_INFO("  " << nPoly << " of " << nCells
                     << " cells are general polyhedra (not tetrahedra, pyramids, prisms or "
                        "hexahedra)");

  // ---- boundary faces, as stored (outward from their owner)
  for (idx_t i = nInternal; i < nFaces; ++i)
    b.add_bface(&fConn[fOff[i]], fOff[i + 1] - fOff[i], i,
                bfacePatch[static_cast<std::size_t>(i - nInternal)]);
  return b.finish(opts);
}

} // namespace fv
