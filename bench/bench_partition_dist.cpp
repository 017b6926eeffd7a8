// Timing program (not a test) for the distributed partitioner (prep/partition_distributed.hpp):
// builds the dual graph of a generated mesh, splits it in blocks over the MPI ranks (as the
// distributed fvprep does: cells renumbered in Morton order, even blocks), and times
// partition_cells_ptscotch() for every requested PT-Scotch strategy and thread count, with
// serial METIS (partition_cells() on rank 0) on the same graph for reference. Prints the time
// (slowest rank; min and max over the repeats), the edge cut, the imbalance and whether every
// repeat gave the same partition.
//
// Usage: mpiexec -n P bench_partition_dist tet|hex|grid NX NY NZ [options]
//   tet|hex: generated channel (fv::generate_mesh) of NX*NY*NZ hexahedra (tet: 6 tets each),
//            dual graph from build_global_topology() (Morton order);
//   grid:    structured NX*NY*NZ grid graph, 6 neighbours, lexicographic order.
// Options: --parts K (64)  --imbalance X (1.03)  --seed S (0)  --repeat R (2)
//          --flags default,speed,quality,balance,safety,scalability,speed+balance,... (default)
//          --threads 1,2,... (1; 0 = partition_cells_distributed()'s choice)  --no-metis
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/main.hpp"
#include "prep/dist_comm.hpp"
#include "prep/faces.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/partition_distributed.hpp"

#include <mpi.h>
#include <ptscotch.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

using fv::Csr;
using fv::gidx_t;
using fv::idx_t;

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

/// "speed+balance" -> SCOTCH_STRATSPEED | SCOTCH_STRATBALANCE.
int parse_flags(const std::string& s) {
  int flags = 0;
  std::stringstream in(s);
  std::string f;
  while (std::getline(in, f, '+')) {
    if (f == "default")
      flags |= SCOTCH_STRATDEFAULT;
    else if (f == "quality")
      flags |= SCOTCH_STRATQUALITY;
    else if (f == "speed")
      flags |= SCOTCH_STRATSPEED;
    else if (f == "balance")
      flags |= SCOTCH_STRATBALANCE;
    else if (f == "safety")
      flags |= SCOTCH_STRATSAFETY;
    else if (f == "scalability")
      flags |= SCOTCH_STRATSCALABILITY;
    else
      FV_VERIFY_USAGE(false, "unknown strategy flag " << f);
  }
  return flags;
}

/// The whole dual graph (on rank 0 only).
Csr whole_graph(const std::string& kind, int nx, int ny, int nz) {
  if (kind == "grid") {
    const gidx_t n = gidx_t{nx} * ny * nz;
    std::vector<idx_t> counts(static_cast<std::size_t>(n));
    const auto id = [&](int i, int j, int k) { return static_cast<idx_t>(i + nx * (j + ny * k)); };
    for (int pass = 0; pass < 2; ++pass) {
      Csr g = pass == 0 ? Csr() : Csr::from_counts(counts);
      for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
          for (int i = 0; i < nx; ++i) {
            idx_t nb[6];
            int m = 0;
            if (i > 0) nb[m++] = id(i - 1, j, k);
            if (i + 1 < nx) nb[m++] = id(i + 1, j, k);
            if (j > 0) nb[m++] = id(i, j - 1, k);
            if (j + 1 < ny) nb[m++] = id(i, j + 1, k);
            if (k > 0) nb[m++] = id(i, j, k - 1);
            if (k + 1 < nz) nb[m++] = id(i, j, k + 1);
            if (pass == 0)
              counts[static_cast<std::size_t>(id(i, j, k))] = m;
            else
              std::copy(nb, nb + m, g.row(id(i, j, k)));
          }
      if (pass == 1) return g;
    }
  }
  FV_VERIFY_USAGE(kind == "tet" || kind == "hex", "mesh kind must be tet, hex or grid");
  fv::GenOptions o;
  o.family = fv::MeshFamily::Channel;
  o.cells = kind == "tet" ? fv::GenCells::Tet : fv::GenCells::Hex;
  o.n = {nx, ny, nz};
  o.fileIds = false;
  const fv::Mesh mesh = fv::generate_mesh(o);
  fv::PrepOptions popts;
  fv::GlobalMesh g = fv::build_global_topology(mesh, fv::build_faces(mesh), popts);
  return std::move(g.cellCells);
}

/// Rank 0's whole graph cut into even blocks, one per rank; returns this rank's rows.
Csr scatter_rows(const fv::dist::Comm& comm, const Csr& whole, std::vector<gidx_t>& vtxdist) {
  const gidx_t n = comm.rank() == 0 ? whole.rows() : 0;
  const gidx_t total = comm.max(n);
  const auto p = static_cast<std::size_t>(comm.size());
  vtxdist.assign(p + 1, 0);
  for (std::size_t r = 0; r < p; ++r)
    vtxdist[r + 1] = total * static_cast<gidx_t>(r + 1) / static_cast<gidx_t>(p);
  std::vector<std::int64_t> rowCounts(p, 0), entryCounts(p, 0);
  std::vector<idx_t> sizes, entries;
  if (comm.rank() == 0) {
    for (std::size_t r = 0; r < p; ++r) {
      rowCounts[r] = vtxdist[r + 1] - vtxdist[r];
      entryCounts[r] = whole.begin(static_cast<idx_t>(vtxdist[r + 1])) -
                       whole.begin(static_cast<idx_t>(vtxdist[r]));
    }
    for (idx_t i = 0; i < whole.rows(); ++i)
      sizes.push_back(whole.size(i));
    entries.assign(whole.indices().begin(), whole.indices().end());
  }
  const auto mySizes = fv::dist::exchange(comm, sizes, rowCounts).data;
  const auto myEntries = fv::dist::exchange(comm, entries, entryCounts).data;
  Csr mine = Csr::from_counts(mySizes);
  std::copy(myEntries.begin(), myEntries.end(), mine.indices().begin());
  return mine;
}

std::uint64_t hash(const std::vector<idx_t>& v) {
  std::uint64_t h = 1469598103934665603ull; // FNV-1a
  for (idx_t x : v) {
    h ^= static_cast<std::uint32_t>(x);
    h *= 1099511628211ull;
  }
  return h;
}

struct Row {
  std::string name;
  double tmin = 1e300, tmax = 0;
  gidx_t cut = 0;
  double imbalance = 0;
  bool same = true;
  std::uint64_t digest = 0;
};

void print_row(const Row& r) {
  std::printf("%-28s %9.3f %9.3f %10lld %9.4f %5s %016llx\n", r.name.c_str(), r.tmin, r.tmax,
              static_cast<long long>(r.cut), r.imbalance, r.same ? "yes" : "NO",
              static_cast<unsigned long long>(r.digest));
  std::fflush(stdout);
}

int bench(int argc, char** argv) {
  const fv::dist::Comm comm;
  FV_VERIFY_USAGE(argc >= 5, "usage: bench_partition_dist tet|hex|grid NX NY NZ [options]");
  const std::string kind = argv[1];
  const int nx = std::atoi(argv[2]), ny = std::atoi(argv[3]), nz = std::atoi(argv[4]);
  int nParts = 64, repeat = 2;
  bool metis = true;
  fv::PartitionOptions opts;
  std::vector<std::string> flagNames{"default"};
  std::vector<int> threads{1};
  for (int a = 5; a < argc; ++a) {
    const std::string o = argv[a];
    const auto value = [&]() -> std::string {
      FV_VERIFY_USAGE(a + 1 < argc, o << " needs a value");
      return argv[++a];
    };
    if (o == "--parts")
      nParts = std::stoi(value());
    else if (o == "--imbalance")
      opts.imbalance = std::stod(value());
    else if (o == "--seed")
      opts.seed = std::stoi(value());
    else if (o == "--repeat")
      repeat = std::max(1, std::stoi(value()));
    else if (o == "--flags")
      flagNames = split_list(value());
    else if (o == "--threads") {
      threads.clear();
      for (const auto& t : split_list(value()))
        threads.push_back(std::stoi(t));
    } else if (o == "--no-metis")
      metis = false;
    else
      FV_VERIFY_USAGE(false, "unknown option " << o);
  }

  Csr whole;
  double tGraph = MPI_Wtime();
  if (comm.rank() == 0) whole = whole_graph(kind, nx, ny, nz);
  std::vector<gidx_t> vtxdist;
  const Csr mine = scatter_rows(comm, whole, vtxdist);
  tGraph = MPI_Wtime() - tGraph;
  const gidx_t n = vtxdist.back();
  if (comm.rank() == 0)
    std::printf("# %s %dx%dx%d: %lld vertices, %lld edges (graph built in %.1f s); %d ranks, "
                "%d parts, imbalance %.3f, seed %d, %d repeats\n"
                "%-28s %9s %9s %10s %9s %5s %s\n",
                kind.c_str(), nx, ny, nz, static_cast<long long>(n),
                static_cast<long long>(whole.nnz() / 2), tGraph, comm.size(), nParts,
                opts.imbalance, opts.seed, repeat, "# partitioner", "tmin[s]", "tmax[s]", "cut",
                "imbal", "same", "digest");

  if (metis) {
    Row r;
    r.name = "METIS (serial, rank 0)";
    std::vector<idx_t> first;
    for (int k = 0; k < repeat; ++k) {
      comm.barrier();
      const double t0 = MPI_Wtime();
      std::vector<idx_t> part;
      if (comm.rank() == 0) part = fv::partition_cells(whole, nParts, opts);
      const double t = comm.max(MPI_Wtime() - t0);
      r.tmin = std::min(r.tmin, t);
      r.tmax = std::max(r.tmax, t);
      if (comm.rank() == 0) {
        if (k == 0) first = part;
        r.same = r.same && part == first;
      }
    }
    if (comm.rank() == 0) {
      const fv::PartitionReport rep = fv::partition_report(whole, first, nParts);
      r.cut = rep.edgeCut;
      r.imbalance = rep.imbalance;
      r.digest = hash(first);
      print_row(r);
    }
  }

  for (const std::string& fname : flagNames) {
    for (const int nt : threads) {
      fv::PtScotchTuning tuning;
      tuning.strategy = parse_flags(fname);
      tuning.threads = nt;
      Row r;
      r.name = "PT-Scotch " + fname + " t" + std::to_string(nt);
      std::vector<idx_t> first;
      for (int k = 0; k < repeat; ++k) {
        comm.barrier();
        const double t0 = MPI_Wtime();
        const auto part = fv::partition_cells_ptscotch(comm, vtxdist, mine, nParts, opts, tuning);
        const double t = comm.max(MPI_Wtime() - t0);
        r.tmin = std::min(r.tmin, t);
        r.tmax = std::max(r.tmax, t);
        const auto all = fv::dist::all_gather(comm, part);
        if (k == 0) first = all;
        r.same = r.same && all == first;
      }
      if (comm.rank() == 0) {
        const fv::PartitionReport rep = fv::partition_report(whole, first, nParts);
        r.cut = rep.edgeCut;
        r.imbalance = rep.imbalance;
        r.digest = hash(first);
        print_row(r);
      }
    }
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  int provided = 0;
  // MPI_THREAD_MULTIPLE: the threaded PT-Scotch rows run Scotch threads that call MPI
  // (partition_cells_ptscotch() refuses them under a lower level)
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  const int rc = fv::run_main("bench_partition_dist", [&] { return bench(argc, argv); });
  MPI_Finalize();
  return rc;
}
