#pragma once
/// \file collective_writer.hpp
/// fvrun's output and restart files from all ranks in one collective call each: gathers the
/// zones' data in global order (parallel/gather.hpp), writes on rank 0 with the formats/
/// writers, and makes a failure on rank 0 (disk full, missing directory, wrong restart) an
/// fv::Error on EVERY rank, so that no rank runs on into the next collective alone.
///
///   output::CollectiveWriter out(comm, zone, header.nGlobalNodes, header.nGlobalCells,
///                                header.meshUuid);
///   out.write_solution(dir + "/flow.h5", {{"rho", 1, rho}, {"velocity", 3, vel}}, it, t, cfg);
///   out.write_restart(dir + "/restart.h5", u_host.data(), 5, it, t, cfg);
///   const SolutionInfo at = out.read_restart(dir + "/restart.h5", u_host.data(), 5);
///
/// All values are HOST arrays over the zone's OWNED cells (nCells rows, interleaved
/// components); copy device data to the host first.
#include "common/zone.hpp"
#include "formats/solution_file.hpp"
#include "formats/surface_file.hpp"

#include <functional>
#include <mpi.h>
#include <string>
#include <vector>

namespace fv::output {

/// Where a volume solution goes (CollectiveWriter::write_volume()): HDF5 + XDMF at `h5`, CGNS
/// at `cgns` with a boundary section per patch of `patches` (the zone file's patches, in zone
/// order); an empty path: not that format.
struct VolumeTargets {
  std::string h5, cgns;
  std::vector<Patch> patches;
};

/// Collective writer of one zone's share of the output (see file comment). Keeps a reference
/// to `zone`, which must outlive it. Rank 0 caches the gathered global mesh after the first
/// solution file (the mesh does not change during a run): memory of one global mesh on rank 0.
class CollectiveWriter {
 public:
  CollectiveWriter(MPI_Comm comm, const Zone& zone, gidx_t n_global_nodes, gidx_t n_global_cells,
                   std::string mesh_uuid);

  /// Writes the volume solution (HDF5 + XDMF). `fields[i].values` holds nCells * components
  /// values of this zone's owned cells. Names and order must be the same on every rank.
  void write_solution(const std::string& h5_path, const std::vector<CellField>& fields,
                      std::int64_t iteration, double time, const std::string& config);
  /// The same into every format of `to`, the fields gathered once; `written(path)` is called
  /// on rank 0 after each file.
  void write_volume(const VolumeTargets& to, const std::vector<CellField>& fields,
                    std::int64_t iteration, double time, const std::string& config,
                    const std::function<void(const std::string&)>& written = {});

  /// Writes a restart of `n_vars` conservative variables per owned cell.
  void write_restart(const std::string& path, const real_t* owned_state, int n_vars,
                     std::int64_t iteration, double time, const std::string& config,
                     double cfl = 0);
  /// The same with the variables' names (the model's conservative variables, one per value of
  /// a cell), recorded in the file.
  void write_restart(const std::string& path, const real_t* owned_state,
                     const std::vector<std::string>& variables, std::int64_t iteration, double time,
                     const std::string& config, double cfl = 0);

  /// Reads a restart written on any number of ranks into `owned_state` (nCells * n_vars).
  /// Refuses another mesh, format version, cell count or variable count on every rank; a file
  /// with fewer variables, at least min_vars (e.g. a laminar solution starting a RANS run), is
  /// read into the first ones of each cell and the others are left 0. `n_read` (if given)
  /// receives the variables the file held. Returns the restart's iteration, time, mesh UUID
  /// and configuration on every rank.
  SolutionInfo read_restart(const std::string& path, real_t* owned_state, int n_vars,
                            int min_vars = 0, int* n_read = nullptr);

  /// Writes one surface CSV and one VTK PolyData file (.vtp, for ParaView) per patch in
  /// `patches` (indices into the zone's patches, with their names): `columns(p)` gives the
  /// per-face columns of patch p in this zone.
  template <class Columns>
  void write_surfaces(const std::string& prefix, const std::vector<idx_t>& patches,
                      const std::vector<std::string>& names, Columns&& columns) {
    for (std::size_t i = 0; i < patches.size(); ++i)
      write_surface(surface_file_path(prefix, names[i]), patches[i], names[i], columns(patches[i]));
  }
  /// One patch's surface CSV at `path` and its .vtp next to it (".csv" replaced).
  void write_surface(const std::string& path, idx_t patch, const std::string& name,
                     const std::vector<SurfaceColumn>& columns);

 private:
  MPI_Comm comm_;
  const Zone& zone_;
  gidx_t n_nodes_, n_cells_;
  std::string uuid_;
  bool have_mesh_ = false;
  SolutionMesh mesh_; // rank 0 only
};

} // namespace fv::output
