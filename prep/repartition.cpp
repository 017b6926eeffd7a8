#include "prep/repartition.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/concurrent_partition.hpp"
#include "prep/connectivity.hpp"
#include "prep/prepare.hpp"
#include "prep/stored_options.hpp"
#include "prep/zones.hpp"

#include <numeric>
#include <sstream>
#include <vector>

namespace fv {

namespace {

/// Marks entity `id` of kind `what` as seen once; throws when it lies outside [0, n) (a
/// zone file whose global ids do not fit its header).
void claim(std::vector<char>& seen, gidx_t id, const char* what, const ZoneFile& f, int zone) {
  FV_VERIFY(id >= 0 && id < static_cast<gidx_t>(seen.size()),
            f.path() << ": zone " << zone << ": global " << what << " id " << id << " outside [0, "
                     << seen.size() << ")");
  seen[static_cast<std::size_t>(id)] = 1;
}

void verify_all_seen(const std::vector<char>& seen, const char* what, const ZoneFile& f) {
  const auto missing = std::count(seen.begin(), seen.end(), 0);
  FV_VERIFY(missing == 0, f.path() << ": " << missing << " of " << seen.size() << " global " << what
                                   << " belong to no zone");
}

/// Cells: type, element nodes (global ids), volume, centroid and wall distance.
void gather_cells(const ZoneFile& f, const std::vector<Zone>& zones, GlobalMesh& g) {
  const auto nc = static_cast<std::size_t>(f.header().nGlobalCells);
  std::vector<char> seen(nc, 0);
  g.cellType.assign(nc, CellType::Tet);
  g.cellGeom.volume.assign(nc, 0.0);
  g.cellGeom.centroid.assign(3 * nc, 0.0);
  g.cellGeom.closure.assign(nc, 0.0);
  const bool walls = !zones.empty() && !zones[0].cellWallDistance.empty();
  if (walls) g.wallDistance.assign(nc, 0.0);
  std::vector<idx_t> counts(nc, 0);
  for (const Zone& z : zones)
    for (idx_t c = 0; c < z.nCells; ++c) {
      const gidx_t gc = z.cellGlobalId[c];
      claim(seen, gc, "cell", f, z.zoneId);
      g.cellType[gc] = static_cast<CellType>(z.cellType[c]);
      counts[gc] = z.cellNodes.size(c);
      g.cellGeom.volume[gc] = z.cellVolume[c];
      for (int d = 0; d < 3; ++d)
        g.cellGeom.centroid[3 * gc + d] = z.cellCentroid[3 * c + d];
      if (walls) g.wallDistance[gc] = z.cellWallDistance[c];
    }
  verify_all_seen(seen, "cells", f);
  g.cellNodes = Csr::from_counts(counts);
  for (const Zone& z : zones)
    for (idx_t c = 0; c < z.nCells; ++c) {
      idx_t* out = g.cellNodes.row(static_cast<idx_t>(z.cellGlobalId[c]));
      for (idx_t k = 0; k < z.cellNodes.size(c); ++k)
        out[k] = static_cast<idx_t>(z.nodeGlobalId[z.cellNodes.row(c)[k]]);
    }
}

/// Faces in the global orientation (owner = the lower global cell id): a zone stores a face
/// whose global owner is its local neighbour with the node loop and area vector reversed.
void gather_faces(const ZoneFile& f, const std::vector<Zone>& zones, GlobalMesh& g) {
  const auto nf = static_cast<std::size_t>(f.header().nGlobalFaces);
  const auto np = f.header().patches.size();
  std::vector<char> seen(nf, 0);
  g.owner.assign(nf, kNone);
  g.neighbour.assign(nf, kNone);
  g.facePatch.assign(nf, -1);
  g.faceBface.assign(nf, -1);
  g.patchFaceOffsets.assign(np + 1, 0);
  std::vector<idx_t> counts(nf, 0);
  for (const Zone& z : zones) {
    FV_VERIFY(static_cast<std::size_t>(z.nPatches()) == np,
              f.path() << ": zone " << z.zoneId << " has " << z.nPatches() << " patches, the file "
                       << np);
    for (std::size_t p = 0; p < np; ++p)
      g.patchFaceOffsets[p + 1] += z.patchFaceOffsets[p + 1] - z.patchFaceOffsets[p];
    std::size_t patch = 0;
    for (idx_t lf = 0; lf < z.nFaces; ++lf) {
      const gidx_t gf = z.faceGlobalId[lf];
      claim(seen, gf, "face", f, z.zoneId);
      const idx_t o = static_cast<idx_t>(z.cellGlobalId[z.faceOwner[lf]]);
      const idx_t ln = z.faceNeighbour[lf];
      const idx_t n = ln == kNone ? kNone : static_cast<idx_t>(z.cellGlobalId[ln]);
      const bool flip = n != kNone && n < o;
      g.owner[gf] = flip ? n : o;
      g.neighbour[gf] = flip ? o : n;
      if (lf < z.nBoundaryFaces) {
        while (patch + 1 < np && lf >= z.patchFaceOffsets[patch + 1])
          ++patch;
        g.facePatch[gf] = static_cast<idx_t>(patch);
      }
      counts[gf] = z.faceNodes.size(lf);
    }
  }
  verify_all_seen(seen, "faces", f);
  std::partial_sum(g.patchFaceOffsets.begin(), g.patchFaceOffsets.end(),
                   g.patchFaceOffsets.begin());
  g.faceNodes = Csr::from_counts(counts);
  for (const Zone& z : zones)
    for (idx_t lf = 0; lf < z.nFaces; ++lf) {
      const idx_t gf = static_cast<idx_t>(z.faceGlobalId[lf]);
      const idx_t len = z.faceNodes.size(lf);
      const bool flip = g.owner[gf] != static_cast<idx_t>(z.cellGlobalId[z.faceOwner[lf]]);
      const idx_t* in = z.faceNodes.row(lf);
      idx_t* out = g.faceNodes.row(gf);
      for (idx_t k = 0; k < len; ++k)
        out[k] = static_cast<idx_t>(z.nodeGlobalId[in[flip ? len - 1 - k : k]]);
    }
}

/// Node coordinates.
void gather_nodes(const ZoneFile& f, const std::vector<Zone>& zones, GlobalMesh& g) {
  const auto nn = static_cast<std::size_t>(f.header().nGlobalNodes);
  std::vector<char> seen(nn, 0);
  g.xyz.assign(3 * nn, 0.0);
  for (const Zone& z : zones)
    for (idx_t v = 0; v < z.nNodes; ++v) {
      const gidx_t gv = z.nodeGlobalId[v];
      claim(seen, gv, "node", f, z.zoneId);
      for (int d = 0; d < 3; ++d)
        g.xyz[3 * gv + d] = z.nodeXyz[3 * v + d];
    }
  verify_all_seen(seen, "nodes", f);
  g.nodeMesh.resize(nn);
  std::iota(g.nodeMesh.begin(), g.nodeMesh.end(), 0);
}

} // namespace

GlobalMesh global_mesh_from_zones(const ZoneFile& file, PrepReport* report) {
  GlobalMesh g;
  std::vector<Zone> zones;
  run_phase(report, "reading zones", [&] {
    for (int z = 0; z < file.nZones(); ++z)
      zones.push_back(map_zone(file, z));
  });
  run_phase(report, "reassembling the global mesh", [&] {
    g.patches = file.header().patches;
    g.extrusion = file.header().extrusion;
    gather_cells(file, zones, g);
    gather_faces(file, zones, g);
    gather_nodes(file, zones, g);
    g.cellMesh.resize(g.cellType.size());
    std::iota(g.cellMesh.begin(), g.cellMesh.end(), 0);
  });
  zones.clear();
  run_phase(report, "building connectivity", [&] {
    build_cell_faces(g.nCells(), g.owner, g.neighbour, g.cellFaces, g.cellFaceSign);
    g.cellCells = build_cell_cells(g.cellFaces, g.owner, g.neighbour);
    g.nodeCells = g.cellNodes.transpose(g.nNodes());
  });
  if (report) {
    report->nCells = g.nCells();
    report->nFaces = g.nFaces();
    report->nBoundaryFaces = g.nBoundaryFaces();
    report->nNodes = g.nNodes();
  }
  return g;
}

RepartitionSummary add_partitioning(const std::string& path, int parts,
                                    const PartitionOptions& options,
                                    const std::string& commandLine) {
  RepartitionSummary out;
  const ZoneFile file = open_zone_file(path);
  verify_no_partitioning(file, parts); // before the work, not only when writing
  const GlobalMesh g = global_mesh_from_zones(file, &out.report);
  // METIS on its own thread while the file is copied to its temporary (the writer's start)
  ConcurrentPartition metis(parts, options, "the copy of the zone file");
  metis.start(g.cellCells);
  PrepareOptions po;
  po.prep = prep_options_of(file.header(), path);
  po.parts = parts;
  po.partition = options;
  PartitioningHeader added;
  added.nZones = parts;
  added.commandLine = commandLine;
  added.options = describe_prepare_options(po);
  ZoneFileWriter writer(path, added);
  const std::vector<idx_t> part = metis.finish(&out.partition, &out.report);
  build_zones_streamed(g, part, parts, po.prep, stream_into(writer), &out.report);
  run_phase(&out.report, "writing", [&] { writer.commit(); });
  out.dataBytes = writer.data_bytes();
  return out;
}

} // namespace fv
