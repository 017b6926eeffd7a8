#include "prep/dist_prepare.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "common/version.hpp"
#include "formats/mesh_uuid.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/dist_mesh.hpp"
#include "prep/dist_zones.hpp"
#include "prep/partition_distributed.hpp"
#include "prep/stored_options.hpp"

#include <algorithm>
#include <cstring>
#include <future>
#include <memory>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fv {

DistPartitioner parse_dist_partitioner(const std::string& s) {
  if (s == "ptscotch" || s == "pt-scotch" || s == "scotch") return DistPartitioner::PtScotch;
  if (s == "metis") return DistPartitioner::Metis;
  FV_VERIFY_USAGE(false, "--partitioner " << s << ": not ptscotch or metis");
  return DistPartitioner::PtScotch;
}

namespace {

/// The part of every renumbered cell, on every rank.
std::vector<idx_t> partition(const dist::Comm& comm, const DistGlobalMesh& g, const Csr& adjacency,
                             const PrepareOptions& opts, DistPartitioner who) {
  std::vector<gidx_t> vtxdist(static_cast<std::size_t>(comm.size()) + 1);
  for (int r = 0; r <= comm.size(); ++r)
    vtxdist[static_cast<std::size_t>(r)] = g.cells.first(r);
  const std::vector<idx_t> block =
      who == DistPartitioner::Metis
          ? partition_cells_gathered(comm, vtxdist, adjacency, opts.parts, opts.partition)
          : partition_cells_distributed(comm, vtxdist, adjacency, opts.parts, opts.partition);
  return dist::all_gather(comm, block);
}

/// The bandwidth and profile of the dual graph in the file's cell order and in the renumbered
/// one (the serial report's "before" and "after").
void dist_bandwidths(const dist::Comm& comm, const DistGlobalMesh& g, const Csr& cc,
                     PrepReport& report) {
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  std::int64_t bw[2] = {0, 0}, profile[2] = {0, 0};
  for (idx_t i = 0; i < cc.rows(); ++i) {
    const idx_t c = c0 + i, cm = g.cellMesh[static_cast<std::size_t>(c)];
    idx_t lo = c, loMesh = cm;
    for (idx_t k = cc.begin(i); k < cc.end(i); ++k) {
      const idx_t d = cc.indices()[k], dm = g.cellMesh[static_cast<std::size_t>(d)];
      bw[1] = std::max<std::int64_t>(bw[1], d > c ? d - c : c - d);
      bw[0] = std::max<std::int64_t>(bw[0], dm > cm ? dm - cm : cm - dm);
      lo = std::min(lo, d);
      loMesh = std::min(loMesh, dm);
    }
    profile[1] += c - lo;
    profile[0] += cm - loMesh;
  }
  report.before.bandwidth = comm.max(bw[0]);
  report.after.bandwidth = comm.max(bw[1]);
  report.before.profile = comm.sum(profile[0]);
  report.after.profile = comm.sum(profile[1]);
}

/// partition_report() of the whole dual graph, summed over the ranks' blocks.
PartitionReport dist_partition_report(const dist::Comm& comm, const DistGlobalMesh& g,
                                      const Csr& cc, const std::vector<idx_t>& part, int nParts) {
  const idx_t c0 = static_cast<idx_t>(g.cells.first(comm.rank()));
  const auto np = static_cast<std::size_t>(nParts);
  std::vector<std::int64_t> cells(np, 0), iface(np, 0), halo(np, 0), pairs(np * np, 0);
  std::int64_t cut = 0, volume = 0;
  std::vector<idx_t> touched;
  for (idx_t i = 0; i < cc.rows(); ++i) {
    const idx_t c = c0 + i;
    const idx_t p = part[static_cast<std::size_t>(c)];
    ++cells[static_cast<std::size_t>(p)];
    touched.clear();
    for (idx_t k = cc.begin(i); k < cc.end(i); ++k) {
      const idx_t d = cc.indices()[k];
      const idx_t q = part[static_cast<std::size_t>(d)];
      if (q == p) continue;
      ++iface[static_cast<std::size_t>(p)];
      cut += c < d;
      touched.push_back(q);
      pairs[static_cast<std::size_t>(p) * np + static_cast<std::size_t>(q)] = 1;
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    volume += static_cast<std::int64_t>(touched.size());
    for (idx_t q : touched)
      ++halo[static_cast<std::size_t>(q)];
  }
  for (auto* v : {&cells, &iface, &halo, &pairs})
    comm.sum_in_place(*v);
  PartitionReport r;
  r.nParts = nParts;
  r.nCells = g.nCells;
  r.edgeCut = comm.sum(cut);
  r.commVolume = comm.sum(volume);
  r.cells.assign(cells.begin(), cells.end());
  r.interfaceFaces.assign(iface.begin(), iface.end());
  r.haloCells.assign(halo.begin(), halo.end());
  r.neighbours.assign(np, 0);
  for (std::size_t p = 0; p < np; ++p)
    for (std::size_t q = 0; q < np; ++q)
      r.neighbours[p] += pairs[p * np + q] != 0;
  const double avg = static_cast<double>(r.nCells) / nParts;
  r.imbalance = static_cast<double>(*std::max_element(r.cells.begin(), r.cells.end())) / avg;
  return r;
}

/// The mesh UUID of the renumbered mesh (formats/mesh_uuid.hpp): rank 0 hashes, in rank order,
/// the coordinates of the nodes each rank numbered (a contiguous range of its block's nodes),
/// then every rank's block of cells. COLLECTIVE (reads the blocks of materialize_block()); the
/// UUID on every rank.
std::string dist_mesh_uuid(const dist::Comm& comm, const DistGlobalMesh& g) {
  const int rank = comm.rank();
  std::unique_ptr<MeshUuidStream> h;
  if (rank == 0) h = std::make_unique<MeshUuidStream>(g.nNodes, g.nCells);
  const auto hash = [&](const unsigned char* bytes, std::size_t n) { h->add_bytes(bytes, n); };
  {
    const gidx_t v0 = g.nodeHolders.first[static_cast<std::size_t>(rank)],
                 v1 = g.nodeHolders.first[static_cast<std::size_t>(rank) + 1];
    const auto at = static_cast<std::size_t>(
        std::lower_bound(g.blockNodes.begin(), g.blockNodes.end(), static_cast<idx_t>(v0)) -
        g.blockNodes.begin());
    const auto* p = reinterpret_cast<const unsigned char*>(g.blockNodeXyz.data() + 3 * at);
    dist::stream_to_root(comm, p, 3 * sizeof(real_t) * static_cast<std::size_t>(v1 - v0), hash);
  }
  {
    const idx_t nc = g.blockCellNodes.rows();
    std::vector<std::size_t> at(static_cast<std::size_t>(nc) + 1, 0);
    for (idx_t i = 0; i < nc; ++i)
      at[static_cast<std::size_t>(i) + 1] =
          at[static_cast<std::size_t>(i)] + MeshUuidStream::kCellHeadBytes +
          sizeof(std::int64_t) * static_cast<std::size_t>(g.blockCellNodes.size(i));
    std::vector<unsigned char> bytes(at.back());
#pragma omp parallel
    {
      std::vector<idx_t> ids;
#pragma omp for schedule(static)
      for (idx_t i = 0; i < nc; ++i) {
        ids.clear();
        for (idx_t k = g.blockCellNodes.begin(i); k < g.blockCellNodes.end(i); ++k)
          ids.push_back(g.blockNodes[static_cast<std::size_t>(g.blockCellNodes.indices()[k])]);
        MeshUuidStream::cell_bytes(g.blockCellType[static_cast<std::size_t>(i)], ids.data(),
                                   ids.size(), bytes.data() + at[static_cast<std::size_t>(i)]);
      }
    }
    dist::stream_to_root(comm, bytes.data(), bytes.size(), hash);
  }
  return comm.broadcast(h ? h->uuid() : std::string(), 0);
}

/// The header: the path and extrusion of the mesh read (`source`), the counts and patches of
/// `g` (the mesh UUID is computed by every rank together).
ZoneFileHeader dist_zone_header(const dist::Comm& comm, const Mesh& source, const DistGlobalMesh& g,
                                int nZones) {
  ZoneFileHeader h;
  h.creator = std::string("fvkit ") + kVersion;
  h.sourceMesh = source.path;
  h.extrusion = source.extrusion;
  h.nZones = nZones;
  h.nGlobalCells = g.nCells;
  h.nGlobalFaces = g.nFaces;
  h.nGlobalNodes = g.nNodes;
  h.patches = g.patches;
  h.meshUuid = dist_mesh_uuid(comm, g);
  return h;
}

/// Byte records ([int64 length][bytes]...) packed into one buffer, and back.
void pack(std::vector<std::uint8_t>& buf, const std::vector<std::uint8_t>& rec) {
  const std::int64_t n = static_cast<std::int64_t>(rec.size());
  const auto* p = reinterpret_cast<const std::uint8_t*>(&n);
  buf.insert(buf.end(), p, p + sizeof n);
  buf.insert(buf.end(), rec.begin(), rec.end());
}
std::vector<std::vector<std::uint8_t>> unpack(const std::vector<std::uint8_t>& buf) {
  std::vector<std::vector<std::uint8_t>> out;
  for (std::size_t at = 0; at < buf.size();) {
    std::int64_t n = 0;
    std::memcpy(&n, buf.data() + at, sizeof n);
    at += sizeof n;
    out.emplace_back(buf.begin() + static_cast<std::ptrdiff_t>(at),
                     buf.begin() + static_cast<std::ptrdiff_t>(at + static_cast<std::size_t>(n)));
    at += static_cast<std::size_t>(n);
  }
  return out;
}

/// Sends this rank's buffer to rank 0 (which gets every rank's, in rank order).
std::vector<std::uint8_t> to_root(const dist::Comm& comm, const std::vector<std::uint8_t>& buf) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(comm.size()), 0);
  counts[0] = static_cast<std::int64_t>(buf.size());
  return dist::exchange(comm, buf, counts).data;
}

/// The zones of the distributed prepare into the file, round by round: rank 0 places a round's
/// zones (in zone order) from their shapes; each rank writes its own in a thread of its own
/// while the next round is built (at most one round being written: the serial prepare also
/// writes while it builds); the checksums go to rank 0 at the end.
class RoundWriter {
 public:
  RoundWriter(const dist::Comm& comm, ZoneFileWriter* writer, std::string tempPath,
              const ZoneAssignment& assign)
      : comm_(comm), writer_(writer), tempPath_(std::move(tempPath)), assign_(assign) {}
  RoundWriter(const RoundWriter&) = delete;
  RoundWriter& operator=(const RoundWriter&) = delete;
  /// On an error elsewhere: the thread must not outlive the zones it writes.
  ~RoundWriter() {
    if (pending_.valid()) pending_.wait();
  }

  /// Places this rank's zones of a round (taken from `zones`) and starts writing them once the
  /// previous round is written. COLLECTIVE.
  void add(std::vector<Zone>& zones) {
    wait_previous();
    std::vector<std::uint8_t> shapes;
    for (const Zone& z : zones)
      pack(shapes, to_bytes(zone_shape(z)));
    const std::vector<std::uint8_t> allShapes = to_root(comm_, shapes);
    std::vector<std::uint8_t> placements;
    std::vector<std::int64_t> placementCounts(static_cast<std::size_t>(comm_.size()), 0);
    dist::run_collectively(comm_, [&] {
      if (comm_.rank() != 0) return;
      for (const std::vector<std::uint8_t>& s : unpack(allShapes)) {
        const ZoneFileWriter::RemotePlacement p =
            writer_->place_zone_shape(zone_shape_from_bytes(s));
        const std::size_t before = placements.size();
        pack(placements, to_bytes(p));
        placementCounts[static_cast<std::size_t>(assign_.rank_of(p.zoneId))] +=
            static_cast<std::int64_t>(placements.size() - before);
      }
    });
    const std::vector<std::uint8_t> mine = dist::exchange(comm_, placements, placementCounts).data;
    dist::run_collectively(comm_, [&] {
      const std::vector<std::vector<std::uint8_t>> recs = unpack(mine);
      FV_VERIFY(recs.size() == zones.size(),
                "zone placements: " << recs.size() << " for " << zones.size() << " zones");
      placed_.clear();
      for (std::size_t i = 0; i < zones.size(); ++i) {
        placed_.push_back(placement_from_bytes(recs[i]));
        FV_VERIFY(placed_.back().zoneId == zones[i].zoneId,
                  "zone placement for zone " << placed_.back().zoneId << " reached zone "
                                             << zones[i].zoneId);
      }
    });
    writing_ = std::move(zones);
    zones.clear();
    pending_ = std::async(std::launch::async, [this] { write_placed(); });
  }

  /// Waits for the last round and hands every checksum to rank 0. COLLECTIVE. Returns the
  /// bytes this rank wrote.
  std::uint64_t finish() {
    wait_previous();
    const std::vector<std::uint8_t> allSums = to_root(comm_, sums_);
    dist::run_collectively(comm_, [&] {
      if (comm_.rank() != 0) return;
      for (const std::vector<std::uint8_t>& rec : unpack(allSums)) {
        std::int32_t id = 0;
        std::memcpy(&id, rec.data(), sizeof id);
        std::vector<std::uint64_t> s((rec.size() - sizeof id) / sizeof(std::uint64_t));
        if (!s.empty())
          std::memcpy(s.data(), rec.data() + sizeof id, s.size() * sizeof(std::uint64_t));
        writer_->set_zone_written(id, s);
      }
    });
    return bytes_;
  }

 private:
  /// The thread's work: the placed zones' bytes into the file, their checksums recorded.
  void write_placed() {
    for (std::size_t i = 0; i < writing_.size(); ++i) {
      const ZoneFileWriter::RemotePlacement& p = placed_[i];
      const std::vector<std::uint64_t> s = write_zone_pieces(tempPath_, p, writing_[i]);
      for (const ZoneFileWriter::RemotePlacement::Piece& q : p.pieces)
        bytes_ += q.bytes;
      std::vector<std::uint8_t> rec(sizeof(std::int32_t) + s.size() * sizeof(std::uint64_t));
      std::memcpy(rec.data(), &p.zoneId, sizeof(std::int32_t));
      if (!s.empty())
        std::memcpy(rec.data() + sizeof(std::int32_t), s.data(), s.size() * sizeof(std::uint64_t));
      pack(sums_, rec);
    }
  }
  /// The previous round written (its error, if any, on every rank), its zones freed.
  void wait_previous() {
    dist::run_collectively(comm_, [&] {
      if (pending_.valid()) pending_.get();
    });
    std::vector<Zone>().swap(writing_);
  }

  const dist::Comm& comm_;
  ZoneFileWriter* writer_; ///< rank 0's; null elsewhere
  std::string tempPath_;
  ZoneAssignment assign_;
  std::future<void> pending_;                           ///< the round being written
  std::vector<Zone> writing_;                           ///< its zones
  std::vector<ZoneFileWriter::RemotePlacement> placed_; ///< and their placements
  std::vector<std::uint8_t> sums_;                      ///< checksum records for rank 0
  std::uint64_t bytes_ = 0;
};

/// Everything before the zones: the renumbered mesh, the partition and the header.
struct Prelude {
  DistGlobalMesh g;
  std::vector<idx_t> partOf;
  ZoneFileHeader header;
  ZoneAssignment assign;
};

/// Consumes the slice: it is freed once the ranks hold their blocks in renumbered ids.
Prelude prelude(const dist::Comm& comm, MeshSlice&& slice, const PrepareOptions& opts,
                DistPartitioner who, PrepReport& report, PartitionReport& partReport) {
  Prelude p;
  p.g = build_dist_global_mesh(comm, slice, opts.prep, &report);
  Mesh source; // the provenance the header keeps
  source.path = slice.part.path;
  source.extrusion = slice.part.extrusion;
  slice = MeshSlice(); // every process holds its block in renumbered ids
  const Csr cellCells = dist_cell_cells(comm, p.g); // the block's rows of the dual graph
  run_phase(&report, "bandwidths", [&] { dist_bandwidths(comm, p.g, cellCells, report); });
  dist::run_collectively(comm, [&] {
    FV_VERIFY_USAGE(opts.parts >= 1 && opts.parts <= p.g.nCells,
                    "cannot partition " << p.g.nCells << " cells into " << opts.parts << " parts");
  });
  release_source_maps(p.g);
  run_phase(&report, "mesh UUID",
            [&] { p.header = dist_zone_header(comm, source, p.g, opts.parts); });
  run_phase(&report, "partitioning", [&] {
    p.partOf = partition(comm, p.g, cellCells, opts, who);
    partReport = dist_partition_report(comm, p.g, cellCells, p.partOf, opts.parts);
  });
  p.header.options = describe_prepare_options(opts);
  if (who == DistPartitioner::PtScotch) p.header.options += "; partitioner=ptscotch";
  int threads = 1;
#if defined(_OPENMP)
  threads = omp_get_max_threads();
#endif
  p.assign.nZones = opts.parts;
  p.assign.nRanks = comm.size();
  p.assign.perRank = static_cast<int>(std::max<std::int64_t>(1, comm.min(std::int64_t(threads))));
  return p;
}

} // namespace

DistPreparedZones prepare_zones_distributed(const dist::Comm& comm, Mesh mesh,
                                            const PrepareOptions& opts, DistPartitioner who) {
  MeshSlice slice;
  dist::run_collectively(comm,
                         [&] { slice = slice_mesh(std::move(mesh), comm.rank(), comm.size()); });
  return prepare_zones_distributed(comm, std::move(slice), opts, who);
}

DistPreparedZones prepare_zones_distributed(const dist::Comm& comm, MeshSlice slice,
                                            const PrepareOptions& opts, DistPartitioner who) {
  DistPreparedZones out;
  Prelude p = prelude(comm, std::move(slice), opts, who, out.report, out.partition);
  out.header = p.header;
  run_phase(&out.report, "building zones", [&] {
    build_dist_zones(
        comm, p.g, p.partOf, p.assign, opts.prep,
        [&](std::vector<Zone>& zones) {
          for (Zone& z : zones)
            out.zones.push_back(std::move(z));
        },
        &out.report.zones);
  });
  return out;
}

PrepareSummary prepare_zone_file_distributed(const dist::Comm& comm, Mesh mesh,
                                             const PrepareOptions& opts, DistPartitioner who,
                                             const std::string& path,
                                             const std::string& commandLine) {
  MeshSlice slice;
  dist::run_collectively(comm,
                         [&] { slice = slice_mesh(std::move(mesh), comm.rank(), comm.size()); });
  return prepare_zone_file_distributed(comm, std::move(slice), opts, who, path, commandLine);
}

PrepareSummary prepare_zone_file_distributed(const dist::Comm& comm, MeshSlice slice,
                                             const PrepareOptions& opts, DistPartitioner who,
                                             const std::string& path,
                                             const std::string& commandLine) {
  PrepareSummary out;
  Prelude p = prelude(comm, std::move(slice), opts, who, out.report, out.partition);
  out.header = p.header;
  out.header.commandLine = commandLine;
  std::unique_ptr<ZoneFileWriter> writer;
  dist::run_collectively(comm, [&] {
    if (comm.rank() == 0) writer = std::make_unique<ZoneFileWriter>(path, out.header);
  });
  const std::string tempPath = comm.broadcast(writer ? writer->temp_path() : std::string(), 0);
  std::uint64_t bytes = 0;
  RoundWriter rounds(comm, writer.get(), tempPath, p.assign);
  run_phase(&out.report, "building zones", [&] {
    build_dist_zones(
        comm, p.g, p.partOf, p.assign, opts.prep,
        [&](std::vector<Zone>& zones) { rounds.add(zones); }, &out.report.zones);
    bytes = rounds.finish();
  });
  run_phase(&out.report, "writing", [&] {
    dist::run_collectively(comm, [&] {
      if (bytes > 0) sync_zone_pieces(tempPath);
    });
    dist::run_collectively(comm, [&] {
      if (writer) writer->commit();
    });
  });
  out.dataBytes = static_cast<std::uint64_t>(comm.sum(static_cast<std::int64_t>(bytes)));
  return out;
}

} // namespace fv
