#include "tests/readers/mesh_writers.hpp"

#include <cgns_io.h>
#include <cgnslib.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace fv::testing {

namespace {

void cg(int rc, const char* what) {
  if (rc != CG_OK) throw std::runtime_error(std::string(what) + ": " + cg_get_error());
}

int open_for_write(const std::string& path, bool adf) {
  cg(cg_set_file_type(adf ? CG_FILE_ADF : CG_FILE_HDF5), "cg_set_file_type");
  int fn;
  cg(cg_open(path.c_str(), CG_MODE_WRITE, &fn), "cg_open");
  return fn;
}

void write_coords(int fn, int B, int Z, const Box& box, int dims = 3) {
  const char* names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
  for (int d = 0; d < dims; ++d) {
    int C;
    auto x = box.coord(d);
    cg(cg_coord_write(fn, B, Z, RealDouble, names[d], x.data(), &C), "cg_coord_write");
  }
}

std::vector<cgsize_t> to_cg(const std::vector<int>& v) {
  return {v.begin(), v.end()};
}

} // namespace

std::vector<double> Box::coord(int d) const {
  std::vector<double> x(static_cast<std::size_t>(nNodes()));
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        x[node(i, j, k) - 1] = d == 0 ? x0 + i : d == 1 ? j : k;
  return x;
}

std::vector<int> Box::hexes() const {
  std::vector<int> h;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (int kk = 0; kk < 2; ++kk) {
          h.push_back(node(i, j, k + kk));
          h.push_back(node(i + 1, j, k + kk));
          h.push_back(node(i + 1, j + 1, k + kk));
          h.push_back(node(i, j + 1, k + kk));
        }
  return h;
}

std::vector<int> Box::side(int s) const {
  std::vector<int> q;
  auto add = [&](int a, int b, int c, int d) { q.insert(q.end(), {a, b, c, d}); };
  if (s < 2) {
    const int i = s == 0 ? 0 : nx;
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        add(node(i, j, k), node(i, j + 1, k), node(i, j + 1, k + 1), node(i, j, k + 1));
  } else if (s < 4) {
    const int j = s == 2 ? 0 : ny;
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nx; ++i)
        add(node(i, j, k), node(i + 1, j, k), node(i + 1, j, k + 1), node(i, j, k + 1));
  } else {
    const int k = s == 4 ? 0 : nz;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        add(node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k));
  }
  return q;
}

const char* Box::side_name(int s) {
  static const char* n[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  return n[s];
}

namespace {

/// Writes one box zone with its 6 side sections and BCs; returns the zone index.
int write_box_zone(int fn, int B, const char* zname, const Box& box, BcStyle style, bool mixed,
                   const std::vector<int>& skipBcSides = {}, const char* ifaceName = nullptr,
                   int ifaceSide = -1, bool sideSections = true) {
  cgsize_t size[3] = {box.nNodes(), box.nCells(), 0};
  int Z;
  cg(cg_zone_write(fn, B, zname, size, Unstructured, &Z), "cg_zone_write");
  write_coords(fn, B, Z, box);
  int S;
  auto hex = to_cg(box.hexes());
  cgsize_t next = 1;
  const cgsize_t nc = box.nCells();
  if (mixed) {
    std::vector<cgsize_t> conn, off{0};
    for (cgsize_t c = 0; c < nc; ++c) {
      conn.push_back(HEXA_8);
      conn.insert(conn.end(), hex.begin() + 8 * c, hex.begin() + 8 * c + 8);
      off.push_back(static_cast<cgsize_t>(conn.size()));
    }
    cg(cg_poly_section_write(fn, B, Z, "Cells", MIXED, 1, nc, 0, conn.data(), off.data(), &S),
       "mixed");
  } else {
    cg(cg_section_write(fn, B, Z, "Cells", HEXA_8, 1, nc, 0, hex.data(), &S), "hexa");
  }
  next = nc + 1;
  for (int s = 0; s < 6; ++s) {
    auto q = to_cg(box.side(s));
    const cgsize_t nq = static_cast<cgsize_t>(q.size() / 4);
    const std::string name = s == ifaceSide ? ifaceName : Box::side_name(s);
    if (!sideSections) {
      // no boundary elements: only the BC node sets describe the boundary
    } else if (mixed) {
      std::vector<cgsize_t> conn, off{0};
      for (cgsize_t f = 0; f < nq; ++f) {
        conn.push_back(QUAD_4);
        conn.insert(conn.end(), q.begin() + 4 * f, q.begin() + 4 * f + 4);
        off.push_back(static_cast<cgsize_t>(conn.size()));
      }
      cg(cg_poly_section_write(fn, B, Z, name.c_str(), MIXED, next, next + nq - 1, 0, conn.data(),
                               off.data(), &S),
         "mixed quads");
    } else {
      cg(cg_section_write(fn, B, Z, name.c_str(), QUAD_4, next, next + nq - 1, 0, q.data(), &S),
         "quads");
    }
    const bool skip =
        s == ifaceSide || std::find(skipBcSides.begin(), skipBcSides.end(), s) != skipBcSides.end();
    if (style != BcStyle::None && !skip) {
      int BC;
      const std::string bcName = std::string("bc_") + Box::side_name(s);
      if (style == BcStyle::PointListVertex) {
        std::vector<cgsize_t> nodes(q.begin(), q.end());
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        cg(cg_boco_write(fn, B, Z, bcName.c_str(), BCWall, PointList,
                         static_cast<cgsize_t>(nodes.size()), nodes.data(), &BC),
           "boco");
        cg(cg_boco_gridlocation_write(fn, B, Z, BC, Vertex), "loc");
      } else if (style == BcStyle::ElementList) {
        std::vector<cgsize_t> ids;
        for (cgsize_t f = 0; f < nq; ++f)
          ids.push_back(next + f);
        cg(cg_boco_write(fn, B, Z, bcName.c_str(), BCOutflow, ElementList,
                         static_cast<cgsize_t>(ids.size()), ids.data(), &BC),
           "boco");
      } else {
        cgsize_t range[2] = {next, next + nq - 1};
        const bool fam = style == BcStyle::FamilySpecified;
        cg(cg_boco_write(fn, B, Z, bcName.c_str(), fam ? FamilySpecified : BCInflow, PointRange, 2,
                         range, &BC),
           "boco");
        cg(cg_boco_gridlocation_write(fn, B, Z, BC, FaceCenter), "loc");
        if (fam) {
          cg(cg_goto(fn, B, "Zone_t", Z, "ZoneBC_t", 1, "BC_t", BC, "end"), "goto");
          const std::string famName = std::string("fam_") + Box::side_name(s);
          cg(cg_famname_write(famName.c_str()), "famname");
        }
      }
    }
    next += nq;
  }
  return Z;
}

} // namespace

void write_box_cgns(const std::string& path, const Box& box, BcStyle style, bool mixed, bool adf,
                    bool sideSections) {
  const int fn = open_for_write(path, adf);
  int B;
  cg(cg_base_write(fn, "Base", 3, 3, &B), "base");
  if (style == BcStyle::FamilySpecified)
    for (int s = 0; s < 6; ++s) {
      int F, FB;
      const std::string famName = std::string("fam_") + Box::side_name(s);
      cg(cg_family_write(fn, B, famName.c_str(), &F), "family");
      cg(cg_fambc_write(fn, B, F, "FamBC", s == 0 ? BCInflowSubsonic : BCWallViscous, &FB),
         "fambc");
    }
  write_box_zone(fn, B, "Box", box, style, mixed, {}, nullptr, -1, sideSections);
  cg(cg_close(fn), "close");
}

void write_two_zone_cgns(const std::string& path, bool withConnectivity) {
  const int fn = open_for_write(path, false);
  int B;
  cg(cg_base_write(fn, "Base", 3, 3, &B), "base");
  Box a, b;
  b.x0 = 2;
  const int Za = write_box_zone(fn, B, "left", a, BcStyle::PointRangeFace, false, {}, "iface", 1);
  const int Zb = write_box_zone(fn, B, "right", b, BcStyle::PointRangeFace, false, {}, "iface2", 0);
  if (withConnectivity) {
    std::vector<cgsize_t> pa, pb;
    for (int k = 0; k <= a.nz; ++k)
      for (int j = 0; j <= a.ny; ++j) {
        pa.push_back(a.node(a.nx, j, k));
        pb.push_back(b.node(0, j, k));
      }
    const cgsize_t n = static_cast<cgsize_t>(pa.size());
    int I;
    cg(cg_conn_write(fn, B, Za, "toRight", Vertex, Abutting1to1, PointList, n, pa.data(), "right",
                     Unstructured, PointListDonor, Integer, n, pb.data(), &I),
       "conn");
    cg(cg_conn_write(fn, B, Zb, "toLeft", Vertex, Abutting1to1, PointList, n, pb.data(), "left",
                     Unstructured, PointListDonor, Integer, n, pa.data(), &I),
       "conn");
  }
  cg(cg_close(fn), "close");
}

void write_box_ngon_cgns(const std::string& path, const Box& box, bool dropFaceOfCell1) {
  static const int kHexFaces[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                                      {2, 3, 7, 6}, {0, 4, 7, 3}, {4, 5, 6, 7}};
  auto hex = box.hexes();
  std::map<std::vector<int>, int> faceId;
  std::vector<std::vector<int>> faces;
  std::vector<int> faceUse;
  std::vector<std::vector<cgsize_t>> cells;
  for (int c = 0; c < box.nCells(); ++c) {
    std::vector<cgsize_t> cf;
    for (int f = 0; f < 6; ++f) {
      if (dropFaceOfCell1 && c == 0 && f == 0) continue;
      std::vector<int> nodes;
      for (int k = 0; k < 4; ++k)
        nodes.push_back(hex[8 * c + kHexFaces[f][k]]);
      auto key = nodes;
      std::sort(key.begin(), key.end());
      auto it = faceId.find(key);
      if (it == faceId.end()) {
        faces.push_back(nodes);
        faceUse.push_back(0);
        it = faceId.emplace(key, static_cast<int>(faces.size())).first;
        cf.push_back(it->second);
      } else {
        cf.push_back(-it->second);
      }
      ++faceUse[it->second - 1];
    }
    cells.push_back(cf);
  }
  const int fn = open_for_write(path, false);
  int B, Z, S;
  cg(cg_base_write(fn, "Base", 3, 3, &B), "base");
  const cgsize_t nf = static_cast<cgsize_t>(faces.size()), nc = box.nCells();
  cgsize_t size[3] = {box.nNodes(), nc, 0};
  cg(cg_zone_write(fn, B, "Poly", size, Unstructured, &Z), "zone");
  write_coords(fn, B, Z, box);
  std::vector<cgsize_t> conn, off{0};
  for (auto& f : faces) {
    conn.insert(conn.end(), f.begin(), f.end());
    off.push_back(static_cast<cgsize_t>(conn.size()));
  }
  cg(cg_poly_section_write(fn, B, Z, "Faces", NGON_n, 1, nf, 0, conn.data(), off.data(), &S),
     "ngon");
  conn.clear();
  off.assign(1, 0);
  for (auto& c : cells) {
    for (cgsize_t f : c)
      conn.push_back(f < 0 ? f : f);
    off.push_back(static_cast<cgsize_t>(conn.size()));
  }
  cg(cg_poly_section_write(fn, B, Z, "Cells", NFACE_n, nf + 1, nf + nc, 0, conn.data(), off.data(),
                           &S),
     "nface");
  // one BC per box side, by face centroid
  const auto x = box.coord(0), y = box.coord(1), z = box.coord(2);
  std::vector<std::vector<cgsize_t>> sideFaces(6);
  for (cgsize_t f = 0; f < nf; ++f) {
    if (faceUse[f] != 1) continue;
    double c[3] = {0, 0, 0};
    for (int v : faces[f]) {
      c[0] += x[v - 1] / 4;
      c[1] += y[v - 1] / 4;
      c[2] += z[v - 1] / 4;
    }
    int s = 0;
    if (c[0] == box.x0)
      s = 0;
    else if (c[0] == box.x0 + box.nx)
      s = 1;
    else if (c[1] == 0)
      s = 2;
    else if (c[1] == box.ny)
      s = 3;
    else if (c[2] == 0)
      s = 4;
    else if (c[2] == box.nz)
      s = 5;
    else
      s = 0; // inner face left open by dropFaceOfCell1
    sideFaces[s].push_back(f + 1);
  }
  for (int s = 0; s < 6; ++s) {
    if (sideFaces[s].empty()) continue;
    int BC;
    const std::string n = std::string("bc_") + Box::side_name(s);
    cg(cg_boco_write(fn, B, Z, n.c_str(), BCWall, PointList,
                     static_cast<cgsize_t>(sideFaces[s].size()), sideFaces[s].data(), &BC),
       "boco");
    cg(cg_boco_gridlocation_write(fn, B, Z, BC, FaceCenter), "loc");
  }
  cg(cg_close(fn), "close");
}

void write_2d_cgns(const std::string& path, int nx, int ny) {
  const int fn = open_for_write(path, false);
  int B, Z, S, C;
  cg(cg_base_write(fn, "Base2D", 2, 2, &B), "base");
  const cgsize_t nv = (nx + 1) * (ny + 1), nc = nx * ny;
  cgsize_t size[3] = {nv, nc, 0};
  cg(cg_zone_write(fn, B, "Plane", size, Unstructured, &Z), "zone");
  std::vector<double> x(static_cast<std::size_t>(nv)), y(static_cast<std::size_t>(nv));
  auto node = [&](int i, int j) { return static_cast<cgsize_t>(1 + i + (nx + 1) * j); };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      x[node(i, j) - 1] = 0.5 * i;
      y[node(i, j) - 1] = 0.25 * j;
    }
  cg(cg_coord_write(fn, B, Z, RealDouble, "CoordinateX", x.data(), &C), "x");
  cg(cg_coord_write(fn, B, Z, RealDouble, "CoordinateY", y.data(), &C), "y");
  std::vector<cgsize_t> q;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) // clockwise on purpose: the reader must orient cells
      q.insert(q.end(), {node(i, j), node(i, j + 1), node(i + 1, j + 1), node(i + 1, j)});
  cg(cg_section_write(fn, B, Z, "Quads", QUAD_4, 1, nc, 0, q.data(), &S), "quads");
  cgsize_t next = nc + 1;
  const char* names[4] = {"south", "north", "west", "east"};
  for (int s = 0; s < 4; ++s) {
    std::vector<cgsize_t> e;
    if (s < 2)
      for (int i = 0; i < nx; ++i)
        e.insert(e.end(), {node(i, s ? ny : 0), node(i + 1, s ? ny : 0)});
    else
      for (int j = 0; j < ny; ++j)
        e.insert(e.end(), {node(s == 3 ? nx : 0, j), node(s == 3 ? nx : 0, j + 1)});
    const cgsize_t ne = static_cast<cgsize_t>(e.size() / 2);
    cg(cg_section_write(fn, B, Z, names[s], BAR_2, next, next + ne - 1, 0, e.data(), &S), "bars");
    if (s != 3) { // "east" has no BC: becomes a patch named after its section
      cgsize_t range[2] = {next, next + ne - 1};
      int BC;
      cg(cg_boco_write(fn, B, Z, names[s], s == 0 ? BCWall : BCFarfield, PointRange, 2, range, &BC),
         "boco");
      cg(cg_boco_gridlocation_write(fn, B, Z, BC, EdgeCenter), "loc");
    }
    next += ne;
  }
  cg(cg_close(fn), "close");
}

std::string su2_box(const Box& box, bool twoD) {
  std::ostringstream os;
  os.precision(17);
  const auto x = box.coord(0), y = box.coord(1), z = box.coord(2);
  if (twoD) {
    const int nx = box.nx, ny = box.ny;
    auto node = [&](int i, int j) { return i + (nx + 1) * j; };
    os << "% 2D test mesh\nNDIME= 2\nNELEM= " << nx * ny << "\n";
    int e = 0;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        os << "9 " << node(i, j) << " " << node(i + 1, j) << " " << node(i + 1, j + 1) << " "
           << node(i, j + 1) << " " << e++ << "\n";
    os << "NPOIN= " << (nx + 1) * (ny + 1) << "\n";
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        os << i << " " << j << " " << node(i, j) << "\n";
    os << "NMARK= 4\n";
    os << "MARKER_TAG= lower\nMARKER_ELEMS= " << nx << "\n";
    for (int i = 0; i < nx; ++i)
      os << "3 " << node(i, 0) << " " << node(i + 1, 0) << "\n";
    os << "MARKER_TAG= upper\nMARKER_ELEMS= " << nx << "\n";
    for (int i = 0; i < nx; ++i)
      os << "3 " << node(i, ny) << " " << node(i + 1, ny) << "\n";
    os << "MARKER_TAG= left\nMARKER_ELEMS= " << ny << "\n";
    for (int j = 0; j < ny; ++j)
      os << "3 " << node(0, j) << " " << node(0, j + 1) << "\n";
    os << "MARKER_TAG= right\nMARKER_ELEMS= " << ny << "\n";
    for (int j = 0; j < ny; ++j)
      os << "3 " << node(nx, j) << " " << node(nx, j + 1) << "\n";
    return os.str();
  }
  const auto hex = box.hexes();
  os << "NDIME= 3\nNELEM= " << box.nCells() << "\n";
  for (int c = 0; c < box.nCells(); ++c) {
    os << "12";
    for (int k = 0; k < 8; ++k)
      os << "\t" << hex[8 * c + k] - 1;
    os << "\t" << c << "\n";
  }
  os << "NPOIN= " << box.nNodes() << "\n";
  for (int i = 0; i < box.nNodes(); ++i)
    os << x[i] << "\t" << y[i] << "\t" << z[i] << "\t" << i << "\n";
  os << "NMARK= 6\n";
  for (int s = 0; s < 6; ++s) {
    const auto q = box.side(s);
    os << "MARKER_TAG= " << Box::side_name(s) << "\nMARKER_ELEMS= " << q.size() / 4 << "\n";
    for (std::size_t f = 0; f < q.size() / 4; ++f)
      os << "9 " << q[4 * f] - 1 << " " << q[4 * f + 1] - 1 << " " << q[4 * f + 2] - 1 << " "
         << q[4 * f + 3] - 1 << "\n";
  }
  os << "FFD_NBOX= 1\nFFD_NLEVEL= 1\nFFD_TAG= BOX\nFFD_CORNER_POINTS= 2\n0 0 0\n1 1 1\n";
  return os.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

namespace {
template <class T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}
} // namespace

void write_box_gmsh(const std::string& path, const Box& box, double version, bool binary) {
  const auto x = box.coord(0), y = box.coord(1), z = box.coord(2);
  const auto hex = box.hexes();
  std::string s;
  std::ostringstream os;
  os.precision(17);
  const bool v4 = version > 3;
  os << "$MeshFormat\n" << (v4 ? "4.1" : "2.2") << " " << (binary ? 1 : 0) << " 8\n";
  s = os.str();
  if (binary) {
    put<int>(s, 1);
    s += "\n";
  }
  s += "$EndMeshFormat\n$PhysicalNames\n7\n";
  for (int p = 0; p < 6; ++p)
    s += "2 " + std::to_string(p + 1) + " \"" + Box::side_name(p) + "\"\n";
  s += "3 7 \"fluid\"\n$EndPhysicalNames\n";
  const int nn = box.nNodes(), nc = box.nCells();
  int nb = 0;
  for (int p = 0; p < 6; ++p)
    nb += static_cast<int>(box.side(p).size() / 4);
  auto num = [&](double v) {
    std::ostringstream o;
    o.precision(17);
    o << v;
    return o.str();
  };
  if (!v4) {
    s += "$Nodes\n" + std::to_string(nn) + "\n";
    for (int i = 0; i < nn; ++i) {
      if (binary) {
        put<int>(s, i + 1);
        put<double>(s, x[i]);
        put<double>(s, y[i]);
        put<double>(s, z[i]);
      } else {
        s += std::to_string(i + 1) + " " + num(x[i]) + " " + num(y[i]) + " " + num(z[i]) + "\n";
      }
    }
    s += (binary ? "\n" : "") + std::string("$EndNodes\n$Elements\n") + std::to_string(nb + nc) +
         "\n";
    int id = 1;
    for (int p = 0; p < 6; ++p) {
      const auto q = box.side(p);
      const int n = static_cast<int>(q.size() / 4);
      if (binary) {
        put<int>(s, 3);
        put<int>(s, n);
        put<int>(s, 2);
      }
      for (int f = 0; f < n; ++f) {
        if (binary) {
          put<int>(s, id++);
          put<int>(s, p + 1);
          put<int>(s, p + 1);
          for (int k = 0; k < 4; ++k)
            put<int>(s, q[4 * f + k]);
        } else {
          s += std::to_string(id++) + " 3 2 " + std::to_string(p + 1) + " " + std::to_string(p + 1);
          for (int k = 0; k < 4; ++k)
            s += " " + std::to_string(q[4 * f + k]);
          s += "\n";
        }
      }
    }
    if (binary) {
      put<int>(s, 5);
      put<int>(s, nc);
      put<int>(s, 2);
    }
    for (int c = 0; c < nc; ++c) {
      if (binary) {
        put<int>(s, id++);
        put<int>(s, 7);
        put<int>(s, 1);
        for (int k = 0; k < 8; ++k)
          put<int>(s, hex[8 * c + k]);
      } else {
        s += std::to_string(id++) + " 5 2 7 1";
        for (int k = 0; k < 8; ++k)
          s += " " + std::to_string(hex[8 * c + k]);
        s += "\n";
      }
    }
    s += (binary ? "\n" : "") + std::string("$EndElements\n");
  } else {
    // entities: 6 surfaces (tag p+1, physical p+1), 1 volume (tag 1, physical 7)
    s += "$Entities\n";
    if (binary) {
      for (std::uint64_t c : {0, 0, 6, 1})
        put<std::uint64_t>(s, c);
      for (int p = 0; p < 6; ++p) {
        put<int>(s, p + 1);
        for (int k = 0; k < 6; ++k)
          put<double>(s, 0.0);
        put<std::uint64_t>(s, 1);
        put<int>(s, p + 1);
        put<std::uint64_t>(s, 0);
      }
      put<int>(s, 1);
      for (int k = 0; k < 6; ++k)
        put<double>(s, 0.0);
      put<std::uint64_t>(s, 1);
      put<int>(s, 7);
      put<std::uint64_t>(s, 6);
      for (int p = 0; p < 6; ++p)
        put<int>(s, p + 1);
      s += "\n";
    } else {
      s += "0 0 6 1\n";
      for (int p = 0; p < 6; ++p)
        s += std::to_string(p + 1) + " 0 0 0 0 0 0 1 " + std::to_string(p + 1) + " 0\n";
      s += "1 0 0 0 0 0 0 1 7 6 1 2 3 4 5 6\n";
    }
    s += "$EndEntities\n$Nodes\n";
    if (binary) {
      for (std::uint64_t c :
           {std::uint64_t(1), std::uint64_t(nn), std::uint64_t(1), std::uint64_t(nn)})
        put<std::uint64_t>(s, c);
      put<int>(s, 3);
      put<int>(s, 1);
      put<int>(s, 0);
      put<std::uint64_t>(s, static_cast<std::uint64_t>(nn));
      for (int i = 0; i < nn; ++i)
        put<std::uint64_t>(s, static_cast<std::uint64_t>(i + 1));
      for (int i = 0; i < nn; ++i) {
        put<double>(s, x[i]);
        put<double>(s, y[i]);
        put<double>(s, z[i]);
      }
      s += "\n";
    } else {
      s += "1 " + std::to_string(nn) + " 1 " + std::to_string(nn) + "\n3 1 0 " +
           std::to_string(nn) + "\n";
      for (int i = 0; i < nn; ++i)
        s += std::to_string(i + 1) + "\n";
      for (int i = 0; i < nn; ++i)
        s += num(x[i]) + " " + num(y[i]) + " " + num(z[i]) + "\n";
    }
    s += "$EndNodes\n$Elements\n";
    const std::uint64_t total = static_cast<std::uint64_t>(nb + nc);
    if (binary) {
      for (std::uint64_t c : {std::uint64_t(7), total, std::uint64_t(1), total})
        put<std::uint64_t>(s, c);
    } else {
      s += "7 " + std::to_string(total) + " 1 " + std::to_string(total) + "\n";
    }
    std::uint64_t id = 1;
    for (int p = 0; p < 6; ++p) {
      const auto q = box.side(p);
      const int n = static_cast<int>(q.size() / 4);
      if (binary) {
        put<int>(s, 2);
        put<int>(s, p + 1);
        put<int>(s, 3);
        put<std::uint64_t>(s, static_cast<std::uint64_t>(n));
      } else {
        s += "2 " + std::to_string(p + 1) + " 3 " + std::to_string(n) + "\n";
      }
      for (int f = 0; f < n; ++f) {
        if (binary) {
          put<std::uint64_t>(s, id++);
          for (int k = 0; k < 4; ++k)
            put<std::uint64_t>(s, static_cast<std::uint64_t>(q[4 * f + k]));
        } else {
          s += std::to_string(id++);
          for (int k = 0; k < 4; ++k)
            s += " " + std::to_string(q[4 * f + k]);
          s += "\n";
        }
      }
    }
    if (binary) {
      put<int>(s, 3);
      put<int>(s, 1);
      put<int>(s, 5);
      put<std::uint64_t>(s, static_cast<std::uint64_t>(nc));
    } else {
      s += "3 1 5 " + std::to_string(nc) + "\n";
    }
    for (int c = 0; c < nc; ++c) {
      if (binary) {
        put<std::uint64_t>(s, id++);
        for (int k = 0; k < 8; ++k)
          put<std::uint64_t>(s, static_cast<std::uint64_t>(hex[8 * c + k]));
      } else {
        s += std::to_string(id++);
        for (int k = 0; k < 8; ++k)
          s += " " + std::to_string(hex[8 * c + k]);
        s += "\n";
      }
    }
    s += (binary ? "\n" : "") + std::string("$EndElements\n");
  }
  write_text(path, s);
}

} // namespace fv::testing

namespace fv::testing {

void write_box_higher_order_cgns(const std::string& path, const Box& box) {
  const int fn = open_for_write(path, false);
  int B, Z, S;
  cg(cg_base_write(fn, "Base", 3, 3, &B), "base");
  cgsize_t size[3] = {box.nNodes(), box.nCells(), 0};
  cg(cg_zone_write(fn, B, "HO", size, Unstructured, &Z), "zone");
  write_coords(fn, B, Z, box);
  const auto hex = box.hexes();
  std::vector<cgsize_t> conn;
  for (int c = 0; c < box.nCells(); ++c) {
    conn.insert(conn.end(), hex.begin() + 8 * c, hex.begin() + 8 * c + 8);
    conn.insert(conn.end(), 19, 1);
  }
  const cgsize_t nc = box.nCells();
  cg(cg_section_write(fn, B, Z, "Hex27", HEXA_27, 1, nc, 0, conn.data(), &S), "hexa27");
  cgsize_t next = nc + 1;
  for (int s = 0; s < 6; ++s) {
    const auto q = box.side(s);
    std::vector<cgsize_t> c9;
    for (std::size_t f = 0; f < q.size() / 4; ++f) {
      c9.insert(c9.end(), q.begin() + 4 * f, q.begin() + 4 * f + 4);
      c9.insert(c9.end(), 5, 1);
    }
    const cgsize_t nq = static_cast<cgsize_t>(q.size() / 4);
    cg(cg_section_write(fn, B, Z, Box::side_name(s), QUAD_9, next, next + nq - 1, 0, c9.data(), &S),
       "quad9");
    next += nq;
  }
  cgsize_t bar[4] = {1, 2, 2, 3};
  cg(cg_section_write(fn, B, Z, "edges", BAR_2, next, next + 1, 0, bar, &S), "bar");
  cgsize_t pts[1] = {1};
  cg(cg_section_write(fn, B, Z, "corner", NODE, next + 2, next + 2, 0, pts, &S), "node");
  cg(cg_close(fn), "close");
}

namespace {

/// Writes a structured zone of ni*nj*nk vertices whose coordinates come from xyz(i, j, k)
/// (1-based); nk = 0 writes a 2D zone of ni*nj vertices.
template <class F>
int write_structured_zone(int fn, int B, const char* name, int ni, int nj, int nk, F&& xyz) {
  const bool twoD = nk == 0;
  const int kk = twoD ? 1 : nk;
  std::vector<cgsize_t> size;
  if (twoD)
    size = {ni, nj, ni - 1, nj - 1, 0, 0};
  else
    size = {ni, nj, nk, ni - 1, nj - 1, nk - 1, 0, 0, 0};
  int Z, C;
  cg(cg_zone_write(fn, B, name, size.data(), Structured, &Z), "zone");
  for (int d = 0; d < (twoD ? 2 : 3); ++d) {
    std::vector<double> c;
    for (int k = 1; k <= kk; ++k)
      for (int j = 1; j <= nj; ++j)
        for (int i = 1; i <= ni; ++i)
          c.push_back(xyz(i, j, k)[d]);
    const char* names[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
    cg(cg_coord_write(fn, B, Z, RealDouble, names[d], c.data(), &C), "coord");
  }
  return Z;
}

} // namespace

void write_structured_cgns(const std::string& path, bool bothSides) {
  const int fn = open_for_write(path, false);
  int B, I, BC;
  cg(cg_base_write(fn, "Base", 3, 3, &B), "base");
  // left: x in [0, 2], right-handed (i = x, j = y, k = z)
  const int Za = write_structured_zone(fn, B, "left", 3, 3, 3, [](int i, int j, int k) {
    return std::array<double, 3>{i - 1.0, j - 1.0, k - 1.0};
  });
  // right: x in [2, 4], left-handed (i = -y, j = x, k = -z)
  const int Zb = write_structured_zone(fn, B, "right", 3, 3, 3, [](int i, int j, int k) {
    return std::array<double, 3>{j + 1.0, 3.0 - i, 3.0 - k};
  });
  // interface x = 2: left's imax face; (iA, jA, kA) -> (4 - jA, iA - 2, 4 - kA)
  cgsize_t ra[6] = {3, 1, 1, 3, 3, 3}, rb[6] = {3, 1, 3, 1, 1, 1};
  int ta[3] = {2, -1, -3};
  cg(cg_1to1_write(fn, B, Za, "toRight", "right", ra, rb, ta, &I), "1to1");
  if (bothSides) {
    // the inverse: (iB, jB, kB) -> (jB + 2, 4 - iB, 4 - kB)
    cgsize_t rb2[6] = {1, 1, 1, 3, 1, 3}, ra2[6] = {3, 3, 3, 3, 1, 1};
    int tb[3] = {-2, 1, -3};
    cg(cg_1to1_write(fn, B, Zb, "toLeft", "left", rb2, ra2, tb, &I), "1to1");
  }
  // inlet x = 0 at vertices (left imin), outlet x = 4 at face centres (right jmax), wall
  // z = 0 as a vertex point list on both zones (left kmin, right kmax)
  cgsize_t inlet[6] = {1, 1, 1, 1, 3, 3};
  cg(cg_boco_write(fn, B, Za, "inlet", BCInflow, PointRange, 2, inlet, &BC), "bc");
  cgsize_t outlet[6] = {1, 3, 1, 2, 3, 2};
  cg(cg_boco_write(fn, B, Zb, "outlet", BCOutflow, PointRange, 2, outlet, &BC), "bc");
  cg(cg_boco_gridlocation_write(fn, B, Zb, BC, JFaceCenter), "bc location");
  for (int z = 0; z < 2; ++z) {
    std::vector<cgsize_t> pts;
    for (int j = 1; j <= 3; ++j)
      for (int i = 1; i <= 3; ++i)
        pts.insert(pts.end(), {i, j, z == 0 ? 1 : 3});
    cg(cg_boco_write(fn, B, z == 0 ? Za : Zb, "floor", BCWall, PointList, 9, pts.data(), &BC),
       "bc");
  }
  cg(cg_close(fn), "close");
}

void write_structured_ring_cgns(const std::string& path, int ni, int nj) {
  const int fn = open_for_write(path, true);
  int B, I, BC;
  cg(cg_base_write(fn, "Base", 2, 2, &B), "base");
  const double pi = 3.14159265358979323846;
  const int Z = write_structured_zone(fn, B, "ring", ni, nj, 0, [&](int i, int j, int) {
    const double t = 2 * pi * (i - 1) / (ni - 1), r = 1.0 + (j - 1);
    return std::array<double, 3>{r * std::cos(t), r * std::sin(t), 0.0};
  });
  cgsize_t cut[4] = {1, 1, 1, nj}, donor[4] = {ni, 1, ni, nj};
  int t[2] = {1, 2};
  cg(cg_1to1_write(fn, B, Z, "cut", "ring", cut, donor, t, &I), "1to1");
  cgsize_t wall[4] = {1, 1, ni, 1};
  cg(cg_boco_write(fn, B, Z, "wall", BCWallInviscid, PointRange, 2, wall, &BC), "bc");
  cgsize_t far[4] = {1, nj, ni, nj};
  cg(cg_boco_write(fn, B, Z, "farfield", BCFarfield, PointRange, 2, far, &BC), "bc");
  cg(cg_close(fn), "close");
}

void write_hybrid_cgns(const std::string& path) {
  const int fn = open_for_write(path, false);
  int B, I, BC;
  cg(cg_base_write(fn, "Base", 3, 3, &B), "base");
  // structured block x in [0, 2] (i = x, j = y, k = z), 3 x 3 x 3 vertices
  const int Zs = write_structured_zone(fn, B, "block", 3, 3, 3, [](int i, int j, int k) {
    return std::array<double, 3>{i - 1.0, j - 1.0, k - 1.0};
  });
  cgsize_t inlet[6] = {1, 1, 1, 1, 3, 3};
  cg(cg_boco_write(fn, B, Zs, "inlet", BCInflow, PointRange, 2, inlet, &BC), "bc");
  // unstructured hexahedra x in [2, 4]; its x = 2 side is a boundary section without a BC
  Box b;
  b.x0 = 2;
  write_box_zone(fn, B, "unstructured", b, BcStyle::PointRangeFace, false, {0}, "iface", 0);
  // the interface from the structured side: its imax vertex range, the donor's node ids in
  // the range's order (i fastest, then j, then k)
  cgsize_t range[6] = {3, 1, 1, 3, 3, 3};
  std::vector<cgsize_t> donor;
  for (int k = 0; k <= 2; ++k)
    for (int j = 0; j <= 2; ++j)
      donor.push_back(b.node(0, j, k));
  cg(cg_conn_write(fn, B, Zs, "toUnstructured", Vertex, Abutting1to1, PointRange, 2, range,
                   "unstructured", Unstructured, PointListDonor, Integer,
                   static_cast<cgsize_t>(donor.size()), donor.data(), &I),
     "conn");
  cg(cg_close(fn), "close");
}

void strip_element_start_offsets(const std::string& path) {
  int fn = -1, cgio = -1;
  cg(cg_open(path.c_str(), CG_MODE_MODIFY, &fn), "open");
  cg(cg_get_cgio(fn, &cgio), "cgio");
  double root = 0;
  cg(cg_root_id(fn, &root), "root");
  int nb = 0;
  cg(cg_nbases(fn, &nb), "bases");
  for (int B = 1; B <= nb; ++B) {
    char bn[33];
    int cd, pd, nz = 0;
    cg(cg_base_read(fn, B, bn, &cd, &pd), "base");
    cg(cg_nzones(fn, B, &nz), "zones");
    for (int Z = 1; Z <= nz; ++Z) {
      char zn[33];
      cgsize_t sz[9];
      int ns = 0;
      cg(cg_zone_read(fn, B, Z, zn, sz), "zone");
      cg(cg_nsections(fn, B, Z, &ns), "sections");
      for (int S = 1; S <= ns; ++S) {
        char sn[33];
        ElementType_t t;
        cgsize_t a, e;
        int nbndry, pflag;
        cg(cg_section_read(fn, B, Z, S, sn, &t, &a, &e, &nbndry, &pflag), "section");
        if (t != MIXED && t != NGON_n && t != NFACE_n) continue;
        const std::string secPath = std::string("/") + bn + "/" + zn + "/" + sn;
        double sec = 0, off = 0;
        cg(cgio_get_node_id(cgio, root, secPath.c_str(), &sec), "section node");
        cg(cgio_get_node_id(cgio, sec, "ElementStartOffset", &off), "offset node");
        cg(cgio_delete_node(cgio, sec, off), "delete offsets");
      }
    }
  }
  cg(cg_close(fn), "close");
}

std::map<std::string, std::pair<std::string, int>> patch_table(const Mesh& m) {
  std::map<std::string, std::pair<std::string, int>> t;
  for (const auto& p : m.patches)
    t[p.name] = {p.bcType, 0};
  for (idx_t p : m.bfacePatch)
    ++t[m.patches.at(static_cast<std::size_t>(p)).name].second;
  return t;
}

} // namespace fv::testing
