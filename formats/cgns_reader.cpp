// CGNS reader (mid-level library, HDF5 and ADF files): unstructured zones, standard, MIXED and
// NGON_n/NFACE_n sections, BCs in every point-set convention, family BC types, multi-zone
// merging. See docs/mesh-import.md for the conventions.
#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/cgns_file.hpp"
#include "formats/mesh_builder.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/mesh_slice.hpp"
#include "formats/mesh_transfer.hpp"
#include "formats/node_match.hpp"
#include "formats/structured_block.hpp"

#include <cgns_io.h>
#include <cgnslib.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

// Sanitizer runtimes define this (in a sanitizer build); elsewhere it is null.
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace fv {

namespace {

#define FV_CG(call, msg)                                                                           \
  do {                                                                                             \
    if ((call) != CG_OK) FV_THROW(path << ": " << msg << ": " << cg_get_error());                  \
  } while (0)

/// Shape of a CGNS element type: dimension, corner count, cell type, name.
struct ElemShape {
  int dim = -1;    ///< 0 node, 1 bar, 2 tri/quad/ngon, 3 volume/nface; -1 unknown
  int corners = 0; ///< corner nodes (linear shape), 0 for polygons/polyhedra
  CellType cell = CellType::Tet;
  bool highOrder = false;
};

ElemShape elem_shape(ElementType_t t) {
  ElemShape s;
  const char* nm = cg_ElementTypeName(t);
  const std::string name = nm ? nm : "";
  int npe = 0;
  if (t != NGON_n && t != NFACE_n && t != MIXED && t != ElementTypeNull &&
      t != ElementTypeUserDefined)
    cg_npe(t, &npe);
  auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
  // a volume of standard shape c: its corners from the shape table, high order beyond them
  auto volume = [&](CellType c) {
    return ElemShape{3, cell_node_count(c), c, npe > cell_node_count(c)};
  };
  if (starts("NODE"))
    s = {0, 1, CellType::Tet, false};
  else if (starts("BAR"))
    s = {1, 2, CellType::Tet, npe > 2};
  else if (starts("TRI"))
    s = {2, 3, CellType::Tet, npe > 3};
  else if (starts("QUAD"))
    s = {2, 4, CellType::Tet, npe > 4};
  else if (starts("TETRA"))
    s = volume(CellType::Tet);
  else if (starts("PYRA"))
    s = volume(CellType::Pyramid);
  else if (starts("PENTA"))
    s = volume(CellType::Prism);
  else if (starts("HEXA"))
    s = volume(CellType::Hex);
  else if (t == NGON_n)
    s = {2, 0, CellType::Polyhedron, false};
  else if (t == NFACE_n)
    s = {3, 0, CellType::Polyhedron, false};
  return s;
}

/// One element section as read from the file.
struct Section {
  std::string name;
  ElementType_t type = ElementTypeNull;
  cgsize_t start = 0, end = 0;
  std::vector<cgsize_t> conn, offsets; ///< offsets only for MIXED/NGON/NFACE
};

/// What an element id of a zone became.
enum : idx_t { kElemNone = -1 };
struct ElemRef {
  std::vector<idx_t> bface; ///< element id - 1 -> boundary face (builder index) or -1
  std::vector<std::int8_t>
      kind; ///< 0 unknown/ignored, 1 cell, 2 boundary face, 3 interior poly face
};

/// Debian's libcgns 3.4 dies (SIGSEGV in cgi_read_section) on some corrupt files while cg_open
/// parses the node tree. Opening the file first in a forked child turns that death into a
/// one-line error instead of a crash of the caller. The child only opens and closes the file
/// (the tree, not the arrays): a few milliseconds even on large meshes. Where fork fails, the
/// file is opened directly.
/// In a forked child: die plainly. No crash handler inherited from the parent (a fuzzer's, a
/// sanitizer's death callback) may report the child's death as the parent's or write files
/// for it.
void die_plainly_in_child() {
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
    std::signal(sig, SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
}

/// "signal 11" or "exit code 1": how a child that did not exit 0 ended.
std::string child_end(int status) {
  return WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                             : "exit code " + std::to_string(WEXITSTATUS(status));
}

void probe_cgns_open(const std::string& path) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return;
  if (pid == 0) { // child: open, close, report nothing (the parent's own open reports errors)
    die_plainly_in_child();
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      dup2(devnull, STDOUT_FILENO);
      dup2(devnull, STDERR_FILENO);
    }
    int fn = -1;
    if (cg_open(path.c_str(), CG_MODE_READ, &fn) == CG_OK) cg_close(fn);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return;
  // the child exits 0 whatever cg_open returned; anything else is its death (a signal, or a
  // sanitizer's exit code in a sanitizer build)
  FV_VERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0,
            path << ": corrupt CGNS file: the CGNS library crashed (" << child_end(status)
                 << ") reading its node tree");
}

class CgnsReader {
 public:
  CgnsReader(const std::string& p, const ReadOptions& o, bool probe = true)
      : path(p), opts(o), probeOpen(probe) {}

  Mesh read() {
    open();
    choose_base();
    read_families();
    read_writer();
    read_zones();
    return b.finish(opts);
  }

  /// This process's slice (formats/mesh_slice.hpp), or nullopt when the file is not of the
  /// kind read in slices: its base is not 3D, it has several zones or a structured one, or its
  /// volume elements are not all in sections of one standard linear type. The boundary
  /// sections and BCs are read whole (every process needs the patch table; the boundary is
  /// small), the volume elements and coordinates in blocks.
  std::optional<MeshSlice> read_slice(int rank, int parts) {
    open();
    choose_base();
    if (cellDim != 3) return std::nullopt;
    read_families();
    read_writer();
    int nz = 0;
    FV_CG(cg_nzones(file.fn, B, &nz), "cannot read zones of base '" << baseName << "'");
    int chosen = 0, count = 0;
    std::string chosenName;
    for (int z = 1; z <= nz; ++z) {
      char nm[33];
      cgsize_t sz[9];
      FV_CG(cg_zone_read(file.fn, B, z, nm, sz), "cannot read zone " << z);
      if (opts.zone.empty() || opts.zone == nm) chosen = z, chosenName = nm, ++count;
    }
    ZoneType_t zt = ZoneTypeNull;
    if (count != 1 || cg_zone_type(file.fn, B, chosen, &zt) != CG_OK || zt != Unstructured)
      return std::nullopt;
    slice = SliceRead();
    slice->rank = rank;
    slice->parts = parts;
    read_zone(chosen, chosenName);
    if (slice->wholeRead) return std::nullopt;
    name_orphans();
    const cgsize_t nv = zones.front().nNodes;
    MeshSlice out = slice_mesh(b.finish_boundary(static_cast<idx_t>(nv)), rank, parts);
    out.nNodes = nv;
    out.nodeFirst = slice_first(nv, rank, parts);
    out.xyz = std::move(slice->xyz);
    read_volume_slice(chosenName, out);
    out.partialRead = true;
    return out;
  }

 private:
  void open() {
    int ftype = CG_FILE_NONE;
    FV_VERIFY(cg_is_cgns(path.c_str(), &ftype) == CG_OK,
              path << ": not a CGNS file (neither CGNS/HDF5 nor CGNS/ADF), or truncated");
    if (probeOpen) probe_cgns_open(path);
    if (cg_open(path.c_str(), CG_MODE_READ, &file.fn) != CG_OK) {
      const std::string why = cg_get_error();
      file.fn = -1;
      cgio_cleanup(); // a failed open leaves the database open inside the CGNS library
      FV_THROW(path << ": cannot open CGNS file: " << why);
    }
    b.path = path;
    b.format = ftype == CG_FILE_HDF5 ? "CGNS/HDF5" : "CGNS/ADF";
    float version = 0;
    if (cg_version(file.fn, &version) == CG_OK) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(version));
      fileVersion = buf;
    }
  }

  const std::string& path;
  const ReadOptions& opts;
  bool probeOpen = true; ///< open the file in a forked probe first (probe_cgns_open())
  CgnsFile file;
  MeshBuilder b;
  int B = 0, cellDim = 3, physDim = 3;
  std::string baseName, fileVersion;
  std::map<std::string, std::string> familyBc; ///< family name -> BCType name
  std::vector<std::string> sectionNames;       ///< all sections of all zones
  bool warnedOldSections_ = false;             ///< warned about a section without offsets
  std::vector<idx_t> bSection;                 ///< per builder boundary face: its section
  std::vector<idx_t> bHasBc;                   ///< per boundary face: 1 when a BC_t gave the patch
  /// per boundary face, how merging decides whether it is a zone interface: kIfaceAny (the
  /// unstructured rules), kIfaceKnown (inside a 1-to-1 range: always), kIfaceMatch (a
  /// structured block face: only when another zone has the same face)
  std::vector<std::int8_t> bIface;
  enum : std::int8_t { kIfaceAny = 0, kIfaceKnown = 1, kIfaceMatch = 2 };

  /// A volume section read in blocks (read_slice()).
  struct VolumeSection {
    int S = 0;
    std::string name;
    ElementType_t type = ElementTypeNull;
    CellType cell = CellType::Tet;
    cgsize_t start = 0, end = 0;
    int npe = 0;
  };
  /// What read_slice() reads in blocks, and whether the file turned out to need a whole read.
  struct SliceRead {
    int rank = 0, parts = 1;
    bool wholeRead = false;
    std::vector<VolumeSection> volume; ///< in section order
    std::vector<real_t> xyz;           ///< the process's block of the coordinates
  };
  std::optional<SliceRead> slice;

  // per zone, kept for merging
  struct ZoneInfo {
    std::string name;
    int Z = 0;
    idx_t nodeOffset = 0, nNodes = 0;
    idx_t firstBFace = 0, endBFace = 0;
    bool structured = false;
    StructuredBlock block; ///< index sizes of a structured zone
  };
  std::vector<ZoneInfo> zones;

  void choose_base() {
    int nb = 0;
    FV_CG(cg_nbases(file.fn, &nb), "cannot read bases");
    FV_VERIFY(nb > 0, path << ": the CGNS file has no base");
    std::vector<std::string> names;
    for (int i = 1; i <= nb; ++i) {
      char nm[33];
      int cd, pd;
      FV_CG(cg_base_read(file.fn, i, nm, &cd, &pd), "cannot read base " << i);
      names.push_back(nm);
      if (!opts.base.empty() && opts.base == nm) B = i;
    }
    auto list = [&] {
      std::string s;
      for (auto& n : names)
        s += (s.empty() ? "'" : ", '") + n + "'";
      return s;
    };
    if (opts.base.empty()) {
      FV_VERIFY_USAGE(nb == 1, path << ": the file has " << nb << " bases (" << list()
                                    << "): choose one with --base NAME");
      B = 1;
    }
    FV_VERIFY_USAGE(B > 0, path << ": no base '" << opts.base << "' (bases: " << list() << ")");
    char nm[33];
    FV_CG(cg_base_read(file.fn, B, nm, &cellDim, &physDim), "cannot read base");
    baseName = nm;
    FV_VERIFY(cellDim == 2 || cellDim == 3, path << ": base '" << baseName
                                                 << "' has cell dimension " << cellDim
                                                 << "; only 2 and 3 are supported");
    b.dim = cellDim;
  }

  bool is_sliced_volume(const Section& sec) const {
    for (const VolumeSection& v : slice->volume)
      if (v.start == sec.start && v.name == sec.name) return true;
    return false;
  }

  /// This process's block of the volume elements (their order in the file: sections in order,
  /// elements in order), read with cg_elements_partial_read().
  void read_volume_slice(const std::string& zname, MeshSlice& out) {
    const cgsize_t nv = zones.front().nNodes;
    gidx_t total = 0;
    for (const VolumeSection& v : slice->volume)
      total += v.end - v.start + 1;
    FV_VERIFY(total > 0, path << ": the mesh has no volume cells");
    out.nCells = total;
    out.cellFirst = slice_first(total, slice->rank, slice->parts);
    const gidx_t c1 = slice_first(total, slice->rank + 1, slice->parts);
    Mesh& m = out.part;
    std::vector<idx_t> off{0}, conn;
    std::vector<cgsize_t> buf;
    gidx_t first = 0; // cell index of the section's first element
    for (const VolumeSection& v : slice->volume) {
      const gidx_t n = v.end - v.start + 1;
      const gidx_t lo = std::max(out.cellFirst, first), hi = std::min(c1, first + n);
      if (lo < hi) {
        const cgsize_t e0 = v.start + (lo - first), e1 = v.start + (hi - first) - 1;
        buf.resize(static_cast<std::size_t>((e1 - e0 + 1) * v.npe));
        FV_CG(
            cg_elements_partial_read(file.fn, B, zones.front().Z, v.S, e0, e1, buf.data(), nullptr),
            "zone '" << zname << "' section '" << v.name << "': cannot read elements " << e0 << ".."
                     << e1);
        for (cgsize_t e = e0; e <= e1; ++e) {
          const cgsize_t* c = &buf[static_cast<std::size_t>((e - e0) * v.npe)];
          for (int k = 0; k < v.npe; ++k) {
            FV_VERIFY(c[k] >= 1 && c[k] <= nv,
                      path << ": zone '" << zname << "' section '" << v.name << "' element " << e
                           << " refers to node " << c[k] << ", outside 1.." << nv);
            conn.push_back(static_cast<idx_t>(c[k] - 1));
          }
          off.push_back(static_cast<idx_t>(conn.size()));
          m.cellType.push_back(v.cell);
          m.cellFileId.push_back(e);
        }
      }
      first += n;
    }
    m.cellNodes = Csr(Array<idx_t>(std::move(off)), Array<idx_t>(std::move(conn)));
  }

  void read_families() {
    int nf = 0;
    if (cg_nfamilies(file.fn, B, &nf) != CG_OK) return;
    for (int f = 1; f <= nf; ++f) {
      char nm[33];
      int nbc = 0, ngeo = 0;
      if (cg_family_read(file.fn, B, f, nm, &nbc, &ngeo) != CG_OK) continue;
      if (nbc < 1) continue;
      char bcn[33];
      BCType_t bt = BCTypeNull;
      if (cg_fambc_read(file.fn, B, f, 1, bcn, &bt) != CG_OK) continue;
      familyBc[nm] = cg_BCTypeName(bt);
    }
  }

  void read_writer() {
    if (cg_goto(file.fn, B, "end") == CG_OK) {
      int nd = 0;
      cg_ndescriptors(&nd);
      for (int d = 1; d <= nd && b.writer.empty(); ++d) {
        char nm[33];
        char* text = nullptr;
        if (cg_descriptor_read(d, nm, &text) != CG_OK || !text) continue;
        std::string t(text);
        cg_free(text);
        t = t.substr(0, t.find('\n'));
        if (t.size() > 100) t = t.substr(0, 100) + "...";
        if (!t.empty()) b.writer = t;
      }
    }
    if (b.writer.empty() && !fileVersion.empty())
      b.writer = "unknown (CGNS library " + fileVersion + ")";
  }

  void read_zones() {
    int nz = 0;
    FV_CG(cg_nzones(file.fn, B, &nz), "cannot read zones of base '" << baseName << "'");
    FV_VERIFY(nz > 0, path << ": base '" << baseName << "' has no zone");
    std::vector<int> chosen;
    std::vector<std::string> names;
    for (int z = 1; z <= nz; ++z) {
      char nm[33];
      cgsize_t sz[9];
      FV_CG(cg_zone_read(file.fn, B, z, nm, sz), "cannot read zone " << z);
      names.push_back(nm);
      if (opts.zone.empty() || opts.zone == nm) chosen.push_back(z);
    }
    if (chosen.empty()) {
      std::string s;
      for (auto& n : names)
        s += (s.empty() ? "'" : ", '") + n + "'";
      fail_no_zone(s);
    }
    if (chosen.size() > 1) warn_of_families(chosen, names);
    for (int z : chosen) {
      ZoneType_t zt;
      FV_CG(cg_zone_type(file.fn, B, z, &zt), "cannot read type of zone '" << names[z - 1] << "'");
      FV_VERIFY(zt == Unstructured || zt == Structured,
                path << ": zone '" << names[z - 1] << "' of base '" << baseName
                     << "' has zone type " << static_cast<int>(zt)
                     << " (neither Structured nor Unstructured)");
      if (zt == Structured)
        read_structured_zone(z, names[z - 1]);
      else
        read_zone(z, names[z - 1]);
    }
    bool selfConnected = false;
    for (const ZoneInfo& z : zones) {
      int n = 0;
      selfConnected |= z.structured && cg_n1to1(file.fn, B, z.Z, &n) == CG_OK && n > 0;
    }
    if (zones.size() > 1 || selfConnected) merge_zones();
    name_orphans();
  }

  /// Zones of several families (a conjugate-heat-transfer mesh's fluid and solid regions) are
  /// merged like the blocks of one flow domain; the solid's cells would become flow cells. One
  /// warning names the families and suggests --zone.
  void warn_of_families(const std::vector<int>& chosen, const std::vector<std::string>& names) {
    std::vector<std::string> families;
    std::string list;
    for (int z : chosen) {
      char fam[33] = "";
      if (cg_goto(file.fn, B, "Zone_t", z, "end") != CG_OK || cg_famname_read(fam) != CG_OK)
        continue;
      if (std::find(families.begin(), families.end(), fam) == families.end())
        families.push_back(fam);
      list += (list.empty() ? "" : ", ") + names[z - 1] + ": " + fam;
    }
    if (families.size() < 2) return;
    b.warn("merging zones of " + std::to_string(families.size()) + " families into one mesh (" +
           list +
           "); if they are separate regions (the fluid and solid of a conjugate heat "
           "transfer mesh), read one with --zone NAME");
  }

  [[noreturn]] void fail_no_zone(const std::string& list) {
    FV_VERIFY_USAGE(false, path << ": no zone '" << opts.zone << "' in base '" << baseName
                                << "' (zones: " << list << ")");
  }

  std::string bc_type_name(BCType_t t) {
    const char* n = cg_BCTypeName(t);
    return n ? n : "UserDefined";
  }

  /// The BC type name of BC C of a zone, through its family when FamilySpecified.
  std::string bc_type_of(BCType_t bt, int C, const ZoneInfo& zi, const std::string& where) {
    if (bt != FamilySpecified) return bc_type_name(bt);
    char fam[33] = "";
    if (cg_goto(file.fn, B, "Zone_t", zi.Z, "ZoneBC_t", 1, "BC_t", C, "end") == CG_OK)
      cg_famname_read(fam);
    auto it = familyBc.find(fam);
    if (it != familyBc.end()) return it->second;
    b.warn(where + " is FamilySpecified but family '" + fam +
           "' has no FamilyBC; BC type set to UserDefined");
    return "UserDefined";
  }

  void read_zone(int Z, const std::string& zname) {
    fv::log::Phase phase("reading zone '" + zname + "'");
    ZoneInfo zi;
    zi.name = zname;
    zi.Z = Z;
    zi.nodeOffset = b.nNodes();
    zi.firstBFace = b.nBFaces();
    const std::int32_t zoneIdx = static_cast<std::int32_t>(zones.size());
    b.zoneNames.push_back(zname);
    char nm[33];
    cgsize_t sz[9];
    FV_CG(cg_zone_read(file.fn, B, Z, nm, sz), "cannot read zone '" << zname << "'");
    const cgsize_t nv = sz[0];
    FV_VERIFY(nv > 0 && nv < (1LL << 31) - 1 - b.nNodes(),
              path << ": zone '" << zname << "' has " << nv << " nodes");
    zi.nNodes = static_cast<idx_t>(nv);

    if (slice) { // this process's block of the nodes
      const cgsize_t n0 = slice_first(nv, slice->rank, slice->parts),
                     n1 = slice_first(nv, slice->rank + 1, slice->parts);
      const cgsize_t r0 = n0 + 1, r1 = n1;
      read_coordinates(Z, zname, &r0, &r1, n1 - n0, slice->xyz, r0);
    } else {
      const cgsize_t r0 = 1, r1 = nv;
      read_coordinates(Z, zname, &r0, &r1, nv, b.xyz);
    }

    // sections
    int ns = 0;
    FV_CG(cg_nsections(file.fn, B, Z, &ns), "zone '" << zname << "': cannot read sections");
    std::vector<Section> secs(static_cast<std::size_t>(ns));
    cgsize_t maxId = 0;
    bool hasNface = false;
    for (int s = 1; s <= ns; ++s) {
      Section& sec = secs[s - 1];
      char sn[33];
      int nbndry, pflag;
      FV_CG(cg_section_read(file.fn, B, Z, s, sn, &sec.type, &sec.start, &sec.end, &nbndry, &pflag),
            "zone '" << zname << "': cannot read section " << s);
      sec.name = sn;
      FV_VERIFY(sec.start >= 1 && sec.end >= sec.start, path << ": zone '" << zname << "' section '"
                                                             << sec.name << "' has element range "
                                                             << sec.start << ".." << sec.end);
      maxId = std::max(maxId, sec.end);
      cgsize_t size = 0;
      FV_CG(cg_ElementDataSize(file.fn, B, Z, s, &size),
            "zone '" << zname << "' section '" << sec.name << "': cannot read its size");
      const cgsize_t ne = sec.end - sec.start + 1;
      if (slice && (sec.type == NGON_n || sec.type == NFACE_n)) {
        slice->wholeRead = true; // polyhedra: read whole
        return;
      }
      if (slice && sec.type != MIXED) {
        const ElemShape sh = elem_shape(sec.type);
        if (sh.dim == 3 && !sh.highOrder) {
          int npe = 0;
          cg_npe(sec.type, &npe);
          FV_VERIFY(npe > 0 && static_cast<cgsize_t>(npe) * ne == size,
                    path << ": zone '" << zname << "' section '" << sec.name << "': " << size
                         << " connectivity entries for " << ne << " "
                         << cg_ElementTypeName(sec.type) << " elements");
          slice->volume.push_back({s, sec.name, sec.type, sh.cell, sec.start, sec.end, npe});
          continue; // read in blocks by read_volume_slice()
        }
        if (sh.dim == 3) {
          slice->wholeRead = true; // high-order volume elements: read whole
          return;
        }
      }
      sec.conn.resize(static_cast<std::size_t>(size));
      if (sec.type == MIXED || sec.type == NGON_n || sec.type == NFACE_n) {
        sec.offsets.resize(static_cast<std::size_t>(ne + 1));
        if (has_start_offsets(zname, sec.name)) {
          FV_CG(
              cg_poly_elements_read(file.fn, B, Z, s, sec.conn.data(), sec.offsets.data(), nullptr),
              "zone '" << zname << "' section '" << sec.name << "': cannot read elements");
        } else {
          read_section_without_offsets(zname, sec, ne);
          size = static_cast<cgsize_t>(sec.conn.size());
        }
        FV_VERIFY(sec.offsets[0] == 0 && sec.offsets[ne] == size,
                  path << ": zone '" << zname << "' section '" << sec.name
                       << "': inconsistent ElementStartOffset");
      } else {
        const ElemShape sh = elem_shape(sec.type);
        FV_VERIFY(sh.dim >= 0, path << ": zone '" << zname << "' section '" << sec.name
                                    << "': unsupported element type "
                                    << cg_ElementTypeName(sec.type));
        FV_CG(cg_elements_read(file.fn, B, Z, s, sec.conn.data(), nullptr),
              "zone '" << zname << "' section '" << sec.name << "': cannot read elements");
        int npe = 0;
        cg_npe(sec.type, &npe);
        FV_VERIFY(npe > 0 && static_cast<cgsize_t>(npe) * ne == size,
                  path << ": zone '" << zname << "' section '" << sec.name << "': " << size
                       << " connectivity entries for " << ne << " " << cg_ElementTypeName(sec.type)
                       << " elements");
      }
      if (sec.type == NFACE_n) hasNface = true;
    }
    FV_VERIFY(maxId < (1LL << 31) - 2, path << ": zone '" << zname << "': element ids too large");

    ElemRef ref;
    ref.bface.assign(static_cast<std::size_t>(maxId), kElemNone);
    ref.kind.assign(static_cast<std::size_t>(maxId), 0);
    std::vector<idx_t> polyFaceOf; // NGON element id - 1 -> poly face index
    if (hasNface) polyFaceOf.assign(static_cast<std::size_t>(maxId), -1);

    auto node_of = [&](const Section& sec, cgsize_t elem, cgsize_t v) -> idx_t {
      FV_VERIFY(v >= 1 && v <= nv, path << ": zone '" << zname << "' section '" << sec.name
                                        << "' element " << elem << " refers to node " << v
                                        << ", outside 1.." << nv);
      return zi.nodeOffset + static_cast<idx_t>(v - 1);
    };
    auto sectionIdx = [&](const Section& sec) {
      sectionNames.push_back(sec.name);
      return static_cast<idx_t>(sectionNames.size() - 1);
    };

    // NGON faces first (NFACE cells refer to them)
    if (hasNface) {
      for (const Section& sec : secs) {
        if (sec.type != NGON_n) continue;
        const cgsize_t ne = sec.end - sec.start + 1;
        std::vector<idx_t> nodes;
        for (cgsize_t e = 0; e < ne; ++e) {
          const cgsize_t id = sec.start + e;
          nodes.clear();
          for (cgsize_t k = sec.offsets[e]; k < sec.offsets[e + 1]; ++k)
            nodes.push_back(node_of(sec, id, sec.conn[k]));
          FV_VERIFY(nodes.size() >= 3, path << ": zone '" << zname << "' section '" << sec.name
                                            << "' face " << id << " has " << nodes.size()
                                            << " nodes");
          polyFaceOf[id - 1] = b.add_poly_face(nodes.data(), static_cast<int>(nodes.size()));
        }
      }
    }

    std::vector<std::pair<idx_t, cgsize_t>> polyFaceUse; // (poly face, NGON id)
    for (const Section& sec : secs) {
      const cgsize_t ne = sec.end - sec.start + 1;
      const idx_t secIdx = sectionIdx(sec);
      if (slice && is_sliced_volume(sec)) {
        for (cgsize_t id = sec.start; id <= sec.end; ++id)
          ref.kind[id - 1] = 1;
        continue;
      }
      bool warnedHo = false, warnedIgnored = false;
      std::vector<idx_t> nodes;
      for (cgsize_t e = 0; e < ne; ++e) {
        const cgsize_t id = sec.start + e;
        ElementType_t t = sec.type;
        const cgsize_t* c;
        cgsize_t n;
        if (sec.type == MIXED) {
          c = &sec.conn[sec.offsets[e]];
          t = static_cast<ElementType_t>(c[0]);
          ++c;
          n = sec.offsets[e + 1] - sec.offsets[e] - 1;
          int npe = 0;
          FV_VERIFY(t > ElementTypeUserDefined && t != MIXED && t != NGON_n && t != NFACE_n &&
                        cg_npe(t, &npe) == CG_OK && npe == n,
                    path << ": zone '" << zname << "' section '" << sec.name << "' element " << id
                         << ": unknown or inconsistent element type " << static_cast<int>(t)
                         << " in a MIXED section");
        } else if (!sec.offsets.empty()) {
          c = &sec.conn[sec.offsets[e]];
          n = sec.offsets[e + 1] - sec.offsets[e];
        } else {
          const cgsize_t npe = static_cast<cgsize_t>(sec.conn.size()) / ne;
          c = &sec.conn[e * npe];
          n = npe;
        }
        const ElemShape sh = elem_shape(t);
        FV_VERIFY(sh.dim >= 0, path << ": zone '" << zname << "' section '" << sec.name
                                    << "' element " << id << ": unsupported element type "
                                    << cg_ElementTypeName(t));
        if (t == NGON_n && hasNface) continue; // faces of polyhedra, done above
        if (t == NFACE_n) {
          std::vector<idx_t> faces;
          for (cgsize_t k = 0; k < n; ++k) {
            const cgsize_t fid = c[k] < 0 ? -c[k] : c[k];
            FV_VERIFY(fid >= 1 && fid <= maxId && polyFaceOf[fid - 1] >= 0,
                      path << ": zone '" << zname << "' section '" << sec.name << "' polyhedron "
                           << id << " refers to face " << c[k] << ", which is no NGON_n element");
            const idx_t pf = polyFaceOf[fid - 1];
            faces.push_back(c[k] < 0 ? ~pf : pf);
            polyFaceUse.emplace_back(pf, fid);
          }
          FV_VERIFY(faces.size() >= 4, path << ": zone '" << zname << "' section '" << sec.name
                                            << "' polyhedron " << id << " has only " << faces.size()
                                            << " faces");
          b.add_poly_cell(faces.data(), static_cast<int>(faces.size()), id);
          b.cellZone.push_back(static_cast<std::int32_t>(zones.size()));
          ref.kind[id - 1] = 1;
          continue;
        }
        const int corners = sh.corners > 0 ? sh.corners : static_cast<int>(n);
        if (sh.highOrder && !warnedHo) {
          b.warn("zone '" + zname + "' section '" + sec.name + "': " + cg_ElementTypeName(t) +
                 " elements are read as their corner nodes (linear)");
          warnedHo = true;
        }
        nodes.clear();
        for (int k = 0; k < corners; ++k)
          nodes.push_back(node_of(sec, id, c[k]));
        if (sh.dim == cellDim && slice) {
          slice->wholeRead = true; // volume elements in a MIXED section: read whole
          return;
        }
        if (sh.dim == cellDim) {
          b.add_cell(sh.cell, nodes.data(), corners, id);
          b.cellZone.push_back(zoneIdx);
          ref.kind[id - 1] = 1;
        } else if (sh.dim == cellDim - 1) {
          ref.bface[id - 1] = b.add_bface(nodes.data(), corners, id, kNone);
          ref.kind[id - 1] = 2;
          b.bZone.push_back(zoneIdx);
          bSection.push_back(secIdx);
          bHasBc.push_back(0);
          bIface.push_back(kIfaceAny);
        } else if (!warnedIgnored) {
          b.warn("zone '" + zname + "' section '" + sec.name + "': " + cg_ElementTypeName(t) +
                 " elements (dimension " + std::to_string(sh.dim) + ") are ignored");
          warnedIgnored = true;
        }
      }
    }
    // polyhedral faces used by one polyhedron only are boundary faces
    if (hasNface) {
      std::sort(polyFaceUse.begin(), polyFaceUse.end());
      std::string ngonName;
      for (std::size_t i = 0; i < polyFaceUse.size();) {
        std::size_t j = i;
        while (j < polyFaceUse.size() && polyFaceUse[j].first == polyFaceUse[i].first)
          ++j;
        const auto [pf, fid] = polyFaceUse[i];
        FV_VERIFY(j - i <= 2, path << ": zone '" << zname << "' face " << fid << " belongs to "
                                   << j - i << " polyhedra");
        if (j - i == 1) {
          const idx_t* nb = &b.pfnConn[b.pfnOff[pf]];
          const int nn = b.pfnOff[pf + 1] - b.pfnOff[pf];
          ref.bface[fid - 1] = b.add_bface(nb, nn, fid, kNone);
          ref.kind[fid - 1] = 2;
          b.bZone.push_back(zoneIdx);
          // section of this NGON face
          idx_t secIdx = 0;
          for (std::size_t s = 0; s < secs.size(); ++s)
            if (secs[s].type == NGON_n && fid >= secs[s].start && fid <= secs[s].end)
              secIdx = static_cast<idx_t>(sectionNames.size() - secs.size() + s);
          bSection.push_back(secIdx);
          bHasBc.push_back(0);
          bIface.push_back(kIfaceAny);
        } else {
          ref.kind[fid - 1] = 3;
        }
        i = j;
      }
    }
    zi.endBFace = b.nBFaces();
    zones.push_back(zi);
    read_bcs(zi, ref, maxId);
  }

  /// A structured zone: its cells become hexahedra (quadrilaterals in a 2D base, extruded
  /// later), every face on the block's sides a boundary face; BCs name them by point range or
  /// list.
  void read_structured_zone(int Z, const std::string& zname) {
    fv::log::Phase phase("reading structured zone '" + zname + "'");
    ZoneInfo zi;
    zi.name = zname;
    zi.Z = Z;
    zi.structured = true;
    zi.nodeOffset = b.nNodes();
    zi.firstBFace = b.nBFaces();
    const std::int32_t zoneIdx = static_cast<std::int32_t>(zones.size());
    b.zoneNames.push_back(zname);
    int idim = 0;
    FV_CG(cg_index_dim(file.fn, B, Z, &idim),
          "zone '" << zname << "': cannot read its index dimension");
    FV_VERIFY(idim == cellDim, path << ": structured zone '" << zname << "' has index dimension "
                                    << idim << " in a base of cell dimension " << cellDim);
    char nm[33];
    cgsize_t sz[9];
    FV_CG(cg_zone_read(file.fn, B, Z, nm, sz), "cannot read zone '" << zname << "'");
    StructuredBlock& blk = zi.block;
    blk.dim = idim;
    for (int d = 0; d < idim; ++d) {
      FV_VERIFY(sz[d] >= 2 && sz[d] < (1LL << 31), path << ": structured zone '" << zname
                                                        << "' has " << sz[d]
                                                        << " vertices in index direction "
                                                        << "ijk"[d] << " (at least 2 needed)");
      blk.nv[d] = sz[d];
    }
    const std::int64_t nv = blk.n_nodes();
    FV_VERIFY(nv < (1LL << 31) - 1 - b.nNodes(), path << ": zone '" << zname << "' has " << nv
                                                      << " nodes, too many for 32-bit indices");
    zi.nNodes = static_cast<idx_t>(nv);
    cgsize_t rmin[3] = {1, 1, 1}, rmax[3] = {1, 1, 1};
    for (int d = 0; d < idim; ++d)
      rmax[d] = blk.nv[d];
    read_coordinates(Z, zname, rmin, rmax, nv, b.xyz);

    const std::vector<double> local(b.xyz.end() - 3 * nv, b.xyz.end());
    const bool left = block_is_left_handed(blk, local);
    const std::vector<std::int64_t> conn = block_cells(blk, left);
    const int per = idim == 3 ? 8 : 4;
    idx_t nodes[8];
    const std::int64_t nc = blk.n_cells();
    for (std::int64_t c = 0; c < nc; ++c) {
      for (int k = 0; k < per; ++k)
        nodes[k] = zi.nodeOffset + static_cast<idx_t>(conn[static_cast<std::size_t>(c * per + k)]);
      b.add_cell(CellType::Hex, nodes, per, c + 1);
      b.cellZone.push_back(zoneIdx);
    }
    const idx_t secIdx = static_cast<idx_t>(sectionNames.size());
    sectionNames.push_back(zname);
    const std::vector<BlockFace> faces = block_boundary_faces(blk);
    std::int64_t fn[4];
    for (std::size_t f = 0; f < faces.size(); ++f) {
      const int n = block_face_nodes(blk, faces[f], fn);
      for (int k = 0; k < n; ++k)
        nodes[k] = zi.nodeOffset + static_cast<idx_t>(fn[k]);
      b.add_bface(nodes, n, static_cast<gidx_t>(f + 1), kNone);
      b.bZone.push_back(zoneIdx);
      bSection.push_back(secIdx);
      bHasBc.push_back(0);
      bIface.push_back(kIfaceMatch);
    }
    zi.endBFace = b.nBFaces();
    zones.push_back(zi);
    read_structured_bcs(zones.back(), faces);
  }

  /// Boundary faces of structured zone z inside the vertex range lo..hi (any order) are
  /// interior faces after merging.
  void mark_interface_faces(const ZoneInfo& z, std::array<std::int64_t, 3> lo,
                            std::array<std::int64_t, 3> hi) {
    order_range(lo, hi);
    const std::vector<BlockFace> faces = block_boundary_faces(z.block);
    for (std::size_t f = 0; f < faces.size(); ++f)
      if (face_in_range(z.block, faces[f], PointSetAt::Vertex, lo, hi))
        bIface[static_cast<std::size_t>(z.firstBFace) + f] = kIfaceKnown;
  }

  /// A CGNS range of index dimension dim (lo then hi) as two 1-based triples.
  static void split_range(int dim, const cgsize_t* r, std::array<std::int64_t, 3>& lo,
                          std::array<std::int64_t, 3>& hi) {
    lo = {1, 1, 1};
    hi = {1, 1, 1};
    for (int d = 0; d < dim; ++d) {
      lo[d] = r[d];
      hi[d] = r[dim + d];
    }
  }

  /// Orders each direction of a range low to high (CGNS ranges may run either way).
  static void order_range(std::array<std::int64_t, 3>& lo, std::array<std::int64_t, 3>& hi) {
    for (int d = 0; d < 3; ++d)
      if (lo[d] > hi[d]) std::swap(lo[d], hi[d]);
  }

  /// What cg_boco_info and cg_boco_gridlocation_read say of BC C of a zone.
  struct BcHeader {
    std::string name, where; ///< BC name; "zone 'Z' BC 'name'" for messages
    BCType_t type = BCTypeNull;
    PointSetType_t pointSet = PointSetTypeNull;
    cgsize_t points = 0;
    GridLocation_t location = Vertex; ///< Vertex when the file gives none
  };
  BcHeader read_bc_header(const ZoneInfo& zi, int C) {
    char bn[33];
    BcHeader h;
    cgsize_t nl = 0;
    int ni[3], nds;
    DataType_t dt;
    FV_CG(
        cg_boco_info(file.fn, B, zi.Z, C, bn, &h.type, &h.pointSet, &h.points, ni, &nl, &dt, &nds),
        "zone '" << zi.name << "': cannot read BC " << C);
    h.name = bn;
    h.where = "zone '" + zi.name + "' BC '" + h.name + "'";
    cg_boco_gridlocation_read(file.fn, B, zi.Z, C, &h.location);
    return h;
  }

  /// BCs of a structured zone: PointRange or PointList, at vertices or face centres.
  void read_structured_bcs(const ZoneInfo& zi, const std::vector<BlockFace>& faces) {
    int nbc = 0;
    FV_CG(cg_nbocos(file.fn, B, zi.Z, &nbc), "zone '" << zi.name << "': cannot read ZoneBC");
    const StructuredBlock& blk = zi.block;
    const int idim = blk.dim;
    for (int C = 1; C <= nbc; ++C) {
      const BcHeader h = read_bc_header(zi, C);
      const std::string &name = h.name, &where = h.where;
      const PointSetType_t pt = h.pointSet;
      const cgsize_t np = h.points;
      FV_VERIFY(pt == PointRange || pt == PointList,
                path << ": " << where << ": point set type " << cg_PointSetTypeName(pt)
                     << " in a structured zone (PointRange or PointList expected)");
      FV_VERIFY(np >= 1 && np < (1LL << 31), path << ": " << where << " has " << np << " points");
      if (h.location == CellCenter) {
        b.warn(where + " is located at CellCenter; ignored");
        continue;
      }
      const PointSetAt at = h.location == Vertex ? PointSetAt::Vertex : PointSetAt::FaceCenter;
      std::vector<cgsize_t> pts(static_cast<std::size_t>(np * idim));
      FV_CG(cg_boco_read(file.fn, B, zi.Z, C, pts.data(), nullptr),
            where << ": cannot read its points");
      const std::string bcType = bc_type_of(h.type, C, zi, where);
      std::vector<char> named(faces.size(), 0);
      if (pt == PointRange) {
        FV_VERIFY(np == 2, path << ": " << where << ": a PointRange has " << np << " points");
        std::array<std::int64_t, 3> lo, hi;
        split_range(idim, pts.data(), lo, hi);
        order_range(lo, hi);
        FV_VERIFY(blk.has_vertex(lo) && blk.has_vertex(hi),
                  path << ": " << where << ": point range outside the zone's vertices");
        for (std::size_t f = 0; f < faces.size(); ++f)
          named[f] = face_in_range(blk, faces[f], at, lo, hi);
      } else {
        // a list: a face is named when its corners (vertices) or its index (face centres) are
        std::vector<char> inList(static_cast<std::size_t>(blk.n_nodes()), 0);
        for (cgsize_t p = 0; p < np; ++p) {
          std::array<std::int64_t, 3> ijk{1, 1, 1};
          for (int d = 0; d < idim; ++d)
            ijk[d] = pts[static_cast<std::size_t>(p * idim + d)];
          FV_VERIFY(blk.has_vertex(ijk), path << ": " << where << ": point " << p + 1
                                              << " lies outside the zone's index range");
          inList[static_cast<std::size_t>(blk.node(ijk))] = 1;
        }
        std::array<std::int64_t, 3> corners[4];
        for (std::size_t f = 0; f < faces.size(); ++f) {
          if (at == PointSetAt::FaceCenter) {
            named[f] = inList[static_cast<std::size_t>(blk.node(face_center_index(blk, faces[f])))];
            continue;
          }
          const int n = block_face_corners(blk, faces[f], corners);
          bool all = true;
          for (int k = 0; k < n && all; ++k)
            all = inList[static_cast<std::size_t>(blk.node(corners[k]))];
          named[f] = all;
        }
      }
      const idx_t patch = b.patch(name, bcType);
      std::size_t count = 0;
      for (std::size_t f = 0; f < faces.size(); ++f) {
        if (!named[f]) continue;
        const std::size_t bf = static_cast<std::size_t>(zi.firstBFace) + f;
        if (bHasBc[bf] && b.bPatch[bf] != patch)
          b.warn("a face of zone '" + zi.name + "' is in BC '" + b.patches[b.bPatch[bf]].name +
                 "' and '" + name + "'; keeping '" + name + "'");
        b.bPatch[bf] = patch;
        bHasBc[bf] = 1;
        ++count;
      }
      if (count == 0) b.warn(where + " names no boundary face of the zone; ignored");
    }
  }

  /// The CGIO node of a section (or 0 when absent) and the file's CGIO handle.
  double section_node(const std::string& zname, const std::string& sname, int& cgio) {
    cgio = -1;
    double root = 0, id = 0;
    if (cg_get_cgio(file.fn, &cgio) != CG_OK || cg_root_id(file.fn, &root) != CG_OK) return 0;
    const std::string p = "/" + baseName + "/" + zname + "/" + sname;
    return cgio_get_node_id(cgio, root, p.c_str(), &id) == CG_OK ? id : 0;
  }

  /// False for a MIXED / NGON_n / NFACE_n section written before CGNS 3.4 (no
  /// ElementStartOffset; the library's cg_poly_elements_read fails on it with an ADF error).
  bool has_start_offsets(const std::string& zname, const std::string& sname) {
    int cgio = -1;
    const double sec = section_node(zname, sname, cgio);
    double off = 0;
    return sec == 0 || cgio_get_node_id(cgio, sec, "ElementStartOffset", &off) == CG_OK;
  }

  /// Reads the ElementConnectivity of an old-layout section through CGIO and rebuilds its
  /// offsets by walking it: MIXED, each element's type code then its nodes (cg_npe); NGON_n
  /// and NFACE_n, each element's count then its entries.
  void read_section_without_offsets(const std::string& zname, Section& sec, cgsize_t ne) {
    const std::string where = "zone '" + zname + "' section '" + sec.name + "'";
    int cgio = -1;
    const double node = section_node(zname, sec.name, cgio);
    double conn = 0;
    FV_VERIFY(node != 0 && cgio_get_node_id(cgio, node, "ElementConnectivity", &conn) == CG_OK,
              path << ": " << where << " has neither ElementStartOffset nor ElementConnectivity");
    int ndims = 0;
    cgsize_t dims[CGIO_MAX_DIMENSIONS] = {};
    FV_VERIFY(cgio_get_dimensions(cgio, conn, &ndims, dims) == CG_OK && ndims == 1 &&
                  dims[0] >= 0 && dims[0] < (1LL << 40),
              path << ": " << where << ": unreadable ElementConnectivity");
    const cgsize_t n = dims[0];
    // read in the stored integer type (ADF converts nothing), then widen
    char type[CGIO_MAX_DATATYPE_LENGTH + 1] = "";
    FV_VERIFY(cgio_get_data_type(cgio, conn, type) == CG_OK &&
                  (std::string(type) == "I4" || std::string(type) == "I8"),
              path << ": " << where << ": ElementConnectivity of data type '" << type
                   << "' (I4 or I8 expected)");
    std::vector<cgsize_t> raw(static_cast<std::size_t>(n));
    bool ok;
    if (std::string(type) == "I8") {
      std::vector<std::int64_t> v(static_cast<std::size_t>(n));
      ok = cgio_read_all_data(cgio, conn, v.data()) == CG_OK;
      std::copy(v.begin(), v.end(), raw.begin());
    } else {
      std::vector<std::int32_t> v(static_cast<std::size_t>(n));
      ok = cgio_read_all_data(cgio, conn, v.data()) == CG_OK;
      std::copy(v.begin(), v.end(), raw.begin());
    }
    FV_VERIFY(ok, path << ": " << where << ": cannot read ElementConnectivity");
    sec.conn.clear();
    sec.offsets.assign(1, 0);
    std::size_t i = 0;
    for (cgsize_t e = 0; e < ne; ++e) {
      FV_VERIFY(i < raw.size(), path << ": " << where << ": connectivity ends at element "
                                     << sec.start + e << " of " << sec.start << ".." << sec.end);
      cgsize_t count = 0;
      if (sec.type == MIXED) {
        int npe = 0;
        const auto t = static_cast<ElementType_t>(raw[i]);
        FV_VERIFY(raw[i] > ElementTypeUserDefined && t != MIXED && t != NGON_n && t != NFACE_n &&
                      cg_npe(t, &npe) == CG_OK && npe > 0,
                  path << ": " << where << " element " << sec.start + e << ": unknown element type "
                       << raw[i] << " in a MIXED section");
        count = 1 + npe; // the type code stays in front, as cg_poly_elements_read gives it
        FV_VERIFY(i + static_cast<std::size_t>(count) <= raw.size(),
                  path << ": " << where << ": connectivity ends inside element " << sec.start + e);
        sec.conn.insert(sec.conn.end(), raw.begin() + static_cast<std::ptrdiff_t>(i),
                        raw.begin() + static_cast<std::ptrdiff_t>(i + count));
      } else {
        count = raw[i];
        FV_VERIFY(count >= 1 && i + 1 + static_cast<std::size_t>(count) <= raw.size(),
                  path << ": " << where << " element " << sec.start + e << ": bad entry count "
                       << count);
        sec.conn.insert(sec.conn.end(), raw.begin() + static_cast<std::ptrdiff_t>(i + 1),
                        raw.begin() + static_cast<std::ptrdiff_t>(i + 1 + count));
        ++i; // the count itself
      }
      i += static_cast<std::size_t>(count);
      sec.offsets.push_back(static_cast<cgsize_t>(sec.conn.size()));
    }
    FV_VERIFY(i == raw.size(), path << ": " << where << ": " << raw.size() - i
                                    << " connectivity entries after the last element");
    if (!warnedOldSections_) {
      b.warn(where + " has no ElementStartOffset (written before CGNS 3.4); read from its "
                     "inline element counts");
      warnedOldSections_ = true;
    }
  }

  /// Appends the zone's nv nodes (CoordinateX/Y[/Z], read over rmin..rmax) to the builder.
  /// Appends the coordinates of the nodes of index range rmin..rmax (nv of them, the first
  /// numbered r0 in messages) to out.
  void read_coordinates(int Z, const std::string& zname, const cgsize_t* rmin, const cgsize_t* rmax,
                        cgsize_t nv, std::vector<real_t>& out, cgsize_t r0 = 1) {
    const std::size_t off = out.size();
    out.resize(off + 3 * static_cast<std::size_t>(nv), 0.0);
    int nc = 0;
    FV_CG(cg_ncoords(file.fn, B, Z, &nc), "zone '" << zname << "': cannot read coordinates");
    const char* axes[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
    std::vector<double> buf(static_cast<std::size_t>(nv));
    int found = 0;
    for (int d = 0; d < 3; ++d) {
      bool present = false;
      for (int c = 1; c <= nc; ++c) {
        DataType_t dt;
        char cn[33];
        if (cg_coord_info(file.fn, B, Z, c, &dt, cn) == CG_OK && axes[d] == std::string(cn))
          present = true;
      }
      if (!present) continue;
      ++found;
      if (nv == 0) continue;
      FV_CG(cg_coord_read(file.fn, B, Z, axes[d], RealDouble, rmin, rmax, buf.data()),
            "zone '" << zname << "': cannot read " << axes[d]);
      for (cgsize_t i = 0; i < nv; ++i) {
        FV_VERIFY(std::isfinite(buf[i]), path << ": zone '" << zname << "': node " << r0 + i
                                              << " has a non-finite " << axes[d]);
        out[off + 3 * i + d] = buf[i];
      }
    }
    FV_VERIFY(found >= 2,
              path << ": zone '" << zname << "' has no Cartesian coordinates (CoordinateX/Y[/Z])");
  }

  void read_bcs(const ZoneInfo& zi, const ElemRef& ref, cgsize_t maxId) {
    int nbc = 0;
    FV_CG(cg_nbocos(file.fn, B, zi.Z, &nbc), "zone '" << zi.name << "': cannot read ZoneBC");
    const idx_t f0 = zi.firstBFace, f1 = zi.endBFace;
    struct VertexBc {
      idx_t patch;
      std::vector<cgsize_t> nodes;
      std::string name;
    };
    std::vector<VertexBc> vbcs;
    int cgio = -1;
    double root = 0;
    cg_get_cgio(file.fn, &cgio);
    cg_root_id(file.fn, &root);
    for (int C = 1; C <= nbc; ++C) {
      const BcHeader h = read_bc_header(zi, C);
      const std::string &name = h.name, &where = h.where;
      const PointSetType_t pt = h.pointSet;
      const cgsize_t np = h.points;
      bool locGiven = false;
      if (cgio >= 0) {
        double id = 0;
        const std::string p = "/" + baseName + "/" + zi.name + "/ZoneBC/" + name + "/GridLocation";
        locGiven = cgio_get_node_id(cgio, root, p.c_str(), &id) == CG_OK;
      }
      const std::string bcType = bc_type_of(h.type, C, zi, where);
      std::vector<cgsize_t> pts(static_cast<std::size_t>(std::max<cgsize_t>(np, 0)));
      FV_CG(cg_boco_read(file.fn, B, zi.Z, C, pts.data(), nullptr),
            where << ": cannot read its points");
      const bool range = pt == PointRange || pt == ElementRange;
      FV_VERIFY(pt == PointRange || pt == PointList || pt == ElementRange || pt == ElementList,
                path << ": " << where << ": unsupported point set type "
                     << cg_PointSetTypeName(pt));
      if (range) {
        FV_VERIFY(np == 2 && pts[0] <= pts[1], path << ": " << where << ": bad range");
        const cgsize_t a = pts[0], z = pts[1];
        pts.clear();
        for (cgsize_t i = a; i <= z; ++i)
          pts.push_back(i);
      }
      bool elements = pt == ElementRange || pt == ElementList;
      if (!elements) {
        if (h.location == CellCenter) {
          b.warn(where + " is located at CellCenter; ignored");
          continue;
        }
        elements = h.location != Vertex; // FaceCenter, EdgeCenter, ...
        if (!elements) {
          // a PointList of "vertices" that can only be boundary elements
          bool beyond = false, allBoundaryElems = true;
          for (cgsize_t p : pts) {
            beyond |= p > zi.nNodes;
            allBoundaryElems &= p >= 1 && p <= maxId && ref.kind[p - 1] == 2;
          }
          if (beyond && allBoundaryElems) {
            elements = true;
            b.warn(where + (locGiven ? " says GridLocation Vertex" : " gives no GridLocation") +
                   " but lists boundary element ids; read as faces");
          }
        }
      }
      const idx_t patch = b.patch(name, bcType);
      if (elements) {
        std::size_t notFace = 0;
        for (cgsize_t p : pts) {
          FV_VERIFY(p >= 1 && p <= maxId && ref.kind[p - 1] != 0,
                    path << ": " << where << " refers to element " << p
                         << ", which does not exist in the zone");
          if (ref.kind[p - 1] != 2) {
            ++notFace;
            continue;
          }
          const idx_t f = ref.bface[p - 1];
          if (bHasBc[f] && b.bPatch[f] != patch)
            b.warn("boundary face " + std::to_string(p) + " of zone '" + zi.name + "' is in BC '" +
                   b.patches[b.bPatch[f]].name + "' and '" + name + "'; keeping '" + name + "'");
          b.bPatch[f] = patch;
          bHasBc[f] = 1;
        }
        if (notFace)
          b.warn(where + " lists " + std::to_string(notFace) +
                 " elements that are not boundary faces; ignored");
      } else {
        for (cgsize_t p : pts)
          FV_VERIFY(p >= 1 && p <= zi.nNodes, path << ": " << where << " refers to node " << p
                                                   << ", outside 1.." << zi.nNodes);
        vbcs.push_back({patch, std::move(pts), name});
      }
    }
    if (vbcs.empty()) return;
    auto keep_as_node_sets = [&](const std::vector<std::size_t>& which) {
      for (std::size_t k : which) {
        NodeSetPatch ns;
        ns.patch = vbcs[k].patch;
        for (cgsize_t p : vbcs[k].nodes)
          ns.nodes.push_back(zi.nodeOffset + static_cast<idx_t>(p - 1));
        b.nodeSetPatches.push_back(std::move(ns));
      }
    };
    if (f1 == f0) {
      // no boundary elements at all: the faces come from the cells during validation
      std::vector<std::size_t> all(vbcs.size());
      for (std::size_t k = 0; k < all.size(); ++k)
        all[k] = k;
      keep_as_node_sets(all);
      return;
    }
    // vertex BCs: faces whose nodes all belong to the set; ties broken by section coverage
    std::vector<std::uint32_t> stamp(static_cast<std::size_t>(zi.nNodes), 0);
    std::vector<idx_t> cand(static_cast<std::size_t>(f1 - f0), 0);
    std::vector<std::map<idx_t, idx_t>> cover(vbcs.size()); // section -> faces
    auto for_candidates = [&](std::size_t k, auto&& fn) {
      const std::uint32_t mark = static_cast<std::uint32_t>(k + 1);
      for (cgsize_t p : vbcs[k].nodes)
        stamp[p - 1] = mark;
      for (idx_t f = f0; f < f1; ++f) {
        if (bHasBc[f]) continue;
        bool all = true;
        for (idx_t i = b.bOff[f]; i < b.bOff[f + 1] && all; ++i)
          all = stamp[b.bConn[i] - zi.nodeOffset] == mark;
        if (all) fn(f);
      }
    };
    for (std::size_t k = 0; k < vbcs.size(); ++k)
      for_candidates(k, [&](idx_t f) {
        ++cand[f - f0];
        ++cover[k][bSection[f]];
      });
    std::fill(stamp.begin(), stamp.end(), 0);
    std::vector<idx_t> best(cand.size(), -1);
    for (std::size_t k = 0; k < vbcs.size(); ++k) {
      if (vbcs[k].nodes.empty()) continue;
      for_candidates(k, [&](idx_t f) {
        const idx_t score = cover[k][bSection[f]];
        if (best[f - f0] < score) {
          best[f - f0] = score;
          b.bPatch[f] = vbcs[k].patch;
        }
      });
    }
    std::vector<char> gotFaces(vbcs.size(), 0);
    for (idx_t f = f0; f < f1; ++f)
      if (cand[f - f0] > 0) {
        bHasBc[f] = 1;
        for (std::size_t k = 0; k < vbcs.size(); ++k)
          if (vbcs[k].patch == b.bPatch[f]) gotFaces[k] = 1;
      }
    std::vector<std::size_t> unmapped;
    for (std::size_t k = 0; k < vbcs.size(); ++k)
      if (!gotFaces[k] && !vbcs[k].nodes.empty()) unmapped.push_back(k);
    keep_as_node_sets(unmapped);
  }

  /// Builder node numbers of a connectivity's points: linear ids (unstructured zone) or
  /// index triples, listed or as a range (structured zone).
  std::vector<idx_t> conn_nodes(const ZoneInfo& z, PointSetType_t pt,
                                const std::vector<cgsize_t>& p, cgsize_t np, const char* cn) {
    std::vector<idx_t> out;
    auto bad = [&](cgsize_t i) {
      FV_THROW(path << ": zone '" << z.name << "' connectivity '" << cn << "': point " << i + 1
                    << " lies outside the zone");
    };
    if (!z.structured) {
      for (cgsize_t i = 0; i < np; ++i) {
        if (p[i] < 1 || p[i] > z.nNodes) bad(i);
        out.push_back(z.nodeOffset + static_cast<idx_t>(p[i] - 1));
      }
      return out;
    }
    const int dim = z.block.dim;
    if (pt == PointRange) {
      std::array<std::int64_t, 3> lo, hi;
      split_range(dim, p.data(), lo, hi);
      order_range(lo, hi);
      if (!z.block.has_vertex(lo) || !z.block.has_vertex(hi)) bad(0);
      for (std::int64_t k = lo[2]; k <= hi[2]; ++k)
        for (std::int64_t j = lo[1]; j <= hi[1]; ++j)
          for (std::int64_t i = lo[0]; i <= hi[0]; ++i)
            out.push_back(z.nodeOffset + static_cast<idx_t>(z.block.node({i, j, k})));
      return out;
    }
    for (cgsize_t i = 0; i < np; ++i) {
      std::array<std::int64_t, 3> ijk{1, 1, 1};
      for (int d = 0; d < dim; ++d)
        ijk[d] = p[static_cast<std::size_t>(i * dim + d)];
      if (!z.block.has_vertex(ijk)) bad(i);
      out.push_back(z.nodeOffset + static_cast<idx_t>(z.block.node(ijk)));
    }
    return out;
  }

  /// Node pairs of the 1-to-1 interfaces of a structured zone; true when it has any.
  bool add_one_to_one_pairs(const ZoneInfo& zi,
                            const std::unordered_map<std::string, std::size_t>& zoneByName,
                            std::vector<std::pair<idx_t, idx_t>>& pairs) {
    int n = 0;
    if (cg_n1to1(file.fn, B, zi.Z, &n) != CG_OK) return false;
    bool any = false;
    for (int I = 1; I <= n; ++I) {
      char cn[33], dn[33];
      cgsize_t range[6] = {1, 1, 1, 1, 1, 1}, drange[6] = {1, 1, 1, 1, 1, 1};
      int tr[3] = {1, 2, 3};
      FV_CG(cg_1to1_read(file.fn, B, zi.Z, I, cn, dn, range, drange, tr),
            "zone '" << zi.name << "': cannot read 1-to-1 connectivity " << I);
      const std::string where = path + ": zone '" + zi.name + "' 1-to-1 connectivity '" + cn + "'";
      auto dz = zoneByName.find(dn);
      if (dz == zoneByName.end()) {
        b.warn(where.substr(path.size() + 2) + " names zone '" + dn +
               "', which is not being read; ignored");
        continue;
      }
      const ZoneInfo& zd = zones[dz->second];
      FV_VERIFY(zd.structured, where << ": donor zone '" << dn << "' is not structured");
      std::array<std::int64_t, 3> lo, hi, dlo, dhi;
      split_range(zi.block.dim, range, lo, hi);
      split_range(zd.block.dim, drange, dlo, dhi);
      const std::array<int, 3> t{tr[0], tr[1], zi.block.dim == 3 ? tr[2] : 3};
      const auto nodePairs = one_to_one_pairs(zi.block, zd.block, lo, hi, dlo, t, where);
      const std::int64_t last = nodePairs.back().second;
      FV_VERIFY(last == zd.block.node(dhi) || last == zd.block.node(dlo),
                where << ": the transform does not map the range onto the donor range");
      for (auto [a, c] : nodePairs)
        pairs.emplace_back(zi.nodeOffset + static_cast<idx_t>(a),
                           zd.nodeOffset + static_cast<idx_t>(c));
      mark_interface_faces(zi, lo, hi);
      mark_interface_faces(zd, dlo, dhi);
      any = true;
    }
    return any;
  }

  void merge_zones() {
    fv::log::Phase phase("merging " + std::to_string(zones.size()) + " zones");
    const idx_t nn = b.nNodes();
    std::vector<std::pair<idx_t, idx_t>> pairs;
    std::unordered_map<std::string, std::size_t> zoneByName;
    for (std::size_t z = 0; z < zones.size(); ++z)
      zoneByName[zones[z].name] = z;
    bool haveConn = false;
    for (const ZoneInfo& zi : zones) {
      int nc = 0;
      if (cg_nconns(file.fn, B, zi.Z, &nc) != CG_OK) continue;
      for (int C = 1; C <= nc; ++C) {
        char cn[33], dn[33];
        GridLocation_t loc;
        GridConnectivityType_t ct;
        PointSetType_t pt, dpt;
        cgsize_t np, ndp;
        ZoneType_t dzt;
        DataType_t ddt;
        if (cg_conn_info(file.fn, B, zi.Z, C, cn, &loc, &ct, &pt, &np, dn, &dzt, &dpt, &ddt,
                         &ndp) != CG_OK)
          continue;
        auto dz = zoneByName.find(dn);
        const bool pointSet = pt == PointList || (pt == PointRange && zi.structured);
        if (ct == Overset || loc != Vertex || dz == zoneByName.end() || !pointSet) {
          b.warn("zone '" + zi.name + "' connectivity '" + cn +
                 "' is not a vertex-to-vertex interface with a zone being read; ignored");
          continue;
        }
        const ZoneInfo& zd = zones[dz->second];
        const int di = zi.structured ? zi.block.dim : 1, dd = zd.structured ? zd.block.dim : 1;
        FV_VERIFY(np >= 0 && ndp >= 0 && np < (1LL << 31) && ndp < (1LL << 31),
                  path << ": zone '" << zi.name << "' connectivity '" << cn << "': bad sizes");
        std::vector<cgsize_t> p(static_cast<std::size_t>(np * di)),
            d(static_cast<std::size_t>(ndp * dd));
        FV_CG(cg_conn_read(file.fn, B, zi.Z, C, p.data(), Integer, d.data()),
              "zone '" << zi.name << "' connectivity '" << cn << "': cannot read it");
        const std::vector<idx_t> mine = conn_nodes(zi, pt, p, np, cn);
        const std::vector<idx_t> theirs = conn_nodes(zd, PointList, d, ndp, cn);
        FV_VERIFY(mine.size() == theirs.size(),
                  path << ": zone '" << zi.name << "' connectivity '" << cn << "' pairs "
                       << mine.size() << " nodes with " << theirs.size() << " donor nodes");
        for (std::size_t i = 0; i < mine.size(); ++i)
          pairs.emplace_back(mine[i], theirs[i]);
        haveConn = true;
      }
      if (zi.structured) haveConn |= add_one_to_one_pairs(zi, zoneByName, pairs);
    }
    // tolerance
    std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (idx_t i = 0; i < nn; ++i)
      for (int d = 0; d < 3; ++d) {
        lo[d] = std::min(lo[d], b.xyz[3 * i + d]);
        hi[d] = std::max(hi[d], b.xyz[3 * i + d]);
      }
    const double diag =
        std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                  (hi[2] - lo[2]) * (hi[2] - lo[2]));
    const double tol = opts.mergeTolerance > 0 ? opts.mergeTolerance : kDefaultMergeFraction * diag;
    if (haveConn) {
      std::size_t far = 0;
      for (auto [i, j] : pairs)
        for (int d = 0; d < 3; ++d)
          if (std::fabs(b.xyz[3 * i + d] - b.xyz[3 * j + d]) > 1e3 * tol) {
            ++far;
            break;
          }
      if (far)
        b.warn(std::to_string(far) +
               " node pairs of the zone connectivity are not coincident (periodic interface?); "
               "glued anyway");
    } else {
      std::vector<std::int32_t> group(static_cast<std::size_t>(nn));
      for (std::size_t z = 0; z < zones.size(); ++z)
        std::fill(group.begin() + zones[z].nodeOffset,
                  group.begin() + zones[z].nodeOffset + zones[z].nNodes, static_cast<int>(z));
      pairs = find_coincident_nodes(b.xyz, tol, group);
    }
    const std::vector<idx_t> rep = merge_representatives(nn, pairs);
    std::vector<idx_t> newId(static_cast<std::size_t>(nn), -1);
    std::vector<real_t> xyz;
    std::vector<char> glued(static_cast<std::size_t>(nn), 0);
    for (auto [i, j] : pairs)
      glued[i] = glued[j] = 1;
    idx_t next = 0;
    for (idx_t i = 0; i < nn; ++i)
      if (rep[i] == i) {
        newId[i] = next++;
        xyz.insert(xyz.end(), &b.xyz[3 * i], &b.xyz[3 * i] + 3);
      }
    std::vector<char> gluedNew(static_cast<std::size_t>(next), 0);
    for (idx_t i = 0; i < nn; ++i) {
      newId[i] = newId[rep[i]];
      if (glued[i]) gluedNew[newId[i]] = 1;
    }
    FV_LOG_INFO("  glued " << nn - next << " interface nodes ("
                           << (haveConn ? "ZoneGridConnectivity" : "coincident coordinates")
                           << ")");
    b.xyz = std::move(xyz);
    for (idx_t& v : b.cellConn)
      v = newId[v];
    for (idx_t& v : b.bConn)
      v = newId[v];
    for (idx_t& v : b.pfnConn)
      v = newId[v];
    for (NodeSetPatch& ns : b.nodeSetPatches)
      for (idx_t& v : ns.nodes)
        v = newId[v];

    // interface faces: a boundary face matching one of another zone, or a face with no BC
    // whose nodes all lie on the interface, becomes an interior face (dropped)
    const idx_t nb = b.nBFaces();
    std::vector<char> drop(static_cast<std::size_t>(nb), 0);
    std::unordered_map<std::string, idx_t> byKey;
    auto key = [&](idx_t f) {
      std::vector<idx_t> v(b.bConn.begin() + b.bOff[f], b.bConn.begin() + b.bOff[f + 1]);
      std::sort(v.begin(), v.end());
      return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(idx_t));
    };
    for (idx_t f = 0; f < nb; ++f) {
      bool allGlued = true;
      for (idx_t i = b.bOff[f]; i < b.bOff[f + 1] && allGlued; ++i)
        allGlued = gluedNew[b.bConn[i]];
      if (bIface[f] == kIfaceKnown) drop[f] = 1;
      if (!allGlued) continue;
      if (!bHasBc[f] && bIface[f] == kIfaceAny) drop[f] = 1;
      auto [it, fresh] = byKey.emplace(key(f), f);
      if (!fresh && b.bZone[it->second] != b.bZone[f]) drop[f] = drop[it->second] = 1;
    }
    const std::vector<idx_t> kept = b.drop_bfaces(drop);
    keep_rows(bSection, kept);
    keep_rows(bHasBc, kept);
    keep_rows(bIface, kept);
    const idx_t dropped = nb - static_cast<idx_t>(kept.size());
    FV_LOG_INFO("  " << dropped << " zone-interface faces became interior faces");
  }

  /// Boundary faces that no BC_t covers form a patch named after their section.
  void name_orphans() {
    std::map<idx_t, idx_t> patchOfSection;
    std::size_t orphans = 0;
    for (idx_t f = 0; f < b.nBFaces(); ++f) {
      if (b.bPatch[f] != kNone) continue;
      ++orphans;
      const idx_t s = bSection[f];
      auto it = patchOfSection.find(s);
      if (it == patchOfSection.end()) {
        const std::string& nm = sectionNames[s];
        auto fam = familyBc.find(nm);
        const std::string bt = fam != familyBc.end() ? fam->second : std::string("UserDefined");
        it = patchOfSection.emplace(s, b.patch(nm, bt)).first;
      }
      b.bPatch[f] = it->second;
    }
    if (orphans)
      FV_LOG_INFO("  " << orphans
                       << " boundary faces without a BC_t form patches named after their section");
  }
};

} // namespace

namespace {

/// Exit codes of the reading child (read_cgns_in_child()).
enum : int { kChildMesh = 0, kChildError = 3, kChildWriteFailed = 4 };

/// Reads the whole file in a forked child, which hands the mesh back through an anonymous
/// temporary file (formats/mesh_transfer.hpp), so that no libcgns code runs on the file in the
/// caller. For CGNS/ADF files: libcgns 3.4's ADF layer overflows heap buffers on corrupt
/// sub-node tables after cg_open has succeeded (ADFI_read_sub_node_table under
/// cgio_get_node_id, found by tests/fuzz/fuzz_cgns). The child's death becomes one error line;
/// its fv::Error comes back as the same error. Where the temporary file or fork fails, the file
/// is read directly.
Mesh read_cgns_in_child(const std::string& path, const ReadOptions& opts) {
  std::FILE* buf = std::tmpfile();
  if (!buf) return CgnsReader(path, opts).read();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    std::fclose(buf);
    return CgnsReader(path, opts).read();
  }
  if (pid == 0) {
    die_plainly_in_child();
    // quiet: its warnings come back with the mesh, its death as one line
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      dup2(devnull, STDOUT_FILENO);
      dup2(devnull, STDERR_FILENO);
    }
    int code = kChildMesh;
    try {
      const Mesh m = CgnsReader(path, opts, /*probe=*/false).read();
      if (!write_mesh_stream(buf, m)) code = kChildWriteFailed;
    } catch (const Error& e) {
      std::fputc(static_cast<int>(e.kind()), buf);
      std::fputs(e.what(), buf);
      std::fflush(buf);
      code = kChildError;
    } catch (const std::exception& e) {
      std::fputc(static_cast<int>(ErrorKind::Runtime), buf);
      std::fprintf(buf, "%s: cannot read CGNS file: %s", path.c_str(), e.what());
      std::fflush(buf);
      code = kChildError;
    }
    _exit(code);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    FV_VERIFY(errno == EINTR, path << ": lost the CGNS reading process: " << std::strerror(errno));
  std::string bytes;
  if (std::fseek(buf, 0, SEEK_END) == 0) {
    const long n = std::ftell(buf);
    std::rewind(buf);
    bytes.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (std::fread(bytes.data(), 1, bytes.size(), buf) != bytes.size()) bytes.clear();
  }
  std::fclose(buf);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == kChildMesh) {
    Mesh m = read_mesh_stream(bytes.data(), bytes.size(), path);
    for (const std::string& w : m.warnings) // as MeshBuilder::warn() prints them
      FV_LOG_WARN(path << ": " << w);
    return m;
  }
  if (code == kChildError && !bytes.empty())
    throw Error(bytes.substr(1), static_cast<ErrorKind>(bytes[0]) == ErrorKind::Usage
                                     ? ErrorKind::Usage
                                     : ErrorKind::Runtime);
  FV_VERIFY(code != kChildWriteFailed,
            path << ": cannot hand the mesh over from the CGNS reading process (temporary file "
                    "full?)");
  FV_THROW(path << ": corrupt CGNS file: the CGNS library crashed (" << child_end(status)
                << ") reading it");
}

} // namespace

std::optional<MeshSlice> read_cgns_slice(const std::string& path, const ReadOptions& opts, int rank,
                                         int parts) {
  // CGNS/HDF5 only: CGNS/ADF files are read whole, in a child (read_cgns()).
  if (!is_hdf5_file(path)) return std::nullopt;
  return CgnsReader(path, opts).read_slice(rank, parts);
}

Mesh read_cgns(const std::string& path, const ReadOptions& opts) {
  // CGNS/HDF5 is read here; anything else (CGNS/ADF) in a child. Decided from the file's
  // signature, as even cg_is_cgns() overflows on a corrupt ADF file.
  if (is_hdf5_file(path)) return CgnsReader(path, opts).read();
  return read_cgns_in_child(path, opts);
}

} // namespace fv
