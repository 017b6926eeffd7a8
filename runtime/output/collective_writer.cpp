#include "runtime/output/collective_writer.hpp"

#include "formats/restart_file.hpp"
#include "formats/solution_cgns.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/gather.hpp"
#include "runtime/parallel/mpi_util.hpp"

namespace fv::output {
using parallel::check_all;
using parallel::comm_rank;
using parallel::gather_cells;
using parallel::gather_mesh;
using parallel::gather_surface;
using parallel::mpi_count;
using parallel::scatter_cells;

namespace {

/// Runs `write` on rank 0 only and turns its failure into an error on every rank.
template <class F>
void on_root(MPI_Comm comm, F&& write) {
  std::string msg;
  if (comm_rank(comm) == 0) {
    try {
      write();
    } catch (const std::exception& e) {
      msg = e.what();
    }
  }
  check_all(comm, msg.empty(), msg);
}

void bcast_string(MPI_Comm comm, std::string& s) {
  std::uint64_t n = s.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
  s.resize(n);
  // Strings here are configuration texts (KB), far below one message's int limit.
  MPI_Bcast(s.data(), mpi_count(n, "configuration text"), MPI_CHAR, 0, comm);
}

} // namespace

CollectiveWriter::CollectiveWriter(MPI_Comm comm, const Zone& zone, gidx_t n_global_nodes,
                                   gidx_t n_global_cells, std::string mesh_uuid)
    : comm_(comm), zone_(zone), n_nodes_(n_global_nodes), n_cells_(n_global_cells),
      uuid_(std::move(mesh_uuid)) {}

void CollectiveWriter::write_solution(const std::string& h5_path,
                                      const std::vector<CellField>& fields, std::int64_t iteration,
                                      double time, const std::string& config) {
  write_volume({h5_path, {}, {}}, fields, iteration, time, config);
}

void CollectiveWriter::write_volume(const VolumeTargets& to, const std::vector<CellField>& fields,
                                    std::int64_t iteration, double time, const std::string& config,
                                    const std::function<void(const std::string&)>& written) {
  if (!have_mesh_) {
    mesh_ = gather_mesh(comm_, zone_, n_nodes_, n_cells_);
    have_mesh_ = true;
  }
  const std::string& what = to.h5.empty() ? to.cgns : to.h5;
  std::vector<CellField> global(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const CellField& f = fields[i];
    const bool ok = f.components >= 1 &&
                    f.values.size() == static_cast<std::size_t>(zone_.nCells) * f.components;
    check_all(comm_, ok,
              what + ": field '" + f.name + "' has " + std::to_string(f.values.size()) +
                  " values for " + std::to_string(zone_.nCells) + " owned cells x " +
                  std::to_string(f.components));
    global[i].name = f.name;
    global[i].components = f.components;
    global[i].values = gather_cells(comm_, zone_, f.values.data(), f.components, n_cells_);
  }
  // the CGNS file's boundary: every patch's faces in global node ids
  std::vector<SolutionPatch> patches;
  if (!to.cgns.empty())
    for (std::size_t p = 0; p < to.patches.size(); ++p) {
      const SurfacePatchData d =
          gather_surface(comm_, zone_, static_cast<idx_t>(p), to.patches[p].name, {});
      SolutionPatch sp;
      sp.patch = to.patches[p];
      sp.offsets = d.cornerOffsets;
      sp.nodes = d.cornerNode;
      patches.push_back(std::move(sp));
    }
  on_root(comm_, [&] {
    const SolutionInfo info{iteration, time, uuid_, config};
    if (!to.h5.empty()) {
      fv::write_solution(to.h5, mesh_, global, info);
      if (written) written(to.h5);
    }
    if (!to.cgns.empty()) {
      write_solution_cgns(to.cgns, mesh_, patches, global, info);
      if (written) written(to.cgns);
    }
  });
}

void CollectiveWriter::write_restart(const std::string& path, const real_t* owned_state, int n_vars,
                                     std::int64_t iteration, double time, const std::string& config,
                                     double cfl) {
  std::vector<std::string> names = RestartData{}.variables;
  if (static_cast<int>(names.size()) != n_vars) {
    names.clear();
    for (int v = 0; v < n_vars; ++v)
      names.push_back("q" + std::to_string(v));
  }
  write_restart(path, owned_state, names, iteration, time, config, cfl);
}

void CollectiveWriter::write_restart(const std::string& path, const real_t* owned_state,
                                     const std::vector<std::string>& variables,
                                     std::int64_t iteration, double time, const std::string& config,
                                     double cfl) {
  const int n_vars = static_cast<int>(variables.size());
  RestartData d;
  d.state = gather_cells(comm_, zone_, owned_state, n_vars, n_cells_);
  on_root(comm_, [&] {
    d.info = SolutionInfo{iteration, time, uuid_, config, cfl};
    d.nVars = n_vars;
    d.variables = variables;
    fv::write_restart(path, d);
  });
}

SolutionInfo CollectiveWriter::read_restart(const std::string& path, real_t* owned_state,
                                            int n_vars, int min_vars, int* n_read) {
  RestartData d;
  int held = n_vars;
  on_root(comm_, [&] {
    d = fv::read_restart(path, uuid_, n_cells_);
    held = d.nVars;
    FV_VERIFY(d.nVars == n_vars || (min_vars > 0 && d.nVars >= min_vars && d.nVars < n_vars),
              path << ": restart holds " << d.nVars << " variables per cell, this run needs "
                   << n_vars);
    if (d.nVars < n_vars) { // the run's extra variables start at 0 (the caller fills them)
      std::vector<real_t> padded(static_cast<std::size_t>(n_cells_) * n_vars, 0.0);
      for (gidx_t c = 0; c < n_cells_; ++c)
        for (int k = 0; k < d.nVars; ++k)
          padded[static_cast<std::size_t>(c) * n_vars + k] =
              d.state[static_cast<std::size_t>(c) * d.nVars + k];
      d.state = std::move(padded);
      d.nVars = n_vars;
    }
  });
  MPI_Bcast(&held, 1, MPI_INT, 0, comm_);
  if (n_read) *n_read = held;
  scatter_cells(comm_, zone_, d.state.data(), n_vars, n_cells_, owned_state);
  MPI_Bcast(&d.info.iteration, 1, MPI_INT64_T, 0, comm_);
  MPI_Bcast(&d.info.time, 1, MPI_DOUBLE, 0, comm_);
  MPI_Bcast(&d.info.cfl, 1, MPI_DOUBLE, 0, comm_);
  bcast_string(comm_, d.info.meshUuid);
  bcast_string(comm_, d.info.config);
  return d.info;
}

void CollectiveWriter::write_surface(const std::string& path, idx_t patch, const std::string& name,
                                     const std::vector<SurfaceColumn>& columns) {
  const SurfacePatchData s = gather_surface(comm_, zone_, patch, name, columns);
  // the CSV, and next to it the same data as VTK PolyData for ParaView
  const bool csv = path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  const std::string vtp = (csv ? path.substr(0, path.size() - 4) : path) + ".vtp";
  on_root(comm_, [&] {
    write_surface_csv(path, s);
    write_surface_vtp(vtp, s);
  });
}

} // namespace fv::output
