// SU2 native ASCII mesh reader (single zone): NDIME, NELEM, NPOIN, NMARK/MARKER_TAG/
// MARKER_ELEMS. Elements use VTK type ids; node order is converted to CGNS. Any other section
// (NPERIODIC, FFD boxes, ...) is skipped.
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/mesh_builder.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/text_scanner.hpp"

namespace fv {

namespace {

/// VTK cell type as used by SU2 -> dimension, node count, CGNS cell type.
struct Su2Type {
  int dim, nodes;
  CellType cell;
};

bool su2_type(std::int64_t vtk, Su2Type& t) {
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
  case 10:
    t = {3, 4, CellType::Tet};
    return true; // tetrahedron
  case 12:
    t = {3, 8, CellType::Hex};
    return true; // hexahedron
  case 13:
    t = {3, 6, CellType::Prism};
    return true; // prism (VTK wedge)
  case 14:
    t = {3, 5, CellType::Pyramid};
    return true; // pyramid
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

} // namespace

Mesh read_su2(const std::string& path, const ReadOptions& opts) {
  fv::log::Phase phase("reading SU2 mesh");
  const std::string data = read_file_bytes(path);
  TextScanner sc(data, path);
  MeshBuilder b;
  b.path = path;
  b.format = "SU2";
  int ndime = 0;
  std::int64_t nelem = -1, npoin = -1, nmark = -1;
  // elements are stored until the node count is known (NELEM comes first in SU2 files)
  struct RawElem {
    std::int64_t type;
    std::size_t first;
  };
  std::vector<std::int64_t> elemNodes;
  std::vector<RawElem> elems;
  struct RawMarker {
    std::string name;
    std::vector<RawElem> elems;
    std::vector<std::int64_t> nodes;
  };
  std::vector<RawMarker> markers;

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

  while (!sc.at_end()) {
    const std::string_view ln = sc.line();
    if (ln.empty() || ln[0] == '%') continue;
    std::string_view key, val;
    if (!split_keyword(ln, key, val)) continue; // data of a section we skip
    if (key == "NDIME") {
      ndime = static_cast<int>(to_int(sc, key, val));
      if (ndime != 2 && ndime != 3) sc.fail("NDIME= must be 2 or 3");
    } else if (key == "NZONE") {
      if (to_int(sc, key, val) > 1) sc.fail("multi-zone SU2 files (NZONE > 1) are not supported");
    } else if (key == "NELEM") {
      if (ndime == 0) sc.fail("NELEM= before NDIME=");
      nelem = to_int(sc, key, val);
      read_elements(nelem, elems, elemNodes, "element");
    } else if (key == "NPOIN") {
      if (ndime == 0) sc.fail("NPOIN= before NDIME=");
      npoin = to_int(sc, key, val);
      if (static_cast<std::uint64_t>(npoin) > data.size() / (2 * static_cast<std::size_t>(ndime)))
        sc.fail("the file is too short for " + std::to_string(npoin) + " points (truncated?)");
      b.xyz.assign(3 * static_cast<std::size_t>(npoin), 0.0);
      for (std::int64_t i = 0; i < npoin; ++i) {
        for (int d = 0; d < ndime; ++d)
          b.xyz[3 * i + d] = sc.real("a coordinate");
        sc.line(); // optional point index
      }
    } else if (key == "NMARK") {
      nmark = to_int(sc, key, val);
      markers.reserve(static_cast<std::size_t>(nmark));
    } else if (key == "MARKER_TAG") {
      if (nmark < 0) sc.fail("MARKER_TAG= before NMARK=");
      markers.push_back({std::string(val), {}, {}});
    } else if (key == "MARKER_ELEMS") {
      if (markers.empty()) sc.fail("MARKER_ELEMS= before MARKER_TAG=");
      const std::int64_t n = to_int(sc, key, val);
      read_elements(n, markers.back().elems, markers.back().nodes, "marker element");
    }
    // other keywords (NPERIODIC, FFD_*, ...) are skipped
  }
  FV_VERIFY(ndime > 0, path << ": not an SU2 mesh (no NDIME=)");
  FV_VERIFY(nelem >= 0, path << ": SU2 file has no NELEM= section");
  FV_VERIFY(npoin >= 0, path << ": SU2 file has no NPOIN= section");
  FV_VERIFY(npoin < (1LL << 31) - 1 && nelem < (1LL << 31) - 1,
            path << ": too many nodes or elements for 32-bit indices");
  if (nmark >= 0 && static_cast<std::int64_t>(markers.size()) != nmark)
    b.warn("NMARK= " + std::to_string(nmark) + " but " + std::to_string(markers.size()) +
           " markers found");

  b.dim = ndime;
  b.nodeFileId.resize(static_cast<std::size_t>(npoin));
  for (std::int64_t i = 0; i < npoin; ++i)
    b.nodeFileId[static_cast<std::size_t>(i)] = i;
  b.cellType.reserve(static_cast<std::size_t>(nelem));
  b.cellConn.reserve(elemNodes.size());
  idx_t v[8];
  auto convert = [&](const char* what, std::int64_t id, std::int64_t type, const std::int64_t* n,
                     int count) {
    for (int k = 0; k < count; ++k) {
      FV_VERIFY(n[k] >= 0 && n[k] < npoin, path << ": " << what << " " << id << " refers to node "
                                                << n[k] << ", outside 0.." << npoin - 1);
      v[k] = static_cast<idx_t>(n[k]);
    }
    if (type == 13) { // VTK wedge: (0,1,2) points away from (3,4,5); CGNS: towards it
      std::swap(v[1], v[2]);
      std::swap(v[4], v[5]);
    }
  };
  for (std::size_t e = 0; e < elems.size(); ++e) {
    Su2Type st{};
    su2_type(elems[e].type, st);
    FV_VERIFY(st.dim == ndime, path << ": element " << e << " has dimension " << st.dim
                                    << " in an NDIME=" << ndime << " mesh");
    convert("element", static_cast<std::int64_t>(e), elems[e].type, &elemNodes[elems[e].first],
            st.nodes);
    b.add_cell(st.cell, v, st.nodes, static_cast<gidx_t>(e));
  }
  gidx_t bid = 0;
  for (const RawMarker& mk : markers) {
    const idx_t patch = b.patch(mk.name, "UserDefined");
    for (const RawElem& el : mk.elems) {
      Su2Type st{};
      su2_type(el.type, st);
      FV_VERIFY(st.dim == ndime - 1, path << ": marker '" << mk.name << "' element " << bid
                                          << " has dimension " << st.dim << " in an NDIME=" << ndime
                                          << " mesh");
      convert("marker element", bid, el.type, &mk.nodes[el.first], st.nodes);
      b.add_bface(v, st.nodes, bid, patch);
      ++bid;
    }
  }
  return b.finish(opts);
}

} // namespace fv
