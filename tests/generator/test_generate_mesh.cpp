// Tests of the synthetic mesh generator (prep/generate_mesh.hpp).
#include "common/cell_shapes.hpp"
#include "mesh_checks.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/index_permutation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {
namespace {

using testing::canonical_geometry;
using testing::cell_volume;
using testing::match_faces;

const MeshFamily kFamilies[] = {MeshFamily::Box, MeshFamily::Channel, MeshFamily::Wedge};
const GenCells kCells[] = {GenCells::Hex, GenCells::Tet, GenCells::Prism, GenCells::Pyramid,
                           GenCells::Mixed};

GenOptions options(MeshFamily f, GenCells c, std::array<std::int64_t, 3> n = {8, 4, 3}) {
  GenOptions o;
  o.family = f;
  o.cells = c;
  o.n = n;
  return o;
}

double total_volume(const Mesh& m, double* minVolume = nullptr) {
  double sum = 0, mn = 1e300;
  for (idx_t c = 0; c < m.nCells(); ++c) {
    const double v = cell_volume(m, c);
    sum += v;
    mn = std::min(mn, v);
  }
  if (minVolume) *minVolume = mn;
  return sum;
}

class GeneratorCase : public ::testing::TestWithParam<std::tuple<MeshFamily, GenCells>> {};

std::string case_name(const ::testing::TestParamInfo<GeneratorCase::ParamType>& info) {
  return std::string(to_string(std::get<0>(info.param))) + "_" + to_string(std::get<1>(info.param));
}

// Every cell has a positive volume, the volumes add up to the domain's, and the mesh is
// conforming: each cell face meets exactly one other cell face (reversed) or one outward
// boundary face.
void check_valid(const Mesh& m, const GenOptions& o, double volumeTolerance) {
  ASSERT_EQ(m.cellNodes.rows(), m.nCells());
  m.cellNodes.check("cellNodes", m.nNodes());
  m.bfaceNodes.check("bfaceNodes", m.nNodes());
  for (idx_t c = 0; c < m.nCells(); ++c)
    ASSERT_EQ(m.cellNodes.size(c), cell_node_count(m.cellType[static_cast<std::size_t>(c)]))
        << "cell " << c;
  double minVol = 0;
  const double vol = total_volume(m, &minVol);
  EXPECT_GT(minVol, 0.0);
  EXPECT_NEAR(vol, analytic_volume(o), volumeTolerance * analytic_volume(o));
  const auto match = match_faces(m);
  EXPECT_TRUE(match.errors.empty()) << match.errors.front();
  EXPECT_EQ(match.boundary, m.nBoundaryFaces());
  // every node is used by some cell
  std::vector<char> used(static_cast<std::size_t>(m.nNodes()), 0);
  for (idx_t n : m.cellNodes.indices())
    used[static_cast<std::size_t>(n)] = 1;
  EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0);
}

TEST_P(GeneratorCase, ValidConformingWithExactVolume) {
  const auto [family, cells] = GetParam();
  const GenOptions o = options(family, cells);
  const Mesh m = generate_mesh(o);
  const GenGrid g = resolve_grid(o);
  EXPECT_EQ(m.nCells(), g.cells);
  EXPECT_EQ(m.nNodes(), g.nodes);
  EXPECT_EQ(m.nBoundaryFaces(), g.bfaces);
  // box and wedge are exact; the bump's curved wall is sampled at the block nodes
  check_valid(m, o, family == MeshFamily::Channel ? 2e-3 : 1e-12);
  ASSERT_EQ(m.patches.size(), 6u);
  ASSERT_EQ(m.bfacePatch.size(), static_cast<std::size_t>(m.nBoundaryFaces()));
  EXPECT_TRUE(std::is_sorted(m.bfacePatch.begin(), m.bfacePatch.end()));
  EXPECT_EQ(m.cellFileId.size(), static_cast<std::size_t>(m.nCells()));
  EXPECT_EQ(m.bfaceFileId.size(), static_cast<std::size_t>(m.nBoundaryFaces()));
}

TEST_P(GeneratorCase, PerturbedAndShuffledStaysValid) {
  const auto [family, cells] = GetParam();
  GenOptions o = options(family, cells, {8, 5, 4});
  o.perturb = 0.3;
  o.shuffle = true;
  o.seed = 42;
  const Mesh m = generate_mesh(o);
  // boundary nodes do not move, so the enclosed volume is unchanged
  check_valid(m, o, family == MeshFamily::Channel ? 2e-3 : 1e-12);
}

TEST_P(GeneratorCase, ShuffleIsASeededPermutation) {
  const auto [family, cells] = GetParam();
  GenOptions o = options(family, cells, {8, 3, 2});
  o.perturb = 0.2;
  o.seed = 7; // the seed also selects the perturbation
  const Mesh plain = generate_mesh(o);
  o.shuffle = true;
  const Mesh a = generate_mesh(o), b = generate_mesh(o);
  o.seed = 8;
  const Mesh c = generate_mesh(o);
  // same geometry as the unshuffled mesh
  EXPECT_TRUE(canonical_geometry(plain) == canonical_geometry(a));
  // reproducible from the seed
  EXPECT_EQ(a.xyz, b.xyz);
  EXPECT_TRUE(a.cellNodes == b.cellNodes);
  EXPECT_TRUE(a.bfaceNodes == b.bfaceNodes);
  // actually shuffled, and differently for another seed
  EXPECT_NE(a.xyz, plain.xyz);
  EXPECT_FALSE(a.cellNodes == plain.cellNodes);
  EXPECT_NE(a.xyz, c.xyz);
  EXPECT_FALSE(a.cellNodes == c.cellNodes);
}

INSTANTIATE_TEST_SUITE_P(AllFamiliesAndCells, GeneratorCase,
                         ::testing::Combine(::testing::ValuesIn(kFamilies),
                                            ::testing::ValuesIn(kCells)),
                         case_name);

// Per-patch face counts and areas of the unit box, n^3 block cells.
TEST(Generator, BoxPatchCountsAndAreas) {
  const std::int64_t n = 5;
  for (GenCells cells : kCells) {
    SCOPED_TRACE(to_string(cells));
    GenOptions o = options(MeshFamily::Box, cells, {n, n, n});
    o.extent = {2.0, 3.0, 4.0};
    const Mesh m = generate_mesh(o);
    std::vector<long> faces(6, 0), tris(6, 0);
    std::vector<std::array<double, 3>> area(6, {0, 0, 0});
    for (idx_t f = 0; f < m.nBoundaryFaces(); ++f) {
      const auto p = static_cast<std::size_t>(m.bfacePatch[static_cast<std::size_t>(f)]);
      ++faces[p];
      tris[p] += m.bfaceNodes.size(f) == 3;
      const auto s = testing::bface_area(m, f);
      for (int d = 0; d < 3; ++d)
        area[p][d] += s[d];
    }
    const double extent[3] = {2, 3, 4};
    for (int side = 0; side < 6; ++side) {
      const int axis = side / 2;
      const double a = extent[(axis + 1) % 3] * extent[(axis + 2) % 3];
      const double sign = side % 2 ? 1.0 : -1.0;
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(area[static_cast<std::size_t>(side)][d], d == axis ? sign * a : 0.0, 1e-12)
            << "patch " << m.patches[static_cast<std::size_t>(side)].name;
    }
    switch (cells) {
    case GenCells::Hex:
    case GenCells::Pyramid:
      for (int s = 0; s < 6; ++s)
        EXPECT_EQ(faces[s], n * n);
      EXPECT_EQ(std::accumulate(tris.begin(), tris.end(), 0L), 0);
      EXPECT_EQ(m.nBoundaryFaces(), 6 * n * n);
      break;
    case GenCells::Tet:
      for (int s = 0; s < 6; ++s)
        EXPECT_EQ(tris[s], 2 * n * n);
      break;
    case GenCells::Prism:
      for (int s = 0; s < 4; ++s)
        EXPECT_EQ(faces[s] - tris[s], n * n);
      for (int s = 4; s < 6; ++s)
        EXPECT_EQ(tris[s], 2 * n * n);
      break;
    case GenCells::Mixed:
      break;
    }
  }
}

TEST(Generator, CellAndNodeCounts) {
  const std::int64_t n = 4, blocks = n * n * n, blockNodes = (n + 1) * (n + 1) * (n + 1);
  struct Expect {
    GenCells cells;
    std::int64_t perBlock;
    std::int64_t nodes;
    CellType type;
  };
  const Expect cases[] = {{GenCells::Hex, 1, blockNodes, CellType::Hex},
                          {GenCells::Tet, 6, blockNodes, CellType::Tet},
                          {GenCells::Prism, 2, blockNodes, CellType::Prism},
                          {GenCells::Pyramid, 6, blockNodes + blocks, CellType::Pyramid}};
  for (const auto& e : cases) {
    const Mesh m = generate_mesh(options(MeshFamily::Box, e.cells, {n, n, n}));
    EXPECT_EQ(m.nCells(), e.perBlock * blocks);
    EXPECT_EQ(m.nNodes(), e.nodes);
    EXPECT_TRUE(
        std::all_of(m.cellType.begin(), m.cellType.end(), [&](CellType t) { return t == e.type; }));
  }
  // mixed, 8x2x2: i<2 hex, 2<=i<4 prism, i=4 transition (1 pyramid + 10 tets), i>4 tets
  const Mesh m = generate_mesh(options(MeshFamily::Box, GenCells::Mixed, {8, 2, 2}));
  std::map<CellType, long> count;
  for (CellType t : m.cellType)
    ++count[t];
  EXPECT_EQ(count[CellType::Hex], 2 * 4);
  EXPECT_EQ(count[CellType::Prism], 2 * 2 * 4);
  EXPECT_EQ(count[CellType::Pyramid], 4);
  EXPECT_EQ(count[CellType::Tet], 10 * 4 + 6 * 3 * 4);
  EXPECT_EQ(m.nNodes(), 9 * 3 * 3 + 4);
}

TEST(Generator, TargetCellsIsApproximatelyMet) {
  for (GenCells cells : kCells) {
    for (MeshFamily f : kFamilies) {
      GenOptions o;
      o.family = f;
      o.cells = cells;
      o.targetCells = 20000;
      const GenGrid g = resolve_grid(o);
      EXPECT_GT(g.cells, 20000 / 2) << to_string(f) << " " << to_string(cells);
      EXPECT_LT(g.cells, 20000 * 2) << to_string(f) << " " << to_string(cells);
    }
  }
}

TEST(Generator, PatchNamesAndBcTypes) {
  const Mesh c = generate_mesh(options(MeshFamily::Channel, GenCells::Hex, {4, 2, 2}));
  ASSERT_EQ(c.patches.size(), 6u);
  EXPECT_EQ(c.patches[0].name, "inlet");
  EXPECT_EQ(c.patches[0].bcType, "BCInflow");
  EXPECT_EQ(c.patches[1].bcType, "BCOutflow");
  EXPECT_EQ(c.patches[2].name, "lower_wall");
  EXPECT_EQ(c.patches[2].bcType, "BCWall");
  EXPECT_EQ(c.patches[4].bcType, "BCSymmetryPlane");
  const Mesh w = generate_mesh(options(MeshFamily::Wedge, GenCells::Hex, {4, 2, 1}));
  EXPECT_EQ(w.patches[3].name, "upper");
  EXPECT_EQ(w.patches[3].bcType, "BCFarfield");
  // the wedge's lower wall really has a ramp at the requested angle
  double maxY = 0;
  for (idx_t f = 0; f < w.nBoundaryFaces(); ++f)
    if (w.bfacePatch[static_cast<std::size_t>(f)] == 2)
      for (idx_t k = w.bfaceNodes.begin(f); k < w.bfaceNodes.end(f); ++k)
        maxY = std::max(maxY, w.xyz[3 * static_cast<std::size_t>(
                                            w.bfaceNodes.indices()[static_cast<std::size_t>(k)]) +
                                    1]);
  EXPECT_NEAR(maxY, 0.75 * std::tan(15.0 * M_PI / 180.0), 1e-12);
}

TEST(Generator, InvalidOptionsAreUsageErrors) {
  auto usage = [](GenOptions o) {
    try {
      (void)generate_mesh(o);
    } catch (const Error& e) {
      return e.kind() == ErrorKind::Usage;
    }
    return false;
  };
  GenOptions o = options(MeshFamily::Box, GenCells::Hex, {2, 2, 2});
  o.perturb = 0.5;
  EXPECT_TRUE(usage(o));
  o = options(MeshFamily::Box, GenCells::Mixed, {3, 2, 2});
  EXPECT_TRUE(usage(o));
  o = options(MeshFamily::Box, GenCells::Hex, {2, 0, 2});
  EXPECT_TRUE(usage(o));
  o = options(MeshFamily::Box, GenCells::Tet, {2000, 2000, 2000});
  EXPECT_TRUE(usage(o));
  o = options(MeshFamily::Wedge, GenCells::Hex, {4, 2, 2});
  o.wedgeAngleDeg = 70;
  EXPECT_TRUE(usage(o));
  o = GenOptions{};
  EXPECT_TRUE(usage(o)); // neither n nor target
  EXPECT_THROW(parse_gen_cells("hexa"), Error);
  EXPECT_THROW(parse_mesh_family("sphere"), Error);
  EXPECT_EQ(parse_gen_cells("prism"), GenCells::Prism);
  EXPECT_EQ(parse_mesh_family("wedge"), MeshFamily::Wedge);
}

#if defined(_OPENMP)
// The shuffled numbering and the perturbation are pure functions of the seed: the mesh does
// not depend on the number of threads.
TEST(Generator, IndependentOfThreadCount) {
  GenOptions o = options(MeshFamily::Channel, GenCells::Mixed, {12, 5, 4});
  o.shuffle = true;
  o.perturb = 0.2;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const Mesh a = generate_mesh(o);
  omp_set_num_threads(3);
  const Mesh b = generate_mesh(o);
  omp_set_num_threads(threads);
  EXPECT_EQ(a.xyz, b.xyz);
  EXPECT_TRUE(a.cellNodes == b.cellNodes);
  EXPECT_EQ(a.cellType, b.cellType);
  EXPECT_TRUE(a.bfaceNodes == b.bfaceNodes);
}
#endif

TEST(IndexPermutation, IsABijectionWithInverse) {
  for (std::int64_t n : {1, 2, 3, 17, 64, 1000, 4097}) {
    const IndexPermutation p(n, 99);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    long moved = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t j = p.forward(i);
      ASSERT_GE(j, 0);
      ASSERT_LT(j, n);
      EXPECT_FALSE(seen[static_cast<std::size_t>(j)]);
      seen[static_cast<std::size_t>(j)] = 1;
      EXPECT_EQ(p.inverse(j), i);
      moved += j != i;
    }
    if (n >= 64) {
      EXPECT_GT(moved, n / 2);
    }
  }
  const IndexPermutation id(10, 99, true);
  for (std::int64_t i = 0; i < 10; ++i)
    EXPECT_EQ(id.forward(i), i);
}

} // namespace
} // namespace fv
