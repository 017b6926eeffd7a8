#include "prep/validate.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/node_match.hpp"
#include "prep/mesh_ids.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fv {

ValidationReport validate_mesh(const Mesh& mesh, const ValidateOptions& opts) {
  fv::log::Phase phase("validating mesh");
  ValidationReport r;
  r.warnings = mesh.warnings;
  const std::string name = mesh_name(mesh);
  validate_mesh_arrays(mesh);

  // ---- nodes: bounding box, dangling, duplicates
  const idx_t nn = mesh.nNodes();
  r.bboxMin = {1e300, 1e300, 1e300};
  r.bboxMax = {-1e300, -1e300, -1e300};
  std::vector<char> used(static_cast<std::size_t>(nn), 0);
  for (idx_t v : mesh.cellNodes.indices())
    used[static_cast<std::size_t>(v)] = 1;
  for (idx_t i = 0; i < nn; ++i) {
    for (int d = 0; d < 3; ++d) {
      const real_t x = mesh.xyz[3 * static_cast<std::size_t>(i) + d];
      FV_VERIFY(std::isfinite(x), name << ": node " << i + 1 << " has a non-finite coordinate");
      if (!used[i]) continue;
      r.bboxMin[d] = std::min(r.bboxMin[d], x);
      r.bboxMax[d] = std::max(r.bboxMax[d], x);
    }
    if (!used[i]) ++r.danglingNodes;
  }
  if (r.danglingNodes > 0) {
    idx_t first = 0;
    while (used[first])
      ++first;
    std::ostringstream os;
    os << r.danglingNodes << " nodes are used by no cell (e.g. node " << first + 1
       << "); they are ignored";
    r.warnings.push_back(os.str());
  }
  {
    fv::log::Phase dp("checking duplicate nodes");
    double diag2 = 0;
    for (int d = 0; d < 3; ++d)
      diag2 += std::pow(r.bboxMax[d] - r.bboxMin[d], 2);
    std::vector<real_t> xyz;
    std::vector<idx_t> ids;
    xyz.reserve(mesh.xyz.size());
    for (idx_t i = 0; i < nn; ++i)
      if (used[i]) {
        ids.push_back(i);
        xyz.insert(xyz.end(), &mesh.xyz[3 * static_cast<std::size_t>(i)],
                   &mesh.xyz[3 * static_cast<std::size_t>(i)] + 3);
      }
    const auto pairs = find_coincident_nodes(xyz, opts.duplicateTol * std::sqrt(diag2));
    if (!pairs.empty()) {
      std::vector<char> dup(ids.size(), 0);
      for (auto [a, b] : pairs)
        dup[static_cast<std::size_t>(b)] = 1;
      r.duplicateNodes = static_cast<idx_t>(std::count(dup.begin(), dup.end(), 1));
      std::ostringstream os;
      os << r.duplicateNodes << " nodes used by cells coincide with another node (e.g. nodes "
         << ids[pairs[0].first] + 1 << " and " << ids[pairs[0].second] + 1
         << "): unmerged interface or crack?";
      r.warnings.push_back(os.str());
    }
  }

  // ---- faces: manifoldness, boundary faces, patches (prep/faces.hpp)
  FaceOptions fo;
  fo.defaultPatch = opts.defaultPatch;
  try {
    fv::log::Phase fp("building faces");
    r.faces = build_faces(mesh, fo);
  } catch (const Error& e) {
    if (r.duplicateNodes > 0)
      FV_THROW(e.what() << " (the mesh has " << r.duplicateNodes << " duplicate nodes)");
    throw;
  }
  if (!opts.defaultPatch.empty() && r.faces.patches.size() > mesh.patches.size()) {
    idx_t n = 0;
    for (idx_t p : r.faces.patch)
      if (p == static_cast<idx_t>(mesh.patches.size())) ++n;
    r.warnings.push_back(std::to_string(n) + " boundary faces without a patch went to '" +
                         opts.defaultPatch + "'");
  }

  // ---- geometry: positive volumes, closed cells (prep/geometry.hpp)
  {
    fv::log::Phase gp("cell geometry");
    r.geometry = compute_geometry(mesh, r.faces);
    verify_cell_geometry(mesh, r.geometry.cells, opts.closureTol);
  }
  for (const std::string& w : r.warnings)
    (void)w;
  return r;
}

} // namespace fv
