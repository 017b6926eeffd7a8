#include "formats/solution_file.hpp"

#include "common/atomic_file.hpp"
#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "common/version.hpp"
#include "formats/hdf5_file.hpp"
#include "formats/xdmf_cells.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fv {
namespace {

const char* kSolutionFormatName = "fvkit-solution";

bool valid_field_name(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '+' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

void write_xdmf(const std::string& xmf_path, const std::string& h5_name, const SolutionMesh& mesh,
                std::size_t topology_size, const std::vector<CellField>& fields,
                const SolutionInfo& info) {
  const std::string h5 = xml_escape(h5_name);
  std::ostringstream x;
  x.precision(17);
  x << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    << "<!-- written by fvkit " << kVersion << "; data in " << h5 << " -->\n"
    << "<Xdmf xmlns:xi=\"http://www.w3.org/2001/XInclude\" Version=\"3.0\">\n"
    << "  <Domain>\n"
    << "    <Grid Name=\"solution\" GridType=\"Uniform\">\n"
    << "      <Time Value=\"" << info.time << "\"/>\n"
    << "      <Information Name=\"iteration\" Value=\"" << info.iteration << "\"/>\n"
    << "      <Information Name=\"meshUuid\" Value=\"" << xml_escape(info.meshUuid) << "\"/>\n"
    << "      <Topology TopologyType=\"Mixed\" NumberOfElements=\"" << mesh.nCells() << "\">\n"
    << "        <DataItem Dimensions=\"" << topology_size
    << "\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">" << h5
    << ":/mesh/topology</DataItem>\n"
    << "      </Topology>\n"
    << "      <Geometry GeometryType=\"XYZ\">\n"
    << "        <DataItem Dimensions=\"" << mesh.nNodes()
    << " 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << h5
    << ":/mesh/nodes</DataItem>\n"
    << "      </Geometry>\n";
  for (const CellField& f : fields) {
    const char* type = f.components == 1 ? "Scalar" : f.components == 3 ? "Vector" : "Matrix";
    x << "      <Attribute Name=\"" << f.name << "\" AttributeType=\"" << type
      << "\" Center=\"Cell\">\n"
      << "        <DataItem Dimensions=\"" << mesh.nCells();
    if (f.components != 1) x << " " << f.components;
    x << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << h5 << ":/fields/" << f.name
      << "</DataItem>\n"
      << "      </Attribute>\n";
  }
  x << "    </Grid>\n  </Domain>\n</Xdmf>\n";

  AtomicFile out(xmf_path);
  {
    std::ofstream f(out.temp_path(), std::ios::binary);
    f << x.str();
    f.close();
    FV_VERIFY(f, xmf_path << ": cannot write XDMF file");
  }
  out.commit();
}

} // namespace

void SolutionMesh::check(const std::string& what) const {
  FV_VERIFY(nodeXyz.size() % 3 == 0,
            what << ": node coordinates hold " << nodeXyz.size() << " values, not 3 per node");
  FV_VERIFY(cellNodeOffsets.size() == cellType.size() + 1,
            what << ": " << cellType.size() << " cells but " << cellNodeOffsets.size()
                 << " cell-node offsets (expected one more than cells)");
  FV_VERIFY(cellNodeOffsets.front() == 0 &&
                cellNodeOffsets.back() == static_cast<gidx_t>(cellNodes.size()),
            what << ": cell-node offsets do not span the " << cellNodes.size() << " node ids");
  const gidx_t nn = nNodes();
  for (gidx_t c = 0; c < nCells(); ++c) {
    const gidx_t b = cellNodeOffsets[c], e = cellNodeOffsets[c + 1];
    FV_VERIFY(b <= e, what << ": cell " << c << ": decreasing cell-node offsets");
    const CellType t = cellType[c];
    if (t == CellType::Polyhedron) {
      xdmf::check_polyhedron_stream(cellNodes.data() + b, e - b, nn, what, c);
      continue;
    }
    const int expect = cell_node_count(t);
    FV_VERIFY(expect > 0, what << ": cell " << c << ": unknown cell type " << static_cast<int>(t));
    FV_VERIFY(e - b == expect, what << ": cell " << c << " (" << cell_shape(t).xdmfName << ") has "
                                    << (e - b) << " nodes, expected " << expect);
    for (gidx_t k = b; k < e; ++k)
      FV_VERIFY(cellNodes[k] >= 0 && cellNodes[k] < nn, what << ": cell " << c << ": node id "
                                                             << cellNodes[k] << " out of range [0, "
                                                             << nn << ")");
  }
}

std::string xdmf_path_for(const std::string& h5_path) {
  return std::filesystem::path(h5_path).replace_extension(".xmf").string();
}

void write_solution(const std::string& h5_path, const SolutionMesh& mesh,
                    const std::vector<CellField>& fields, const SolutionInfo& info) {
  mesh.check(h5_path);
  FV_VERIFY(mesh.nCells() > 0 && mesh.nNodes() > 0,
            h5_path << ": refusing to write a solution without cells or nodes");
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const CellField& f = fields[i];
    FV_VERIFY(valid_field_name(f.name),
              h5_path << ": field name '" << f.name << "' must match [A-Za-z0-9_.+-]+");
    for (std::size_t j = 0; j < i; ++j)
      FV_VERIFY(fields[j].name != f.name, h5_path << ": field '" << f.name << "' given twice");
    FV_VERIFY(f.components >= 1,
              h5_path << ": field '" << f.name << "': " << f.components << " components");
    FV_VERIFY(f.values.size() == static_cast<std::size_t>(mesh.nCells()) * f.components,
              h5_path << ": field '" << f.name << "' has " << f.values.size()
                      << " values, expected " << mesh.nCells() << " cells x " << f.components);
  }
  const std::string xmf_path = xdmf_path_for(h5_path);
  FV_VERIFY(xmf_path != h5_path, h5_path << ": a solution file must not have the extension .xmf");

  const std::vector<gidx_t> topology = xdmf::mixed_topology(mesh);
  std::vector<std::int8_t> types(mesh.cellType.size());
  for (std::size_t c = 0; c < types.size(); ++c)
    types[c] = static_cast<std::int8_t>(mesh.cellType[c]);

  AtomicFile out(h5_path);
  {
    h5::File f = h5::File::create(out.temp_path());
    f.attr("format", std::string(kSolutionFormatName));
    f.attr("formatVersion", std::int64_t{kSolutionFormatVersion});
    f.attr("creator", std::string("fvkit ") + kVersion);
    f.attr("iteration", info.iteration);
    f.attr("time", info.time);
    f.attr("meshUuid", info.meshUuid);
    f.attr("config", info.config);
    f.write("mesh/nodes", mesh.nodeXyz.data(), static_cast<std::uint64_t>(mesh.nNodes()), 3);
    f.write("mesh/topology", topology.data(), topology.size());
    f.write("mesh/cellType", types.data(), types.size());
    f.make_group("fields");
    for (const CellField& fld : fields)
      f.write("fields/" + fld.name, fld.values.data(), static_cast<std::uint64_t>(mesh.nCells()),
              fld.components);
    f.close();
  }
  out.commit();
  write_xdmf(xmf_path, std::filesystem::path(h5_path).filename().string(), mesh, topology.size(),
             fields, info);
}

SolutionData read_solution(const std::string& h5_path) {
  h5::File f = h5::File::open_read(h5_path, "solution file");
  FV_VERIFY(f.has_attr("format") && f.attr_string("format") == kSolutionFormatName,
            h5_path << ": not an fvkit solution file (attribute format != '" << kSolutionFormatName
                    << "')");
  SolutionData d;
  d.formatVersion = static_cast<int>(f.attr_int("formatVersion"));
  FV_VERIFY(d.formatVersion == kSolutionFormatVersion,
            h5_path << ": solution format version " << d.formatVersion
                    << " is not supported (this build reads version " << kSolutionFormatVersion
                    << ")");
  d.info.iteration = f.attr_int("iteration");
  d.info.time = f.attr_real("time");
  d.info.meshUuid = f.attr_string("meshUuid");
  d.info.config = f.attr_string("config");
  d.mesh.nodeXyz = f.read_real("mesh/nodes");
  const std::vector<std::int64_t> types = f.read_int64("mesh/cellType");
  xdmf::parse_mixed_topology(f.read_int64("mesh/topology"), static_cast<gidx_t>(types.size()),
                             h5_path, d.mesh);
  for (std::size_t c = 0; c < types.size(); ++c)
    FV_VERIFY(static_cast<std::int64_t>(d.mesh.cellType[c]) == types[c],
              h5_path << ": cell " << c << ": /mesh/cellType disagrees with /mesh/topology");
  d.mesh.check(h5_path);
  if (f.exists("fields")) {
    for (const std::string& name : f.members("fields")) {
      const auto shape = f.shape("fields/" + name);
      CellField fld;
      fld.name = name;
      fld.components = shape.size() == 2 ? static_cast<int>(shape[1]) : 1;
      FV_VERIFY(!shape.empty() && shape[0] == static_cast<std::uint64_t>(d.mesh.nCells()),
                h5_path << ": field '" << name << "' does not have one row per cell");
      fld.values = f.read_real("fields/" + name);
      d.fields.push_back(std::move(fld));
    }
  }
  return d;
}

} // namespace fv
