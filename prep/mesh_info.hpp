#pragma once
/// \file mesh_info.hpp
/// `fvprep info`: a summary of an imported, validated mesh, as text or JSON.
#include "formats/mesh.hpp"
#include "prep/validate.hpp"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace fv {

/// Everything `fvprep info` prints. Volumes in file units cubed.
struct MeshSummary {
  std::string path, format, writer;
  std::array<std::int64_t, kCellTypeCount> cellsByType{}; ///< indexed by CellType
  std::int64_t cells = 0, nodes = 0, faces = 0, interiorFaces = 0, boundaryFaces = 0;
  struct PatchInfo {
    std::string name, bcType;
    std::int64_t faces = 0;
  };
  std::vector<PatchInfo> patches;
  std::vector<std::string> zones; ///< file zones merged (CGNS multi-zone)
  std::array<real_t, 3> bboxMin{}, bboxMax{};
  real_t totalVolume = 0, minVolume = 0, maxVolume = 0;
  std::int64_t minVolumeCell = 0, maxVolumeCell = 0; ///< file ids
  std::vector<std::string> warnings;
};

/// Builds the summary from a mesh and its validation report.
MeshSummary summarize_mesh(const Mesh& mesh, const ValidationReport& report);

/// Human-readable multi-line summary.
void print_summary_text(std::ostream& os, const MeshSummary& s);

/// The summary as one JSON object (keys: file, format, writer, cells{total,tetrahedron,...},
/// nodes, faces{total,interior,boundary}, patches[{name,bcType,faces}], zones, boundingBox
/// {min,max}, volume{total,min,max,minCell,maxCell}, warnings).
void print_summary_json(std::ostream& os, const MeshSummary& s);

} // namespace fv
