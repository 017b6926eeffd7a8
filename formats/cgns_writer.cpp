#include "formats/cgns_writer.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "formats/cgns_file.hpp"

#include <cgnslib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

namespace fv {
namespace {

CGNS_ENUMT(ElementType_t) cgns_type(CellType t) {
  switch (t) {
  case CellType::Tet:
    return CGNS_ENUMV(TETRA_4);
  case CellType::Pyramid:
    return CGNS_ENUMV(PYRA_5);
  case CellType::Prism:
    return CGNS_ENUMV(PENTA_6);
  case CellType::Hex:
    return CGNS_ENUMV(HEXA_8);
  case CellType::Polyhedron:
    break;
  }
  return CGNS_ENUMV(ElementTypeNull);
}

CGNS_ENUMT(ElementType_t) face_type(int n) {
  return n == 3 ? CGNS_ENUMV(TRI_3) : CGNS_ENUMV(QUAD_4);
}

CGNS_ENUMT(BCType_t) bc_type(const std::string& name) {
  for (int t = 0; t < NofValidBCTypes; ++t)
    if (name == BCTypeName[t]) return static_cast<CGNS_ENUMT(BCType_t)>(t);
  return CGNS_ENUMV(BCTypeUserDefined);
}

/// CGNS names are at most 32 characters.
std::string cgns_name(const std::string& s) {
  return s.substr(0, 32);
}

class Writer {
 public:
  Writer(const Mesh& m, std::string path, const CgnsWriteOptions& o)
      : m_(m), path_(std::move(path)), o_(o) {}

  void check(int rc, const char* what) const {
    if (rc != CG_OK)
      FV_THROW(path_ << ": CGNS error while writing " << what << ": " << cg_get_error());
  }

  CgnsWriteInfo write(const std::string& file) {
    CgnsWriteInfo info;
    check(cg_set_file_type(CG_FILE_HDF5), "the file type");
    CgnsFile f;
    check(cg_open(file.c_str(), CG_MODE_WRITE, &f.fn), "(opening the file)");
    fn_ = f.fn;
    check(cg_base_write(fn_, "Base", 3, 3, &B_), "base");
    cgsize_t size[3] = {static_cast<cgsize_t>(m_.nNodes()), static_cast<cgsize_t>(m_.nCells()), 0};
    check(cg_zone_write(fn_, B_, "Zone", size, CGNS_ENUMV(Unstructured), &Z_), "zone");
    write_coordinates();
    info.volumeSections = write_volume();
    info.boundarySections = write_boundary();
    check(cg_goto(fn_, B_, "end"), "descriptor");
    check(cg_descriptor_write("GeneratedBy", o_.generatedBy.c_str()), "descriptor");
    if (o_.extra) o_.extra(fn_, B_, Z_);
    check(cg_close(fn_), "(closing the file)");
    f.fn = -1;
    return info;
  }

 private:
  void write_coordinates() {
    const char* names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
    const std::int64_t n = m_.nNodes();
    const std::int64_t chunk = std::max<std::int64_t>(1, o_.chunk);
    std::vector<double> buf(static_cast<std::size_t>(std::min(n, chunk)));
    for (int d = 0; d < 3; ++d) {
      int C = 0;
      for (std::int64_t s = 0; s < n; s += chunk) {
        const std::int64_t e = std::min(n, s + chunk);
        for (std::int64_t i = s; i < e; ++i)
          buf[static_cast<std::size_t>(i - s)] = m_.xyz[static_cast<std::size_t>(3 * i + d)];
        cgsize_t lo = static_cast<cgsize_t>(s + 1), hi = static_cast<cgsize_t>(e);
        check(cg_coord_partial_write(fn_, B_, Z_, CGNS_ENUMV(RealDouble), names[d], &lo, &hi,
                                     buf.data(), &C),
              names[d]);
      }
    }
  }

  /// A section of fixed element type over rows `rows` of `conn` (all rows when empty).
  void write_fixed(const std::string& name, CGNS_ENUMT(ElementType_t) type, const Csr& conn,
                   const std::vector<idx_t>* rows, std::int64_t count) {
    int npe = 0;
    check(cg_npe(type, &npe), "element size");
    int S = 0;
    const cgsize_t first = static_cast<cgsize_t>(next_);
    check(cg_section_partial_write(fn_, B_, Z_, cgns_name(name).c_str(), type, first,
                                   static_cast<cgsize_t>(next_ + count - 1), 0, &S),
          name.c_str());
    const std::int64_t chunk = std::max<std::int64_t>(1, o_.chunk);
    std::vector<cgsize_t> buf(static_cast<std::size_t>(std::min(count, chunk) * npe));
    for (std::int64_t s = 0; s < count; s += chunk) {
      const std::int64_t e = std::min(count, s + chunk);
      std::size_t k = 0;
      for (std::int64_t i = s; i < e; ++i) {
        const idx_t r = rows ? (*rows)[static_cast<std::size_t>(i)] : static_cast<idx_t>(i);
        const idx_t* nodes = conn.row(r);
        for (int v = 0; v < npe; ++v)
          buf[k++] = static_cast<cgsize_t>(nodes[v]) + 1;
      }
      check(cg_elements_partial_write(fn_, B_, Z_, S, static_cast<cgsize_t>(next_ + s),
                                      static_cast<cgsize_t>(next_ + e - 1), buf.data()),
            name.c_str());
    }
    next_ += count;
  }

  /// A MIXED section over rows `rows` of `conn` with the given CGNS element types.
  void write_mixed(const std::string& name, const Csr& conn, const std::vector<idx_t>& rows,
                   const std::vector<CGNS_ENUMT(ElementType_t)>& types) {
    std::vector<cgsize_t> data, offsets{0};
    std::size_t total = 0;
    for (idx_t r : rows)
      total += static_cast<std::size_t>(conn.size(r)) + 1;
    FV_VERIFY(total <= static_cast<std::size_t>(std::numeric_limits<cgsize_t>::max()),
              path_ << ": section " << name << " has " << total
                    << " connectivity entries, too many for this CGNS library");
    data.reserve(total);
    offsets.reserve(rows.size() + 1);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      data.push_back(static_cast<cgsize_t>(types[i]));
      for (idx_t k = conn.begin(rows[i]); k < conn.end(rows[i]); ++k)
        data.push_back(static_cast<cgsize_t>(conn.indices()[static_cast<std::size_t>(k)]) + 1);
      offsets.push_back(static_cast<cgsize_t>(data.size()));
    }
    int S = 0;
    const auto count = static_cast<std::int64_t>(rows.size());
    check(cg_poly_section_write(
              fn_, B_, Z_, cgns_name(name).c_str(), CGNS_ENUMV(MIXED), static_cast<cgsize_t>(next_),
              static_cast<cgsize_t>(next_ + count - 1), 0, data.data(), offsets.data(), &S),
          name.c_str());
    next_ += count;
  }

  int write_volume() {
    const auto nc = static_cast<std::size_t>(m_.nCells());
    bool present[5] = {false, false, false, false, false};
    for (std::size_t c = 0; c < nc; ++c) {
      const auto t = m_.cellType[c];
      FV_VERIFY(t != CellType::Polyhedron,
                path_ << ": cell " << c << " is a polyhedron; the CGNS writer supports standard "
                      << "cells only (TETRA_4, PYRA_5, PENTA_6, HEXA_8)");
      present[static_cast<int>(t)] = true;
    }
    const int kinds = static_cast<int>(std::count(present, present + 5, true));
    const char* names[4] = {"Tetrahedra", "Pyramids", "Prisms", "Hexahedra"};
    if (kinds == 1) {
      const int t = static_cast<int>(std::find(present, present + 5, true) - present);
      write_fixed(names[t], cgns_type(static_cast<CellType>(t)), m_.cellNodes, nullptr,
                  m_.nCells());
      return 1;
    }
    if (kinds == 0) return 0;
    if (o_.mixedSection) {
      std::vector<idx_t> rows(nc);
      std::vector<CGNS_ENUMT(ElementType_t)> types(nc);
      for (std::size_t c = 0; c < nc; ++c) {
        rows[c] = static_cast<idx_t>(c);
        types[c] = cgns_type(m_.cellType[c]);
      }
      write_mixed("Cells", m_.cellNodes, rows, types);
      return 1;
    }
    int sections = 0;
    for (int t = 0; t < 4; ++t) {
      if (!present[t]) continue;
      std::vector<idx_t> rows;
      for (std::size_t c = 0; c < nc; ++c)
        if (static_cast<int>(m_.cellType[c]) == t) rows.push_back(static_cast<idx_t>(c));
      write_fixed(names[t], cgns_type(static_cast<CellType>(t)), m_.cellNodes, &rows,
                  static_cast<std::int64_t>(rows.size()));
      ++sections;
    }
    return sections;
  }

  int write_boundary() {
    const auto nf = static_cast<std::size_t>(m_.nBoundaryFaces());
    FV_VERIFY(m_.bfacePatch.size() == nf, path_ << ": mesh has " << nf << " boundary faces but "
                                                << m_.bfacePatch.size() << " patch ids");
    std::vector<std::vector<idx_t>> faces(m_.patches.size());
    for (std::size_t f = 0; f < nf; ++f) {
      const idx_t p = m_.bfacePatch[f];
      FV_VERIFY(p >= 0 && static_cast<std::size_t>(p) < m_.patches.size(),
                path_ << ": boundary face " << f << " has patch " << p << " of "
                      << m_.patches.size());
      const idx_t n = m_.bfaceNodes.size(static_cast<idx_t>(f));
      FV_VERIFY(n == 3 || n == 4, path_ << ": boundary face " << f << " has " << n
                                        << " nodes; the CGNS writer supports TRI_3 and QUAD_4");
      faces[static_cast<std::size_t>(p)].push_back(static_cast<idx_t>(f));
    }
    int sections = 0;
    for (std::size_t p = 0; p < m_.patches.size(); ++p) {
      const auto& rows = faces[p];
      const std::string name = m_.patches[p].name;
      if (rows.empty()) continue; // an empty patch has no elements to point at
      const std::int64_t first = next_;
      bool tri = false, quad = false;
      for (idx_t f : rows)
        (m_.bfaceNodes.size(f) == 3 ? tri : quad) = true;
      if (tri && quad) {
        std::vector<CGNS_ENUMT(ElementType_t)> types;
        for (idx_t f : rows)
          types.push_back(face_type(m_.bfaceNodes.size(f)));
        write_mixed(name, m_.bfaceNodes, rows, types);
      } else {
        write_fixed(name, face_type(tri ? 3 : 4), m_.bfaceNodes, &rows,
                    static_cast<std::int64_t>(rows.size()));
      }
      ++sections;
      int BC = 0;
      cgsize_t range[2] = {static_cast<cgsize_t>(first), static_cast<cgsize_t>(next_ - 1)};
      check(cg_boco_write(fn_, B_, Z_, cgns_name(name).c_str(), bc_type(m_.patches[p].bcType),
                          CGNS_ENUMV(PointRange), 2, range, &BC),
            ("BC " + name).c_str());
      check(cg_boco_gridlocation_write(fn_, B_, Z_, BC, CGNS_ENUMV(FaceCenter)),
            ("BC location of " + name).c_str());
    }
    return sections;
  }

  const Mesh& m_;
  std::string path_;
  const CgnsWriteOptions& o_;
  int fn_ = -1, B_ = 0, Z_ = 0;
  std::int64_t next_ = 1; ///< next element id
};

} // namespace

CgnsWriteInfo write_cgns(const Mesh& m, const std::string& path, const CgnsWriteOptions& options) {
  const std::int64_t elements = std::int64_t{m.nCells()} + m.nBoundaryFaces();
  FV_VERIFY(elements <= std::numeric_limits<cgsize_t>::max() &&
                static_cast<std::int64_t>(m.cellNodes.nnz()) <=
                    std::numeric_limits<cgsize_t>::max(),
            path << ": " << elements << " elements are too many for this CGNS library's "
                 << 8 * sizeof(cgsize_t) << "-bit sizes");
  FV_VERIFY(m.cellNodes.rows() == m.nCells(), path << ": mesh has " << m.nCells()
                                                   << " cell types but " << m.cellNodes.rows()
                                                   << " cell connectivity rows");
  AtomicFile out(path);
  Writer w(m, path, options);
  CgnsWriteInfo info = w.write(out.temp_path());
  out.commit();
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  info.fileBytes = ec ? -1 : static_cast<std::int64_t>(bytes);
  return info;
}

} // namespace fv
