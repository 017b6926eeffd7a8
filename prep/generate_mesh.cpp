#include "prep/generate_mesh.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "prep/index_permutation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <sys/mman.h>
#include <vector>

#if defined(_OPENMP)
#define FV_OMP_FOR _Pragma("omp parallel for schedule(static)")
#define FV_OMP_FOR_DYNAMIC _Pragma("omp parallel for schedule(dynamic, 16)")
#else
#define FV_OMP_FOR
#define FV_OMP_FOR_DYNAMIC
#endif

namespace fv {
namespace {

/// Debug-level timing of the generator's steps ("generate_mesh: nodes 0.12 s").
class StepTimer {
 public:
  void lap(const char* step) {
    const auto now = std::chrono::steady_clock::now();
    FV_LOG_DEBUG("generate_mesh: " << step << " "
                                   << std::chrono::duration<double>(now - last_).count() << " s");
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// Resizes a large vector, asking the kernel for transparent huge pages first: the shuffled
/// scatter writes land at random addresses, and 4 KiB pages would make every one a TLB miss
/// (and the first touch of a 3 GB array 800 000 page faults). Harmless where THP is off.
template <class T>
void resize_huge(std::vector<T>& v, std::size_t n) {
  v.clear();
  v.shrink_to_fit();
  v.reserve(n);
#if defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t end = begin + n * sizeof(T);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1), last = end & ~(kHuge - 1);
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
  v.resize(n);
}

constexpr real_t kPi = 3.14159265358979323846;
constexpr std::int64_t kMaxIdx = std::numeric_limits<idx_t>::max();

// ---------------------------------------------------------------------------------------------
// Splits of one block hexahedron. Local nodes 0..7 are the hexahedron corners (CGNS HEXA_8
// order), local node 8 is the added centre node.

/// How one block cell is split.
enum class Kind : int { Hex = 0, Tet = 1, Prism = 2, Pyr6 = 3, Trans = 4 };

struct SubCell {
  CellType type;
  int n;
  int v[8];
};

struct Split {
  std::vector<SubCell> cells;
  int nnz = 0;
  int centres = 0; ///< added centre nodes (0 or 1)
};

/// (x,y,z) offsets of the hexahedron corners.
constexpr int kCornerBits[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                   {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
/// Outward hexahedron face on each block side: xmin, xmax, ymin, ymax, zmin, zmax.
constexpr int kSideFace[6][4] = {{0, 4, 7, 3}, {1, 2, 6, 5}, {0, 1, 5, 4},
                                 {2, 3, 7, 6}, {0, 3, 2, 1}, {4, 5, 6, 7}};

int corner_of(int x, int y, int z) {
  for (int c = 0; c < 8; ++c)
    if (kCornerBits[c][0] == x && kCornerBits[c][1] == y && kCornerBits[c][2] == z) return c;
  return -1;
}

/// The two outward triangles of side face `side`, cut along the diagonal joining its lowest
/// and highest corner (the Kuhn diagonal), in local corner ids.
void side_triangles(int side, int tri[2][3]) {
  const int* f = kSideFace[side];
  int lowest = 0;
  for (int p = 1; p < 4; ++p) {
    const int* b = kCornerBits[f[p]];
    const int* a = kCornerBits[f[lowest]];
    if (b[0] + b[1] + b[2] < a[0] + a[1] + a[2]) lowest = p;
  }
  const int a = f[lowest], b = f[(lowest + 1) % 4], c = f[(lowest + 2) % 4],
            d = f[(lowest + 3) % 4];
  const int t[2][3] = {{a, b, c}, {a, c, d}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      tri[i][j] = t[i][j];
}

/// Whether the block face of a `kind` cell on block side `side` is cut into two triangles.
bool side_is_split(Kind kind, int side) {
  switch (kind) {
  case Kind::Hex:
  case Kind::Pyr6:
    return false;
  case Kind::Tet:
    return true;
  case Kind::Prism:
    return side >= 4;
  case Kind::Trans:
    return side != 0;
  }
  return false;
}

Split make_split(Kind kind) {
  Split s;
  switch (kind) {
  case Kind::Hex:
    s.cells.push_back({CellType::Hex, 8, {0, 1, 2, 3, 4, 5, 6, 7}});
    break;
  case Kind::Tet: {
    // Kuhn split: paths 000 -> e_a -> e_a + e_b -> 111 over the 6 axis orders (a, b, c);
    // det(e_a, e_b, e_c) is the parity of the order, odd orders swap the middle two nodes.
    const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    for (int p = 0; p < 6; ++p) {
      int x[3] = {0, 0, 0};
      int v[4];
      v[0] = corner_of(0, 0, 0);
      for (int s2 = 0; s2 < 3; ++s2) {
        x[perms[p][s2]] = 1;
        v[s2 + 1] = corner_of(x[0], x[1], x[2]);
      }
      if (p >= 3) std::swap(v[1], v[2]);
      s.cells.push_back({CellType::Tet, 4, {v[0], v[1], v[2], v[3]}});
    }
    break;
  }
  case Kind::Prism:
    s.cells.push_back({CellType::Prism, 6, {0, 1, 2, 4, 5, 6}});
    s.cells.push_back({CellType::Prism, 6, {0, 2, 3, 4, 6, 7}});
    break;
  case Kind::Pyr6:
    s.centres = 1;
    for (const auto& f : kSideFace)
      s.cells.push_back({CellType::Pyramid, 5, {f[0], f[3], f[2], f[1], 8}});
    break;
  case Kind::Trans:
    s.centres = 1;
    for (int side = 0; side < 6; ++side) {
      const int* f = kSideFace[side];
      if (!side_is_split(kind, side)) {
        s.cells.push_back({CellType::Pyramid, 5, {f[0], f[3], f[2], f[1], 8}});
        continue;
      }
      int tri[2][3];
      side_triangles(side, tri);
      for (auto& t : tri)
        s.cells.push_back({CellType::Tet, 4, {t[0], t[2], t[1], 8}});
    }
    break;
  }
  for (const auto& c : s.cells)
    s.nnz += c.n;
  return s;
}

const Split& split_of(Kind k) {
  static const Split table[5] = {make_split(Kind::Hex), make_split(Kind::Tet),
                                 make_split(Kind::Prism), make_split(Kind::Pyr6),
                                 make_split(Kind::Trans)};
  return table[static_cast<int>(k)];
}

// ---------------------------------------------------------------------------------------------
// Family defaults and the mapping of block nodes to coordinates.

std::array<real_t, 3> default_extent(MeshFamily f) {
  switch (f) {
  case MeshFamily::Box:
    return {1.0, 1.0, 1.0};
  case MeshFamily::Channel:
    return {3.0, 1.0, 0.5};
  case MeshFamily::Wedge:
    return {1.0, 1.0, 0.25};
  }
  return {1.0, 1.0, 1.0};
}

std::array<real_t, 3> resolve_extent(const GenOptions& o) {
  auto e = default_extent(o.family);
  for (int d = 0; d < 3; ++d) {
    FV_VERIFY_USAGE(o.extent[d] >= 0 && std::isfinite(o.extent[d]), "extent "
                                                                        << "xyz"[d] << " = "
                                                                        << o.extent[d]
                                                                        << " must be positive");
    if (o.extent[d] > 0) e[d] = o.extent[d];
  }
  return e;
}

/// Maps block node (i,j,k) to its unperturbed coordinates.
struct GridMap {
  MeshFamily family = MeshFamily::Box;
  std::int64_t ni = 1, nj = 1, nk = 1;
  real_t lx = 1, ly = 1, lz = 1;
  real_t x0 = 0, lb = 1, hb = 0; // channel bump
  real_t xr = 0, tanTheta = 0;   // wedge ramp
  std::int64_t ic = 0;           // wedge: block line of the ramp corner

  real_t x_of(std::int64_t i) const {
    if (family != MeshFamily::Wedge) return lx * static_cast<real_t>(i) / static_cast<real_t>(ni);
    if (i <= ic) return ic == 0 ? 0.0 : xr * static_cast<real_t>(i) / static_cast<real_t>(ic);
    return xr + (lx - xr) * static_cast<real_t>(i - ic) / static_cast<real_t>(ni - ic);
  }
  real_t wall(real_t x) const {
    if (family == MeshFamily::Channel) {
      if (x <= x0 || x >= x0 + lb) return 0.0;
      const real_t s = std::sin(kPi * (x - x0) / lb);
      return hb * s * s;
    }
    if (family == MeshFamily::Wedge) return x > xr ? (x - xr) * tanTheta : 0.0;
    return 0.0;
  }
  /// x and wall height of each block line i, tabulated (the wall involves a sine).
  std::vector<real_t> xLine, wallLine;
  void tabulate() {
    xLine.resize(static_cast<std::size_t>(ni + 1));
    wallLine.resize(static_cast<std::size_t>(ni + 1));
    for (std::int64_t i = 0; i <= ni; ++i) {
      xLine[static_cast<std::size_t>(i)] = x_of(i);
      wallLine[static_cast<std::size_t>(i)] = wall(x_of(i));
    }
  }
  void at(std::int64_t i, std::int64_t j, std::int64_t k, real_t* p) const {
    const real_t x = xLine[static_cast<std::size_t>(i)];
    const real_t yw = wallLine[static_cast<std::size_t>(i)];
    p[0] = x;
    p[1] = yw + (ly - yw) * static_cast<real_t>(j) / static_cast<real_t>(nj);
    p[2] = lz * static_cast<real_t>(k) / static_cast<real_t>(nk);
  }
};

/// Block nodes' coordinates with the optional random displacement of interior nodes.
struct NodeCoords {
  GridMap map;
  real_t perturb;
  std::uint64_t seed;

  static real_t unit(std::uint64_t h) { return static_cast<real_t>(h >> 11) * 0x1.0p-53; }

  void at(std::int64_t i, std::int64_t j, std::int64_t k, real_t* p) const {
    map.at(i, j, k, p);
    if (perturb <= 0 || i == 0 || j == 0 || k == 0 || i == map.ni || j == map.nj || k == map.nk)
      return;
    real_t h2 = std::numeric_limits<real_t>::max();
    const std::int64_t nb[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k},
                                   {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
    for (const auto& q : nb) {
      real_t r[3];
      map.at(q[0], q[1], q[2], r);
      const real_t d2 = (r[0] - p[0]) * (r[0] - p[0]) + (r[1] - p[1]) * (r[1] - p[1]) +
                        (r[2] - p[2]) * (r[2] - p[2]);
      h2 = std::min(h2, d2);
    }
    const real_t h = std::sqrt(h2);
    const std::uint64_t id = static_cast<std::uint64_t>(i + (map.ni + 1) * (j + (map.nj + 1) * k));
    std::uint64_t key = IndexPermutation::mix(seed ^ 0xa0761d6478bd642fULL) ^ (id * 3);
    for (int d = 0; d < 3; ++d)
      p[d] +=
          perturb * h * (unit(IndexPermutation::mix(key + static_cast<std::uint64_t>(d))) - 0.5);
  }
};

// ---------------------------------------------------------------------------------------------
// Layout of the cells of one block row (fixed j, k): the kind of each block cell along i.

Kind kind_of(GenCells c, std::int64_t i, std::int64_t ni) {
  switch (c) {
  case GenCells::Hex:
    return Kind::Hex;
  case GenCells::Tet:
    return Kind::Tet;
  case GenCells::Prism:
    return Kind::Prism;
  case GenCells::Pyramid:
    return Kind::Pyr6;
  case GenCells::Mixed: {
    const std::int64_t i1 = ni / 4, i2 = ni / 2;
    if (i < i1) return Kind::Hex;
    if (i < i2) return Kind::Prism;
    if (i == i2) return Kind::Trans;
    return Kind::Tet;
  }
  }
  return Kind::Hex;
}

struct Layout {
  std::int64_t ni = 0, nj = 0, nk = 0;
  std::vector<Kind> kind;                            // per i
  std::vector<std::int64_t> cellPre, nnzPre, cenPre; // per i, size ni + 1
  std::int64_t rows = 0, nBlockNodes = 0;
  std::int64_t nCells = 0, nNnz = 0, nNodes = 0;
  std::int64_t nBfaces = 0, nBfaceNnz = 0;

  std::int64_t node_id(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return i + (ni + 1) * (j + (nj + 1) * k);
  }
};

Layout make_layout(GenCells cells, const std::array<std::int64_t, 3>& n) {
  Layout L;
  L.ni = n[0];
  L.nj = n[1];
  L.nk = n[2];
  L.kind.resize(static_cast<std::size_t>(L.ni));
  L.cellPre.assign(static_cast<std::size_t>(L.ni + 1), 0);
  L.nnzPre = L.cenPre = L.cellPre;
  for (std::int64_t i = 0; i < L.ni; ++i) {
    const auto u = static_cast<std::size_t>(i);
    L.kind[u] = kind_of(cells, i, L.ni);
    const Split& s = split_of(L.kind[u]);
    L.cellPre[u + 1] = L.cellPre[u] + static_cast<std::int64_t>(s.cells.size());
    L.nnzPre[u + 1] = L.nnzPre[u] + s.nnz;
    L.cenPre[u + 1] = L.cenPre[u] + s.centres;
  }
  L.rows = L.nj * L.nk;
  L.nBlockNodes = (L.ni + 1) * (L.nj + 1) * (L.nk + 1);
  const auto ni = static_cast<std::size_t>(L.ni);
  L.nCells = L.rows * L.cellPre[ni];
  L.nNnz = L.rows * L.nnzPre[ni];
  L.nNodes = L.nBlockNodes + L.rows * L.cenPre[ni];
  // boundary faces: x sides see kind(0) / kind(ni-1); y and z sides see every kind along i
  for (int side = 0; side < 6; ++side) {
    const int axis = side / 2;
    auto add = [&](Kind k, std::int64_t count) {
      const bool split = side_is_split(k, side);
      L.nBfaces += count * (split ? 2 : 1);
      L.nBfaceNnz += count * (split ? 6 : 4);
    };
    if (axis == 0) {
      add(L.kind[side == 0 ? 0 : ni - 1], L.nj * L.nk);
    } else {
      const std::int64_t other = axis == 1 ? L.nk : L.nj;
      for (std::size_t i = 0; i < ni; ++i)
        add(L.kind[i], other);
    }
  }
  return L;
}

GridMap make_map(const GenOptions& o, const std::array<std::int64_t, 3>& n,
                 const std::array<real_t, 3>& e) {
  GridMap m;
  m.family = o.family;
  m.ni = n[0];
  m.nj = n[1];
  m.nk = n[2];
  m.lx = e[0];
  m.ly = e[1];
  m.lz = e[2];
  if (o.family == MeshFamily::Channel) {
    m.x0 = e[0] / 3.0;
    m.lb = e[0] / 3.0;
    m.hb = o.bumpHeight * e[1];
  } else if (o.family == MeshFamily::Wedge) {
    m.tanTheta = std::tan(o.wedgeAngleDeg * kPi / 180.0);
    if (o.rampStart > 0) {
      m.ic = std::clamp<std::int64_t>(std::llround(static_cast<real_t>(n[0]) * o.rampStart), 1,
                                      n[0] - 1);
    }
    m.xr = o.rampStart * e[0];
  }
  m.tabulate();
  return m;
}

void validate(const GenOptions& o) {
  FV_VERIFY_USAGE(o.perturb >= 0 && o.perturb <= 0.3,
                  "perturbation " << o.perturb
                                  << " must lie in [0, 0.3] (fraction of the local spacing)");
  if (o.family == MeshFamily::Channel)
    FV_VERIFY_USAGE(o.bumpHeight >= 0 && o.bumpHeight < 0.5,
                    "bump height " << o.bumpHeight
                                   << " must lie in [0, 0.5) (fraction of the channel height)");
  if (o.family == MeshFamily::Wedge) {
    FV_VERIFY_USAGE(o.wedgeAngleDeg > 0 && o.wedgeAngleDeg < 60,
                    "wedge angle " << o.wedgeAngleDeg << " must lie in (0, 60) degrees");
    FV_VERIFY_USAGE(o.rampStart >= 0 && o.rampStart < 1,
                    "ramp start " << o.rampStart << " must lie in [0, 1) (fraction of the length)");
  }
  const bool given = o.n[0] > 0 || o.n[1] > 0 || o.n[2] > 0;
  if (given) {
    for (int d = 0; d < 3; ++d)
      FV_VERIFY_USAGE(o.n[d] >= 1, "cells per direction must all be >= 1, got "
                                       << o.n[0] << "," << o.n[1] << "," << o.n[2]);
  } else {
    FV_VERIFY_USAGE(o.targetCells >= 1, "give the block size (n) or a target number of cells");
  }
}

real_t cells_per_block(GenCells c) {
  switch (c) {
  case GenCells::Hex:
    return 1;
  case GenCells::Tet:
    return 6;
  case GenCells::Prism:
    return 2;
  case GenCells::Pyramid:
    return 6;
  case GenCells::Mixed:
    return 0.25 * 1 + 0.25 * 2 + 0.5 * 6;
  }
  return 1;
}

struct Patches {
  const char* name[6];
  const char* bc[6];
};

Patches patches_of(MeshFamily f) {
  switch (f) {
  case MeshFamily::Box:
    return {{"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"},
            {"BCFarfield", "BCFarfield", "BCFarfield", "BCFarfield", "BCFarfield", "BCFarfield"}};
  case MeshFamily::Channel:
    return {{"inlet", "outlet", "lower_wall", "upper_wall", "side1", "side2"},
            {"BCInflow", "BCOutflow", "BCWall", "BCWall", "BCSymmetryPlane", "BCSymmetryPlane"}};
  case MeshFamily::Wedge:
    return {
        {"inlet", "outlet", "lower_wall", "upper", "side1", "side2"},
        {"BCInflow", "BCOutflow", "BCWall", "BCFarfield", "BCSymmetryPlane", "BCSymmetryPlane"}};
  }
  return {};
}

} // namespace

// ---------------------------------------------------------------------------------------------

GenGrid resolve_grid(const GenOptions& o) {
  validate(o);
  GenGrid g;
  g.extent = resolve_extent(o);
  g.n = o.n;
  if (g.n[0] <= 0) {
    const real_t vol = g.extent[0] * g.extent[1] * g.extent[2];
    const real_t h = std::cbrt(vol * cells_per_block(o.cells) / static_cast<real_t>(o.targetCells));
    for (int d = 0; d < 3; ++d)
      g.n[d] = std::max<std::int64_t>(1, std::llround(g.extent[d] / h));
    if (o.cells == GenCells::Mixed) g.n[0] = std::max<std::int64_t>(g.n[0], 4);
    if (o.family == MeshFamily::Wedge) g.n[0] = std::max<std::int64_t>(g.n[0], 2);
  }
  FV_VERIFY_USAGE(o.cells != GenCells::Mixed || g.n[0] >= 4,
                  "mixed cells need at least 4 block cells along x, got " << g.n[0]);
  FV_VERIFY_USAGE(o.family != MeshFamily::Wedge || g.n[0] >= 2,
                  "the wedge needs at least 2 block cells along x, got " << g.n[0]);
  for (int d = 0; d < 3; ++d)
    FV_VERIFY_USAGE(g.n[d] <= kMaxIdx, "too many cells along "
                                           << "xyz"[d] << ": " << g.n[d]);
  if (o.family == MeshFamily::Wedge) {
    const real_t rise = (1 - o.rampStart) * g.extent[0] * std::tan(o.wedgeAngleDeg * kPi / 180.0);
    FV_VERIFY_USAGE(rise < 0.9 * g.extent[1],
                    "the wedge ramp rises "
                        << rise << ", too close to the upper boundary y = " << g.extent[1]);
  }
  // Size checks in floating point first, so that neither the products below overflow nor the
  // per-line layout tables grow beyond the mesh itself: every block cell has at least 8
  // cell-node entries (a hexahedron; splits have more).
  const real_t approxBlocks =
      static_cast<real_t>(g.n[0]) * static_cast<real_t>(g.n[1]) * static_cast<real_t>(g.n[2]);
  FV_VERIFY_USAGE(approxBlocks * 8 <= static_cast<real_t>(kMaxIdx),
                  "mesh of " << g.n[0] << "x" << g.n[1] << "x" << g.n[2]
                             << " block cells is too large for 32-bit indices (at least "
                             << approxBlocks * 8 << " cell-node entries, max " << kMaxIdx << ")");
  const Layout L = make_layout(o.cells, g.n);
  FV_VERIFY_USAGE(L.nCells <= kMaxIdx && L.nNnz <= kMaxIdx && L.nNodes <= kMaxIdx,
                  "mesh of " << L.nCells << " cells, " << L.nNodes << " nodes and " << L.nNnz
                             << " cell-node entries is too large for 32-bit indices (max "
                             << kMaxIdx << ")");
  g.cells = L.nCells;
  g.nodes = L.nNodes;
  g.bfaces = L.nBfaces;
  return g;
}

Mesh generate_mesh(const GenOptions& o) {
  const GenGrid grid = resolve_grid(o);
  const Layout L = make_layout(o.cells, grid.n);
  const NodeCoords coords{make_map(o, grid.n, grid.extent), o.perturb, o.seed};
  const IndexPermutation cellPerm(L.nCells, IndexPermutation::mix(o.seed) ^ 0x1111, !o.shuffle);
  StepTimer timer;
  const IndexPermutation nodeShuffle(L.nNodes, IndexPermutation::mix(o.seed) ^ 0x2222, !o.shuffle);
  // Node ids are looked up about 8 times each while writing cells: tabulate the shuffled
  // ids once (4 bytes per node) instead of re-evaluating the permutation every time.
  std::vector<idx_t> nodeNew;
  resize_huge(nodeNew, o.shuffle ? static_cast<std::size_t>(L.nNodes) : 0);
  FV_OMP_FOR
  for (std::int64_t s = 0; s < static_cast<std::int64_t>(nodeNew.size()); ++s)
    nodeNew[static_cast<std::size_t>(s)] = static_cast<idx_t>(nodeShuffle.forward(s));
  struct {
    const std::vector<idx_t>& table;
    std::int64_t forward(std::int64_t s) const {
      return table.empty() ? s : table[static_cast<std::size_t>(s)];
    }
  } nodePerm{nodeNew};
  const std::int64_t ni = L.ni, nj = L.nj, nk = L.nk;
  const std::int64_t cellsPerRow = L.cellPre.back(), cenPerRow = L.cenPre.back();

  Mesh m;
  m.format = "generated";
  {
    std::ostringstream w;
    w << "fvkit generate_mesh " << to_string(o.family) << " " << to_string(o.cells) << " " << ni
      << "x" << nj << "x" << nk << " perturb=" << o.perturb
      << " shuffle=" << (o.shuffle ? "yes" : "no") << " seed=" << o.seed;
    m.writer = w.str();
  }

  timer.lap("node permutation");
  // ---- nodes: block nodes, then the centre nodes of pyramid/transition block cells
  resize_huge(m.xyz, static_cast<std::size_t>(3 * L.nNodes));
  real_t* xyz = m.xyz.data();
  const std::int64_t nodeRows = (nj + 1) * (nk + 1);
  FV_OMP_FOR
  for (std::int64_t r = 0; r < nodeRows; ++r) {
    const std::int64_t j = r % (nj + 1), k = r / (nj + 1);
    for (std::int64_t i = 0; i <= ni; ++i)
      coords.at(i, j, k, xyz + 3 * nodePerm.forward(L.node_id(i, j, k)));
  }
  if (cenPerRow > 0) {
    FV_OMP_FOR
    for (std::int64_t r = 0; r < L.rows; ++r) {
      const std::int64_t j = r % nj, k = r / nj;
      for (std::int64_t i = 0; i < ni; ++i) {
        const auto u = static_cast<std::size_t>(i);
        if (L.cenPre[u + 1] == L.cenPre[u]) continue;
        real_t c[3] = {0, 0, 0};
        for (const auto& b : kCornerBits) {
          real_t p[3];
          coords.at(i + b[0], j + b[1], k + b[2], p);
          for (int d = 0; d < 3; ++d)
            c[d] += 0.125 * p[d];
        }
        const std::int64_t id = L.nBlockNodes + r * cenPerRow + L.cenPre[u];
        real_t* dst = xyz + 3 * nodePerm.forward(id);
        for (int d = 0; d < 3; ++d)
          dst[d] = c[d];
      }
    }
  }

  timer.lap("nodes");
  // ---- cells: each block cell writes its sub-cells straight into their shuffled positions
  const auto nCells = static_cast<std::size_t>(L.nCells);
  resize_huge(m.cellType, nCells);
  std::vector<idx_t> offsets;
  resize_huge(offsets, nCells + 1);
  const bool uniform = o.cells != GenCells::Mixed;
  if (uniform) {
    const idx_t npc = static_cast<idx_t>(L.nnzPre.back() / cellsPerRow);
    FV_OMP_FOR
    for (std::int64_t c = 0; c <= L.nCells; ++c)
      offsets[static_cast<std::size_t>(c)] = static_cast<idx_t>(c) * npc;
  } else {
    offsets[0] = 0;
    FV_OMP_FOR
    for (std::int64_t r = 0; r < L.rows; ++r)
      for (std::int64_t i = 0; i < ni; ++i) {
        const Split& s = split_of(L.kind[static_cast<std::size_t>(i)]);
        const std::int64_t g0 = r * cellsPerRow + L.cellPre[static_cast<std::size_t>(i)];
        for (std::size_t t = 0; t < s.cells.size(); ++t)
          offsets[static_cast<std::size_t>(cellPerm.forward(g0 + static_cast<std::int64_t>(t))) +
                  1] = s.cells[t].n;
      }
    for (std::size_t c = 0; c < nCells; ++c)
      offsets[c + 1] += offsets[c];
  }
  timer.lap("cell offsets");
  std::vector<idx_t> indices;
  resize_huge(indices, static_cast<std::size_t>(L.nNnz));
  timer.lap("cell allocation");
  {
    CellType* types = m.cellType.data();
    idx_t* out = indices.data();
    const idx_t* off = offsets.data();
    FV_OMP_FOR_DYNAMIC
    for (std::int64_t r = 0; r < L.rows; ++r) {
      const std::int64_t j = r % nj, k = r / nj;
      idx_t local[9];
      for (std::int64_t i = 0; i < ni; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const Split& s = split_of(L.kind[u]);
        for (int c = 0; c < 8; ++c)
          local[c] = static_cast<idx_t>(nodePerm.forward(
              L.node_id(i + kCornerBits[c][0], j + kCornerBits[c][1], k + kCornerBits[c][2])));
        if (s.centres)
          local[8] =
              static_cast<idx_t>(nodePerm.forward(L.nBlockNodes + r * cenPerRow + L.cenPre[u]));
        const std::int64_t g0 = r * cellsPerRow + L.cellPre[u];
        for (std::size_t t = 0; t < s.cells.size(); ++t) {
          const SubCell& sc = s.cells[t];
          const auto c =
              static_cast<std::size_t>(cellPerm.forward(g0 + static_cast<std::int64_t>(t)));
          types[c] = sc.type;
          idx_t* dst = out + off[c];
          for (int v = 0; v < sc.n; ++v)
            dst[v] = local[sc.v[v]];
        }
      }
    }
  }
  m.cellNodes = Csr(Array<idx_t>(std::move(offsets)), Array<idx_t>(std::move(indices)));
  timer.lap("cells");

  // ---- boundary faces, outward, grouped by patch (xmin, xmax, ymin, ymax, zmin, zmax)
  const Patches names = patches_of(o.family);
  std::vector<idx_t> bOff(static_cast<std::size_t>(L.nBfaces) + 1, 0), bIdx;
  bIdx.reserve(static_cast<std::size_t>(L.nBfaceNnz));
  m.bfacePatch.reserve(static_cast<std::size_t>(L.nBfaces));
  std::size_t nb = 0;
  for (int side = 0; side < 6; ++side) {
    m.patches.push_back({names.name[side], names.bc[side]});
    const int axis = side / 2;
    const bool high = side % 2 == 1;
    // faces of this patch, in block order: nodes and sizes
    std::vector<idx_t> pIdx;
    std::vector<int> pSize;
    auto emit = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
      idx_t local[8];
      for (int c = 0; c < 8; ++c)
        local[c] = static_cast<idx_t>(nodePerm.forward(
            L.node_id(i + kCornerBits[c][0], j + kCornerBits[c][1], k + kCornerBits[c][2])));
      if (side_is_split(L.kind[static_cast<std::size_t>(i)], side)) {
        int tri[2][3];
        side_triangles(side, tri);
        for (auto& t : tri) {
          for (int v : t)
            pIdx.push_back(local[v]);
          pSize.push_back(3);
        }
      } else {
        for (int v : kSideFace[side])
          pIdx.push_back(local[v]);
        pSize.push_back(4);
      }
    };
    if (axis == 0) {
      const std::int64_t i = high ? ni - 1 : 0;
      for (std::int64_t k = 0; k < nk; ++k)
        for (std::int64_t j = 0; j < nj; ++j)
          emit(i, j, k);
    } else if (axis == 1) {
      const std::int64_t j = high ? nj - 1 : 0;
      for (std::int64_t k = 0; k < nk; ++k)
        for (std::int64_t i = 0; i < ni; ++i)
          emit(i, j, k);
    } else {
      const std::int64_t k = high ? nk - 1 : 0;
      for (std::int64_t j = 0; j < nj; ++j)
        for (std::int64_t i = 0; i < ni; ++i)
          emit(i, j, k);
    }
    // optional shuffle of the patch's faces
    const auto nf = static_cast<std::int64_t>(pSize.size());
    std::vector<idx_t> pOff(pSize.size() + 1, 0);
    for (std::size_t f = 0; f < pSize.size(); ++f)
      pOff[f + 1] = pOff[f] + pSize[f];
    const IndexPermutation facePerm(
        nf, IndexPermutation::mix(o.seed + 7 + static_cast<std::uint64_t>(side)), !o.shuffle);
    for (std::int64_t p = 0; p < nf; ++p) {
      const auto f = static_cast<std::size_t>(facePerm.inverse(p));
      bIdx.insert(bIdx.end(), pIdx.begin() + pOff[f], pIdx.begin() + pOff[f + 1]);
      bOff[nb + 1] = bOff[nb] + pSize[f];
      m.bfacePatch.push_back(side);
      ++nb;
    }
  }
  m.bfaceNodes = Csr(Array<idx_t>(std::move(bOff)), Array<idx_t>(std::move(bIdx)));
  timer.lap("boundary faces");

  if (o.fileIds) {
    resize_huge(m.cellFileId, nCells);
    FV_OMP_FOR
    for (std::int64_t c = 0; c < L.nCells; ++c)
      m.cellFileId[static_cast<std::size_t>(c)] = c + 1;
    m.bfaceFileId.resize(nb);
    for (std::size_t f = 0; f < nb; ++f)
      m.bfaceFileId[f] = L.nCells + static_cast<gidx_t>(f) + 1;
  }
  return m;
}

real_t analytic_volume(const GenOptions& o) {
  const auto e = resolve_extent(o);
  switch (o.family) {
  case MeshFamily::Box:
    return e[0] * e[1] * e[2];
  case MeshFamily::Channel: {
    const real_t lb = e[0] / 3.0, hb = o.bumpHeight * e[1];
    return e[2] * (e[0] * e[1] - 0.5 * hb * lb);
  }
  case MeshFamily::Wedge: {
    const real_t run = (1 - o.rampStart) * e[0];
    return e[2] * (e[0] * e[1] - 0.5 * run * run * std::tan(o.wedgeAngleDeg * kPi / 180.0));
  }
  }
  return 0;
}

MeshFamily parse_mesh_family(const std::string& s) {
  if (s == "box") return MeshFamily::Box;
  if (s == "channel" || s == "bump") return MeshFamily::Channel;
  if (s == "wedge") return MeshFamily::Wedge;
  FV_VERIFY_USAGE(false, "unknown mesh family '" << s << "' (expected box, channel or wedge)");
  return MeshFamily::Box;
}

GenCells parse_gen_cells(const std::string& s) {
  if (s == "hex") return GenCells::Hex;
  if (s == "tet") return GenCells::Tet;
  if (s == "prism") return GenCells::Prism;
  if (s == "pyramid" || s == "pyra") return GenCells::Pyramid;
  if (s == "mixed") return GenCells::Mixed;
  FV_VERIFY_USAGE(false,
                  "unknown cell kind '" << s << "' (expected hex, tet, prism, pyramid or mixed)");
  return GenCells::Hex;
}

const char* to_string(MeshFamily f) {
  switch (f) {
  case MeshFamily::Box:
    return "box";
  case MeshFamily::Channel:
    return "channel";
  case MeshFamily::Wedge:
    return "wedge";
  }
  return "?";
}

const char* to_string(GenCells c) {
  switch (c) {
  case GenCells::Hex:
    return "hex";
  case GenCells::Tet:
    return "tet";
  case GenCells::Prism:
    return "prism";
  case GenCells::Pyramid:
    return "pyramid";
  case GenCells::Mixed:
    return "mixed";
  }
  return "?";
}

} // namespace fv
