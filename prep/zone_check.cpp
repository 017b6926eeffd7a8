#include "prep/zone_check.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/mesh_uuid.hpp"
#include "formats/zone_file_reader.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <vector>

namespace fv {

namespace {

#define ZC_FAIL(zone, msg)                                                                         \
  do {                                                                                             \
    std::ostringstream zc_oss_;                                                                    \
    zc_oss_ << msg;                                                                                \
    report(zone, zc_oss_.str());                                                                   \
  } while (0)

real_t norm3(const real_t* v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

class Checker {
 public:
  Checker(const std::string& path, const ZoneCheckOptions& o, std::ostream& out)
      : path_(path), opt_(o), out_(out) {}

  int run() {
    try {
      file_ = std::make_unique<ZoneFile>(open_zone_file(path_, opt_.parts));
    } catch (const Error& e) {
      report(-1, e.what(), /*prefixed=*/true);
      return finish();
    }
    const ZoneFileHeader& h = file_->header();
    if (h.nGlobalCells < 0 || h.nGlobalNodes < 0 || h.nGlobalFaces < 0) {
      ZC_FAIL(-1, "negative global counts in the header");
      return finish();
    }
    zones_.resize(static_cast<std::size_t>(h.nZones));
    ok_.assign(static_cast<std::size_t>(h.nZones), false);

    // Pass 1: map every zone, check its structure and contents.
    gidx_t sumCells = 0, sumFaces = 0, sumNodes = 0;
    {
      log::Progress bar("checking zones", h.nZones);
      for (int z = 0; z < h.nZones; ++z) {
        bar.update(z);
        try {
          zones_[static_cast<std::size_t>(z)] =
              map_zone(*file_, z, MapOptions{opt_.verifyChecksums});
        } catch (const Error& e) {
          report(z, e.what(), true);
          continue;
        }
        const Zone& zone = zones_[static_cast<std::size_t>(z)];
        if (!check_sizes(zone)) continue;
        ok_[static_cast<std::size_t>(z)] = true;
        sumCells += zone.nCells;
        sumFaces += zone.nFaces;
        sumNodes += zone.nNodes;
        check_local(zone);
      }
    }
    // Pass 2: gather owned cells and nodes by global id (sized by the header, so only once
    // the header's totals agree with the zones: a corrupt count must not allocate terabytes).
    globalOk_ = std::find(ok_.begin(), ok_.end(), false) == ok_.end();
    if (globalOk_ && sumCells != h.nGlobalCells) {
      ZC_FAIL(-1, "the zones own " << sumCells << " cells but the header says nGlobalCells = "
                                   << h.nGlobalCells);
      globalOk_ = false;
    }
    if (globalOk_ && (h.nGlobalNodes > sumNodes || h.nGlobalFaces > sumFaces)) {
      ZC_FAIL(-1, "the header says " << h.nGlobalNodes << " nodes and " << h.nGlobalFaces
                                     << " faces but the zones hold only " << sumNodes << " and "
                                     << sumFaces);
      globalOk_ = false;
    }
    if (globalOk_) {
      ownerZone_.assign(static_cast<std::size_t>(h.nGlobalCells), -1);
      ownerLocal_.assign(static_cast<std::size_t>(h.nGlobalCells), -1);
      nodeXyz_.assign(3 * static_cast<std::size_t>(h.nGlobalNodes), 0.0);
      nodeZones_.assign(static_cast<std::size_t>(h.nGlobalNodes), 0);
      nodeWeight_.assign(static_cast<std::size_t>(h.nGlobalNodes), 0.0);
      nodeWeightLinear_.assign(static_cast<std::size_t>(h.nGlobalNodes), 0.0);
      for (const Zone& zone : zones_)
        gather(zone);
    }
    check_global_cells();
    for (int z = 0; z < h.nZones; ++z)
      if (ok_[static_cast<std::size_t>(z)])
        check_halo_and_exchange(zones_[static_cast<std::size_t>(z)]);
    check_nodes();
    check_uuid();
    return finish();
  }

 private:
  void report(int zone, const std::string& msg, bool prefixed = false) {
    ++problems_;
    if (problems_ > opt_.maxMessages) return;
    out_ << "error: ";
    if (!prefixed) {
      out_ << path_ << ": ";
      if (zone >= 0) out_ << "zone " << zone << ": ";
    }
    out_ << msg << "\n";
  }

  int finish() {
    if (problems_ > opt_.maxMessages)
      out_ << "... and " << problems_ - opt_.maxMessages << " more problems\n";
    if (problems_ == 0) {
      const ZoneFileHeader& h = file_->header();
      out_ << path_ << ": OK (" << h.nZones << " zones, " << h.nGlobalCells << " cells, "
           << h.nGlobalFaces << " faces, " << h.nGlobalNodes << " nodes; format version "
           << h.formatVersion << (opt_.verifyChecksums ? ", checksums verified" : "")
           << (!zones_.empty() && !zones_[0].cellWallDistance.empty() ? "; wall distance stored"
                                                                      : "; no wall distance")
           << (h.extrusion.extruded() ? "; " + describe(h.extrusion) : std::string()) << ")\n";
      return 0;
    }
    out_ << path_ << ": FAILED with " << problems_ << " problem" << (problems_ == 1 ? "" : "s")
         << "\n";
    return 1;
  }

  // ---------------------------------------------------------------- per-zone structure
  bool size_is(const Zone& z, const char* name, std::size_t got, std::size_t expected) {
    if (got == expected) return true;
    ZC_FAIL(z.zoneId, name << " has " << got << " entries, expected " << expected);
    return false;
  }
  bool csr_is(const Zone& z, const char* name, const Csr& c, idx_t rows, idx_t cols) {
    try {
      c.check(name, cols);
    } catch (const Error& e) {
      ZC_FAIL(z.zoneId, e.what());
      return false;
    }
    if (c.rows() == rows) return true;
    ZC_FAIL(z.zoneId, name << " has " << c.rows() << " rows, expected " << rows);
    return false;
  }
  /// The indices of `c` are a permutation of [0, n) (groups of an ordering).
  bool permutation_is(const Zone& z, const char* name, const Csr& c, idx_t n) {
    if (!csr_is(z, name, c, c.rows(), n)) return false;
    if (c.nnz() != n) {
      ZC_FAIL(z.zoneId, name << " orders " << c.nnz() << " entities, expected " << n);
      return false;
    }
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    for (idx_t v : c.indices()) {
      if (seen[v]) {
        ZC_FAIL(z.zoneId, name << " lists entity " << v << " twice");
        return false;
      }
      seen[v] = 1;
    }
    return true;
  }

  /// Visitor of visit_zone_arrays() that checks each array's size, and each CSR relation's
  /// rows and index range (or, for orderings, that it is a permutation), against the counts
  /// through the schema's entity and components.
  struct SizeChecker {
    Checker& ck;
    const Zone& z;
    std::int64_t nPatches; ///< patches of the file (header)
    bool ok = true;
    std::int64_t count(Entity e) const { return entity_count(z, e, nPatches); }
    template <class T>
    void array(const ArrayInfo& info, const Array<T>& a) {
      ok &= ck.size_is(z, info.name, a.size(),
                       static_cast<std::size_t>(expected_size(z, info, nPatches)));
    }
    template <class T>
    void optional_array(const ArrayInfo& info, const Array<T>& a) {
      if (a.empty()) return; // absent: the zone has none (or the file predates the array)
      array(info, a);
    }
    void csr(const CsrInfo& info, const Csr& c) {
      const auto cols = static_cast<idx_t>(count(info.columns));
      ok &= info.rows == Entity::Groups
                ? ck.permutation_is(z, info.name, c, cols)
                : ck.csr_is(z, info.name, c, static_cast<idx_t>(count(info.rows)), cols);
    }
  };

  bool check_sizes(const Zone& z) {
    const ZoneFileHeader& h = file_->header();
    bool ok = true;
    if (z.nCells < 1 || z.nInteriorCells < 0 || z.nInteriorCells > z.nCells || z.nHaloCells < 0 ||
        z.nFaces < 0 || z.nBoundaryFaces < 0 || z.nBoundaryFaces > z.nFaces || z.nNodes < 0) {
      ZC_FAIL(z.zoneId, "inconsistent counts: nCells "
                            << z.nCells << ", nInteriorCells " << z.nInteriorCells
                            << ", nHaloCells " << z.nHaloCells << ", nFaces " << z.nFaces
                            << ", nBoundaryFaces " << z.nBoundaryFaces << ", nNodes " << z.nNodes);
      return false;
    }
    // Every array of the schema (visit_zone_arrays()), sized by its entity and components: an
    // array added to the schema is checked without a rule here.
    SizeChecker sc{*this, z, static_cast<std::int64_t>(h.patches.size())};
    visit_zone_arrays(z, sc);
    ok &= sc.ok;

    for (const auto* ex : {&z.cellExchange, &z.nodeExchange}) {
      const bool cells = ex == &z.cellExchange;
      const char* what = cells ? "exchange/cells" : "exchange/nodes";
      const auto nb = static_cast<idx_t>(ex->neighbours.size());
      for (idx_t k = 0; k < nb; ++k) {
        const std::int32_t q = ex->neighbours[k];
        if (q < 0 || q >= h.nZones || q == z.zoneId || (k > 0 && q <= ex->neighbours[k - 1])) {
          ZC_FAIL(z.zoneId, what << "/neighbours: entry " << k << " = " << q
                                 << " is not an ascending id of another zone in [0, " << h.nZones
                                 << ")");
          ok = false;
        }
      }
    }
    if (ok) {
      const Array<idx_t>& po = z.patchFaceOffsets;
      bool mono = po[0] == 0 && po[po.size() - 1] == z.nBoundaryFaces;
      for (std::size_t p = 0; p + 1 < po.size(); ++p)
        mono = mono && po[p] <= po[p + 1];
      if (!mono) {
        ZC_FAIL(z.zoneId, "patchFaceOffsets do not split boundary faces [0, " << z.nBoundaryFaces
                                                                              << ") into patches");
        ok = false;
      }
    }
    return ok;
  }

  // ---------------------------------------------------------------- per-zone contents
  void check_local(const Zone& z) {
    const ZoneFileHeader& h = file_->header();
    const idx_t nC = z.nCells, nT = z.nTotalCells();
    const int id = z.zoneId;
    for (idx_t c = 0; c < nT; ++c) {
      if (z.cellGlobalId[c] < 0 || z.cellGlobalId[c] >= h.nGlobalCells)
        ZC_FAIL(id, "cell " << c << ": global id " << z.cellGlobalId[c] << " outside [0, "
                            << h.nGlobalCells << ")");
      if (!(z.cellVolume[c] > 0))
        ZC_FAIL(id, "cell " << c << " (global " << z.cellGlobalId[c] << "): volume "
                            << z.cellVolume[c] << " is not positive");
      if (!is_cell_type(z.cellType[c]))
        ZC_FAIL(id, "cell " << c << ": unknown cell type " << int(z.cellType[c]));
    }
    for (idx_t n = 0; n < z.nNodes; ++n)
      if (z.nodeGlobalId[n] < 0 || z.nodeGlobalId[n] >= h.nGlobalNodes)
        ZC_FAIL(id, "node " << n << ": global id " << z.nodeGlobalId[n] << " outside [0, "
                            << h.nGlobalNodes << ")");

    // faces: ownership rules (the face offsets are derived from the centroids on reading:
    // derive_zone_arrays(), nothing to compare)
    for (idx_t f = 0; f < z.nFaces; ++f) {
      const idx_t o = z.faceOwner[f], n = z.faceNeighbour[f];
      if (z.faceGlobalId[f] < 0 || z.faceGlobalId[f] >= h.nGlobalFaces)
        ZC_FAIL(id, "face " << f << ": global id " << z.faceGlobalId[f] << " outside [0, "
                            << h.nGlobalFaces << ")");
      if (o < 0 || o >= nC) {
        ZC_FAIL(id, "face " << f << ": owner " << o << " is not an owned cell [0, " << nC << ")");
        continue;
      }
      if (f < z.nBoundaryFaces) {
        if (n != kNone)
          ZC_FAIL(id, "boundary face " << f << " has neighbour " << n << " (expected none)");
      } else if (n == kNone || n <= o || n >= nT) {
        ZC_FAIL(id, "interior face " << f << ": owner " << o << ", neighbour " << n
                                     << " (need owner < neighbour < " << nT << ")");
        continue;
      }
      if (!(norm3(&z.faceArea[3 * f]) > 0)) ZC_FAIL(id, "face " << f << " has zero area");
    }

    // cells: faces, signs, closure, neighbours, interior/interface split
    std::vector<idx_t> expectNbrs, gotNbrs;
    for (idx_t c = 0; c < nC; ++c) {
      real_t sum[3] = {0, 0, 0}, mag = 0;
      expectNbrs.clear();
      bool rowOk = true;
      for (idx_t k = z.cellFaces.begin(c); k < z.cellFaces.end(c); ++k) {
        const idx_t f = z.cellFaces.indices()[k];
        if (k > z.cellFaces.begin(c) && f <= z.cellFaces.indices()[k - 1]) {
          ZC_FAIL(id, "cell " << c << ": cellFaces row is not ascending");
          rowOk = false;
        }
        const idx_t o = z.faceOwner[f], n = z.faceNeighbour[f];
        const int expect = o == c ? 1 : (n == c ? -1 : 0);
        if (expect == 0 || z.cellFaceSign[k] != expect) {
          ZC_FAIL(id, "cell " << c << ": face " << f << " (owner " << o << ", neighbour " << n
                              << ") has sign " << int(z.cellFaceSign[k]));
          rowOk = false;
          continue;
        }
        for (int d = 0; d < 3; ++d)
          sum[d] += expect * z.faceArea[3 * f + d];
        mag += norm3(&z.faceArea[3 * f]);
        if (o == c && n != kNone) expectNbrs.push_back(n);
        if (n == c) expectNbrs.push_back(o);
      }
      if (!rowOk) continue;
      if (norm3(sum) > std::max<real_t>(1e3 * opt_.tolerance, 1e-12) * mag)
        ZC_FAIL(id, "cell " << c << " (global " << z.cellGlobalId[c]
                            << ") is not closed: |sum of outward face areas| = " << norm3(sum)
                            << " for a total face area " << mag);
      gotNbrs.assign(z.cellCells.row(c), z.cellCells.row(c) + z.cellCells.size(c));
      std::sort(expectNbrs.begin(), expectNbrs.end());
      expectNbrs.erase(std::unique(expectNbrs.begin(), expectNbrs.end()), expectNbrs.end());
      std::vector<idx_t> gotUnique = gotNbrs;
      gotUnique.erase(std::unique(gotUnique.begin(), gotUnique.end()), gotUnique.end());
      if (!std::is_sorted(gotNbrs.begin(), gotNbrs.end()) || gotUnique != expectNbrs)
        ZC_FAIL(id, "cell " << c
                            << ": cellCells row does not list exactly its face neighbours "
                               "in ascending order");
      const bool touchesHalo = !expectNbrs.empty() && expectNbrs.back() >= nC;
      if (c < z.nInteriorCells && touchesHalo)
        ZC_FAIL(id, "cell " << c << " is numbered as interior but has a halo neighbour");
      if (c >= z.nInteriorCells && !touchesHalo)
        ZC_FAIL(id, "cell " << c << " is numbered as an interface cell but has no halo neighbour");
    }

    // orderings: colours and hyperplanes are independent sets
    std::vector<idx_t> stamp(static_cast<std::size_t>(nT), -1);
    for (idx_t g = 0; g < z.faceColours.rows(); ++g)
      for (idx_t k = z.faceColours.begin(g); k < z.faceColours.end(g); ++k) {
        const idx_t f = z.faceColours.indices()[k];
        for (idx_t cell : {z.faceOwner[f], z.faceNeighbour[f]}) {
          if (cell < 0 || cell >= nT) continue;
          if (stamp[cell] == g) {
            ZC_FAIL(id, "face colour " << g << ": two of its faces share cell " << cell);
            break;
          }
          stamp[cell] = g;
        }
      }
    independent_sets(z, "cell colour", z.cellColours);
    independent_sets(z, "hyperplane", z.hyperplanes);

    // nodes: every node of a face belongs to... transposes agree
    if (!(z.nodeFaces == z.faceNodes.transpose(z.nNodes)))
      ZC_FAIL(id, "conn/nodeFaces is not the transpose of conn/faceNodes");
    if (!(z.nodeCells == z.cellNodes.transpose(z.nNodes)))
      ZC_FAIL(id, "conn/nodeCells is not the transpose of conn/cellNodes");

    // exchange lists: local rules (the pairing with neighbours is checked later)
    std::vector<int> received(static_cast<std::size_t>(z.nHaloCells), 0);
    const Csr& rc = z.cellExchange.recv;
    for (idx_t r = 0; r < rc.rows(); ++r)
      for (idx_t k = rc.begin(r); k < rc.end(r); ++k) {
        const idx_t l = rc.indices()[k];
        if (l < nC)
          ZC_FAIL(id, "exchange/cells/recv from zone " << z.cellExchange.neighbours[r]
                                                       << " lists owned cell " << l);
        else
          ++received[l - nC];
      }
    for (idx_t hc = 0; hc < z.nHaloCells; ++hc)
      if (received[hc] != 1)
        ZC_FAIL(id, "halo cell " << nC + hc << " (global " << z.cellGlobalId[nC + hc]
                                 << ") is received " << received[hc] << " times (expected once)");
  }

  void independent_sets(const Zone& z, const char* what, const Csr& groups) {
    std::vector<idx_t> group(static_cast<std::size_t>(z.nCells), -1);
    for (idx_t g = 0; g < groups.rows(); ++g)
      for (idx_t k = groups.begin(g); k < groups.end(g); ++k)
        group[groups.indices()[k]] = g;
    for (idx_t c = 0; c < z.nCells; ++c)
      for (idx_t k = z.cellCells.begin(c); k < z.cellCells.end(c); ++k) {
        const idx_t d = z.cellCells.indices()[k];
        if (d < z.nCells && d != c && group[d] == group[c]) {
          ZC_FAIL(z.zoneId,
                  what << " " << group[c] << " holds face neighbours " << c << " and " << d);
          return;
        }
      }
  }

  // ---------------------------------------------------------------- global gathering
  void gather(const Zone& z) {
    const ZoneFileHeader& h = file_->header();
    for (idx_t c = 0; c < z.nCells; ++c) {
      const gidx_t g = z.cellGlobalId[c];
      if (g < 0 || g >= h.nGlobalCells) continue;
      if (ownerZone_[g] >= 0) {
        ZC_FAIL(z.zoneId, "owned cell " << c << " has global id " << g << ", already owned by zone "
                                        << ownerZone_[g]);
        continue;
      }
      ownerZone_[g] = z.zoneId;
      ownerLocal_[g] = c;
    }
    for (idx_t n = 0; n < z.nNodes; ++n) {
      const gidx_t g = z.nodeGlobalId[n];
      if (g < 0 || g >= h.nGlobalNodes) continue;
      const real_t* x = &z.nodeXyz[3 * n];
      real_t* X = &nodeXyz_[3 * g];
      if (nodeZones_[g]++ == 0) {
        std::copy(x, x + 3, X);
      } else if (x[0] != X[0] || x[1] != X[1] || x[2] != X[2]) {
        ZC_FAIL(z.zoneId, "node " << n << " (global " << g
                                  << ") has coordinates that differ from another zone's copy");
      }
      for (idx_t k = z.nodeCells.begin(n); k < z.nodeCells.end(n); ++k) {
        nodeWeight_[g] += z.nodeCellWeight[k];
        if (!z.nodeCellWeightLinear.empty()) nodeWeightLinear_[g] += z.nodeCellWeightLinear[k];
      }
      if (!z.nodeCellWeightLinear.empty()) hasLinearWeights_ = true;
    }
  }

  void check_global_cells() {
    const ZoneFileHeader& h = file_->header();
    if (!globalOk_) return; // already reported
    gidx_t missing = 0;
    for (gidx_t g = 0; g < h.nGlobalCells; ++g)
      if (ownerZone_[g] < 0) {
        if (++missing <= 3) ZC_FAIL(-1, "global cell " << g << " is owned by no zone");
      }
    if (missing > 3) ZC_FAIL(-1, missing << " global cells in all are owned by no zone");
  }

  /// Global ids of list row `r` of an exchange CSR, through `gid`.
  static std::vector<gidx_t> row_gids(const Csr& c, idx_t r, const Array<gidx_t>& gid) {
    std::vector<gidx_t> v;
    for (idx_t k = c.begin(r); k < c.end(r); ++k)
      v.push_back(gid[c.indices()[k]]);
    return v;
  }
  static idx_t find_row(const Array<std::int32_t>& nbrs, int zone) {
    const auto it = std::lower_bound(nbrs.begin(), nbrs.end(), zone);
    return it != nbrs.end() && *it == zone ? static_cast<idx_t>(it - nbrs.begin()) : kNone;
  }

  void check_pairing(const Zone& z, const char* kind, bool cells) {
    const ExchangeLists& ex = cells ? z.cellExchange : z.nodeExchange;
    const Array<gidx_t>& gid = cells ? z.cellGlobalId : z.nodeGlobalId;
    for (idx_t r = 0; r < static_cast<idx_t>(ex.neighbours.size()); ++r) {
      const int q = ex.neighbours[r];
      const std::vector<gidx_t> send = row_gids(ex.send, r, gid);
      const std::vector<gidx_t> recvMine = row_gids(ex.recv, r, gid);
      if (!std::is_sorted(send.begin(), send.end()) ||
          !std::is_sorted(recvMine.begin(), recvMine.end()))
        ZC_FAIL(z.zoneId, kind << " lists for zone " << q << " are not sorted by global id");
      if (!ok_[static_cast<std::size_t>(q)]) continue;
      const Zone& o = zones_[static_cast<std::size_t>(q)];
      const ExchangeLists& oex = cells ? o.cellExchange : o.nodeExchange;
      const idx_t orow = find_row(oex.neighbours, z.zoneId);
      if (orow == kNone) {
        ZC_FAIL(z.zoneId, kind << " exchange lists zone " << q << " as a neighbour, but zone " << q
                               << " does not list zone " << z.zoneId);
        continue;
      }
      const std::vector<gidx_t> recv =
          row_gids(oex.recv, orow, cells ? o.cellGlobalId : o.nodeGlobalId);
      if (send != recv) {
        std::size_t i = 0;
        while (i < send.size() && i < recv.size() && send[i] == recv[i])
          ++i;
        std::ostringstream at;
        if (i < send.size() && i < recv.size())
          at << "; first difference at entry " << i << ": global " << send[i] << " vs " << recv[i];
        ZC_FAIL(z.zoneId, kind << " send list to zone " << q << " (" << send.size()
                               << " entries) does not match zone " << q
                               << "'s receive list from zone " << z.zoneId << " (" << recv.size()
                               << " entries)" << at.str());
      }
    }
  }

  void check_halo_and_exchange(const Zone& z) {
    check_pairing(z, "cell", true);
    check_pairing(z, "node", false);
    // halo cells: owned elsewhere, by a neighbour we receive from, with identical geometry
    const Csr& rc = z.cellExchange.recv;
    for (idx_t r = 0; r < rc.rows(); ++r) {
      const int q = z.cellExchange.neighbours[r];
      for (idx_t k = rc.begin(r); k < rc.end(r); ++k) {
        const idx_t l = rc.indices()[k];
        if (l < z.nCells) continue;
        const gidx_t g = z.cellGlobalId[l];
        if (g < 0 || g >= static_cast<gidx_t>(ownerZone_.size())) continue;
        if (!globalOk_) continue; // owners unknown: already reported
        if (ownerZone_[g] != q) {
          ZC_FAIL(z.zoneId, "halo cell " << l << " (global " << g << ") is received from zone " << q
                                         << " but owned by zone " << ownerZone_[g]);
          continue;
        }
        const Zone& o = zones_[static_cast<std::size_t>(q)];
        const idx_t oc = ownerLocal_[g];
        bool same = o.cellType[oc] == z.cellType[l] && o.cellVolume[oc] == z.cellVolume[l];
        for (int d = 0; d < 3; ++d)
          same = same && o.cellCentroid[3 * oc + d] == z.cellCentroid[3 * l + d];
        if (!same)
          ZC_FAIL(z.zoneId, "halo cell " << l << " (global " << g
                                         << ") differs in type, volume or centroid from cell " << oc
                                         << " of its owner zone " << q);
      }
    }
  }

  void check_nodes() {
    if (!globalOk_) return;
    gidx_t bad = 0;
    for (std::size_t g = 0; g < nodeZones_.size(); ++g) {
      if (nodeZones_[g] == 0) {
        if (++bad <= 3) ZC_FAIL(-1, "global node " << g << " belongs to no zone");
      } else if (std::abs(nodeWeight_[g] - 1.0) > 1e3 * opt_.tolerance) {
        if (++bad <= 3)
          ZC_FAIL(-1, "global node " << g << ": nodeCellWeight sums to " << nodeWeight_[g]
                                     << " over all zones (expected 1)");
      } else if (hasLinearWeights_ && std::abs(nodeWeightLinear_[g] - 1.0) > 1e3 * opt_.tolerance) {
        if (++bad <= 3)
          ZC_FAIL(-1, "global node " << g << ": nodeCellWeightLinear sums to "
                                     << nodeWeightLinear_[g] << " over all zones (expected 1)");
      }
    }
    if (bad > 3) ZC_FAIL(-1, bad << " global nodes in all have missing zones or bad weights");
    // each zone lists a shared node in one exchange row per other zone holding it
    for (const Zone& z : zones_) {
      std::vector<int> rows(static_cast<std::size_t>(z.nNodes), 0);
      for (idx_t n : z.nodeExchange.send.indices())
        ++rows[n];
      for (idx_t n = 0; n < z.nNodes; ++n) {
        const int expect = nodeZones_[z.nodeGlobalId[n]] - 1;
        if (rows[n] != expect) {
          ZC_FAIL(z.zoneId, "node " << n << " (global " << z.nodeGlobalId[n] << ") is shared with "
                                    << expect << " other zones but sent to " << rows[n]);
          break;
        }
      }
    }
  }

  void check_uuid() {
    if (!opt_.checkUuid || !globalOk_ || problems_ > 0) return;
    const ZoneFileHeader& h = file_->header();
    if (h.meshUuid.empty()) {
      ZC_FAIL(-1, "the header has no mesh UUID");
      return;
    }
    try {
      const std::string u = mesh_uuid(zones_, h.nGlobalCells, h.nGlobalNodes);
      if (u != h.meshUuid)
        ZC_FAIL(-1, "mesh UUID " << h.meshUuid << " in the header, but the zones hash to " << u);
    } catch (const Error& e) {
      ZC_FAIL(-1, e.what());
    }
  }

  std::string path_;
  ZoneCheckOptions opt_;
  std::ostream& out_;
  std::unique_ptr<ZoneFile> file_;
  std::vector<Zone> zones_;
  std::vector<bool> ok_;
  std::vector<std::int32_t> ownerZone_;
  std::vector<idx_t> ownerLocal_;
  std::vector<real_t> nodeXyz_;
  std::vector<int> nodeZones_;
  std::vector<real_t> nodeWeight_;
  std::vector<real_t> nodeWeightLinear_; ///< sums of the linear weights, when the zones have them
  bool hasLinearWeights_ = false;
  bool globalOk_ = false; ///< every zone readable and header totals agree: global arrays built
  long problems_ = 0;
};

} // namespace

int run_zone_check(const std::string& path, const ZoneCheckOptions& options, std::ostream* out) {
  std::ostream& os = out ? *out : std::cout;
  std::vector<int> parts{options.parts};
  if (options.parts == 0) {
    try {
      parts = open_zone_file(path).partitionings();
    } catch (const Error&) {
      parts = {0}; // the checker reports why the file cannot be opened
    }
  }
  int rc = 0;
  for (int n : parts) {
    ZoneCheckOptions o = options;
    o.parts = n;
    Checker c(path, o, os);
    rc = std::max(rc, c.run());
  }
  return rc;
}

} // namespace fv
