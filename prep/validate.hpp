#pragma once
/// \file validate.hpp
/// validate_mesh(): the checks fvprep runs on an imported mesh before anything else.
///
/// Errors (throw fv::Error, one line naming the file, the entity in the file's numbering and
/// what is wrong; exit code 1):
///   - a node index out of range, a cell with the wrong node count, a bad patch index;
///   - a face shared by more than two cells (non-manifold);
///   - a boundary face of the file that matches no cell face, or an interior face, or is listed
///     twice;
///   - a cell face on the boundary that no patch covers (unless a default patch is given);
///   - a cell with a non-positive volume (inverted / wrongly ordered element);
///   - a cell that is not closed: |sum of outward face area vectors| / sum |S| > closureTol.
/// Warnings (listed in the report, fvprep continues):
///   - dangling nodes: nodes no cell uses (they are dropped when zones are written);
///   - duplicate nodes: distinct nodes used by cells at the same position (within
///     duplicateTol x bounding-box diagonal): an unmerged interface or a crack. If it makes
///     faces unpatched, that is the error above; the warning names the nodes.
#include "formats/mesh.hpp"
#include "prep/faces.hpp"
#include "prep/geometry.hpp"

#include <array>
#include <string>
#include <vector>

namespace fv {

/// Options of validate_mesh().
struct ValidateOptions {
  std::string defaultPatch;    ///< patch for unpatched boundary faces ("" = error)
  real_t closureTol = 1e-8;    ///< max |sum S| / sum |S| of a cell
  real_t duplicateTol = 1e-12; ///< coincident-node distance, relative to the bbox diagonal
  /// Compute the cell geometry and check volumes and closure here (fvprep info). A prepare sets
  /// it false: build_global_mesh() computes the geometry once, in the renumbered order, and
  /// makes the same checks with the same messages.
  bool geometry = true;
};

/// What validation found and built (the faces and geometry are reused by fvprep info).
struct ValidationReport {
  FaceSet faces;
  Geometry geometry; ///< empty unless ValidateOptions::geometry
  std::array<real_t, 3> bboxMin{}, bboxMax{};
  idx_t danglingNodes = 0;
  idx_t duplicateNodes = 0;          ///< nodes that coincide with another used node
  std::vector<std::string> warnings; ///< reader warnings followed by validation warnings
};

/// Runs every check above. Throws fv::Error on the first error.
ValidationReport validate_mesh(const Mesh& mesh, const ValidateOptions& opts = {});

} // namespace fv
