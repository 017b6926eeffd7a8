// Exact wall distance (prep/wall_distance.hpp): the point-triangle distance against a dense
// sampling of the triangle, and the BVH search against brute force over every wall face.
#include "common/error.hpp"
#include "prep/wall_distance.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using fv::real_t;

namespace {

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
  fv::WallFaces w;
  w.xyz = &xyz;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const fv::idx_t n0 = i + (nx + 1) * j;
      if ((i + j) % 3 == 0) { // some triangles, some quads
        w.nodes.insert(w.nodes.end(), {n0, n0 + 1, n0 + nx + 2});
        w.offsets.push_back(static_cast<fv::idx_t>(w.nodes.size()));
        w.nodes.insert(w.nodes.end(), {n0, n0 + nx + 2, n0 + nx + 1});
      } else {
        w.nodes.insert(w.nodes.end(), {n0, n0 + 1, n0 + nx + 2, n0 + nx + 1});
      }
      w.offsets.push_back(static_cast<fv::idx_t>(w.nodes.size()));
    }
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

} // namespace
