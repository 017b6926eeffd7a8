#include "prep/partition.hpp"

#include "common/error.hpp"
#include "common/log.hpp"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <ostream>

namespace fv {

static_assert(sizeof(::idx_t) == sizeof(fv::idx_t), "METIS must be built with 32-bit idx_t");

PartitionObjective parse_partition_objective(const std::string& s) {
  if (s == "cut" || s == "edgecut") return PartitionObjective::EdgeCut;
  if (s == "vol" || s == "volume") return PartitionObjective::CommVolume;
  FV_VERIFY_USAGE(false, "unknown partition objective '" << s << "' (expected cut or vol)");
  return PartitionObjective::EdgeCut;
}

const char* partition_objective_name(PartitionObjective o) {
  return o == PartitionObjective::EdgeCut ? "cut" : "vol";
}

namespace {

const char* metis_status(int rc) {
  switch (rc) {
  case METIS_ERROR_INPUT:
    return "input error";
  case METIS_ERROR_MEMORY:
    return "out of memory";
  default:
    return "error";
  }
}

/// Moves one cell into every empty part (METIS may leave parts empty on tiny or odd graphs):
/// a cell of the currently largest part, preferring one on its boundary.
void fill_empty_parts(const Csr& g, std::vector<idx_t>& part, int nParts) {
  std::vector<gidx_t> size(static_cast<std::size_t>(nParts), 0);
  for (idx_t p : part)
    ++size[static_cast<std::size_t>(p)];
  for (int p = 0; p < nParts; ++p) {
    if (size[static_cast<std::size_t>(p)] > 0) continue;
    const auto big = static_cast<idx_t>(std::max_element(size.begin(), size.end()) - size.begin());
    idx_t pick = kNone;
    for (idx_t c = 0; c < static_cast<idx_t>(part.size()) && pick == kNone; ++c) {
      if (part[static_cast<std::size_t>(c)] != big) continue;
      for (idx_t k = g.begin(c); k < g.end(c); ++k)
        if (part[static_cast<std::size_t>(g.indices()[k])] != big) pick = c;
    }
    if (pick == kNone)
      pick = static_cast<idx_t>(std::find(part.begin(), part.end(), big) - part.begin());
    part[static_cast<std::size_t>(pick)] = p;
    --size[static_cast<std::size_t>(big)];
    ++size[static_cast<std::size_t>(p)];
    FV_LOG_WARN("METIS left zone " << p << " empty; moved cell " << pick << " into it");
  }
}

} // namespace

namespace {

/// Row c of g sorted, without repeats and without c itself, into out (cleared first).
void metis_row(const Csr& g, idx_t c, std::vector<idx_t>& out) {
  out.assign(g.row(c), g.row(c) + g.size(c));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.erase(std::remove(out.begin(), out.end(), c), out.end());
}

} // namespace

MetisGraph metis_graph(const Csr& cellCells, int nParts, const PartitionOptions& options) {
  const idx_t n = cellCells.rows();
  FV_VERIFY_USAGE(nParts >= 1, "--parts must be at least 1, got " << nParts);
  FV_VERIFY_USAGE(n > 0, "cannot partition a mesh without cells");
  FV_VERIFY_USAGE(nParts <= n, "--parts " << nParts << " exceeds the number of cells (" << n
                                          << "): every zone needs at least one cell");
  FV_VERIFY_USAGE(options.imbalance >= 1.0 && options.imbalance < 10.0,
                  "imbalance tolerance must be in [1, 10), got " << options.imbalance);
  MetisGraph g;
  if (nParts == 1) return g;
  cellCells.check("partition: cell dual graph", n);
  g.xadj.assign(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel
  {
    std::vector<idx_t> row;
#pragma omp for schedule(static)
    for (idx_t c = 0; c < n; ++c) {
      metis_row(cellCells, c, row);
      g.xadj[static_cast<std::size_t>(c) + 1] = static_cast<idx_t>(row.size());
    }
  }
  for (idx_t c = 0; c < n; ++c)
    g.xadj[static_cast<std::size_t>(c) + 1] += g.xadj[static_cast<std::size_t>(c)];
  g.adj.resize(static_cast<std::size_t>(g.xadj.back()));
#pragma omp parallel
  {
    std::vector<idx_t> row;
#pragma omp for schedule(static)
    for (idx_t c = 0; c < n; ++c) {
      metis_row(cellCells, c, row);
      std::copy(row.begin(), row.end(), g.adj.begin() + g.xadj[static_cast<std::size_t>(c)]);
    }
  }
  return g;
}

std::vector<idx_t> partition_graph(const Csr& cellCells, MetisGraph&& graph, int nParts,
                                   const PartitionOptions& options) {
  const idx_t n = cellCells.rows();
  std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
  if (nParts == 1) return part;
  FV_VERIFY(static_cast<idx_t>(graph.xadj.size()) == n + 1,
            "partition: a METIS graph of " << graph.xadj.size() << " offsets for " << n
                                           << " cells");
  ::idx_t opts[METIS_NOPTIONS];
  METIS_SetDefaultOptions(opts);
  opts[METIS_OPTION_OBJTYPE] =
      options.objective == PartitionObjective::EdgeCut ? METIS_OBJTYPE_CUT : METIS_OBJTYPE_VOL;
  opts[METIS_OPTION_UFACTOR] =
      static_cast<::idx_t>(std::lround(1000.0 * (options.imbalance - 1.0)));
  opts[METIS_OPTION_SEED] = options.seed;
  opts[METIS_OPTION_NUMBERING] = 0;
  ::idx_t nv = n, ncon = 1, np = nParts, objval = 0;
  const int rc =
      METIS_PartGraphKway(&nv, &ncon, graph.xadj.data(), graph.adj.data(), nullptr, nullptr,
                          nullptr, &np, nullptr, nullptr, opts, &objval, part.data());
  FV_VERIFY(rc == METIS_OK, "METIS_PartGraphKway failed (" << metis_status(rc) << ") on " << n
                                                           << " cells, " << nParts << " parts");
  graph = MetisGraph();
  fill_empty_parts(cellCells, part, nParts);
  return part;
}

std::vector<idx_t> partition_cells(const Csr& cellCells, int nParts,
                                   const PartitionOptions& options) {
  return partition_graph(cellCells, metis_graph(cellCells, nParts, options), nParts, options);
}

PartitionReport partition_report(const Csr& g, const std::vector<idx_t>& part, int nParts) {
  FV_VERIFY(static_cast<idx_t>(part.size()) == g.rows(),
            "partition report: " << part.size() << " part ids for " << g.rows() << " cells");
  PartitionReport r;
  r.nParts = nParts;
  r.nCells = g.rows();
  const auto np = static_cast<std::size_t>(nParts);
  r.cells.assign(np, 0);
  r.interfaceFaces.assign(np, 0);
  r.haloCells.assign(np, 0);
  r.neighbours.assign(np, 0);
  std::vector<std::vector<idx_t>> nbrs(np);
  std::vector<idx_t> touched; // other parts of one cell
  for (idx_t c = 0; c < g.rows(); ++c) {
    const idx_t p = part[static_cast<std::size_t>(c)];
    FV_VERIFY(p >= 0 && p < nParts, "partition report: cell " << c << " in zone " << p);
    ++r.cells[static_cast<std::size_t>(p)];
    touched.clear();
    for (idx_t k = g.begin(c); k < g.end(c); ++k) {
      const idx_t d = g.indices()[k];
      const idx_t q = part[static_cast<std::size_t>(d)];
      if (q == p) continue;
      ++r.interfaceFaces[static_cast<std::size_t>(p)];
      if (c < d) ++r.edgeCut;
      touched.push_back(q);
      nbrs[static_cast<std::size_t>(p)].push_back(q);
    }
    std::sort(touched.begin(), touched.end());
    const auto distinct = std::unique(touched.begin(), touched.end()) - touched.begin();
    r.commVolume += distinct;
    // cell c is a halo cell of every distinct other zone it touches
    for (auto it = touched.begin(); it != touched.begin() + distinct; ++it)
      ++r.haloCells[static_cast<std::size_t>(*it)];
  }
  for (std::size_t p = 0; p < np; ++p) {
    auto& v = nbrs[p];
    std::sort(v.begin(), v.end());
    r.neighbours[p] = static_cast<int>(std::unique(v.begin(), v.end()) - v.begin());
  }
  const double avg = static_cast<double>(r.nCells) / nParts;
  r.imbalance = static_cast<double>(*std::max_element(r.cells.begin(), r.cells.end())) / avg;
  return r;
}

void print_partition_report(std::ostream& os, const PartitionReport& r, bool perZone) {
  const auto minmax_cells = std::minmax_element(r.cells.begin(), r.cells.end());
  const auto maxNb = std::max_element(r.neighbours.begin(), r.neighbours.end());
  const double meanNb =
      std::accumulate(r.neighbours.begin(), r.neighbours.end(), 0.0) / std::max(1, r.nParts);
  const auto maxIf = std::max_element(r.interfaceFaces.begin(), r.interfaceFaces.end());
  os << "partition: " << r.nCells << " cells into " << r.nParts << " zones\n"
     << "  cells per zone     min " << *minmax_cells.first << ", max " << *minmax_cells.second
     << ", imbalance " << std::fixed << std::setprecision(3) << r.imbalance << "\n"
     << "  edge cut           " << r.edgeCut << " interface faces (" << std::setprecision(2)
     << 100.0 * static_cast<double>(r.edgeCut) /
            std::max<double>(1.0, static_cast<double>(r.nCells))
     << " per 100 cells), max " << *maxIf << " in one zone\n"
     << "  comm volume        " << r.commVolume << " halo cells in total\n"
     << "  neighbours         max " << *maxNb << ", mean " << std::setprecision(1) << meanNb
     << "\n";
  os.unsetf(std::ios::floatfield);
  if (!perZone) return;
  os << "  zone      cells  interface   halo  neighbours\n";
  for (int p = 0; p < r.nParts; ++p) {
    const auto i = static_cast<std::size_t>(p);
    os << "  " << std::setw(4) << p << " " << std::setw(10) << r.cells[i] << " " << std::setw(10)
       << r.interfaceFaces[i] << " " << std::setw(6) << r.haloCells[i] << " " << std::setw(11)
       << r.neighbours[i] << "\n";
  }
}

} // namespace fv
