#pragma once
/// \file plot3d_writers.hpp
/// Plot3D test files: blocks written as ASCII, Fortran unformatted records or raw binary,
/// float64 or float32, single- or multi-block, 2D or 3D, with or without iblank.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fv::testing {

/// One block: nv vertices per direction (nv[2] ignored in 2D), coordinates i fastest.
struct P3dBlock {
  std::array<int, 3> nv{2, 2, 2};
  std::vector<double> x, y, z;      ///< z unused in 2D
  std::vector<std::int32_t> iblank; ///< written when the file has iblank (default: all 1)
  int nodes(int dim) const { return nv[0] * nv[1] * (dim == 3 ? nv[2] : 1); }
};

/// A box of ni x nj x nk unit-spaced vertices starting at (x0, 0, 0) (2D: nk ignored).
P3dBlock p3d_box(int ni, int nj, int nk, double x0 = 0);

/// How a Plot3D test file is stored.
enum class P3dStorage { Ascii, Fortran, Raw };

/// How a Plot3D test file is laid out.
struct P3dLayout {
  P3dStorage storage = P3dStorage::Ascii;
  int dim = 3;
  bool multi = true; ///< write the block count (always when several blocks)
  bool iblank = false;
  bool float32 = false; ///< binary coordinates as float32
};

/// The bytes of a Plot3D file of these blocks.
std::string plot3d_bytes(const std::vector<P3dBlock>& blocks, const P3dLayout& layout);

/// Writes a Plot3D file of these blocks.
void write_plot3d(const std::string& path, const std::vector<P3dBlock>& blocks,
                  const P3dLayout& layout);

} // namespace fv::testing
