#pragma once
/// \file plot3d_grid.hpp
/// Plot3D grid files as they are stored: single- or multi-block, 2D (x, y) or 3D (x, y, z),
/// with or without iblank, as formatted text, Fortran unformatted records (4-byte markers) or
/// raw C binary, little-endian, float64 or float32. The layout is recognised from the file's
/// size: only one of them accounts for every number (text) or byte (binary) of the file.
/// read_plot3d() (formats/plot3d_reader.cpp) turns the blocks into a mesh.
#include "formats/structured_block.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fv {

/// One block of a Plot3D grid.
struct Plot3dBlock {
  StructuredBlock shape;            ///< dim 2 (a 2D file, or a 3D file whose blocks have nk = 1)
  std::vector<double> xyz;          ///< 3 per node, i fastest (z = 0 in a 2D file)
  std::vector<std::int32_t> iblank; ///< one per node; empty when the file has none
};

/// A Plot3D grid file as read.
struct Plot3dGrid {
  std::vector<Plot3dBlock> blocks;
  int dim = 3;         ///< 3, or 2 for planar blocks
  std::string variant; ///< e.g. "Fortran unformatted float64, multi-block 3D, iblank"
};

/// Reads a Plot3D grid file. Throws fv::Error, one line naming the file (and the block or
/// record) on anything malformed: no layout fits the file's size, truncated data, record
/// markers that do not match, dimensions below 1 or too large, non-finite coordinates.
Plot3dGrid read_plot3d_grid(const std::string& path);

/// True when the bytes start like a little-endian Fortran unformatted Plot3D file: a first
/// record of 4 (block count), 8 (2D dimensions) or 12 bytes (3D dimensions), positive values,
/// with a matching end marker. Text Plot3D files have no signature (the extension decides).
bool sniff_plot3d_records(std::string_view head);

} // namespace fv
