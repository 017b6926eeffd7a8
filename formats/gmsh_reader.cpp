// Gmsh MSH reader: versions 2.2 and 4.1, ASCII and binary (little-endian). Physical groups
// become patches; linear Gmsh elements have the CGNS corner order, higher-order ones are read as
// their corners.
#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/mesh_builder.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/text_scanner.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

namespace fv {

namespace {

/// Gmsh element type -> dimension, corner nodes, total nodes.
struct GmshType {
  int dim = -1, corners = 0, nodes = 0;
  CellType cell = CellType::Tet;
};

/// A volume element of shape t with `nodes` nodes (its corners: the shape's, first).
GmshType volume(CellType t, int nodes) {
  return {3, cell_node_count(t), nodes, t};
}

GmshType gmsh_type(std::int64_t t) {
  // linear volumes: the standard shapes of the shape table (corners in CGNS order)
  CellType c = CellType::Tet;
  if (cell_type_of(&CellShape::gmshType, t, c) && is_standard_shape(c))
    return volume(c, cell_node_count(c));
  switch (t) {
  case 1:
    return {1, 2, 2};
  case 2:
    return {2, 3, 3};
  case 3:
    return {2, 4, 4};
  case 8:
    return {1, 2, 3};
  case 9:
    return {2, 3, 6};
  case 10:
    return {2, 4, 9};
  case 11:
    return volume(CellType::Tet, 10);
  case 12:
    return volume(CellType::Hex, 27);
  case 13:
    return volume(CellType::Prism, 18);
  case 14:
    return volume(CellType::Pyramid, 14);
  case 15:
    return {0, 1, 1};
  case 16:
    return {2, 4, 8};
  case 17:
    return volume(CellType::Hex, 20);
  case 18:
    return volume(CellType::Prism, 15);
  case 19:
    return volume(CellType::Pyramid, 13);
  case 20:
    return {2, 3, 9};
  case 21:
    return {2, 3, 10};
  case 26:
    return {1, 2, 4};
  case 29:
    return volume(CellType::Tet, 20);
  case 36:
    return {2, 4, 16};
  default:
    return {};
  }
}

/// One element as read, before classification.
struct RawElement {
  std::int64_t tag, type, physical, entity;
  std::size_t first; ///< into the node-tag list
};

class GmshReader {
 public:
  GmshReader(const std::string& path, const ReadOptions& opts)
      : path_(path), opts_(opts), data_(read_file_bytes(path)), sc_(data_, path) {}

  Mesh read() {
    fv::log::Phase phase("reading Gmsh mesh");
    b_.path = path_;
    bool sawFormat = false;
    while (!sc_.at_end()) {
      const std::string_view tok = sc_.token();
      if (tok == "$MeshFormat") {
        read_format();
        sawFormat = true;
      } else if (!sawFormat) {
        sc_.fail("not a Gmsh file (no $MeshFormat)");
      } else if (tok == "$PhysicalNames") {
        read_physical_names();
      } else if (tok == "$Entities") {
        read_entities();
      } else if (tok == "$Nodes") {
        version_ >= 4 ? read_nodes4() : read_nodes2();
      } else if (tok == "$Elements") {
        version_ >= 4 ? read_elements4() : read_elements2();
      } else if (tok.size() > 1 && tok[0] == '$') {
        skip_section(tok);
      } else {
        sc_.fail("unexpected '" + std::string(tok.substr(0, 40)) + "' between sections");
      }
    }
    FV_VERIFY(sawFormat, path_ << ": empty file");
    FV_VERIFY(!elements_.empty(), path_ << ": the Gmsh file has no $Elements");
    return build();
  }

 private:
  std::string path_;
  const ReadOptions& opts_;
  std::string data_;
  TextScanner sc_;
  MeshBuilder b_;
  double version_ = 0;
  bool binary_ = false;
  std::map<std::pair<int, std::int64_t>, std::string> physNames_;   // (dim, tag) -> name
  std::map<std::pair<int, std::int64_t>, std::int64_t> entityPhys_; // (dim, entity) -> phys
  std::vector<idx_t> nodeIndex_; // node tag -> index (-1: none), tags below dense_tags()
  std::unordered_map<std::int64_t, idx_t> sparseNodes_; // the tags beyond: sparse numbering

  /// Node tags below this are indexed densely: a file of B bytes holds fewer than B nodes, so
  /// the dense index stays within a few times the file's size whatever the tags claim.
  std::size_t dense_tags() const {
    return std::max<std::size_t>(std::size_t{1} << 20, 4 * data_.size());
  }
  /// Index of node `tag`, -1 when no such node was defined.
  idx_t node_index(std::int64_t tag) const {
    if (tag >= 1 && static_cast<std::size_t>(tag) < nodeIndex_.size()) return nodeIndex_[tag];
    const auto it = sparseNodes_.find(tag);
    return it == sparseNodes_.end() ? -1 : it->second;
  }
  std::vector<RawElement> elements_;
  std::vector<std::int64_t> elemNodes_;

  /// A count from the file, bounded by what the file can hold (for reserve()).
  std::size_t cap(std::uint64_t n) const {
    return static_cast<std::size_t>(std::min<std::uint64_t>(n, data_.size() / 2));
  }

  // ---- binary access
  template <class T>
  T get() {
    std::size_t p = sc_.pos();
    if (p + sizeof(T) > data_.size()) sc_.fail("truncated binary data");
    T v;
    std::memcpy(&v, data_.data() + p, sizeof(T));
    sc_.seek(p + sizeof(T));
    return v;
  }
  /// Binary data starts right after the line break that ends the header line.
  void to_binary_data() {
    std::size_t p = sc_.pos();
    while (p < data_.size() && data_[p] != '\n')
      ++p;
    sc_.seek(p + 1);
  }
  void expect_end(const char* section) {
    const std::string_view t = sc_.token();
    if (t != std::string("$End") + section)
      sc_.fail(std::string("expected $End") + section + ", found '" + std::string(t.substr(0, 40)) +
               "' (truncated or corrupt section)");
  }
  void skip_section(std::string_view tok) {
    const std::string end = "$End" + std::string(tok.substr(1));
    const std::size_t p = data_.find(end, sc_.pos());
    if (p == std::string::npos) sc_.fail("section " + std::string(tok) + " has no " + end);
    sc_.seek(p + end.size());
  }

  void read_format() {
    version_ = sc_.real("the MSH version");
    const std::int64_t ft = sc_.integer("the file type");
    const std::int64_t ds = sc_.integer("the data size");
    if (!(version_ >= 2.0 && version_ < 3.0) && !(version_ >= 4.0 && version_ < 5.0))
      sc_.fail("unsupported MSH version " + std::to_string(version_) + " (2.2 and 4.1 are)");
    if (version_ >= 4.0 && version_ < 4.1)
      sc_.fail("MSH 4.0 is not supported; re-export as 4.1 or 2.2");
    binary_ = ft == 1;
    if (binary_) {
      if (ds != 8) sc_.fail("binary MSH with data size " + std::to_string(ds) + " (expected 8)");
      to_binary_data();
      const int one = get<int>();
      if (one != 1) sc_.fail("binary MSH written with the other byte order is not supported");
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "Gmsh %.1f %s", version_, binary_ ? "binary" : "ASCII");
    b_.format = buf;
    b_.writer = "Gmsh (MSH " + std::string(buf + 5) + ")";
    expect_end("MeshFormat");
  }

  void read_physical_names() {
    const std::int64_t n = sc_.integer("the number of physical names");
    for (std::int64_t i = 0; i < n; ++i) {
      const int dim = static_cast<int>(sc_.integer("a physical dimension"));
      const std::int64_t tag = sc_.integer("a physical tag");
      sc_.more_on_line();
      std::string_view rest = sc_.line();
      std::string name(rest);
      const std::size_t q0 = name.find('"'), q1 = name.rfind('"');
      if (q0 != std::string::npos && q1 > q0) name = name.substr(q0 + 1, q1 - q0 - 1);
      physNames_[{dim, tag}] = name;
    }
    expect_end("PhysicalNames");
  }

  void read_entities() {
    std::size_t count[4];
    if (binary_) {
      to_binary_data();
      for (auto& c : count)
        c = get<std::uint64_t>();
    } else {
      for (auto& c : count)
        c = static_cast<std::size_t>(sc_.integer("an entity count"));
    }
    for (int dim = 0; dim < 4; ++dim)
      for (std::size_t e = 0; e < count[dim]; ++e) {
        std::int64_t tag;
        std::vector<std::int64_t> phys;
        if (binary_) {
          tag = get<int>();
          for (int k = 0; k < (dim == 0 ? 3 : 6); ++k)
            get<double>();
          const std::uint64_t np = get<std::uint64_t>();
          if (np > 1000000) sc_.fail("corrupt $Entities");
          for (std::uint64_t k = 0; k < np; ++k)
            phys.push_back(get<int>());
          if (dim > 0) {
            const std::uint64_t nb = get<std::uint64_t>();
            if (nb > 100000000) sc_.fail("corrupt $Entities");
            for (std::uint64_t k = 0; k < nb; ++k)
              get<int>();
          }
        } else {
          tag = sc_.integer("an entity tag");
          for (int k = 0; k < (dim == 0 ? 3 : 6); ++k)
            sc_.real("an entity bounding box");
          const std::int64_t np = sc_.integer("a physical tag count");
          for (std::int64_t k = 0; k < np; ++k)
            phys.push_back(sc_.integer("a physical tag"));
          if (dim > 0) {
            const std::int64_t nb = sc_.integer("a bounding entity count");
            for (std::int64_t k = 0; k < nb; ++k)
              sc_.integer("a bounding entity");
          }
        }
        if (!phys.empty()) entityPhys_[{dim, tag}] = std::abs(phys[0]);
      }
    expect_end("Entities");
  }

  void add_node(std::int64_t tag, const double* x) {
    if (tag < 1 || tag > (1LL << 31) - 2)
      sc_.fail("node tag " + std::to_string(tag) + " out of range");
    if (static_cast<std::size_t>(tag) >= dense_tags()) {
      if (!sparseNodes_.emplace(tag, b_.nNodes()).second)
        sc_.fail("node " + std::to_string(tag) + " defined twice");
    } else {
      if (static_cast<std::size_t>(tag) >= nodeIndex_.size())
        nodeIndex_.resize(
            std::min(dense_tags(), std::max<std::size_t>(static_cast<std::size_t>(tag) + 1,
                                                         2 * nodeIndex_.size())),
            -1);
      if (nodeIndex_[tag] >= 0) sc_.fail("node " + std::to_string(tag) + " defined twice");
      nodeIndex_[tag] = b_.nNodes();
    }
    b_.nodeFileId.push_back(tag);
    b_.xyz.insert(b_.xyz.end(), x, x + 3);
  }

  void read_nodes2() {
    const std::int64_t n = sc_.integer("the number of nodes");
    if (n < 0) sc_.fail("negative node count");
    b_.xyz.reserve(3 * cap(static_cast<std::uint64_t>(n)));
    if (binary_) to_binary_data();
    for (std::int64_t i = 0; i < n; ++i) {
      double x[3];
      std::int64_t tag;
      if (binary_) {
        tag = get<int>();
        for (double& v : x)
          v = get<double>();
      } else {
        tag = sc_.integer("a node tag");
        for (double& v : x)
          v = sc_.real("a coordinate");
      }
      add_node(tag, x);
    }
    expect_end("Nodes");
  }

  void read_nodes4() {
    std::uint64_t hdr[4];
    if (binary_) {
      to_binary_data();
      for (auto& h : hdr)
        h = get<std::uint64_t>();
    } else {
      for (auto& h : hdr)
        h = static_cast<std::uint64_t>(sc_.integer("a $Nodes header count"));
    }
    b_.xyz.reserve(3 * cap(hdr[1]));
    std::vector<std::int64_t> tags;
    for (std::uint64_t blk = 0; blk < hdr[0]; ++blk) {
      int dim, param;
      std::uint64_t n;
      if (binary_) {
        dim = get<int>();
        get<int>();
        param = get<int>();
        n = get<std::uint64_t>();
      } else {
        dim = static_cast<int>(sc_.integer("an entity dimension"));
        sc_.integer("an entity tag");
        param = static_cast<int>(sc_.integer("the parametric flag"));
        n = static_cast<std::uint64_t>(sc_.integer("a node count"));
      }
      if (n > hdr[1]) sc_.fail("corrupt $Nodes block");
      tags.resize(n);
      for (auto& t : tags)
        t = binary_ ? static_cast<std::int64_t>(get<std::uint64_t>()) : sc_.integer("a node tag");
      const int extra = param ? dim : 0;
      for (std::uint64_t i = 0; i < n; ++i) {
        double x[3];
        if (binary_) {
          for (double& v : x)
            v = get<double>();
          for (int k = 0; k < extra; ++k)
            get<double>();
        } else {
          for (double& v : x)
            v = sc_.real("a coordinate");
          for (int k = 0; k < extra; ++k)
            sc_.real("a parametric coordinate");
        }
        add_node(tags[i], x);
      }
    }
    expect_end("Nodes");
  }

  void check_type(std::int64_t type, std::int64_t tag, GmshType& gt) {
    gt = gmsh_type(type);
    if (gt.dim < 0)
      sc_.fail("element " + std::to_string(tag) + ": unknown or unsupported element type " +
               std::to_string(type));
  }

  void read_elements2() {
    const std::int64_t n = sc_.integer("the number of elements");
    if (n < 0) sc_.fail("negative element count");
    elements_.reserve(cap(static_cast<std::uint64_t>(n)));
    if (binary_) to_binary_data();
    std::int64_t done = 0;
    while (done < n) {
      if (binary_) {
        const int type = get<int>(), count = get<int>(), ntags = get<int>();
        GmshType gt;
        check_type(type, done + 1, gt);
        if (count < 0 || ntags < 0 || done + count > n) sc_.fail("corrupt binary element block");
        for (int e = 0; e < count; ++e) {
          RawElement el{get<int>(), type, 0, 0, elemNodes_.size()};
          for (int t = 0; t < ntags; ++t) {
            const int v = get<int>();
            if (t == 0) el.physical = v;
            if (t == 1) el.entity = v;
          }
          for (int k = 0; k < gt.nodes; ++k)
            elemNodes_.push_back(get<int>());
          elements_.push_back(el);
        }
        done += count;
      } else {
        RawElement el{sc_.integer("an element tag"), sc_.integer("an element type"), 0, 0,
                      elemNodes_.size()};
        GmshType gt;
        check_type(el.type, el.tag, gt);
        const std::int64_t ntags = sc_.integer("a tag count");
        for (std::int64_t t = 0; t < ntags; ++t) {
          const std::int64_t v = sc_.integer("an element tag");
          if (t == 0) el.physical = v;
          if (t == 1) el.entity = v;
        }
        for (int k = 0; k < gt.nodes; ++k)
          elemNodes_.push_back(sc_.integer("a node tag"));
        elements_.push_back(el);
        ++done;
      }
    }
    expect_end("Elements");
  }

  void read_elements4() {
    std::uint64_t hdr[4];
    if (binary_) {
      to_binary_data();
      for (auto& h : hdr)
        h = get<std::uint64_t>();
    } else {
      for (auto& h : hdr)
        h = static_cast<std::uint64_t>(sc_.integer("an $Elements header count"));
    }
    elements_.reserve(cap(hdr[1]));
    for (std::uint64_t blk = 0; blk < hdr[0]; ++blk) {
      int dim, entity, type;
      std::uint64_t n;
      if (binary_) {
        dim = get<int>();
        entity = get<int>();
        type = get<int>();
        n = get<std::uint64_t>();
      } else {
        dim = static_cast<int>(sc_.integer("an entity dimension"));
        entity = static_cast<int>(sc_.integer("an entity tag"));
        type = static_cast<int>(sc_.integer("an element type"));
        n = static_cast<std::uint64_t>(sc_.integer("an element count"));
      }
      GmshType gt;
      check_type(type, -1, gt);
      if (n > hdr[1]) sc_.fail("corrupt $Elements block");
      auto ph = entityPhys_.find({dim, entity});
      const std::int64_t phys = ph == entityPhys_.end() ? 0 : ph->second;
      for (std::uint64_t e = 0; e < n; ++e) {
        RawElement el{0, type, phys, entity, elemNodes_.size()};
        el.tag = binary_ ? static_cast<std::int64_t>(get<std::uint64_t>())
                         : sc_.integer("an element tag");
        for (int k = 0; k < gt.nodes; ++k)
          elemNodes_.push_back(binary_ ? static_cast<std::int64_t>(get<std::uint64_t>())
                                       : sc_.integer("a node tag"));
        elements_.push_back(el);
      }
    }
    expect_end("Elements");
  }

  Mesh build() {
    int maxDim = 0;
    for (const RawElement& e : elements_)
      maxDim = std::max(maxDim, gmsh_type(e.type).dim);
    FV_VERIFY(maxDim >= 2, path_ << ": the Gmsh mesh has no surface or volume elements");
    b_.dim = maxDim;
    idx_t v[8];
    bool warnedHo = false, warnedLow = false;
    std::map<std::int64_t, idx_t> patchOf; // physical (or -entity) -> patch
    // MSH 2 repeats an element once per physical group it belongs to: keep the first copy
    std::int64_t maxTag = 0;
    for (const RawElement& e : elements_)
      maxTag = std::max(maxTag, e.tag);
    std::vector<char> seen(maxTag < (1LL << 31) ? static_cast<std::size_t>(maxTag) + 1 : 0, 0);
    std::size_t repeated = 0;
    for (const RawElement& e : elements_) {
      if (e.tag >= 0 && static_cast<std::size_t>(e.tag) < seen.size()) {
        if (seen[static_cast<std::size_t>(e.tag)]) {
          ++repeated;
          continue;
        }
        seen[static_cast<std::size_t>(e.tag)] = 1;
      }
      const GmshType gt = gmsh_type(e.type);
      if (gt.dim < maxDim - 1) {
        if (!warnedLow)
          b_.warn("elements of dimension " + std::to_string(gt.dim) + " (e.g. element " +
                  std::to_string(e.tag) + ") are ignored");
        warnedLow = true;
        continue;
      }
      if (gt.nodes > gt.corners && !warnedHo) {
        b_.warn("higher-order elements (type " + std::to_string(e.type) +
                ") are read as their corner nodes");
        warnedHo = true;
      }
      for (int k = 0; k < gt.corners; ++k) {
        const std::int64_t t = elemNodes_[e.first + k];
        v[k] = node_index(t);
        if (v[k] < 0)
          FV_THROW(path_ << ": element " << e.tag << " refers to node " << t
                         << ", which is not in $Nodes");
      }
      if (gt.dim == maxDim) {
        b_.add_cell(gt.cell, v, gt.corners, e.tag);
        continue;
      }
      const std::int64_t key = e.physical > 0 ? e.physical : -e.entity;
      auto it = patchOf.find(key);
      if (it == patchOf.end()) {
        std::string name;
        if (e.physical > 0) {
          auto pn = physNames_.find({gt.dim, e.physical});
          name = pn != physNames_.end() ? pn->second : "physical_" + std::to_string(e.physical);
        } else {
          name = (gt.dim == 2 ? "surface_" : "curve_") + std::to_string(e.entity);
          b_.warn("boundary elements of entity " + std::to_string(e.entity) +
                  " have no physical group; patch named '" + name + "'");
        }
        it = patchOf.emplace(key, b_.patch(name, "UserDefined")).first;
      }
      b_.add_bface(v, gt.corners, e.tag, it->second);
    }
    if (repeated)
      b_.warn(std::to_string(repeated) +
              " elements are listed more than once (in several physical groups); the first "
              "listing is used");
    return b_.finish(opts_);
  }
};

} // namespace

Mesh read_gmsh(const std::string& path, const ReadOptions& opts) {
  GmshReader r(path, opts);
  return r.read();
}

} // namespace fv
