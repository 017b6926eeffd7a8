#include "formats/mesh_reader.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "formats/plot3d_grid.hpp"

#include <cgnslib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace fv {

namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool contains(std::string_view head, std::string_view what) {
  return head.find(what) != std::string_view::npos;
}

/// HDF5 signature (CGNS/HDF5) or the ADF header "@(#)ADF Database Version" (CGNS/ADF).
bool sniff_cgns(const SniffInput& in) {
  return in.head.substr(0, 8) == std::string_view("\x89HDF\r\n\x1a\n", 8) ||
         contains(in.head, "ADF Database Version");
}

bool sniff_gmsh(const SniffInput& in) {
  return contains(in.head, "$MeshFormat");
}

bool sniff_su2(const SniffInput& in) {
  return contains(in.head, "NDIME") || contains(in.head, "NZONE");
}

/// A directory (read_openfoam() says what is missing), or a FoamFile of a polyMesh.
bool sniff_openfoam(const SniffInput& in) {
  return in.isDirectory || (contains(in.head, "FoamFile") && !find_polymesh_dir(in.path).empty());
}

/// Little-endian Fortran records of a Plot3D header (text Plot3D files go by extension).
bool sniff_plot3d(const SniffInput& in) {
  return sniff_plot3d_records(in.head);
}

/// First bytes of a file (at most kSniffBytes).
std::string file_head(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  FV_VERIFY(f, path << ": cannot open: " << std::strerror(errno));
  std::string head(kSniffBytes, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), f));
  std::fclose(f);
  return head;
}

} // namespace

const std::vector<MeshFormat>& mesh_formats() {
  static const std::vector<MeshFormat> table = {
      {"CGNS", ".cgns (HDF5 or ADF)", {".cgns", ".cgn", ".adf", ".hdf"}, sniff_cgns, read_cgns},
      {"Gmsh", ".msh 2.2/4.1", {".msh"}, sniff_gmsh, read_gmsh},
      {"SU2", ".su2", {".su2"}, sniff_su2, read_su2},
      {"OpenFOAM",
       "polyMesh directory or case",
       {".foam", ".openfoam"},
       sniff_openfoam,
       read_openfoam},
      {"Plot3D",
       ".x/.xyz/.p3d/.p2d/.g/.grd/.fmt (ASCII, Fortran or raw binary)",
       {".x", ".xyz", ".p3d", ".p2d", ".p3dfmt", ".p2dfmt", ".g", ".grd", ".fmt"},
       sniff_plot3d,
       read_plot3d},
  };
  return table;
}

std::string supported_mesh_formats() {
  std::string s;
  for (const MeshFormat& f : mesh_formats())
    s += (s.empty() ? "" : ", ") + std::string(f.name) + " " + f.summary;
  return s;
}

const MeshFormat* detect_mesh_format(const std::string& path) {
  std::error_code ec;
  FV_VERIFY(std::filesystem::exists(path, ec), path << ": no such file");
  const bool dir = std::filesystem::is_directory(path, ec);
  const std::string head = dir ? std::string() : file_head(path);
  const SniffInput in{path, dir, head};
  for (const MeshFormat& f : mesh_formats())
    if (f.sniff(in)) return &f;
  return detect_mesh_format_by_extension(path);
}

const MeshFormat* detect_mesh_format_by_extension(const std::string& path) {
  const std::string ext = lower_extension(path);
  for (const MeshFormat& f : mesh_formats())
    for (const std::string& e : f.extensions)
      if (e == ext) return &f;
  return nullptr;
}

bool is_hdf5_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char head[8] = {};
  const std::size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return n == 8 && std::memcmp(head, "\x89HDF\r\n\x1a\n", 8) == 0;
}

bool is_cgns_file(const std::string& path) {
  int type = 0;
  return cg_is_cgns(path.c_str(), &type) == CG_OK;
}

Mesh read_mesh(const std::string& path, const ReadOptions& opts) {
  const MeshFormat* f = detect_mesh_format(path);
  FV_VERIFY(f, path << ": unknown mesh format (supported: " << supported_mesh_formats() << ")");
  Mesh m = f->read(path, opts);
  rename_patches(m.patches, opts, path);
  return m;
}

void rename_patches(std::vector<Patch>& patches, const ReadOptions& opts, const std::string& path) {
  for (const auto& [from, to] : opts.renamePatches) {
    auto named = [&](const std::string& n) {
      return std::find_if(patches.begin(), patches.end(),
                          [&](const Patch& p) { return p.name == n; });
    };
    const auto it = named(from);
    std::string names;
    for (const Patch& p : patches)
      names += (names.empty() ? "'" : ", '") + p.name + "'";
    FV_VERIFY_USAGE(it != patches.end(), path << ": --rename-patch '" << from << "=" << to
                                              << "': the mesh has no patch '" << from
                                              << "' (its patches: " << names << ")");
    FV_VERIFY_USAGE(!to.empty() && to.find_first_not_of(' ') != std::string::npos,
                    path << ": --rename-patch '" << from << "=': the new name is empty");
    FV_VERIFY_USAGE(to == from || named(to) == patches.end(),
                    path << ": --rename-patch '" << from << "=" << to << "': the mesh already "
                         << "has a patch '" << to << "'");
    it->name = to;
  }
}

} // namespace fv
