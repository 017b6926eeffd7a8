#include "formats/mesh_reader.hpp"

#include "common/error.hpp"

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

} // namespace

MeshFileKind detect_mesh_format(const std::string& path) {
  std::error_code ec;
  FV_VERIFY(std::filesystem::exists(path, ec), path << ": no such file");
  // a directory can only be an OpenFOAM case or polyMesh (read_openfoam() says what is missing)
  if (std::filesystem::is_directory(path, ec)) return MeshFileKind::OpenFoam;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  FV_VERIFY(f, path << ": cannot open: " << std::strerror(errno));
  char head[4096] = {};
  const std::size_t n = std::fread(head, 1, sizeof head - 1, f);
  std::fclose(f);
  const std::string h(head, n);
  // HDF5 signature (CGNS/HDF5) or the ADF header "@(#)ADF Database Version" (CGNS/ADF)
  if (h.compare(0, 8, "\x89HDF\r\n\x1a\n") == 0 ||
      h.find("ADF Database Version") != std::string::npos)
    return MeshFileKind::Cgns;
  if (h.find("$MeshFormat") != std::string::npos) return MeshFileKind::Gmsh;
  if (h.find("NDIME") != std::string::npos || h.find("NZONE") != std::string::npos)
    return MeshFileKind::Su2;
  if (h.find("FoamFile") != std::string::npos && !find_polymesh_dir(path).empty())
    return MeshFileKind::OpenFoam;
  return detect_mesh_format_by_extension(path);
}

MeshFileKind detect_mesh_format_by_extension(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".cgns" || ext == ".cgn" || ext == ".adf" || ext == ".hdf") return MeshFileKind::Cgns;
  if (ext == ".su2") return MeshFileKind::Su2;
  if (ext == ".msh") return MeshFileKind::Gmsh;
  if (ext == ".foam" || ext == ".openfoam") return MeshFileKind::OpenFoam;
  return MeshFileKind::Unknown;
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
  switch (detect_mesh_format(path)) {
  case MeshFileKind::Cgns:
    return read_cgns(path, opts);
  case MeshFileKind::Su2:
    return read_su2(path, opts);
  case MeshFileKind::Gmsh:
    return read_gmsh(path, opts);
  case MeshFileKind::OpenFoam:
    return read_openfoam(path, opts);
  case MeshFileKind::Unknown:
    break;
  }
  FV_THROW(path << ": unknown mesh format (supported: CGNS .cgns (HDF5 or ADF), SU2 .su2, Gmsh "
                   ".msh 2.2/4.1, OpenFOAM polyMesh directory or case)");
}

} // namespace fv
