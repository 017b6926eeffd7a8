// Plot3D grid files (formats/plot3d_grid.hpp): the layout (single/multi-block, 2D/3D, iblank,
// text/Fortran records/raw binary, float64/float32) is whichever accounts for the whole file.
#include "formats/plot3d_grid.hpp"

#include "common/error.hpp"
#include "formats/text_scanner.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>

namespace fv {

namespace {

using Dims = std::array<std::int64_t, 3>;

/// One way a Plot3D file may be laid out.
struct Layout {
  bool multi = true; ///< a block count precedes the dimensions
  int dim = 3;       ///< dimensions (and coordinates) per block
  bool iblank = false;
  int realSize = 8; ///< bytes per coordinate (binary files)
};

constexpr std::int64_t kMaxIndex = (std::int64_t{1} << 31) - 1;

/// The layouts tried, in order of preference (the first that fits the file wins).
std::vector<Layout> candidate_layouts(bool binary) {
  std::vector<Layout> out;
  for (bool multi : {true, false})
    for (int dim : {3, 2})
      for (int rs : binary ? std::vector<int>{8, 4} : std::vector<int>{8})
        for (bool ib : {false, true})
          out.push_back({multi, dim, ib, rs});
  return out;
}

std::string layout_name(const Layout& l) {
  return std::string(l.multi ? "multi-block " : "single-block ") + (l.dim == 2 ? "2D" : "3D") +
         (l.iblank ? ", iblank" : "");
}

/// The block dimensions a layout reads from the header integers (get(k, v): the k-th integer
/// of the file, false past its end); empty when they are no plausible Plot3D header.
/// headerInts receives the number of integers the header takes.
std::vector<Dims> header_dims(const Layout& l,
                              const std::function<bool(std::size_t, std::int64_t&)>& get,
                              std::size_t maxBlocks, std::size_t& headerInts) {
  std::int64_t nb = 1;
  std::size_t k = 0;
  if (l.multi && (!get(k++, nb) || nb < 1 || static_cast<std::uint64_t>(nb) > maxBlocks)) return {};
  std::vector<Dims> dims(static_cast<std::size_t>(nb), Dims{1, 1, 1});
  std::int64_t total = 0;
  for (Dims& d : dims) {
    std::int64_t n = 1;
    for (int c = 0; c < l.dim; ++c) {
      if (!get(k++, d[c]) || d[c] < 1 || d[c] > kMaxIndex) return {};
      n *= d[c];
      if (n > kMaxIndex) return {};
    }
    total += n;
    if (total > kMaxIndex) return {};
  }
  headerInts = k;
  return dims;
}

std::int64_t nodes_of(const Dims& d) {
  return d[0] * d[1] * d[2];
}

/// Numbers (text) or bytes (binary) of the data of one block.
std::int64_t block_size(const Layout& l, const Dims& d, bool binary) {
  const std::int64_t per = binary ? l.dim * l.realSize + (l.iblank ? 4 : 0) : l.dim + l.iblank;
  return nodes_of(d) * per;
}

/// The blocks of a grid, shaped: 2D layouts, or 3D layouts whose blocks all have nk = 1, give
/// planar blocks. Throws when a block is too thin to hold a cell.
Plot3dGrid shape_blocks(const std::string& path, const Layout& l, const std::vector<Dims>& dims) {
  Plot3dGrid g;
  bool allFlat = true, anyFlat = false;
  for (const Dims& d : dims) {
    allFlat &= l.dim == 2 || d[2] == 1;
    anyFlat |= l.dim == 3 && d[2] == 1;
  }
  g.dim = allFlat ? 2 : 3;
  for (std::size_t b = 0; b < dims.size(); ++b) {
    FV_VERIFY(!(anyFlat && !allFlat), path << ": block " << b + 1 << " of " << dims.size()
                                           << ": some blocks have nk = 1 and others not (a "
                                              "grid is either planar or 3D)");
    Plot3dBlock blk;
    blk.shape.dim = g.dim;
    blk.shape.nv = dims[b];
    for (int c = 0; c < g.dim; ++c)
      FV_VERIFY(dims[b][c] >= 2, path << ": block " << b + 1 << " of " << dims.size() << " has "
                                      << dims[b][c] << " vertex in direction "
                                      << "ijk"[c] << " (at least 2 needed)");
    g.blocks.push_back(std::move(blk));
  }
  return g;
}

/// Checks that a coordinate is finite; names the block and the node's (i, j, k).
void check_finite(const std::string& path, std::size_t b, const StructuredBlock& s,
                  std::int64_t node, int c, double v) {
  if (std::isfinite(v)) return;
  const std::int64_t i = node % s.nv[0] + 1, j = node / s.nv[0] % s.nv[1] + 1,
                     k = node / (s.nv[0] * s.nv[1]) + 1;
  FV_THROW(path << ": block " << b + 1 << ": "
                << "xyz"[c] << " of node (" << i << "," << j << "," << k << ") is " << v);
}

// ---- text files

/// Every blank-separated token of a text.
std::vector<std::string_view> tokens_of(std::string_view s) {
  std::vector<std::string_view> t;
  std::size_t p = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; };
  while (p < s.size()) {
    while (p < s.size() && blank(s[p]))
      ++p;
    const std::size_t b = p;
    while (p < s.size() && !blank(s[p]))
      ++p;
    if (p > b) t.push_back(s.substr(b, p - b));
  }
  return t;
}

bool parse_int(std::string_view t, std::int64_t& v) {
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

/// A real number, also with a Fortran D exponent (1.0D+00).
bool parse_real(std::string_view t, double& v) {
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec == std::errc() && r.ptr == t.data() + t.size()) return true;
  if (t.size() > 64) return false;
  char buf[64];
  for (std::size_t k = 0; k < t.size(); ++k)
    buf[k] = t[k] == 'd' || t[k] == 'D' ? 'e' : t[k];
  r = std::from_chars(buf, buf + t.size(), v);
  return r.ec == std::errc() && r.ptr == buf + t.size();
}

/// The message for a file no layout fits, from the first layout with a plausible header.
[[noreturn]] void fail_no_layout(const std::string& path, const Layout& l,
                                 const std::vector<Dims>& dims, std::size_t header,
                                 std::int64_t have, bool binary) {
  const char* unit = binary ? "bytes" : "numbers";
  std::int64_t at =
      binary ? static_cast<std::int64_t>(4 * header) : static_cast<std::int64_t>(header);
  for (std::size_t b = 0; b < dims.size(); ++b) {
    const std::int64_t need = block_size(l, dims[b], binary);
    FV_VERIFY(at + need <= have, path << ": block " << b + 1 << " of " << dims.size() << " ("
                                      << dims[b][0] << " x " << dims[b][1] << " x " << dims[b][2]
                                      << ", " << layout_name(l) << ") is truncated: the file ends "
                                      << "after " << have - at << " of its " << need << " "
                                      << unit);
    at += need;
  }
  FV_THROW(path << ": " << have - at << " " << unit << " after the last of " << dims.size()
                << " blocks (" << layout_name(l)
                << "; no other Plot3D layout fits the file either)");
}

/// The first candidate layout (text or binary) whose header and blocks account for exactly
/// `have` units of the file: tokens (text), or bytes with 4 per header integer (binary).
/// When none does, the first layout whose header parsed, for the error message.
struct LayoutMatch {
  Layout layout;
  std::vector<Dims> dims;
  std::size_t header = 0;
  bool found = false;  ///< `layout` accounts for the whole file
  bool parsed = false; ///< some layout's header parsed (the file starts like Plot3D)
};

template <class Get>
LayoutMatch match_layout(bool binary, Get&& get, std::size_t maxHeader, std::int64_t have) {
  LayoutMatch first;
  for (const Layout& l : candidate_layouts(binary)) {
    std::size_t header = 0;
    std::vector<Dims> dims = header_dims(l, get, maxHeader, header);
    if (dims.empty()) continue;
    std::int64_t need = static_cast<std::int64_t>((binary ? 4 : 1) * header);
    for (const Dims& dd : dims)
      need += block_size(l, dd, binary);
    if (need == have) return LayoutMatch{l, std::move(dims), header, true, true};
    if (!first.parsed) first = LayoutMatch{l, std::move(dims), header, false, true};
  }
  return first;
}

Plot3dGrid read_text(const std::string& path, const std::string& text) {
  const std::vector<std::string_view> tok = tokens_of(text);
  FV_VERIFY(!tok.empty(), path << ": empty Plot3D file");
  auto get = [&](std::size_t k, std::int64_t& v) { return k < tok.size() && parse_int(tok[k], v); };
  const std::int64_t have = static_cast<std::int64_t>(tok.size());
  const LayoutMatch m = match_layout(false, get, tok.size(), have);
  FV_VERIFY(m.parsed, path << ": not a Plot3D grid: its first numbers are no valid block count "
                              "and block dimensions");
  if (!m.found) fail_no_layout(path, m.layout, m.dims, m.header, have, false);
  const Layout& l = m.layout;
  const std::vector<Dims>& dims = m.dims;
  Plot3dGrid g = shape_blocks(path, l, dims);
  std::size_t k = m.header;
  for (std::size_t b = 0; b < dims.size(); ++b) {
    Plot3dBlock& blk = g.blocks[b];
    const std::int64_t n = nodes_of(dims[b]);
    blk.xyz.assign(static_cast<std::size_t>(3 * n), 0.0);
    for (int c = 0; c < l.dim; ++c)
      for (std::int64_t v = 0; v < n; ++v, ++k) {
        double x = 0;
        FV_VERIFY(parse_real(tok[k], x), path << ": block " << b + 1 << ": "
                                              << "xyz"[c] << " of node " << v + 1 << ": '"
                                              << tok[k].substr(0, 40) << "' is not a number");
        check_finite(path, b, blk.shape, v, c, x);
        blk.xyz[static_cast<std::size_t>(3 * v + c)] = x;
      }
    if (!l.iblank) continue;
    blk.iblank.resize(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v, ++k) {
      std::int64_t ib = 0;
      FV_VERIFY(parse_int(tok[k], ib) && ib >= INT32_MIN && ib <= INT32_MAX,
                path << ": block " << b + 1 << ": iblank of node " << v + 1 << ": '"
                     << tok[k].substr(0, 40) << "' is not an integer");
      blk.iblank[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(ib);
    }
  }
  g.variant = "ASCII, " + layout_name(l);
  return g;
}

// ---- binary files

std::int32_t int32_at(const std::string& d, std::size_t pos) {
  std::int32_t v;
  std::memcpy(&v, d.data() + pos, 4);
  return v;
}

/// Reads the coordinates (and iblank) of one block from `pos`.
void read_binary_block(const std::string& path, const std::string& data, std::size_t pos,
                       const Layout& l, std::size_t b, Plot3dBlock& blk) {
  const std::int64_t n = blk.shape.nv[0] * blk.shape.nv[1] * blk.shape.nv[2];
  blk.xyz.assign(static_cast<std::size_t>(3 * n), 0.0);
  for (int c = 0; c < l.dim; ++c)
    for (std::int64_t v = 0; v < n; ++v) {
      double x;
      if (l.realSize == 8) {
        std::memcpy(&x, data.data() + pos, 8);
      } else {
        float f;
        std::memcpy(&f, data.data() + pos, 4);
        x = f;
      }
      pos += static_cast<std::size_t>(l.realSize);
      check_finite(path, b, blk.shape, v, c, x);
      blk.xyz[static_cast<std::size_t>(3 * v + c)] = x;
    }
  if (!l.iblank) return;
  blk.iblank.resize(static_cast<std::size_t>(n));
  std::memcpy(blk.iblank.data(), data.data() + pos, static_cast<std::size_t>(4 * n));
}

std::string storage_name(const Layout& l, bool fortran) {
  return std::string(fortran ? "Fortran unformatted " : "raw binary ") +
         (l.realSize == 8 ? "float64, " : "float32, ") + layout_name(l);
}

/// One Fortran record: its data's offset and length. Checks both markers.
struct Record {
  std::size_t offset = 0, length = 0;
};

Record read_record(const std::string& path, const std::string& d, std::size_t& pos, int index,
                   const std::string& what) {
  FV_VERIFY(pos + 4 <= d.size(), path << ": Fortran record " << index << " (" << what
                                      << ") is missing: the file ends at byte " << d.size());
  const std::int32_t len = int32_at(d, pos);
  FV_VERIFY(len >= 0 && pos + 8 + static_cast<std::size_t>(len) <= d.size(),
            path << ": Fortran record " << index << " (" << what << ") at byte " << pos
                 << " claims " << len << " bytes; the file has " << d.size() - pos - 4
                 << " after its marker (truncated file?)");
  const std::int32_t end = int32_at(d, pos + 4 + static_cast<std::size_t>(len));
  FV_VERIFY(end == len, path << ": Fortran record " << index << " (" << what << ") at byte " << pos
                             << ": end marker " << end << " does not match its start "
                             << "marker " << len);
  Record r{pos + 4, static_cast<std::size_t>(len)};
  pos += 8 + static_cast<std::size_t>(len);
  return r;
}

Plot3dGrid read_fortran(const std::string& path, const std::string& d) {
  std::size_t pos = 0;
  const Record first = read_record(path, d, pos, 1, "header");
  Layout l;
  l.multi = first.length == 4;
  Record dimsRec = first;
  std::int64_t nb = 1;
  if (l.multi) {
    nb = int32_at(d, first.offset);
    FV_VERIFY(nb >= 1 && static_cast<std::size_t>(nb) <= d.size() / 8,
              path << ": block count " << nb << " (expected 1 .. " << d.size() / 8 << ")");
    dimsRec = read_record(path, d, pos, 2, "block dimensions");
    FV_VERIFY(dimsRec.length == static_cast<std::size_t>(8 * nb) ||
                  dimsRec.length == static_cast<std::size_t>(12 * nb),
              path << ": Fortran record 2 holds " << dimsRec.length << " bytes; " << nb
                   << " blocks need " << 8 * nb << " (2D) or " << 12 * nb << " (3D)");
  }
  l.dim = static_cast<int>(dimsRec.length / (4 * static_cast<std::size_t>(nb)));
  FV_VERIFY(l.dim == 2 || l.dim == 3, path << ": Fortran record " << (l.multi ? 2 : 1) << " holds "
                                           << dimsRec.length << " bytes: no 2D or 3D dimensions");
  std::vector<Dims> dims;
  std::int64_t total = 0;
  for (std::int64_t b = 0; b < nb; ++b) {
    Dims dd{1, 1, 1};
    std::int64_t n = 1;
    for (int c = 0; c < l.dim; ++c) {
      dd[c] = int32_at(d, dimsRec.offset + static_cast<std::size_t>(4 * (b * l.dim + c)));
      FV_VERIFY(dd[c] >= 1, path << ": block " << b + 1 << " of " << nb << ": dimension "
                                 << "ijk"[c] << " is " << dd[c]);
      n = std::min(n * dd[c], kMaxIndex + 1); // dd[c] < 2^31: no overflow
    }
    total += n;
    FV_VERIFY(n <= kMaxIndex && total <= kMaxIndex,
              path << ": block " << b + 1 << " of " << nb << " (" << dd[0] << " x " << dd[1]
                   << " x " << dd[2] << "): too many nodes for 32-bit indices");
    dims.push_back(dd);
  }
  Plot3dGrid g = shape_blocks(path, l, dims);
  for (std::size_t b = 0; b < dims.size(); ++b) {
    const Record r = read_record(path, d, pos, static_cast<int>(b) + (l.multi ? 3 : 2),
                                 "block " + std::to_string(b + 1));
    bool fits = false;
    for (const Layout& c : candidate_layouts(true)) {
      if (c.multi != l.multi || c.dim != l.dim) continue;
      if (b > 0 && (c.realSize != l.realSize || c.iblank != l.iblank)) continue;
      if (static_cast<std::size_t>(block_size(c, dims[b], true)) != r.length) continue;
      l = c;
      fits = true;
      break;
    }
    FV_VERIFY(fits, path << ": block " << b + 1 << " of " << dims.size() << " (" << dims[b][0]
                         << " x " << dims[b][1] << " x " << dims[b][2] << "): its record holds "
                         << r.length << " bytes, which fits no coordinate layout"
                         << (b > 0 ? " of the first block" : " (float64/float32, iblank or not)"));
    read_binary_block(path, d, r.offset, l, b, g.blocks[b]);
  }
  FV_VERIFY(pos == d.size(), path << ": " << d.size() - pos << " bytes after the last of "
                                  << dims.size() << " blocks");
  g.variant = storage_name(l, true);
  return g;
}

Plot3dGrid read_raw(const std::string& path, const std::string& d) {
  auto get = [&](std::size_t k, std::int64_t& v) {
    if (4 * k + 4 > d.size()) return false;
    v = int32_at(d, 4 * k);
    return true;
  };
  const std::int64_t have = static_cast<std::int64_t>(d.size());
  const LayoutMatch m = match_layout(true, get, d.size() / 8 + 1, have);
  FV_VERIFY(m.parsed, path << ": not a Plot3D grid: neither Fortran records nor a valid block "
                              "count and block dimensions");
  if (!m.found) fail_no_layout(path, m.layout, m.dims, m.header, have, true);
  Plot3dGrid g = shape_blocks(path, m.layout, m.dims);
  std::size_t pos = 4 * m.header;
  for (std::size_t b = 0; b < m.dims.size(); ++b) {
    read_binary_block(path, d, pos, m.layout, b, g.blocks[b]);
    pos += static_cast<std::size_t>(block_size(m.layout, m.dims[b], true));
  }
  g.variant = storage_name(m.layout, false);
  return g;
}

bool looks_like_text(std::string_view head) {
  for (char ch : head) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c >= 0x7f || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v'))
      return false;
  }
  return true;
}

std::int32_t swapped(std::int32_t v) {
  const std::uint32_t u = static_cast<std::uint32_t>(v);
  return static_cast<std::int32_t>((u >> 24) | ((u >> 8) & 0xff00u) | ((u << 8) & 0xff0000u) |
                                   (u << 24));
}

/// A first Fortran record of 4, 8 or 12 bytes (little-endian when !bigEndian).
bool first_record_fits(std::string_view h, bool bigEndian) {
  if (h.size() < 8) return false;
  std::int32_t len, v;
  std::memcpy(&len, h.data(), 4);
  if (bigEndian) len = swapped(len);
  if (len != 4 && len != 8 && len != 12) return false;
  if (h.size() < static_cast<std::size_t>(8 + len)) return false;
  std::int32_t end;
  std::memcpy(&end, h.data() + 4 + len, 4);
  if (bigEndian) end = swapped(end);
  if (end != len) return false;
  for (int k = 0; k < len / 4; ++k) {
    std::memcpy(&v, h.data() + 4 + 4 * k, 4);
    if ((bigEndian ? swapped(v) : v) < 1) return false;
  }
  return true;
}

} // namespace

bool sniff_plot3d_records(std::string_view head) {
  return first_record_fits(head, false);
}

Plot3dGrid read_plot3d_grid(const std::string& path) {
  const std::string data = read_file_bytes(path);
  FV_VERIFY(!data.empty(), path << ": empty Plot3D file");
  const std::string_view head = std::string_view(data).substr(0, 4096);
  if (looks_like_text(head)) return read_text(path, data);
  if (first_record_fits(head, false)) return read_fortran(path, data);
  FV_VERIFY(!first_record_fits(head, true),
            path << ": big-endian Fortran Plot3D file; only little-endian files are read "
                    "(convert it, e.g. with gfortran's GFORTRAN_CONVERT_UNIT)");
  return read_raw(path, data);
}

} // namespace fv
