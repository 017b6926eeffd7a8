#include "common/version.hpp"
#include "formats/mesh_uuid.hpp"
#include "prep/zones.hpp"

namespace fv {

ZoneFileHeader make_zone_header(const Mesh& mesh, const GlobalMesh& g, int nZones) {
  ZoneFileHeader h;
  h.creator = std::string("fvkit ") + kVersion;
  h.sourceMesh = mesh.path;
  h.nZones = nZones;
  h.nGlobalCells = g.nCells();
  h.nGlobalFaces = g.nFaces();
  h.nGlobalNodes = g.nNodes();
  h.patches = g.patches;
  h.extrusion = mesh.extrusion;
  // Geometry + connectivity in the renumbered (global-id) order: the same for any partition,
  // and recomputable from the zones alone (fvprep check does).
  h.meshUuid = mesh_uuid(g.xyz, g.cellType, g.cellNodes);
  return h;
}

} // namespace fv
