// SU2 native ASCII mesh reader: NDIME, NELEM, NPOIN, NMARK/MARKER_TAG/MARKER_ELEMS, and
// multi-zone files (NZONE/IZONE: one zone with --zone K, else every zone, glued where they share
// nodes). Elements use VTK type ids; node order is converted to CGNS. Any other section
// (NPERIODIC, FFD boxes, ...) is skipped.
#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/mesh_builder.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/node_match.hpp"
#include "formats/text_scanner.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>

namespace fv {

namespace {

/// VTK cell type as used by SU2 -> dimension, node count, CGNS cell type (Tet for faces and
/// lines, where it means nothing).
struct Su2Type {
  int dim, nodes;
  CellType cell;
};

bool su2_type(std::int64_t vtk, Su2Type& t) {
  CellType c = CellType::Tet;
  // volumes: the standard shapes of the shape table (SU2 has no polyhedra)
  if (cell_type_of(&CellShape::vtkType, vtk, c) && is_standard_shape(c)) {
    t = {3, cell_node_count(c), c};
    return true;
  }
  switch (vtk) {
  case 3:
    t = {1, 2, CellType::Tet};
    return true; // line
  case 5:
    t = {2, 3, CellType::Tet};
    return true; // triangle
  case 9:
    t = {2, 4, CellType::Tet};
    return true; // quadrilateral
  default:
    return false;
  }
}

/// Splits "KEY= value" / "KEY=value" at the start of a line.
bool split_keyword(std::string_view line, std::string_view& key, std::string_view& value) {
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos) return false;
  key = line.substr(0, eq);
  while (!key.empty() && (key.back() == ' ' || key.back() == '\t'))
    key.remove_suffix(1);
  while (!key.empty() && (key.front() == ' ' || key.front() == '\t'))
    key.remove_prefix(1);
  for (char c : key)
    if (!(std::isupper(static_cast<unsigned char>(c)) || c == '_' ||
          std::isdigit(static_cast<unsigned char>(c))))
      return false;
  value = line.substr(eq + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
    value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t' || value.back() == '\r'))
    value.remove_suffix(1);
  return !key.empty();
}

std::int64_t to_int(const TextScanner& sc, std::string_view key, std::string_view v) {
  std::int64_t x = 0;
  const std::string_view first = v.substr(0, v.find_first_of(" \t"));
  auto r = std::from_chars(first.data(), first.data() + first.size(), x);
  if (r.ec != std::errc() || r.ptr != first.data() + first.size() || x < 0)
    sc.fail(std::string(key) + "= expects a non-negative integer, found '" + std::string(v) + "'");
  return x;
}

/// One zone of an SU2 file as parsed (elements and markers kept until the node count is known).
struct RawElem {
  std::int64_t type;
  std::size_t first;
};
struct RawMarker {
  std::string name;
  std::vector<RawElem> elems;
  std::vector<std::int64_t> nodes;
};
struct Su2Zone {
  int index = 1; ///< IZONE (1 when the file has one zone)
  int ndime = 0;
  std::int64_t nelem = -1, npoin = -1, nmark = -1;
  std::vector<std::int64_t> elemNodes;
  std::vector<RawElem> elems;
  std::vector<real_t> xyz;
  std::vector<RawMarker> markers;
};

/// Parses every zone of the file (NZONE / IZONE sections; a file without them is one zone).
std::vector<Su2Zone> parse_su2(const std::string& data, TextScanner& sc) {
  std::vector<Su2Zone> zones(1);
  std::int64_t nzone = 1;
  auto read_elements = [&](std::int64_t n, std::vector<RawElem>& out,
                           std::vector<std::int64_t>& nodes, const char* what) {
    if (static_cast<std::uint64_t>(n) > data.size() / 4)
      sc.fail(std::string("the file is too short for ") + std::to_string(n) + " " + what +
              "s (truncated?)");
    out.reserve(static_cast<std::size_t>(n));
    nodes.reserve(nodes.size() + static_cast<std::size_t>(n) * 4);
    for (std::int64_t e = 0; e < n; ++e) {
      const std::int64_t t = sc.integer("an element type (VTK id)");
      Su2Type st{};
      if (!su2_type(t, st))
        sc.fail(std::string(what) + " " + std::to_string(e) + ": unknown element type " +
                std::to_string(t));
      out.push_back({t, nodes.size()});
      for (int k = 0; k < st.nodes; ++k)
        nodes.push_back(sc.integer("a node index"));
      sc.line(); // optional element index
    }
  };
  bool sawIzone = false;
  while (!sc.at_end()) {
    const std::string_view ln = sc.line();
    if (ln.empty() || ln[0] == '%') continue;
    std::string_view key, val;
    if (!split_keyword(ln, key, val)) continue; // data of a section we skip
    Su2Zone& z = zones.back();
    if (key == "NZONE") {
      nzone = to_int(sc, key, val);
      if (nzone < 1) sc.fail("NZONE= must be at least 1");
    } else if (key == "IZONE") {
      const std::int64_t iz = to_int(sc, key, val);
      if (sawIzone) zones.emplace_back();
      sawIzone = true;
      if (iz != static_cast<std::int64_t>(zones.size()))
        sc.fail("IZONE= " + std::to_string(iz) + " where zone " + std::to_string(zones.size()) +
                " was expected");
      zones.back().index = static_cast<int>(iz);
    } else if (key == "NDIME") {
      z.ndime = static_cast<int>(to_int(sc, key, val));
      if (z.ndime != 2 && z.ndime != 3) sc.fail("NDIME= must be 2 or 3");
    } else if (key == "NELEM") {
      if (z.ndime == 0) sc.fail("NELEM= before NDIME=");
      z.nelem = to_int(sc, key, val);
      read_elements(z.nelem, z.elems, z.elemNodes, "element");
    } else if (key == "NPOIN") {
      if (z.ndime == 0) sc.fail("NPOIN= before NDIME=");
      z.npoin = to_int(sc, key, val);
      if (static_cast<std::uint64_t>(z.npoin) >
          data.size() / (2 * static_cast<std::size_t>(z.ndime)))
        sc.fail("the file is too short for " + std::to_string(z.npoin) + " points (truncated?)");
      z.xyz.assign(3 * static_cast<std::size_t>(z.npoin), 0.0);
      for (std::int64_t i = 0; i < z.npoin; ++i) {
        for (int d = 0; d < z.ndime; ++d)
          z.xyz[3 * i + d] = sc.real("a coordinate");
        sc.line(); // optional point index
      }
    } else if (key == "NMARK") {
      z.nmark = to_int(sc, key, val);
      if (static_cast<std::uint64_t>(z.nmark) > data.size() / 12) // "MARKER_TAG= x" each
        sc.fail("the file is too short for " + std::to_string(z.nmark) + " markers (truncated?)");
      z.markers.reserve(static_cast<std::size_t>(z.nmark));
    } else if (key == "MARKER_TAG") {
      if (z.nmark < 0) sc.fail("MARKER_TAG= before NMARK=");
      z.markers.push_back({std::string(val), {}, {}});
    } else if (key == "MARKER_ELEMS") {
      if (z.markers.empty()) sc.fail("MARKER_ELEMS= before MARKER_TAG=");
      const std::int64_t n = to_int(sc, key, val);
      read_elements(n, z.markers.back().elems, z.markers.back().nodes, "marker element");
    }
    // other keywords (NPERIODIC, FFD_*, ...) are skipped
  }
  if (static_cast<std::int64_t>(zones.size()) != nzone)
    sc.fail("NZONE= " + std::to_string(nzone) + " but " + std::to_string(zones.size()) +
            " zone(s) (IZONE=) found");
  return zones;
}

/// Adds one parsed zone to the builder (nodes appended; cells and boundary faces tagged with
/// the zone's position `zoneIdx` when several zones are read).
void add_zone(const std::string& path, const Su2Zone& z, MeshBuilder& b, std::int32_t zoneIdx,
              bool tagZones) {
  const std::string where = tagZones ? " of zone " + std::to_string(z.index) : std::string();
  FV_VERIFY(z.ndime > 0, path << ": not an SU2 mesh (no NDIME=)" << where);
  FV_VERIFY(z.nelem >= 0, path << ": SU2 file has no NELEM= section" << where);
  FV_VERIFY(z.npoin >= 0, path << ": SU2 file has no NPOIN= section" << where);
  FV_VERIFY(z.npoin < (1LL << 31) - 1 - b.nNodes() && z.nelem < (1LL << 31) - 1,
            path << ": too many nodes or elements for 32-bit indices");
  if (z.nmark >= 0 && static_cast<std::int64_t>(z.markers.size()) != z.nmark)
    b.warn("NMARK= " + std::to_string(z.nmark) + " but " + std::to_string(z.markers.size()) +
           " markers found" + where);
  const idx_t offset = b.nNodes();
  b.xyz.insert(b.xyz.end(), z.xyz.begin(), z.xyz.end());
  for (std::int64_t i = 0; i < z.npoin; ++i)
    b.nodeFileId.push_back(i);
  idx_t v[8];
  // VTK node order -> CGNS: the identity except for the wedge (vtk_corner())
  auto convert = [&](const char* what, std::int64_t id, const Su2Type& st, const std::int64_t* n) {
    for (int k = 0; k < st.nodes; ++k) {
      FV_VERIFY(n[k] >= 0 && n[k] < z.npoin, path << ": " << what << " " << id << where
                                                  << " refers to node " << n[k] << ", outside 0.."
                                                  << z.npoin - 1);
      v[st.dim == 3 ? vtk_corner(st.cell, k) : k] = offset + static_cast<idx_t>(n[k]);
    }
  };
  for (std::size_t e = 0; e < z.elems.size(); ++e) {
    Su2Type st{};
    su2_type(z.elems[e].type, st);
    FV_VERIFY(st.dim == z.ndime, path << ": element " << e << where << " has dimension " << st.dim
                                      << " in an NDIME=" << z.ndime << " mesh");
    convert("element", static_cast<std::int64_t>(e), st, &z.elemNodes[z.elems[e].first]);
    b.add_cell(st.cell, v, st.nodes, static_cast<gidx_t>(e));
    if (tagZones) b.cellZone.push_back(zoneIdx);
  }
  gidx_t bid = 0;
  for (const RawMarker& mk : z.markers) {
    const idx_t patch = b.patch(mk.name, "UserDefined");
    for (const RawElem& el : mk.elems) {
      Su2Type st{};
      su2_type(el.type, st);
      FV_VERIFY(st.dim == z.ndime - 1, path << ": marker '" << mk.name << "' element " << bid
                                            << where << " has dimension " << st.dim
                                            << " in an NDIME=" << z.ndime << " mesh");
      convert("marker element", bid, st, &mk.nodes[el.first]);
      b.add_bface(v, st.nodes, bid, patch);
      if (tagZones) b.bZone.push_back(zoneIdx);
      ++bid;
    }
  }
}

/// Several zones read together: nodes of different zones closer than the merge tolerance are
/// glued (conformal zones share their interface nodes), and boundary faces that two zones
/// both list (their interface markers) become interior faces.
void glue_zones(MeshBuilder& b, const ReadOptions& opts,
                const std::vector<std::int32_t>& nodeZone) {
  const idx_t nn = b.nNodes();
  std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (idx_t i = 0; i < nn; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], b.xyz[3 * i + d]);
      hi[d] = std::max(hi[d], b.xyz[3 * i + d]);
    }
  double diag = 0;
  for (int d = 0; d < 3; ++d)
    diag += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  const double tol =
      opts.mergeTolerance > 0 ? opts.mergeTolerance : kDefaultMergeFraction * std::sqrt(diag);
  const auto pairs = find_coincident_nodes(b.xyz, tol, nodeZone);
  const std::vector<idx_t> rep = merge_representatives(nn, pairs);
  std::vector<idx_t> newId(static_cast<std::size_t>(nn), -1);
  std::vector<real_t> xyz;
  std::vector<gidx_t> fileId;
  idx_t next = 0;
  for (idx_t i = 0; i < nn; ++i)
    if (rep[i] == i) {
      newId[i] = next++;
      xyz.insert(xyz.end(), &b.xyz[3 * i], &b.xyz[3 * i] + 3);
      fileId.push_back(b.nodeFileId[i]);
    }
  for (idx_t i = 0; i < nn; ++i)
    newId[i] = newId[rep[i]];
  b.xyz = std::move(xyz);
  b.nodeFileId = std::move(fileId);
  for (idx_t& v : b.cellConn)
    v = newId[v];
  for (idx_t& v : b.bConn)
    v = newId[v];
  FV_LOG_INFO("  glued " << nn - next << " interface nodes (coincident coordinates)");
  // boundary faces listed by two zones are the interface
  std::map<std::vector<idx_t>, idx_t> byKey;
  std::vector<char> drop(static_cast<std::size_t>(b.nBFaces()), 0);
  for (idx_t f = 0; f < b.nBFaces(); ++f) {
    std::vector<idx_t> key(b.bConn.begin() + b.bOff[f], b.bConn.begin() + b.bOff[f + 1]);
    std::sort(key.begin(), key.end());
    auto [it, fresh] = byKey.emplace(key, f);
    if (!fresh && b.bZone[it->second] != b.bZone[f]) drop[f] = drop[it->second] = 1;
  }
  MeshBuilder kept;
  std::vector<idx_t> off{0}, conn, patch;
  std::vector<gidx_t> fid;
  std::vector<std::int32_t> zone;
  idx_t dropped = 0;
  for (idx_t f = 0; f < b.nBFaces(); ++f) {
    if (drop[f]) {
      ++dropped;
      continue;
    }
    conn.insert(conn.end(), b.bConn.begin() + b.bOff[f], b.bConn.begin() + b.bOff[f + 1]);
    off.push_back(static_cast<idx_t>(conn.size()));
    patch.push_back(b.bPatch[f]);
    fid.push_back(b.bFileId[f]);
    zone.push_back(b.bZone[f]);
  }
  b.bOff = std::move(off);
  b.bConn = std::move(conn);
  b.bPatch = std::move(patch);
  b.bFileId = std::move(fid);
  b.bZone = std::move(zone);
  FV_LOG_INFO("  " << dropped << " zone-interface faces became interior faces");
}

} // namespace

Mesh read_su2(const std::string& path, const ReadOptions& opts) {
  fv::log::Phase phase("reading SU2 mesh");
  const std::string data = read_file_bytes(path);
  TextScanner sc(data, path);
  std::vector<Su2Zone> zones = parse_su2(data, sc);
  if (!opts.zone.empty()) { // --zone K: the K-th zone (IZONE) only
    std::int64_t k = 0;
    const auto r = std::from_chars(opts.zone.data(), opts.zone.data() + opts.zone.size(), k);
    FV_VERIFY_USAGE(r.ec == std::errc() && r.ptr == opts.zone.data() + opts.zone.size() && k >= 1 &&
                        k <= static_cast<std::int64_t>(zones.size()),
                    path << ": no zone '" << opts.zone << "' (an SU2 file's zones are numbered 1.."
                         << zones.size() << ")");
    Su2Zone one = std::move(zones[static_cast<std::size_t>(k - 1)]);
    zones.clear();
    zones.push_back(std::move(one));
  }
  MeshBuilder b;
  b.path = path;
  b.format = "SU2";
  b.dim = zones.front().ndime;
  const bool several = zones.size() > 1;
  std::vector<std::int32_t> nodeZone;
  for (std::size_t z = 0; z < zones.size(); ++z) {
    FV_VERIFY(zones[z].ndime == b.dim || zones[z].ndime == 0,
              path << ": zone " << zones[z].index << " has NDIME= " << zones[z].ndime << ", zone "
                   << zones.front().index << " NDIME= " << b.dim);
    if (several) b.zoneNames.push_back("zone " + std::to_string(zones[z].index));
    add_zone(path, zones[z], b, static_cast<std::int32_t>(z), several);
    nodeZone.resize(static_cast<std::size_t>(b.nNodes()), static_cast<std::int32_t>(z));
  }
  if (several) glue_zones(b, opts, nodeZone);
  return b.finish(opts);
}

} // namespace fv
