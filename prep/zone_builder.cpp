#include "prep/zone_builder.hpp"

#include "common/error.hpp"
#include "prep/colouring.hpp"
#include "prep/connectivity.hpp"
#include "prep/geometry.hpp"
#include "prep/global_mesh.hpp"
#include "prep/hyperplanes.hpp"
#include "prep/parallel_work.hpp"
#include "prep/rcm.hpp"
#include "prep/wavefront_order.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <tuple>

namespace fv {

namespace {

template <class T>
Array<T> to_array(std::vector<T>&& v) {
  return Array<T>(std::move(v));
}

// Per-neighbour lists from (neighbour part, global id, local id) entries sorted by (part, gid).
struct ListEntry {
  idx_t part;
  gidx_t gid;
  idx_t local;
  bool operator<(const ListEntry& o) const { return std::tie(part, gid) < std::tie(o.part, o.gid); }
};

// Rows of `entries` (sorted) aligned to `neighbours` (ascending parts).
Csr rows_by_part(const std::vector<ListEntry>& entries,
                 const std::vector<std::int32_t>& neighbours) {
  std::vector<idx_t> counts(neighbours.size(), 0);
  std::size_t r = 0;
  for (const ListEntry& e : entries) {
    while (neighbours[r] != e.part)
      ++r;
    ++counts[r];
  }
  Csr c = Csr::from_counts(counts);
  for (std::size_t k = 0; k < entries.size(); ++k)
    c.indices()[static_cast<idx_t>(k)] = entries[k].local;
  return c;
}

std::vector<std::int32_t> parts_of(const std::vector<ListEntry>& entries) {
  std::vector<std::int32_t> p;
  for (const ListEntry& e : entries)
    if (p.empty() || p.back() != e.part) p.push_back(e.part);
  return p;
}

/// Appends the zone's interior faces in Algorithm-2 order to faceG (global ids), owner and
/// neighbour (local cells): owned cell by owned cell (local ids 0..nOwned-1, global ids cellGid),
/// its faces to higher local cells (halo cells included), by that cell. Where threads pay off
/// (prep/parallel_work.hpp: the zone of a one-part prepare), counted per cell, then placed at
/// each cell's offset; otherwise (a zone of the many-zone pipeline) one pass. The same order
/// either way.
void append_interior_faces(const GlobalMesh& g, const gidx_t* cellGid, idx_t nOwned,
                           const LocalIds& cellLocal, std::vector<idx_t>& faceG,
                           std::vector<idx_t>& owner, std::vector<idx_t>& neighbour) {
  const auto upper_faces = [&](idx_t l, std::vector<std::pair<idx_t, idx_t>>& upper) {
    const idx_t gc = static_cast<idx_t>(cellGid[l]);
    upper.clear();
    for (idx_t k = g.cellFaces.begin(gc); k < g.cellFaces.end(gc); ++k) {
      const idx_t f = g.cellFaces.indices()[k];
      if (g.neighbour[f] == kNone) continue;
      const idx_t other = cellLocal.get(g.owner[f] == gc ? g.neighbour[f] : g.owner[f]);
      if (other > l) upper.emplace_back(other, f);
    }
    std::sort(upper.begin(), upper.end());
  };
  if (!threads_pay_off(nOwned)) {
    std::vector<std::pair<idx_t, idx_t>> upper;
    for (idx_t l = 0; l < nOwned; ++l) {
      upper_faces(l, upper);
      for (const auto& u : upper) {
        faceG.push_back(u.second);
        owner.push_back(l);
        neighbour.push_back(u.first);
      }
    }
    return;
  }
  const idx_t first = static_cast<idx_t>(faceG.size());
  std::vector<idx_t> upperOff(static_cast<std::size_t>(nOwned) + 1, 0);
#pragma omp parallel
  {
    std::vector<std::pair<idx_t, idx_t>> upper;
#pragma omp for schedule(static)
    for (idx_t l = 0; l < nOwned; ++l) {
      upper_faces(l, upper);
      upperOff[l + 1] = static_cast<idx_t>(upper.size());
    }
  }
  std::partial_sum(upperOff.begin(), upperOff.end(), upperOff.begin());
  const std::size_t n = static_cast<std::size_t>(first + upperOff[nOwned]);
  faceG.resize(n);
  owner.resize(n);
  neighbour.resize(n, kNone);
#pragma omp parallel
  {
    std::vector<std::pair<idx_t, idx_t>> upper;
#pragma omp for schedule(static)
    for (idx_t l = 0; l < nOwned; ++l) {
      upper_faces(l, upper);
      idx_t at = first + upperOff[l];
      for (const auto& u : upper) {
        faceG[at] = u.second;
        owner[at] = l;
        neighbour[at++] = u.first;
      }
    }
  }
}

/// The steps of build_one_zone, as ZoneStepTimes names them.
enum ZoneStep {
  kStepOrdering,
  kStepHalo,
  kStepCellData,
  kStepNodes,
  kStepFaces,
  kStepConnectivity,
  kStepNodeWeights,
  kStepFaceColours,
  kStepCellColours,
  kStepHyperplanes,
  kStepExchange,
  kStepBandwidth
};
static_assert(kStepBandwidth + 1 == ZoneStepTimes::kSteps, "one name per step");

/// Adds the time since its last lap to a step of `times`; time() times one task of its own
/// (tasks that run side by side write different steps).
class StepClock {
 public:
  explicit StepClock(ZoneStepTimes& times) : times_(times) {}
  void lap(ZoneStep step) {
    const auto now = std::chrono::steady_clock::now();
    times_.seconds[step] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  void restart() { last_ = std::chrono::steady_clock::now(); }
  template <class Fn>
  void time(ZoneStep step, Fn&& fn) const {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    times_.seconds[step] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  ZoneStepTimes& times_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// The zone's cell exchange lists: halo cells received by (zone, global id), owned cells sent
/// to each neighbouring zone (sendCells is sorted here).
void build_cell_exchange(int part, const std::vector<ListEntry>& halo,
                         std::vector<ListEntry>& sendCells, ExchangeLists& out) {
  std::sort(sendCells.begin(), sendCells.end());
  std::vector<std::int32_t> nb = parts_of(halo);
  FV_VERIFY(nb == parts_of(sendCells), "zone " << part << ": send and receive neighbours differ");
  out.recv = rows_by_part(halo, nb);
  out.send = rows_by_part(sendCells, nb);
  out.neighbours = to_array(std::move(nb));
}

/// The zone's node exchange lists: each of its nodes that cells of other zones share, listed
/// for each of those zones (the same list sent and received).
void build_node_exchange(const GlobalMesh& g, const std::vector<idx_t>& partOf, int part,
                         const std::vector<gidx_t>& nodeGid, ExchangeLists& out) {
  std::vector<ListEntry> shared;
  std::vector<idx_t> parts;
  const idx_t nNodes = static_cast<idx_t>(nodeGid.size());
  for (idx_t v = 0; v < nNodes; ++v) {
    const idx_t gv = static_cast<idx_t>(nodeGid[v]);
    parts.clear();
    for (idx_t k = g.nodeCells.begin(gv); k < g.nodeCells.end(gv); ++k) {
      const idx_t q = partOf[g.nodeCells.indices()[k]];
      if (q != part) parts.push_back(q);
    }
    std::sort(parts.begin(), parts.end());
    parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
    for (idx_t q : parts)
      shared.push_back({q, gv, v});
  }
  std::sort(shared.begin(), shared.end());
  std::vector<std::int32_t> nb = parts_of(shared);
  out.recv = rows_by_part(shared, nb);
  out.send = out.recv.clone();
  out.neighbours = to_array(std::move(nb));
}

} // namespace

Zone build_one_zone(const GlobalMesh& g, const std::vector<idx_t>& partOf, const idx_t* owned,
                    idx_t nOwned, int part, const PrepOptions& opts, ZoneScratch& s,
                    ZoneReport& rep) {
  Zone z;
  z.zoneId = part;
  StepClock clock(rep.steps);
  LocalIds& cellLocal = s.cellLocal;
  LocalIds& nodeLocal = s.nodeLocal;
  cellLocal.reset(static_cast<std::size_t>(nOwned) + static_cast<std::size_t>(nOwned) / 4);
  nodeLocal.reset(static_cast<std::size_t>(nOwned) / 2);

  // ---- owned cells: local RCM, interior first, then interface cells.
  for (idx_t i = 0; i < nOwned; ++i)
    cellLocal.set(owned[i], i);
  std::vector<idx_t> counts(static_cast<std::size_t>(nOwned), 0);
  std::vector<char> interface(static_cast<std::size_t>(nOwned), 0);
  for (idx_t i = 0; i < nOwned; ++i)
    for (idx_t k = g.cellCells.begin(owned[i]); k < g.cellCells.end(owned[i]); ++k) {
      const idx_t c = g.cellCells.indices()[k];
      if (partOf[c] == part)
        ++counts[i];
      else
        interface[i] = 1;
    }
  std::vector<idx_t> order(static_cast<std::size_t>(nOwned));
  std::iota(order.begin(), order.end(), 0);
  Csr adj = Csr::from_counts(counts);
  for (idx_t i = 0; i < nOwned; ++i) {
    idx_t* out = adj.row(i);
    for (idx_t k = g.cellCells.begin(owned[i]); k < g.cellCells.end(owned[i]); ++k) {
      const idx_t c = g.cellCells.indices()[k];
      if (partOf[c] == part) *out++ = cellLocal.get(c);
    }
  }
  // The LU-SGS sweep order: the cell order, or the wavefront order where that cuts the
  // hyperplanes by a quarter (131 -> 6 on a 64^3 hexahedral slab). The wavefront order is only
  // the sweep's: numbering the cells by it (colour by colour inside each level) measured the
  // explicit stage of such a zone slower (bench/results/zone_order_h100_20261124.md), so the
  // cells keep their RCM order and the hyperplanes follow the wavefront.
  std::vector<idx_t> sweep;
  if (opts.renumber == Renumber::Rcm) {
    order = rcm_order_towards(adj, interface);
    if (opts.wavefrontOrder) {
      std::vector<idx_t> wave = wavefront_order(adj, order, interface);
      if (4 * count_sweep_levels(adj, wave) < 3 * count_sweep_levels(adj, order))
        sweep = std::move(wave);
    }
  }
  if (opts.contiguousHyperplanes && !sweep.empty()) { // number the cells by the sweep after all
    order = std::move(sweep);
    sweep.clear();
  }
  std::stable_partition(order.begin(), order.end(), [&](idx_t i) { return !interface[i]; });
  std::stable_partition(sweep.begin(), sweep.end(), [&](idx_t i) { return !interface[i]; });
  idx_t nInterior = 0;
  for (idx_t i = 0; i < nOwned; ++i)
    nInterior += !interface[i];
  if (opts.contiguousHyperplanes) {
    // Sort each block (interior, interface) by hyperplane level. Every edge keeps its direction
    // (lower level -> higher level inside a block; interior -> interface across), so the
    // levels, i.e. the hyperplanes, are unchanged and each becomes at most two runs of ids.
    std::vector<idx_t> pos(static_cast<std::size_t>(nOwned)),
        level(static_cast<std::size_t>(nOwned));
    for (idx_t l = 0; l < nOwned; ++l)
      pos[order[l]] = l;
    for (idx_t l = 0; l < nOwned; ++l) {
      idx_t lv = 0;
      for (idx_t k = adj.begin(order[l]); k < adj.end(order[l]); ++k) {
        const idx_t j = adj.indices()[k];
        if (pos[j] < l) lv = std::max(lv, level[j] + 1);
      }
      level[order[l]] = lv;
    }
    auto byLevel = [&](idx_t a, idx_t b) { return level[a] < level[b]; };
    std::stable_sort(order.begin(), order.begin() + nInterior, byLevel);
    std::stable_sort(order.begin() + nInterior, order.end(), byLevel);
  }
  std::vector<gidx_t> cellGid(static_cast<std::size_t>(nOwned));
  for (idx_t l = 0; l < nOwned; ++l) {
    cellGid[l] = owned[order[l]];
    cellLocal.set(owned[order[l]], l);
  }
  clock.lap(kStepOrdering);

  // ---- halo cells: foreign face neighbours, by (zone, global id).
  std::vector<ListEntry> halo, sendCells;
  for (idx_t l = 0; l < nOwned; ++l) {
    const idx_t gc = static_cast<idx_t>(cellGid[l]);
    idx_t lastPart = kNone;
    std::size_t first = sendCells.size();
    for (idx_t k = g.cellCells.begin(gc); k < g.cellCells.end(gc); ++k) {
      const idx_t c = g.cellCells.indices()[k];
      const idx_t q = partOf[c];
      if (q == part) continue;
      halo.push_back({q, c, kNone});
      if (q != lastPart) {
        bool dup = false;
        for (std::size_t j = first; j < sendCells.size(); ++j)
          dup = dup || sendCells[j].part == q;
        if (!dup) sendCells.push_back({q, gc, l});
        lastPart = q;
      }
    }
  }
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end(),
                         [](const ListEntry& a, const ListEntry& b) { return a.gid == b.gid; }),
             halo.end());
  const idx_t nHalo = static_cast<idx_t>(halo.size());
  const idx_t nTotal = nOwned + nHalo;
  for (idx_t h = 0; h < nHalo; ++h) {
    halo[h].local = nOwned + h;
    cellLocal.set(static_cast<idx_t>(halo[h].gid), nOwned + h);
    cellGid.push_back(halo[h].gid);
  }
  clock.lap(kStepHalo);

  // ---- cell data (owned + halo)
  std::vector<std::int8_t> cellType(static_cast<std::size_t>(nTotal));
  std::vector<real_t> volume(static_cast<std::size_t>(nTotal)),
      centroid(3 * static_cast<std::size_t>(nTotal));
  std::vector<real_t> wallDistance(g.wallDistance.empty() ? 0 : static_cast<std::size_t>(nTotal));
#pragma omp parallel for schedule(static) if (threads_pay_off(nTotal))
  for (idx_t c = 0; c < nTotal; ++c) {
    const gidx_t gc = cellGid[c];
    cellType[c] = static_cast<std::int8_t>(g.cellType[gc]);
    volume[c] = g.cellGeom.volume[gc];
    for (int d = 0; d < 3; ++d)
      centroid[3 * c + d] = g.cellGeom.centroid[3 * gc + d];
    if (!wallDistance.empty()) wallDistance[c] = g.wallDistance[gc];
  }
  clock.lap(kStepCellData);

  // ---- nodes of owned cells, by first touch
  std::vector<gidx_t> nodeGid;
  counts.assign(static_cast<std::size_t>(nOwned), 0);
  for (idx_t l = 0; l < nOwned; ++l) {
    const idx_t gc = static_cast<idx_t>(cellGid[l]);
    counts[l] = g.cellNodes.size(gc);
    for (idx_t k = g.cellNodes.begin(gc); k < g.cellNodes.end(gc); ++k) {
      const idx_t v = g.cellNodes.indices()[k];
      if (nodeLocal.get(v) == kNone) {
        nodeLocal.set(v, static_cast<idx_t>(nodeGid.size()));
        nodeGid.push_back(v);
      }
    }
  }
  const idx_t nNodes = static_cast<idx_t>(nodeGid.size());
  z.cellNodes = Csr::from_counts(counts);
#pragma omp parallel for schedule(static) if (threads_pay_off(nOwned))
  for (idx_t l = 0; l < nOwned; ++l) {
    const idx_t gc = static_cast<idx_t>(cellGid[l]);
    idx_t* out = z.cellNodes.row(l);
    for (idx_t k = g.cellNodes.begin(gc); k < g.cellNodes.end(gc); ++k)
      *out++ = nodeLocal.get(g.cellNodes.indices()[k]);
  }
  std::vector<real_t> nodeXyz(3 * static_cast<std::size_t>(nNodes));
#pragma omp parallel for schedule(static) if (threads_pay_off(nNodes))
  for (idx_t v = 0; v < nNodes; ++v)
    for (int d = 0; d < 3; ++d)
      nodeXyz[3 * v + d] = g.xyz[3 * nodeGid[v] + d];
  clock.lap(kStepNodes);

  // ---- faces: boundary by patch then local owner; interior in Algorithm-2 order
  const idx_t nPatches = static_cast<idx_t>(g.patches.size());
  std::vector<idx_t> patchOff(static_cast<std::size_t>(nPatches) + 1, 0);
  for (idx_t l = 0; l < nOwned; ++l) {
    const idx_t gc = static_cast<idx_t>(cellGid[l]);
    for (idx_t k = g.cellFaces.begin(gc); k < g.cellFaces.end(gc); ++k) {
      const idx_t f = g.cellFaces.indices()[k];
      if (g.neighbour[f] == kNone) ++patchOff[g.facePatch[f] + 1];
    }
  }
  for (idx_t p = 0; p < nPatches; ++p)
    patchOff[p + 1] += patchOff[p];
  const idx_t nBoundary = patchOff[nPatches];
  std::vector<idx_t> faceG(static_cast<std::size_t>(nBoundary));
  {
    std::vector<idx_t> fill(patchOff.begin(), patchOff.end() - 1);
    for (idx_t l = 0; l < nOwned; ++l) {
      const idx_t gc = static_cast<idx_t>(cellGid[l]);
      for (idx_t k = g.cellFaces.begin(gc); k < g.cellFaces.end(gc); ++k) {
        const idx_t f = g.cellFaces.indices()[k];
        if (g.neighbour[f] == kNone) faceG[fill[g.facePatch[f]]++] = f;
      }
    }
  }
  std::vector<idx_t> owner(faceG.size()), neighbour(faceG.size(), kNone);
  for (idx_t f = 0; f < nBoundary; ++f)
    owner[f] = cellLocal.get(g.owner[faceG[f]]);
  append_interior_faces(g, cellGid.data(), nOwned, cellLocal, faceG, owner, neighbour);
  const idx_t nFaces = static_cast<idx_t>(faceG.size());
  counts.assign(static_cast<std::size_t>(nFaces), 0);
  for (idx_t f = 0; f < nFaces; ++f)
    counts[f] = g.faceNodes.size(faceG[f]);
  z.faceNodes = Csr::from_counts(counts);
  std::vector<gidx_t> faceGid(static_cast<std::size_t>(nFaces));
  std::vector<real_t> area(3 * static_cast<std::size_t>(nFaces)),
      fcen(3 * static_cast<std::size_t>(nFaces));
  // each face on its own (lookups, geometry): on every thread where the zone is the only one
#pragma omp parallel for schedule(static) if (threads_pay_off(nFaces))
  for (idx_t f = 0; f < nFaces; ++f) {
    const idx_t gf = faceG[f];
    faceGid[f] = gf;
    // The global owner may be the local neighbour: flip node loop and area vector.
    const bool flip = cellLocal.get(g.owner[gf]) != owner[f];
    const idx_t len = z.faceNodes.size(f);
    const idx_t* in = g.faceNodes.row(gf);
    idx_t* out = z.faceNodes.row(f);
    for (idx_t k = 0; k < len; ++k)
      out[k] = nodeLocal.get(in[flip ? len - 1 - k : k]);
    // The geometry of the global face (global orientation), as every other zone computes it.
    face_geometry(g.xyz.data(), in, len, &area[3 * f], &fcen[3 * f]);
    if (flip)
      for (int d = 0; d < 3; ++d)
        area[3 * f + d] = -area[3 * f + d];
  }

  clock.lap(kStepFaces);

  // ---- connectivity
  std::vector<std::int8_t> sign;
  build_cell_faces(nOwned, owner, neighbour, z.cellFaces, sign);
  z.cellCells = build_cell_cells(z.cellFaces, owner, neighbour);
  z.nodeFaces = z.faceNodes.transpose(nNodes);
  z.nodeCells = z.cellNodes.transpose(nNodes);
  clock.lap(kStepConnectivity);
  // Each node's weights over all its cells (those of other zones too), kept for the zone's cells.
  const NodeRowWeights rows = node_row_weights(g, nodeGid.data(), nNodes);
  std::vector<real_t> weight(static_cast<std::size_t>(z.nodeCells.nnz()));
  std::vector<real_t> weightLinear(static_cast<std::size_t>(z.nodeCells.nnz()));
  idx_t missing = nNodes; // the first node whose global row misses one of its zone cells
#pragma omp parallel for schedule(static) reduction(min : missing) if (threads_pay_off(nNodes))
  for (idx_t v = 0; v < nNodes; ++v) {
    const idx_t* gb = rows.rows.row(v);
    const idx_t* ge = gb + rows.rows.size(v);
    for (idx_t k = z.nodeCells.begin(v); k < z.nodeCells.end(v); ++k) {
      const idx_t gc = static_cast<idx_t>(cellGid[z.nodeCells.indices()[k]]);
      const idx_t* it = std::lower_bound(gb, ge, gc);
      if (it == ge || *it != gc) {
        missing = std::min(missing, v);
        break;
      }
      const idx_t gk = rows.rows.begin(v) + static_cast<idx_t>(it - gb);
      weight[k] = rows.inverseDistance[gk];
      weightLinear[k] = rows.linear[gk];
    }
  }
  FV_VERIFY(missing == nNodes, "zone " << part << ": node " << nodeGid[missing]
                                       << " misses one of its cells in the global node-cell rows");
  clock.lap(kStepNodeWeights);

  // ---- orderings, exchange lists and the bandwidth: independent of each other, so the only
  // zone of a prepare runs them side by side (each task's result is the same either way)
  rep.bandwidth = Bandwidth{};
  run_concurrently(nFaces, {
                               [&] {
                                 clock.time(kStepFaceColours, [&] {
                                   z.faceColours = colour_faces(nTotal, owner, neighbour);
                                 });
                               },
                               [&] {
                                 clock.time(kStepCellColours, [&] {
                                   z.cellColours = colour_cells(z.cellCells, nOwned);
                                 });
                               },
                               [&] {
                                 clock.time(kStepHyperplanes, [&] {
                                   if (sweep.empty()) {
                                     z.hyperplanes = lusgs_hyperplanes(z.cellCells, nOwned);
                                   } else {
                                     for (idx_t& c : sweep) // pre-numbering index -> local cell id
                                       c = cellLocal.get(owned[c]);
                                     z.hyperplanes = lusgs_hyperplanes(z.cellCells, nOwned, sweep);
                                   }
                                 });
                               },
                               [&] {
                                 clock.time(kStepExchange, [&] {
                                   build_cell_exchange(part, halo, sendCells, z.cellExchange);
                                   build_node_exchange(g, partOf, part, nodeGid, z.nodeExchange);
                                 });
                               },
                               [&] {
                                 clock.time(kStepBandwidth, [&] {
                                   rep.bandwidth = adjacency_bandwidth(z.cellCells, nOwned);
                                 });
                               },
                           });
  clock.restart();

  // ---- report
  rep.nCells = nOwned;
  rep.nInteriorCells = nInterior;
  rep.nHaloCells = nHalo;
  rep.nFaces = nFaces;
  rep.nBoundaryFaces = nBoundary;
  rep.nNodes = nNodes;
  rep.nCellNeighbours = static_cast<int>(z.cellExchange.neighbours.size());
  rep.nNodeNeighbours = static_cast<int>(z.nodeExchange.neighbours.size());
  rep.faceColours = group_stats(z.faceColours);
  rep.cellColours = group_stats(z.cellColours);
  rep.hyperplanes = group_stats(z.hyperplanes);

  // ---- move into the zone
  z.nCells = nOwned;
  z.nInteriorCells = nInterior;
  z.nHaloCells = nHalo;
  z.nFaces = nFaces;
  z.nBoundaryFaces = nBoundary;
  z.nNodes = nNodes;
  z.patchFaceOffsets = to_array(std::move(patchOff));
  z.cellGlobalId = to_array(std::move(cellGid));
  z.cellType = to_array(std::move(cellType));
  z.cellVolume = to_array(std::move(volume));
  z.cellCentroid = to_array(std::move(centroid));
  z.cellWallDistance = to_array(std::move(wallDistance));
  z.faceGlobalId = to_array(std::move(faceGid));
  z.faceOwner = to_array(std::move(owner));
  z.faceNeighbour = to_array(std::move(neighbour));
  z.faceArea = to_array(std::move(area));
  z.faceCentroid = to_array(std::move(fcen));
  z.nodeGlobalId = to_array(std::move(nodeGid));
  z.nodeXyz = to_array(std::move(nodeXyz));
  z.cellFaceSign = to_array(std::move(sign));
  z.nodeCellWeight = to_array(std::move(weight));
  z.nodeCellWeightLinear = to_array(std::move(weightLinear));
  derive_zone_arrays(z); // the face offsets, as the zone-file reader derives them
  return z;
}

} // namespace fv
