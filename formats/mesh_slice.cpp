#include "formats/mesh_slice.hpp"

#include "common/error.hpp"

#include <algorithm>

namespace fv {

namespace {

std::string name_of(const Mesh& m) {
  return m.path.empty() ? "<unnamed mesh>" : m.path;
}

/// Rows [r0, r1) of a CSR as a CSR of their own.
Csr rows_of(const Csr& a, idx_t r0, idx_t r1) {
  std::vector<idx_t> counts(static_cast<std::size_t>(r1 - r0));
  for (idx_t r = r0; r < r1; ++r)
    counts[static_cast<std::size_t>(r - r0)] = a.size(r);
  Csr out = Csr::from_counts(counts);
  std::copy(a.indices().begin() + a.begin(r0), a.indices().begin() + a.begin(r1),
            out.indices().begin());
  return out;
}

template <class T>
std::vector<T> range_of(const std::vector<T>& v, gidx_t first, gidx_t n) {
  if (v.empty()) return {};
  return std::vector<T>(v.begin() + first, v.begin() + first + n);
}

/// The polyhedra among the slice's cells: each gets its own copy of its faces (a face shared by
/// two cells of the slice is copied twice; face references keep their sign).
void slice_polyhedra(const Mesh& whole, gidx_t c0, Mesh& part) {
  if (whole.polyCell.empty()) return;
  const idx_t nc = part.nCells();
  part.polyCell.assign(static_cast<std::size_t>(nc), -1);
  std::vector<idx_t> cfOff{0}, cfConn, fnOff{0}, fnConn;
  for (idx_t i = 0; i < nc; ++i) {
    const auto c = static_cast<std::size_t>(c0 + i);
    const idx_t k = c < whole.polyCell.size() ? whole.polyCell[c] : -1;
    if (k < 0 || k >= whole.polyCellFaces.rows()) continue; // validation names it
    part.polyCell[static_cast<std::size_t>(i)] = static_cast<idx_t>(cfOff.size() - 1);
    for (idx_t j = whole.polyCellFaces.begin(k); j < whole.polyCellFaces.end(k); ++j) {
      const idx_t ref = whole.polyCellFaces.indices()[j];
      const idx_t pf = ref >= 0 ? ref : ~ref;
      if (pf >= whole.polyFaceNodes.rows()) { // a bad reference: validation names it
        cfConn.push_back(ref);
        continue;
      }
      const idx_t local = static_cast<idx_t>(fnOff.size() - 1);
      cfConn.push_back(ref >= 0 ? local : ~local);
      fnConn.insert(fnConn.end(), whole.polyFaceNodes.row(pf),
                    whole.polyFaceNodes.row(pf) + whole.polyFaceNodes.size(pf));
      fnOff.push_back(static_cast<idx_t>(fnConn.size()));
    }
    cfOff.push_back(static_cast<idx_t>(cfConn.size()));
  }
  part.polyCellFaces = Csr(Array<idx_t>(std::move(cfOff)), Array<idx_t>(std::move(cfConn)));
  part.polyFaceNodes = Csr(Array<idx_t>(std::move(fnOff)), Array<idx_t>(std::move(fnConn)));
}

} // namespace

MeshSlice slice_mesh(Mesh&& whole, int rank, int parts) {
  // The arrays a slice is cut from must be well formed (validation then checks their values:
  // prep/faces.hpp validate_cell_arrays(), validate_bface_arrays()).
  const std::string name = name_of(whole);
  FV_VERIFY(whole.xyz.size() % 3 == 0, name << ": node coordinate array size " << whole.xyz.size()
                                            << " is not a multiple of 3");
  FV_VERIFY(whole.cellNodes.rows() == whole.nCells(),
            name << ": " << whole.nCells() << " cell types but " << whole.cellNodes.rows()
                 << " cell node lists");
  whole.cellNodes.check((name + ": cell nodes").c_str());
  if (!whole.polyCell.empty()) {
    whole.polyCellFaces.check((name + ": polyhedron cell faces").c_str());
    whole.polyFaceNodes.check((name + ": polyhedron face nodes").c_str());
  }
  whole.bfaceNodes.check((name + ": boundary face nodes").c_str());
  FV_VERIFY(static_cast<idx_t>(whole.bfacePatch.size()) == whole.nBoundaryFaces(),
            name << ": " << whole.nBoundaryFaces() << " boundary faces but "
                 << whole.bfacePatch.size() << " boundary patch indices");
  MeshSlice s;
  s.nCells = whole.nCells();
  s.nNodes = whole.nNodes();
  s.nBoundaryFaces = whole.nBoundaryFaces();
  s.cellFirst = slice_first(s.nCells, rank, parts);
  s.bfaceFirst = slice_first(s.nBoundaryFaces, rank, parts);
  s.nodeFirst = slice_first(s.nNodes, rank, parts);
  const gidx_t nc = slice_first(s.nCells, rank + 1, parts) - s.cellFirst;
  const gidx_t nb = slice_first(s.nBoundaryFaces, rank + 1, parts) - s.bfaceFirst;
  const gidx_t nn = slice_first(s.nNodes, rank + 1, parts) - s.nodeFirst;
  Mesh& p = s.part;
  p.cellType = range_of(whole.cellType, s.cellFirst, nc);
  p.cellNodes = rows_of(whole.cellNodes, static_cast<idx_t>(s.cellFirst),
                        static_cast<idx_t>(s.cellFirst + nc));
  slice_polyhedra(whole, s.cellFirst, p);
  p.bfaceNodes = rows_of(whole.bfaceNodes, static_cast<idx_t>(s.bfaceFirst),
                         static_cast<idx_t>(s.bfaceFirst + nb));
  p.bfacePatch = range_of(whole.bfacePatch, s.bfaceFirst, nb);
  if (whole.cellFileId.size() == static_cast<std::size_t>(s.nCells))
    p.cellFileId = range_of(whole.cellFileId, s.cellFirst, nc);
  if (whole.bfaceFileId.size() == static_cast<std::size_t>(s.nBoundaryFaces))
    p.bfaceFileId = range_of(whole.bfaceFileId, s.bfaceFirst, nb);
  if (whole.cellFileZone.size() == static_cast<std::size_t>(s.nCells))
    p.cellFileZone = range_of(whole.cellFileZone, s.cellFirst, nc);
  if (whole.bfaceFileZone.size() == static_cast<std::size_t>(s.nBoundaryFaces))
    p.bfaceFileZone = range_of(whole.bfaceFileZone, s.bfaceFirst, nb);
  s.xyz = range_of(whole.xyz, 3 * s.nodeFirst, 3 * nn);
  p.patches = std::move(whole.patches);
  p.nodeSetPatches = std::move(whole.nodeSetPatches);
  p.path = std::move(whole.path);
  p.format = std::move(whole.format);
  p.writer = std::move(whole.writer);
  p.warnings = std::move(whole.warnings);
  p.fileZones = std::move(whole.fileZones);
  p.extrusion = whole.extrusion;
  whole = Mesh();
  return s;
}

MeshSlice read_mesh_slice(const std::string& path, const ReadOptions& opts, int rank, int parts) {
  const MeshFormat* f = detect_mesh_format(path);
  if (f && f->read == &read_cgns) {
    std::optional<MeshSlice> s = read_cgns_slice(path, opts, rank, parts);
    if (s) {
      rename_patches(s->part.patches, opts, path);
      return std::move(*s);
    }
  }
  return slice_mesh(read_mesh(path, opts), rank, parts);
}

} // namespace fv
