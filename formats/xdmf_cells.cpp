#include "formats/xdmf_cells.hpp"

#include "common/error.hpp"

#include <algorithm>

namespace fv::xdmf {

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
    out.push_back(cell_shape(t).xdmfCode);
    if (t == CellType::Polyhedron) {
      out.insert(out.end(), row, mesh.cellNodes.data() + mesh.cellNodeOffsets[c + 1]);
    } else {
      for (int k = 0; k < cell_node_count(t); ++k)
        out.push_back(row[vtk_corner(t, k)]);
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
    CellType t = CellType::Polyhedron;
    if (!cell_type_of(&CellShape::xdmfCode, code, t))
      FV_THROW(what << ": cell " << c << ": unsupported XDMF shape code " << code);
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
      FV_VERIFY(pos + n <= len, what << ": cell " << c << ": truncated " << cell_shape(t).xdmfName);
      const std::size_t first = mesh.cellNodes.size();
      mesh.cellNodes.resize(first + static_cast<std::size_t>(n));
      for (int k = 0; k < n; ++k)
        mesh.cellNodes[first + static_cast<std::size_t>(vtk_corner(t, k))] = s[pos + k];
      pos += n;
    }
    mesh.cellNodeOffsets.push_back(static_cast<gidx_t>(mesh.cellNodes.size()));
  }
  FV_VERIFY(pos == len, what << ": topology holds " << (len - pos) << " entries after its "
                             << n_cells << " cells");
}

} // namespace fv::xdmf
