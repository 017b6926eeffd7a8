// The BC side file of Plot3D grids (formats/plot3d_bc.hpp).
#include "formats/plot3d_bc.hpp"

#include "common/error.hpp"
#include "formats/text_scanner.hpp"

#include <charconv>
#include <sstream>

namespace fv {

namespace {

const char* const kSides[6] = {"imin", "imax", "jmin", "jmax", "kmin", "kmax"};

bool to_int(const std::string& t, std::int64_t& v) {
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

/// "A:B", "N" or "*" (lo = hi = 0).
bool parse_range(const std::string& t, std::int64_t& lo, std::int64_t& hi) {
  if (t == "*") {
    lo = hi = 0;
    return true;
  }
  const std::size_t colon = t.find(':');
  if (colon == std::string::npos) return to_int(t, lo) && (hi = lo) >= 1;
  if (!to_int(t.substr(0, colon), lo) || !to_int(t.substr(colon + 1), hi)) return false;
  if (lo > hi) std::swap(lo, hi);
  return lo >= 1;
}

} // namespace

const char* block_side_name(int side) {
  return side >= 0 && side < 6 ? kSides[side] : "?";
}

std::vector<Plot3dBc> read_plot3d_bc_file(const std::string& path, int dim) {
  const std::string text = read_file_bytes(path);
  std::istringstream in(text);
  std::vector<Plot3dBc> bcs;
  std::string line;
  for (int ln = 1; std::getline(in, line); ++ln) {
    line = line.substr(0, line.find('#'));
    std::istringstream ls(line);
    std::vector<std::string> f;
    for (std::string t; ls >> t;)
      f.push_back(t);
    if (f.empty()) continue;
    Plot3dBc bc;
    bc.where = path + ":" + std::to_string(ln);
    const std::size_t want = dim == 3 ? 7 : 6;
    FV_VERIFY(f.size() == want || (dim == 2 && f.size() == 7),
              bc.where << ": " << f.size() << " fields; expected " << want
                       << " (patch bc_type block side irange jrange"
                       << (dim == 3 ? " krange)" : ")"));
    bc.name = f[0];
    bc.type = f[1];
    std::int64_t blk = 0;
    FV_VERIFY(to_int(f[2], blk) && blk >= 1 && blk <= 1'000'000'000,
              bc.where << ": block '" << f[2] << "' is not a block number (1, 2, ...)");
    bc.block = static_cast<int>(blk);
    bc.side = -1;
    for (int s = 0; s < 2 * dim; ++s)
      if (f[3] == kSides[s]) bc.side = s;
    FV_VERIFY(bc.side >= 0, bc.where << ": side '" << f[3] << "' is not one of imin imax jmin jmax"
                                     << (dim == 3 ? " kmin kmax" : ""));
    for (std::size_t d = 0; d + 4 < f.size(); ++d) {
      std::int64_t lo = 0, hi = 0;
      FV_VERIFY(parse_range(f[4 + d], lo, hi), bc.where << ": "
                                                        << "ijk"[d] << "range '" << f[4 + d]
                                                        << "' is not A:B, N or *");
      bc.lo[d] = lo;
      bc.hi[d] = hi;
    }
    bcs.push_back(bc);
  }
  return bcs;
}

std::vector<char> plot3d_bc_faces(const Plot3dBc& bc, const StructuredBlock& b,
                                  const std::vector<BlockFace>& faces) {
  std::array<std::int64_t, 3> lo{1, 1, 1}, hi{1, 1, 1};
  const int dn = bc.side / 2;
  const std::int64_t plane = bc.side % 2 == 0 ? 1 : b.nv[dn];
  for (int d = 0; d < b.dim; ++d) {
    const bool all = bc.lo[d] == 0;
    lo[d] = all ? 1 : bc.lo[d];
    hi[d] = all ? b.nv[d] : bc.hi[d];
    FV_VERIFY(hi[d] <= b.nv[d], bc.where << ": "
                                         << "ijk"[d] << "range " << lo[d] << ":" << hi[d]
                                         << " lies outside block " << bc.block << " (1:" << b.nv[d]
                                         << ")");
  }
  FV_VERIFY(lo[dn] <= plane && plane <= hi[dn],
            bc.where << ": side " << kSides[bc.side] << " of block " << bc.block << " is "
                     << "ijk"[dn] << " = " << plane << ", outside the "
                     << "ijk"[dn] << "range " << lo[dn] << ":" << hi[dn]);
  lo[dn] = hi[dn] = plane;
  std::vector<char> named(faces.size(), 0);
  for (std::size_t f = 0; f < faces.size(); ++f)
    named[f] = faces[f].side == bc.side && face_in_range(b, faces[f], PointSetAt::Vertex, lo, hi);
  return named;
}

} // namespace fv
