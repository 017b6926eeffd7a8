#pragma once
/// \file spatial_order.hpp
/// A space-filling-curve order of the cells: cells sorted by the Morton (Z-order) key of their
/// node average, in parallel. Near cells get near ids, so prep's passes over the global mesh
/// (METIS, geometry, wall distance, zone building) touch memory in small strides instead of at
/// random, whatever the file's order. It is fvprep's global cell order (global ids); each zone
/// then orders its own cells by RCM.
#include "common/types.hpp"
#include "formats/mesh.hpp"

#include <cstdint>
#include <vector>

namespace fv {

/// Morton key of a point in the box [lo, hi] (per axis), 21 bits per axis interleaved.
std::uint64_t morton_key(const real_t x[3], const real_t lo[3], const real_t hi[3]);

/// Turns the box [lo, hi] into the cube the curve spans (hi moved to one extent on all axes).
void morton_cube(real_t lo[3], real_t hi[3]);

/// Morton key of cell c's node average in the cube [lo, hi] (from morton_cube()).
std::uint64_t cell_morton_key(const Mesh& mesh, idx_t c, const real_t lo[3], const real_t hi[3]);

/// cell_morton_key() of a cell of n nodes whose k-th node's coordinates pointOf(k) points to
/// (the same arithmetic, so the same key wherever the coordinates are held).
template <class PointOf>
std::uint64_t mean_point_morton_key(idx_t n, PointOf pointOf, const real_t lo[3],
                                    const real_t hi[3]) {
  real_t x[3] = {0, 0, 0};
  for (idx_t k = 0; k < n; ++k) {
    const real_t* p = pointOf(k);
    for (int d = 0; d < 3; ++d)
      x[d] += p[d];
  }
  for (int d = 0; d < 3; ++d)
    x[d] = n > 0 ? x[d] / n : lo[d];
  return morton_key(x, lo, hi);
}

/// Cells of `mesh` in Morton order of their node averages, in the cube around the mesh:
/// order[new] = old (fv::Mesh ids).
/// Ties (equal keys) keep the file order, so the result is deterministic for any thread count.
std::vector<idx_t> spatial_cell_order(const Mesh& mesh);

} // namespace fv
