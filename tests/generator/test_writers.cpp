// Tests of the CGNS and SU2 writers on generated meshes: files are read back with raw cg_*
// calls (CGNS) or a small parser (SU2), independent of fvkit's readers.
#include "formats/cgns_writer.hpp"
#include "formats/su2_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "tests/testing/testing.hpp"

#include <cgnslib.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fv {
namespace {

Mesh make(MeshFamily f, GenCells c, std::array<std::int64_t, 3> n, bool shuffle = true) {
  GenOptions o;
  o.family = f;
  o.cells = c;
  o.n = n;
  o.shuffle = shuffle;
  o.perturb = 0.2;
  o.seed = 3;
  return generate_mesh(o);
}

/// A CGNS file opened for reading with raw cg_* calls.
struct Reader {
  int fn = -1;
  explicit Reader(const std::string& path) {
    EXPECT_EQ(cg_open(path.c_str(), CG_MODE_READ, &fn), CG_OK) << cg_get_error();
  }
  ~Reader() {
    if (fn >= 0) cg_close(fn);
  }
};

struct Section {
  std::string name;
  CGNS_ENUMT(ElementType_t) type;
  cgsize_t start, end;
  std::vector<cgsize_t> data, offsets; ///< offsets only for MIXED
};

std::vector<Section> read_sections(int fn) {
  int ns = 0;
  EXPECT_EQ(cg_nsections(fn, 1, 1, &ns), CG_OK);
  std::vector<Section> out;
  for (int s = 1; s <= ns; ++s) {
    Section sec;
    char name[33];
    int nb = 0, parent = 0;
    EXPECT_EQ(cg_section_read(fn, 1, 1, s, name, &sec.type, &sec.start, &sec.end, &nb, &parent),
              CG_OK);
    sec.name = name;
    cgsize_t size = 0;
    EXPECT_EQ(cg_ElementDataSize(fn, 1, 1, s, &size), CG_OK);
    sec.data.resize(static_cast<std::size_t>(size));
    if (sec.type == CGNS_ENUMV(MIXED)) {
      sec.offsets.resize(static_cast<std::size_t>(sec.end - sec.start + 2));
      EXPECT_EQ(cg_poly_elements_read(fn, 1, 1, s, sec.data.data(), sec.offsets.data(), nullptr),
                CG_OK);
    } else {
      EXPECT_EQ(cg_elements_read(fn, 1, 1, s, sec.data.data(), nullptr), CG_OK);
    }
    out.push_back(std::move(sec));
  }
  return out;
}

/// Checks zone sizes, coordinates, the boundary sections and the BCs against the mesh;
/// returns the volume sections for the caller's checks.
std::vector<Section> check_common(const Mesh& m, const std::string& path) {
  Reader r(path);
  int nbases = 0, nzones = 0;
  EXPECT_EQ(cg_nbases(r.fn, &nbases), CG_OK);
  EXPECT_EQ(nbases, 1);
  EXPECT_EQ(cg_nzones(r.fn, 1, &nzones), CG_OK);
  EXPECT_EQ(nzones, 1);
  CGNS_ENUMT(ZoneType_t) zt;
  EXPECT_EQ(cg_zone_type(r.fn, 1, 1, &zt), CG_OK);
  EXPECT_EQ(zt, CGNS_ENUMV(Unstructured));
  char zname[33];
  cgsize_t size[3];
  EXPECT_EQ(cg_zone_read(r.fn, 1, 1, zname, size), CG_OK);
  EXPECT_EQ(size[0], m.nNodes());
  EXPECT_EQ(size[1], m.nCells());
  int file_type = 0;
  EXPECT_EQ(cg_get_file_type(r.fn, &file_type), CG_OK);
  EXPECT_EQ(file_type, CG_FILE_HDF5);

  const char* names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
  for (int d = 0; d < 3; ++d) {
    std::vector<double> x(static_cast<std::size_t>(m.nNodes()));
    cgsize_t lo = 1, hi = m.nNodes();
    EXPECT_EQ(cg_coord_read(r.fn, 1, 1, names[d], CGNS_ENUMV(RealDouble), &lo, &hi, x.data()),
              CG_OK);
    idx_t differ = 0;
    for (idx_t i = 0; i < m.nNodes(); ++i)
      differ += x[static_cast<std::size_t>(i)] != m.xyz[3 * static_cast<std::size_t>(i) + d];
    EXPECT_EQ(differ, 0) << names[d];
  }

  auto sections = read_sections(r.fn);
  // element ids are contiguous from 1: cells first, then the boundary faces
  cgsize_t next = 1;
  for (const auto& s : sections) {
    EXPECT_EQ(s.start, next) << s.name;
    next = s.end + 1;
  }
  EXPECT_EQ(next - 1, m.nCells() + m.nBoundaryFaces());

  // boundary sections, one per patch, faces in mesh order; BCs point at them
  int nbc = 0;
  EXPECT_EQ(cg_nbocos(r.fn, 1, 1, &nbc), CG_OK);
  EXPECT_EQ(static_cast<std::size_t>(nbc), m.patches.size());
  std::vector<Section> volume;
  std::size_t p = 0;
  idx_t face = 0;
  for (auto& s : sections) {
    if (s.end <= m.nCells()) {
      volume.push_back(s);
      continue;
    }
    EXPECT_EQ(s.name, m.patches[p].name);
    std::size_t k = 0;
    for (cgsize_t e = s.start; e <= s.end; ++e, ++face) {
      const int n = m.bfaceNodes.size(face);
      if (s.type == CGNS_ENUMV(MIXED)) {
        EXPECT_EQ(s.data[k++], n == 3 ? CGNS_ENUMV(TRI_3) : CGNS_ENUMV(QUAD_4));
      } else {
        EXPECT_EQ(s.type, n == 3 ? CGNS_ENUMV(TRI_3) : CGNS_ENUMV(QUAD_4));
      }
      for (int v = 0; v < n; ++v)
        EXPECT_EQ(s.data[k++], m.bfaceNodes.row(face)[v] + 1);
      EXPECT_EQ(m.bfacePatch[static_cast<std::size_t>(face)], static_cast<idx_t>(p));
    }
    // BC p+1
    char bname[33];
    CGNS_ENUMT(BCType_t) bctype;
    CGNS_ENUMT(PointSetType_t) pst;
    cgsize_t npnts = 0, normalListSize = 0;
    int normalIndex = 0, ndataset = 0;
    CGNS_ENUMT(DataType_t) normalType;
    EXPECT_EQ(cg_boco_info(r.fn, 1, 1, static_cast<int>(p) + 1, bname, &bctype, &pst, &npnts,
                           &normalIndex, &normalListSize, &normalType, &ndataset),
              CG_OK);
    EXPECT_EQ(std::string(bname), m.patches[p].name);
    EXPECT_EQ(std::string(cg_BCTypeName(bctype)), m.patches[p].bcType);
    EXPECT_EQ(pst, CGNS_ENUMV(PointRange));
    EXPECT_EQ(npnts, 2);
    cgsize_t range[2];
    EXPECT_EQ(cg_boco_read(r.fn, 1, 1, static_cast<int>(p) + 1, range, nullptr), CG_OK);
    EXPECT_EQ(range[0], s.start);
    EXPECT_EQ(range[1], s.end);
    CGNS_ENUMT(GridLocation_t) loc;
    EXPECT_EQ(cg_boco_gridlocation_read(r.fn, 1, 1, static_cast<int>(p) + 1, &loc), CG_OK);
    EXPECT_EQ(loc, CGNS_ENUMV(FaceCenter));
    ++p;
  }
  EXPECT_EQ(face, m.nBoundaryFaces());
  // the writer's descriptor
  EXPECT_EQ(cg_goto(r.fn, 1, "end"), CG_OK);
  int nd = 0;
  EXPECT_EQ(cg_ndescriptors(&nd), CG_OK);
  EXPECT_EQ(nd, 1);
  return volume;
}

CGNS_ENUMT(ElementType_t) cgns_of(CellType t) {
  switch (t) {
  case CellType::Tet:
    return CGNS_ENUMV(TETRA_4);
  case CellType::Pyramid:
    return CGNS_ENUMV(PYRA_5);
  case CellType::Prism:
    return CGNS_ENUMV(PENTA_6);
  case CellType::Hex:
    return CGNS_ENUMV(HEXA_8);
  default:
    return CGNS_ENUMV(ElementTypeNull);
  }
}

TEST(CgnsWriter, SingleTypeKeepsCellOrder) {
  for (GenCells c : {GenCells::Hex, GenCells::Tet, GenCells::Prism, GenCells::Pyramid}) {
    SCOPED_TRACE(to_string(c));
    const Mesh m = make(MeshFamily::Channel, c, {6, 3, 2});
    const std::string path = testing::scratch_dir() + "/single.cgns";
    CgnsWriteOptions o;
    o.chunk = 7; // many partial writes
    const auto info = write_cgns(m, path, o);
    EXPECT_EQ(info.volumeSections, 1);
    EXPECT_EQ(info.boundarySections, 6);
    EXPECT_GT(info.fileBytes, 0);
    const auto vol = check_common(m, path);
    ASSERT_EQ(vol.size(), 1u);
    EXPECT_EQ(vol[0].type, cgns_of(m.cellType[0]));
    ASSERT_EQ(vol[0].data.size(), static_cast<std::size_t>(m.cellNodes.nnz()));
    for (std::size_t k = 0; k < vol[0].data.size(); ++k)
      ASSERT_EQ(vol[0].data[k], m.cellNodes.indices()[k] + 1);
  }
}

TEST(CgnsWriter, MixedMeshOneSectionPerType) {
  const Mesh m = make(MeshFamily::Wedge, GenCells::Mixed, {8, 3, 2});
  const std::string path = testing::scratch_dir() + "/mixed_types.cgns";
  CgnsWriteOptions o;
  o.chunk = 5;
  EXPECT_EQ(write_cgns(m, path, o).volumeSections, 4);
  const auto vol = check_common(m, path);
  ASSERT_EQ(vol.size(), 4u);
  const CellType order[4] = {CellType::Tet, CellType::Pyramid, CellType::Prism, CellType::Hex};
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(vol[static_cast<std::size_t>(s)].type, cgns_of(order[s]));
    std::vector<cgsize_t> expect;
    for (idx_t c = 0; c < m.nCells(); ++c)
      if (m.cellType[static_cast<std::size_t>(c)] == order[s])
        for (idx_t k = 0; k < m.cellNodes.size(c); ++k)
          expect.push_back(m.cellNodes.row(c)[k] + 1);
    EXPECT_EQ(vol[static_cast<std::size_t>(s)].data, expect);
  }
}

TEST(CgnsWriter, MixedSectionKeepsCellOrder) {
  const Mesh m = make(MeshFamily::Box, GenCells::Mixed, {8, 2, 3});
  const std::string path = testing::scratch_dir() + "/mixed.cgns";
  CgnsWriteOptions o;
  o.mixedSection = true;
  EXPECT_EQ(write_cgns(m, path, o).volumeSections, 1);
  const auto vol = check_common(m, path);
  ASSERT_EQ(vol.size(), 1u);
  EXPECT_EQ(vol[0].type, CGNS_ENUMV(MIXED));
  std::size_t k = 0;
  for (idx_t c = 0; c < m.nCells(); ++c) {
    EXPECT_EQ(vol[0].offsets[static_cast<std::size_t>(c)], static_cast<cgsize_t>(k));
    EXPECT_EQ(vol[0].data[k++], cgns_of(m.cellType[static_cast<std::size_t>(c)]));
    for (idx_t v = 0; v < m.cellNodes.size(c); ++v)
      ASSERT_EQ(vol[0].data[k++], m.cellNodes.row(c)[v] + 1);
  }
  EXPECT_EQ(k, vol[0].data.size());
}

TEST(CgnsWriter, FailsCleanlyAndLeavesNoTemporary) {
  Mesh m = make(MeshFamily::Box, GenCells::Hex, {2, 2, 2});
  const std::string dir = testing::scratch_dir();
  EXPECT_THROW(write_cgns(m, dir + "/missing/dir/x.cgns"), Error);
  m.cellType[3] = CellType::Polyhedron;
  EXPECT_THROW(write_cgns(m, dir + "/poly.cgns"), Error);
  EXPECT_FALSE(std::filesystem::exists(dir + "/poly.cgns"));
  m.cellType[3] = CellType::Hex;
  write_cgns(m, dir + "/ok.cgns");
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1); // ok.cgns only: no temporaries left behind
}

TEST(Su2Writer, RoundTripByParsing) {
  const Mesh m = make(MeshFamily::Channel, GenCells::Mixed, {8, 2, 2});
  const std::string path = testing::scratch_dir() + "/mesh.su2";
  write_su2(m, path);
  std::ifstream in(path);
  std::string line, key;
  auto value = [&](const char* k) {
    while (std::getline(in, line))
      if (line.rfind(k, 0) == 0) return std::stol(line.substr(std::string(k).size()));
    ADD_FAILURE() << "no " << k;
    return -1L;
  };
  EXPECT_EQ(value("NDIME="), 3);
  ASSERT_EQ(value("NELEM="), m.nCells());
  const std::map<int, CellType> vtk = {
      {10, CellType::Tet}, {12, CellType::Hex}, {13, CellType::Prism}, {14, CellType::Pyramid}};
  const int prism[6] = {0, 2, 1, 3, 5, 4};
  for (idx_t c = 0; c < m.nCells(); ++c) {
    std::getline(in, line);
    std::istringstream ss(line);
    int type = 0;
    ss >> type;
    ASSERT_EQ(vtk.at(type), m.cellType[static_cast<std::size_t>(c)]);
    std::vector<idx_t> nodes(static_cast<std::size_t>(m.cellNodes.size(c)));
    for (auto& v : nodes)
      ss >> v;
    long index = -1;
    ss >> index;
    EXPECT_EQ(index, c);
    for (idx_t v = 0; v < m.cellNodes.size(c); ++v) {
      const idx_t src = vtk.at(type) == CellType::Prism ? prism[v] : v;
      ASSERT_EQ(nodes[static_cast<std::size_t>(src)], m.cellNodes.row(c)[v]) << "cell " << c;
    }
  }
  ASSERT_EQ(value("NPOIN="), m.nNodes());
  for (idx_t i = 0; i < m.nNodes(); ++i) {
    std::getline(in, line);
    std::istringstream ss(line);
    double x[3];
    ss >> x[0] >> x[1] >> x[2];
    for (int d = 0; d < 3; ++d)
      ASSERT_EQ(x[d], m.xyz[3 * static_cast<std::size_t>(i) + d]);
  }
  ASSERT_EQ(value("NMARK="), static_cast<long>(m.patches.size()));
  idx_t face = 0;
  for (const auto& p : m.patches) {
    std::getline(in, line);
    EXPECT_EQ(line, "MARKER_TAG= " + p.name);
    const long n = value("MARKER_ELEMS=");
    for (long f = 0; f < n; ++f, ++face) {
      std::getline(in, line);
      std::istringstream ss(line);
      int type = 0;
      ss >> type;
      EXPECT_EQ(type, m.bfaceNodes.size(face) == 3 ? 5 : 9);
      for (idx_t v = 0; v < m.bfaceNodes.size(face); ++v) {
        idx_t node = -1;
        ss >> node;
        EXPECT_EQ(node, m.bfaceNodes.row(face)[v]);
      }
    }
  }
  EXPECT_EQ(face, m.nBoundaryFaces());
}

} // namespace
} // namespace fv
