#include "formats/xdmf_cells.hpp"

#include "common/error.hpp"

#include <algorithm>

namespace fv::xdmf {

int shape_code(CellType t) {
  switch (t) {
  case CellType::Tet:
    return 6;
  case CellType::Pyramid:
    return 7;
  case CellType::Prism:
    return 8;
  case CellType::Hex:
    return 9;
  case CellType::Polyhedron:
    return 16;
  }
  return -1;
}

const char* shape_name(CellType t) {
  switch (t) {
  case CellType::Tet:
    return "tetrahedron";
  case CellType::Pyramid:
    return "pyramid";
  case CellType::Prism:
    return "wedge";
  case CellType::Hex:
    return "hexahedron";
  case CellType::Polyhedron:
    return "polyhedron";
  }
  return "unknown shape";
}

int cgns_corner(CellType t, int k) {
  static constexpr int kWedge[6] = {0, 2, 1, 3, 5, 4};
  return t == CellType::Prism ? kWedge[k] : k;
}

void check_polyhedron_stream(const gidx_t* s, gidx_t len, gidx_t n_nodes, const std::string& what,
                             gidx_t cell) {
  FV_VERIFY(len >= 1 && s[0] >= 4, what << ": polyhedron cell " << cell
                                        << ": face stream must start with a face count >= 4");
  gidx_t pos = 1;
  for (gidx_t f = 0; f < s[0]; ++f) {
    FV_VERIFY(pos < len && s[pos] >= 3 && pos + 1 + s[pos] <= len,
              what << ": polyhedron cell " << cell << ": face " << f << " is truncated or has "
                   << "fewer than 3 nodes");
    for (gidx_t k = pos + 1; k <= pos + s[pos]; ++k)
      FV_VERIFY(s[k] >= 0 && s[k] < n_nodes, what << ": polyhedron cell " << cell << ": node id "
                                                  << s[k] << " out of range [0, " << n_nodes
                                                  << ")");
    pos += 1 + s[pos];
  }
  FV_VERIFY(pos == len, what << ": polyhedron cell " << cell << ": " << (len - pos)
                             << " entries after its last face");
}

std::vector<gidx_t> mixed_topology(const SolutionMesh& mesh) {
  std::vector<gidx_t> out;
  out.reserve(mesh.cellNodes.size() + mesh.cellType.size());
  for (gidx_t c = 0; c < mesh.nCells(); ++c) {
    const CellType t = mesh.cellType[c];
    const gidx_t* row = mesh.cellNodes.data() + mesh.cellNodeOffsets[c];
    out.push_back(shape_code(t));
    if (t == CellType::Polyhedron) {
      out.insert(out.end(), row, mesh.cellNodes.data() + mesh.cellNodeOffsets[c + 1]);
    } else {
      for (int k = 0; k < cell_node_count(t); ++k)
        out.push_back(row[cgns_corner(t, k)]);
    }
  }
  return out;
}

void parse_mixed_topology(const std::vector<gidx_t>& s, gidx_t n_cells, const std::string& what,
                          SolutionMesh& mesh) {
  mesh.cellType.clear();
  mesh.cellNodes.clear();
  mesh.cellNodeOffsets.assign(1, 0);
  const gidx_t len = static_cast<gidx_t>(s.size());
  gidx_t pos = 0;
  for (gidx_t c = 0; c < n_cells; ++c) {
    FV_VERIFY(pos < len, what << ": topology ends before cell " << c << " of " << n_cells);
    const gidx_t code = s[pos++];
    CellType t;
    switch (code) {
    case 6:
      t = CellType::Tet;
      break;
    case 7:
      t = CellType::Pyramid;
      break;
    case 8:
      t = CellType::Prism;
      break;
    case 9:
      t = CellType::Hex;
      break;
    case 16:
      t = CellType::Polyhedron;
      break;
    default:
      FV_THROW(what << ": cell " << c << ": unsupported XDMF shape code " << code);
    }
    mesh.cellType.push_back(t);
    if (t == CellType::Polyhedron) {
      // Walk the face stream to find its end; check_polyhedron_stream validates it later.
      FV_VERIFY(pos < len, what << ": cell " << c << ": truncated polyhedron");
      gidx_t end = pos + 1;
      for (gidx_t f = 0; f < s[pos] && end < len; ++f)
        end += 1 + std::max<gidx_t>(s[end], 0);
      FV_VERIFY(end <= len, what << ": cell " << c << ": truncated polyhedron");
      mesh.cellNodes.insert(mesh.cellNodes.end(), s.begin() + pos, s.begin() + end);
      pos = end;
    } else {
      const int n = cell_node_count(t);
      FV_VERIFY(pos + n <= len, what << ": cell " << c << ": truncated " << shape_name(t));
      for (int k = 0; k < n; ++k)
        mesh.cellNodes.push_back(s[pos + cgns_corner(t, k)]);
      pos += n;
    }
    mesh.cellNodeOffsets.push_back(static_cast<gidx_t>(mesh.cellNodes.size()));
  }
  FV_VERIFY(pos == len, what << ": topology holds " << (len - pos) << " entries after its "
                             << n_cells << " cells");
}

} // namespace fv::xdmf
