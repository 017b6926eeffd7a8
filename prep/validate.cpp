#include "prep/validate.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/node_match.hpp"
#include "prep/mesh_ids.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fv {

namespace {

/// Name of the temporary patch that collects uncovered faces for node-set patches.
constexpr const char* kNodeSetScratchPatch = "\x01uncovered";

/// Gives the boundary faces that build_faces() put in the (user or temporary) default patch to
/// the node-set patch containing all their nodes (the set with the most such faces wins ties).
/// Faces left over are an error unless the user gave a default patch.
void assign_node_set_patches(const Mesh& mesh, FaceSet& fs, const std::string& userDefault,
                             std::vector<std::string>& warnings) {
  const std::string dname = userDefault.empty() ? kNodeSetScratchPatch : userDefault;
  idx_t d = kNone;
  for (std::size_t p = 0; p < fs.patches.size(); ++p)
    if (fs.patches[p].name == dname) d = static_cast<idx_t>(p);
  if (d == kNone) return; // every boundary face is covered already
  const std::size_t nsets = mesh.nodeSetPatches.size();
  // node -> sets containing it (CSR)
  const idx_t nn = mesh.nNodes();
  std::vector<idx_t> off(static_cast<std::size_t>(nn) + 1, 0);
  for (const auto& ns : mesh.nodeSetPatches)
    for (idx_t v : ns.nodes)
      ++off[static_cast<std::size_t>(v) + 1];
  for (idx_t i = 0; i < nn; ++i)
    off[i + 1] += off[i];
  std::vector<idx_t> sets(static_cast<std::size_t>(off[nn])), pos(off.begin(), off.end() - 1);
  for (std::size_t k = 0; k < nsets; ++k)
    for (idx_t v : mesh.nodeSetPatches[k].nodes)
      sets[pos[v]++] = static_cast<idx_t>(k);
  auto contains = [&](idx_t v, idx_t k) {
    return std::binary_search(sets.begin() + off[v], sets.begin() + off[v + 1], k);
  };
  auto for_candidates = [&](idx_t f, auto&& fn) {
    const idx_t* nodes = fs.faceNodes.row(f);
    const idx_t n = fs.faceNodes.size(f);
    for (idx_t s = off[nodes[0]]; s < off[nodes[0] + 1]; ++s) {
      bool all = true;
      for (idx_t k = 1; k < n && all; ++k)
        all = contains(nodes[k], sets[s]);
      if (all) fn(sets[s]);
    }
  };
  std::vector<std::int64_t> count(nsets, 0);
  for (idx_t f = 0; f < fs.nFaces(); ++f)
    if (fs.patch[f] == d && fs.bface[f] < 0) for_candidates(f, [&](idx_t k) { ++count[k]; });
  std::int64_t left = 0;
  idx_t firstLeft = kNone;
  for (idx_t f = 0; f < fs.nFaces(); ++f) {
    if (fs.patch[f] != d || fs.bface[f] >= 0) continue;
    idx_t best = kNone;
    for_candidates(f, [&](idx_t k) {
      if (best == kNone || count[k] > count[best]) best = k;
    });
    if (best != kNone) {
      fs.patch[f] = mesh.nodeSetPatches[best].patch;
    } else {
      if (firstLeft == kNone) firstLeft = f;
      ++left;
    }
  }
  for (std::size_t k = 0; k < nsets; ++k)
    if (count[k] == 0)
      warnings.push_back("patch '" + mesh.patches[mesh.nodeSetPatches[k].patch].name +
                         "' (a node set) contains no boundary face");
  if (left > 0 && userDefault.empty()) {
    std::ostringstream os;
    os << mesh_name(mesh) << ": " << left << " boundary faces are in no patch, e.g. the face of "
       << cell_label(mesh, fs.owner[firstLeft]) << " with nodes";
    for (idx_t k = 0; k < fs.faceNodes.size(firstLeft); ++k)
      os << " " << node_file_id(mesh, fs.faceNodes.row(firstLeft)[k]);
    os << " (use --default-patch NAME to collect such faces)";
    FV_THROW(os.str());
  }
  if (left == 0 && d == static_cast<idx_t>(fs.patches.size()) - 1 &&
      d >= static_cast<idx_t>(mesh.patches.size()))
    fs.patches.pop_back(); // the default patch is not needed after all
}

} // namespace

ValidationReport validate_mesh(const Mesh& mesh, const ValidateOptions& opts) {
  fv::log::Phase phase("validating mesh");
  ValidationReport r;
  r.warnings = mesh.warnings;
  const std::string name = mesh_name(mesh);
  validate_mesh_arrays(mesh);

  // ---- nodes: bounding box, dangling, duplicates
  const idx_t nn = mesh.nNodes();
  std::vector<char> used(static_cast<std::size_t>(nn), 0);
  {
    const idx_t* cn = mesh.cellNodes.indices().data();
    const std::int64_t nnz = mesh.cellNodes.nnz();
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < nnz; ++k)
      __atomic_store_n(&used[static_cast<std::size_t>(cn[k])], char(1), __ATOMIC_RELAXED);
  }
  idx_t firstNonFinite = nn, dangling = 0;
  real_t lo0 = 1e300, lo1 = 1e300, lo2 = 1e300, hi0 = -1e300, hi1 = -1e300, hi2 = -1e300;
#pragma omp parallel for schedule(static) reduction(min : firstNonFinite, lo0, lo1, lo2) \
    reduction(max : hi0, hi1, hi2) reduction(+ : dangling)
  for (idx_t i = 0; i < nn; ++i) {
    const real_t* x = &mesh.xyz[3 * static_cast<std::size_t>(i)];
    if (!(std::isfinite(x[0]) && std::isfinite(x[1]) && std::isfinite(x[2])))
      firstNonFinite = std::min(firstNonFinite, i);
    if (!used[i]) {
      ++dangling;
      continue;
    }
    lo0 = std::min(lo0, x[0]), lo1 = std::min(lo1, x[1]), lo2 = std::min(lo2, x[2]);
    hi0 = std::max(hi0, x[0]), hi1 = std::max(hi1, x[1]), hi2 = std::max(hi2, x[2]);
  }
  FV_VERIFY(firstNonFinite == nn, name << ": node " << node_file_id(mesh, firstNonFinite)
                                       << " has a non-finite coordinate");
  r.bboxMin = {lo0, lo1, lo2};
  r.bboxMax = {hi0, hi1, hi2};
  r.danglingNodes = dangling;
  if (r.danglingNodes > 0) {
    idx_t first = 0;
    while (used[first])
      ++first;
    std::ostringstream os;
    os << r.danglingNodes << " nodes are used by no cell (e.g. node " << node_file_id(mesh, first)
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
         << node_file_id(mesh, ids[pairs[0].first]) << " and "
         << node_file_id(mesh, ids[pairs[0].second]) << "): unmerged interface or crack?";
      r.warnings.push_back(os.str());
    }
  }

  // ---- faces: manifoldness, boundary faces, patches (prep/faces.hpp)
  FaceOptions fo;
  fo.defaultPatch = opts.defaultPatch;
  // node-set patches take uncovered boundary faces: collect them in a temporary default patch
  const bool nodeSets = !mesh.nodeSetPatches.empty();
  if (nodeSets && fo.defaultPatch.empty()) fo.defaultPatch = kNodeSetScratchPatch;
  try {
    fv::log::Phase fp("building faces");
    r.faces = build_faces(mesh, fo);
  } catch (const Error& e) {
    if (r.duplicateNodes > 0)
      FV_THROW(e.what() << " (the mesh has " << r.duplicateNodes << " duplicate nodes)");
    throw;
  }
  if (nodeSets) assign_node_set_patches(mesh, r.faces, opts.defaultPatch, r.warnings);
  if (!opts.defaultPatch.empty() && r.faces.patches.size() > mesh.patches.size()) {
    idx_t n = 0;
    for (idx_t p : r.faces.patch)
      if (p == static_cast<idx_t>(mesh.patches.size())) ++n;
    r.warnings.push_back(std::to_string(n) + " boundary faces without a patch went to '" +
                         opts.defaultPatch + "'");
  }

  // ---- geometry: positive volumes, closed cells (prep/geometry.hpp)
  if (opts.geometry) {
    fv::log::Phase gp("cell geometry");
    r.geometry = compute_geometry(mesh, r.faces);
    verify_cell_geometry(mesh, r.geometry.cells, opts.closureTol);
  }
  for (std::size_t i = mesh.warnings.size(); i < r.warnings.size(); ++i)
    FV_LOG_WARN(name << ": " << r.warnings[i]);
  return r;
}

} // namespace fv
