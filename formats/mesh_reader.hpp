#pragma once
/// \file mesh_reader.hpp
/// read_mesh(): imports a mesh written by another tool (CGNS, SU2, Gmsh, OpenFOAM polyMesh,
/// Plot3D) into fv::Mesh.
///
/// The format is recognised by a table of readers (mesh_formats()): each entry's sniffer looks
/// at the file's content (HDF5/ADF signature, "$MeshFormat", "NDIME=", "FoamFile"), then the
/// extensions decide (.cgns, .su2, .msh, .foam, .x/.xyz/.p3d/...: Plot3D); a directory is an
/// OpenFOAM polyMesh directory or case (see find_polymesh_dir()). 2D meshes (CGNS cell dimension 2,
/// SU2 NDIME=2, Gmsh meshes without volume elements) are extruded into one layer of
/// prisms/hexahedra (see extrude_2d() in formats/mesh_builder.hpp); OpenFOAM 2D meshes are already
/// one cell thick and stay as they are.
#include "formats/mesh.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fv {

/// Options of read_mesh(). Defaults read the whole file.
struct ReadOptions {
  /// CGNS: base to read (name). Empty: the file's only base (an error if it has several).
  std::string base;
  /// Read only this zone: CGNS, a zone name; SU2, a zone number (IZONE, from 1). Empty: every
  /// zone (of the base), merged.
  std::string zone;
  /// Absolute distance below which nodes of different CGNS zones are glued when no
  /// ZoneGridConnectivity says which nodes match, and coincident boundary nodes of Plot3D
  /// blocks are glued (file units). <= 0: 1e-8 times the diagonal
  /// of the bounding box of all zones.
  double mergeTolerance = 0.0;
  /// Thickness of the single cell layer that 2D meshes are extruded into (file units).
  /// <= 0: 1/100 of the largest in-plane extent of the 2D mesh's bounding box.
  double extrudeThickness = 0.0;
  /// Plot3D: BC side file (formats/plot3d_bc.hpp). Empty: GRID.bc next to GRID.x when it
  /// exists, else every boundary face gets a patch named after its block side.
  std::string bcFile;
  /// Patches renamed as read (fvprep --rename-patch OLD=NEW): OLD as the file writes it.
  std::vector<std::pair<std::string, std::string>> renamePatches;
};

/// Applies opts.renamePatches to the patch table of the mesh read from `path`: every OLD must
/// name a patch, every NEW must be non-empty and clash with no other patch's name.
void rename_patches(std::vector<Patch>& patches, const ReadOptions& opts, const std::string& path);

/// Fraction of the largest bounding-box extent used as the default extrusion thickness.
inline constexpr double kDefaultExtrudeFraction = 0.01;
/// Fraction of the bounding-box diagonal used as the default zone-merging tolerance.
inline constexpr double kDefaultMergeFraction = 1e-8;

/// What a format's sniffer sees of a file: its path, whether it is a directory, and its first
/// bytes (at most kSniffBytes; empty for a directory).
struct SniffInput {
  const std::string& path;
  bool isDirectory = false;
  std::string_view head;
};

/// Bytes of a file's beginning that detect_mesh_format() hands to the sniffers.
inline constexpr std::size_t kSniffBytes = 4095;

/// One mesh file format read_mesh() understands: an entry of the reader table
/// (mesh_formats()). Detection asks every entry's sniffer in table order, then matches the
/// extensions; read_mesh() calls the entry's reader.
struct MeshFormat {
  const char* name;                    ///< "CGNS", "SU2", "Gmsh", "OpenFOAM", "Plot3D"
  const char* summary;                 ///< what is read, for the list of formats
  std::vector<std::string> extensions; ///< lower case, with the dot (".su2")
  bool (*sniff)(const SniffInput& in); ///< true when the content is of this format
  Mesh (*read)(const std::string& path, const ReadOptions& opts); ///< the reader
};

/// The reader table, in detection order (CGNS, Gmsh, SU2, OpenFOAM, Plot3D).
const std::vector<MeshFormat>& mesh_formats();

/// "NAME SUMMARY, ..." of every format of the table (the "supported:" list of messages).
std::string supported_mesh_formats();

/// The format of a file: the first entry whose sniffer recognises the content, else the first
/// whose extensions match (detect_mesh_format_by_extension()); nullptr when none does. Throws
/// fv::Error when the file does not exist or cannot be opened.
const MeshFormat* detect_mesh_format(const std::string& path);

/// The format its extension suggests (case-insensitive), nullptr when none.
const MeshFormat* detect_mesh_format_by_extension(const std::string& path);

/// The OpenFOAM polyMesh directory that `path` names, "" when none: the directory itself when
/// it holds any of points, faces, owner, neighbour, boundary; DIR/constant/polyMesh (a case
/// directory) or DIR/polyMesh (a constant directory); for a file, its directory when the file
/// is one of those five, the case of an (empty) CASE.foam / CASE.OpenFOAM file.
std::string find_polymesh_dir(const std::string& path);

/// True when the file starts with the HDF5 signature (CGNS/HDF5 files and fvkit zone files).
bool is_hdf5_file(const std::string& path);

/// True when the CGNS library recognises the file as CGNS (HDF5 or ADF).
bool is_cgns_file(const std::string& path);

/// Reads a mesh file into an fv::Mesh: nodes, volume cells in CGNS node order, boundary faces
/// with patches, file ids of cells and faces, format, writer and warnings. Throws fv::Error
/// (one line naming the file, the entity in the file's numbering and what is wrong) on
/// unreadable or unsupported input; never returns a partially filled mesh.
Mesh read_mesh(const std::string& path, const ReadOptions& opts = {});

/// Individual readers (read_mesh() dispatches to them).
Mesh read_cgns(const std::string& path, const ReadOptions& opts);
Mesh read_su2(const std::string& path, const ReadOptions& opts);
Mesh read_gmsh(const std::string& path, const ReadOptions& opts);
/// OpenFOAM polyMesh (formats/openfoam_reader.cpp): `path` as find_polymesh_dir() takes it.
Mesh read_openfoam(const std::string& path, const ReadOptions& opts);
/// Plot3D grid (formats/plot3d_reader.cpp): blocks glued at coincident boundary nodes, BCs
/// from ReadOptions::bcFile.
Mesh read_plot3d(const std::string& path, const ReadOptions& opts);

} // namespace fv
