// Exact wall distance (prep/wall_distance.hpp): the point-triangle distance against a dense
// sampling of the triangle, the BVH search against brute force over every wall face, and the
// distances to a flat plate and to a triangulated sphere against their analytic values.
#include "common/error.hpp"
#include "prep/wall_distance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <utility>

using fv::real_t;

namespace {

/// The faces of an (nx+1) x (ny+1) grid of nodes xyz (row by row): quadrilaterals, and pairs of
/// triangles where (i + jStep j) % 3 == 0 (a mix of shapes whose pattern jStep varies).
fv::WallFaces grid_wall(const std::vector<real_t>& xyz, int nx, int ny, int jStep) {
  fv::WallFaces w;
  w.xyz = &xyz;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const fv::idx_t n0 = i + (nx + 1) * j;
      if ((i + jStep * j) % 3 == 0) {
        w.nodes.insert(w.nodes.end(), {n0, n0 + 1, n0 + nx + 2});
        w.offsets.push_back(static_cast<fv::idx_t>(w.nodes.size()));
        w.nodes.insert(w.nodes.end(), {n0, n0 + nx + 2, n0 + nx + 1});
      } else {
        w.nodes.insert(w.nodes.end(), {n0, n0 + 1, n0 + nx + 2, n0 + nx + 1});
      }
      w.offsets.push_back(static_cast<fv::idx_t>(w.nodes.size()));
    }
  return w;
}

TEST(WallDistance, PointTriangleMatchesSampling) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<real_t> u(-1, 1);
  for (int t = 0; t < 200; ++t) {
    real_t a[3], b[3], c[3], p[3];
    for (int d = 0; d < 3; ++d) {
      a[d] = u(rng);
      b[d] = u(rng);
      c[d] = u(rng);
      p[d] = 2 * u(rng);
    }
    // the closest of a fine barycentric sampling can only be farther, by at most the sampling
    // spacing times the longest edge
    const int n = 200;
    real_t best = std::numeric_limits<real_t>::infinity(), edge = 0;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        const real_t v = real_t(i) / n, w = real_t(j) / n;
        real_t q2 = 0;
        for (int d = 0; d < 3; ++d) {
          const real_t q = a[d] + v * (b[d] - a[d]) + w * (c[d] - a[d]) - p[d];
          q2 += q * q;
        }
        best = std::min(best, std::sqrt(q2));
      }
    for (const real_t* e : {b, c})
      edge =
          std::max(edge, std::sqrt((e[0] - a[0]) * (e[0] - a[0]) + (e[1] - a[1]) * (e[1] - a[1]) +
                                   (e[2] - a[2]) * (e[2] - a[2])));
    const real_t d = fv::point_triangle_distance(p, a, b, c);
    EXPECT_LE(d, best + 1e-12);
    EXPECT_GE(d, best - 2.0 * edge / n);
  }
  // inside the face, on an edge, at a corner
  const real_t a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0};
  const real_t above[3] = {0.2, 0.3, 0.5}, beside[3] = {0.5, -0.4, 0}, past[3] = {2, 2, 0},
               behind[3] = {-1, -1, 0};
  EXPECT_DOUBLE_EQ(fv::point_triangle_distance(above, a, b, c), 0.5);               // over the face
  EXPECT_DOUBLE_EQ(fv::point_triangle_distance(beside, a, b, c), 0.4);              // edge ab
  EXPECT_NEAR(fv::point_triangle_distance(past, a, b, c), std::sqrt(4.5), 1e-15);   // edge bc
  EXPECT_NEAR(fv::point_triangle_distance(behind, a, b, c), std::sqrt(2.0), 1e-15); // corner a
}

TEST(WallDistance, TreeSearchIsExact) {
  // a wavy wall of quads of very different sizes, and points scattered above and below it
  std::mt19937 rng(9);
  std::uniform_real_distribution<real_t> u(0, 1);
  std::vector<real_t> xyz;
  const int nx = 30, ny = 20;
  std::vector<real_t> xs{0}, ys{0};
  for (int i = 0; i < nx; ++i)
    xs.push_back(xs.back() + 0.01 + u(rng) * (i % 7 == 0 ? 0.5 : 0.05));
  for (int j = 0; j < ny; ++j)
    ys.push_back(ys.back() + 0.02 + u(rng) * 0.1);
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      xyz.insert(xyz.end(), {xs[i], ys[j], 0.1 * std::sin(3 * xs[i]) * std::cos(2 * ys[j])});
  const fv::WallFaces w = grid_wall(xyz, nx, ny, 1);
  std::vector<real_t> pts;
  for (int k = 0; k < 3000; ++k)
    pts.insert(pts.end(), {-0.5 + (xs.back() + 1) * u(rng), -0.5 + (ys.back() + 1) * u(rng),
                           -0.6 + 1.2 * u(rng)});
  const std::vector<real_t> d = fv::wall_distance(pts, w);
  ASSERT_EQ(d.size(), pts.size() / 3);
  for (std::size_t i = 0; i < d.size(); ++i) {
    real_t brute = std::numeric_limits<real_t>::infinity();
    for (fv::idx_t f = 0; f < w.size(); ++f) {
      const real_t* a = &xyz[3 * w.nodes[w.offsets[f]]];
      for (fv::idx_t k = w.offsets[f] + 1; k + 1 < w.offsets[f + 1]; ++k)
        brute = std::min(brute, fv::point_triangle_distance(&pts[3 * i], a, &xyz[3 * w.nodes[k]],
                                                            &xyz[3 * w.nodes[k + 1]]));
    }
    ASSERT_EQ(d[i], brute) << "point " << i;
  }
  // no wall: infinite distances; a bad face: an error
  EXPECT_TRUE(std::isinf(fv::wall_distance(pts, fv::WallFaces{&xyz, {0}, {}})[0]));
  fv::WallFaces bad{&xyz, {0, 2}, {0, 1}};
  EXPECT_THROW(fv::wall_distance(pts, bad), fv::Error);
}

// A flat plate z = 0 over [0, 1] x [0, 1], of quads and triangles on an uneven grid: the
// distance of a point is that to the rectangle, sqrt(ex^2 + ey^2 + z^2) with ex, ey how far it
// lies beyond the edges, to round-off, above, below, beside and on the plate.
TEST(WallDistance, FlatPlateIsAnalytic) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<real_t> u(0, 1);
  const int nx = 17, ny = 11;
  std::vector<real_t> xs{0}, ys{0};
  for (int i = 1; i < nx; ++i)
    xs.push_back(xs.back() + 0.2 + u(rng));
  for (int j = 1; j < ny; ++j)
    ys.push_back(ys.back() + 0.2 + u(rng));
  xs.push_back(xs.back() + 0.2 + u(rng));
  ys.push_back(ys.back() + 0.2 + u(rng));
  for (real_t& x : xs)
    x /= xs.back();
  for (real_t& y : ys)
    y /= ys.back();
  xs.back() = ys.back() = 1;
  std::vector<real_t> xyz;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      xyz.insert(xyz.end(), {xs[i], ys[j], 0});
  const fv::WallFaces w = grid_wall(xyz, nx, ny, 2);
  std::vector<real_t> pts, exact;
  auto add = [&](real_t x, real_t y, real_t z) {
    pts.insert(pts.end(), {x, y, z});
    const real_t ex = std::max<real_t>({0, -x, x - 1}), ey = std::max<real_t>({0, -y, y - 1});
    exact.push_back(std::sqrt(ex * ex + ey * ey + z * z));
  };
  for (int k = 0; k < 2000; ++k) // over the plate and around it, on both sides
    add(-0.5 + 2 * u(rng), -0.5 + 2 * u(rng), (k % 2 ? 1 : -1) * u(rng) * u(rng));
  for (int k = 0; k < 200; ++k) // on the plate, and very close above it
    add(u(rng), u(rng), k % 2 ? 0 : 1e-9 * u(rng));
  add(0.5, 0.5, 1e-300);
  const std::vector<real_t> d = fv::wall_distance(pts, w);
  ASSERT_EQ(d.size(), exact.size());
  for (std::size_t i = 0; i < d.size(); ++i)
    ASSERT_NEAR(d[i], exact[i], 4e-16 * (1 + exact[i]))
        << "point (" << pts[3 * i] << ", " << pts[3 * i + 1] << ", " << pts[3 * i + 2] << ")";
}

// A sphere of radius R triangulated by a subdivided icosahedron (corners on the sphere): from a
// point outside on the ray through a corner the nearest wall point is that corner, at
// |p - centre| - R; from a point outside along a face's normal through its centroid the
// distance is the height above the face. Both exact, so both to round-off.
TEST(WallDistance, TriangulatedSphereIsAnalytic) {
  const std::array<real_t, 3> centre{0.3, -0.2, 0.1};
  const real_t R = 0.5;
  // icosahedron
  const real_t t = (1 + std::sqrt(5.0)) / 2;
  std::vector<std::array<real_t, 3>> v{{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                                       {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                                       {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<std::array<fv::idx_t, 3>> tri{
      {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  auto onto_sphere = [&](std::array<real_t, 3> p) {
    const real_t n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (real_t& x : p)
      x /= n;
    return p;
  };
  for (auto& p : v)
    p = onto_sphere(p);
  for (int level = 0; level < 3; ++level) { // 1280 triangles
    std::map<std::pair<fv::idx_t, fv::idx_t>, fv::idx_t> mid;
    auto midpoint = [&](fv::idx_t a, fv::idx_t b) {
      const auto key = std::minmax(a, b);
      const auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back(onto_sphere({v[a][0] + v[b][0], v[a][1] + v[b][1], v[a][2] + v[b][2]}));
      return mid[key] = static_cast<fv::idx_t>(v.size() - 1);
    };
    std::vector<std::array<fv::idx_t, 3>> finer;
    for (const auto& f : tri) {
      const fv::idx_t ab = midpoint(f[0], f[1]), bc = midpoint(f[1], f[2]),
                      ca = midpoint(f[2], f[0]);
      finer.insert(finer.end(), {{f[0], ab, ca}, {f[1], bc, ab}, {f[2], ca, bc}, {ab, bc, ca}});
    }
    tri = std::move(finer);
  }
  std::vector<real_t> xyz;
  for (const auto& p : v)
    for (int d = 0; d < 3; ++d)
      xyz.push_back(centre[d] + R * p[d]);
  fv::WallFaces w;
  w.xyz = &xyz;
  for (const auto& f : tri) {
    w.nodes.insert(w.nodes.end(), f.begin(), f.end());
    w.offsets.push_back(static_cast<fv::idx_t>(w.nodes.size()));
  }
  auto X = [&](fv::idx_t n, int d) { return xyz[3 * n + d]; };
  std::vector<real_t> pts, exact;
  for (fv::idx_t n = 0; n < static_cast<fv::idx_t>(v.size()); ++n)
    for (const real_t s : {1.0, 1.001, 1.3, 2.5, 40.0}) { // on the corner, then outwards
      real_t r2 = 0, p[3];
      for (int d = 0; d < 3; ++d) {
        p[d] = centre[d] + s * (X(n, d) - centre[d]);
        r2 += (X(n, d) - centre[d]) * (X(n, d) - centre[d]);
      }
      pts.insert(pts.end(), p, p + 3);
      exact.push_back((s - 1) * std::sqrt(r2));
    }
  for (const auto& f : tri) {
    real_t e1[3], e2[3], nrm[3], m[3];
    for (int d = 0; d < 3; ++d) {
      e1[d] = X(f[1], d) - X(f[0], d);
      e2[d] = X(f[2], d) - X(f[0], d);
      m[d] = (X(f[0], d) + X(f[1], d) + X(f[2], d)) / 3;
    }
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
    nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
    nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    const real_t len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    real_t out = 0; // orient outwards
    for (int d = 0; d < 3; ++d)
      out += nrm[d] * (m[d] - centre[d]);
    for (real_t& x : nrm)
      x /= out > 0 ? len : -len;
    // the surface is convex: every corner lies on the inner side of the face's plane
    real_t h = 0;
    for (int d = 0; d < 3; ++d)
      h += nrm[d] * (X(f[0], d) - centre[d]);
    for (fv::idx_t n = 0; n < static_cast<fv::idx_t>(v.size()); ++n) {
      real_t hn = 0;
      for (int d = 0; d < 3; ++d)
        hn += nrm[d] * (X(n, d) - centre[d]);
      ASSERT_LE(hn, h + 1e-15) << "not convex at corner " << n;
    }
    for (const real_t s : {1e-6, 0.01, 0.2}) {
      for (int d = 0; d < 3; ++d)
        pts.push_back(m[d] + s * nrm[d]);
      exact.push_back(s);
    }
  }
  const std::vector<real_t> d = fv::wall_distance(pts, w);
  ASSERT_EQ(d.size(), exact.size());
  for (std::size_t i = 0; i < d.size(); ++i)
    ASSERT_NEAR(d[i], exact[i], 1e-15 * (1 + exact[i]))
        << "point " << i << " (" << pts[3 * i] << ", " << pts[3 * i + 1] << ", " << pts[3 * i + 2]
        << ")";
}

} // namespace
