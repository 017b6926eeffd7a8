#pragma once
/// \file surface_file.hpp
/// Surface output: per wall patch, a CSV file (one row per boundary face in ascending global
/// face id, so the file does not depend on the partitioning) and a VTK PolyData file for
/// ParaView (write_surface_vtp). Written with fv::AtomicFile.
///
/// Columns: faceId,x,y,z,Sx,Sy,Sz,<caller's columns...>
///   faceId   global face id (renumbered mesh)
///   x,y,z    face centroid, m
///   Sx,Sy,Sz face area vector pointing out of the fluid domain (|S| = area), m^2
///   then e.g. Cp, p (Pa), ... as the caller passes them.
/// Numbers are printed in the shortest form that reads back exactly (std::to_chars).
#include "common/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fv {

/// One named scalar column of a surface file (one value per face).
struct SurfaceColumn {
  std::string name;           ///< CSV header name, e.g. "Cp"; no commas, quotes or newlines
  std::vector<real_t> values; ///< one per face, same order as SurfacePatchData::faceGlobalId
};

/// The faces of one patch, gathered on the writing rank. Owns its data.
struct SurfacePatchData {
  std::string patch;                  ///< patch name as in the mesh file
  std::vector<gidx_t> faceGlobalId;   ///< one per face
  std::vector<real_t> centroid;       ///< 3 per face, m
  std::vector<real_t> area;           ///< 3 per face, m^2, out of the fluid
  std::vector<SurfaceColumn> columns; ///< extra per-face columns
  /// The faces' polygons (for write_surface_vtp): the corners of face i are
  /// cornerXyz[3 * cornerOffsets[i] ...] (cornerOffsets: nFaces + 1), in the face's node order
  /// (normal out of the fluid). Empty when only the CSV is written.
  std::vector<std::int64_t> cornerOffsets;
  std::vector<real_t> cornerXyz;
  std::vector<gidx_t> cornerNode; ///< global node id of each corner (-1: unknown)
  std::size_t nFaces() const { return faceGlobalId.size(); }
};

/// "<prefix>_<patch>.csv" with characters of the patch name other than [A-Za-z0-9_.-] replaced
/// by '_', e.g. surface_file_path("out/surface", "wall 1") = "out/surface_wall_1.csv".
std::string surface_file_path(const std::string& prefix, const std::string& patch);

/// Writes one patch's CSV (rows sorted by faceGlobalId). Throws fv::Error on size mismatches.
void write_surface_csv(const std::string& path, const SurfacePatchData& data);

/// "<prefix>_<patch>.vtp": surface_file_path() with the VTK extension.
std::string surface_vtp_path(const std::string& prefix, const std::string& patch);

/// Writes one patch as VTK XML PolyData (.vtp, ASCII), which ParaView opens: one polygon per
/// face (its own corner points: faces of other patches and zones never need merging), the
/// columns as cell data, plus "faceId" and the area vector "S". Faces in ascending
/// faceGlobalId. Throws fv::Error when the corners are missing or sizes disagree.
void write_surface_vtp(const std::string& path, const SurfacePatchData& data);

} // namespace fv
