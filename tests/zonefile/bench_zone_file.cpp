// bench_zone_file CELLS ZONES PATH [KIND]: write / open / map / check timings of a zone file.
//   KIND = synthetic (default): zones with the array sizes of a hexahedral mesh (per cell: ~3
//          faces, ~1 node, 6 faces and neighbours, 8 nodes, 12 face-node entries), contents
//          synthetic: measures I/O only (no fvprep check).
//   KIND = hex | tet | mixed: a generated box of about CELLS cells, build_global_mesh, METIS,
//          build_zones, then the same timings plus `fvprep check`.
// Not a test (asserts nothing); built for the performance notes.
#include "common/error.hpp"
#include "common/main.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/zone_check.hpp"
#include "prep/zones.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <string>

namespace {

double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

template <class T>
fv::Array<T> filled(std::size_t n) {
  fv::Array<T> a(n);
  for (std::size_t i = 0; i < n; ++i)
    a[i] = static_cast<T>(i % 1000);
  return a;
}
fv::Csr rows(fv::idx_t n, fv::idx_t per, fv::idx_t cols) {
  fv::Csr c = fv::Csr::from_counts(std::vector<fv::idx_t>(static_cast<std::size_t>(n), per));
  for (fv::idx_t k = 0; k < c.nnz(); ++k)
    c.indices()[k] = k % cols;
  return c;
}

fv::Zone hex_like_zone(int id, fv::idx_t n) {
  fv::Zone z;
  z.zoneId = id;
  z.nCells = n;
  z.nInteriorCells = n - n / 20;
  z.nHaloCells = n / 20;
  z.nFaces = 3 * n;
  z.nBoundaryFaces = n / 10;
  z.nNodes = n;
  const auto nt = static_cast<std::size_t>(n + z.nHaloCells),
             nf = static_cast<std::size_t>(z.nFaces), nn = static_cast<std::size_t>(n);
  z.patchFaceOffsets = fv::Array<fv::idx_t>{0, z.nBoundaryFaces};
  z.cellGlobalId = filled<fv::gidx_t>(nt);
  z.cellType = filled<std::int8_t>(nt);
  z.cellVolume = filled<double>(nt);
  z.cellCentroid = filled<double>(3 * nt);
  z.faceGlobalId = filled<fv::gidx_t>(nf);
  z.faceOwner = filled<fv::idx_t>(nf);
  z.faceNeighbour = filled<fv::idx_t>(nf);
  z.faceArea = filled<double>(3 * nf);
  z.faceCentroid = filled<double>(3 * nf);
  z.faceOwnerDelta = filled<double>(3 * nf);
  z.faceNeighbourDelta = filled<double>(3 * nf);
  z.nodeGlobalId = filled<fv::gidx_t>(nn);
  z.nodeXyz = filled<double>(3 * nn);
  z.cellFaces = rows(n, 6, z.nFaces);
  z.cellFaceSign = filled<std::int8_t>(6 * nn);
  z.cellCells = rows(n, 6, n);
  z.cellNodes = rows(n, 8, n);
  z.faceNodes = rows(z.nFaces, 4, n);
  z.nodeFaces = rows(n, 12, z.nFaces);
  z.nodeCells = rows(n, 8, n);
  z.nodeCellWeight = filled<double>(8 * nn);
  z.faceColours = rows(6, z.nFaces / 6, z.nFaces);
  z.cellColours = rows(2, n / 2, n);
  z.hyperplanes = rows(100, n / 100, n);
  z.cellExchange.neighbours = fv::Array<std::int32_t>{(id + 1) % 2};
  z.cellExchange.send = rows(1, n / 20, n);
  z.cellExchange.recv = rows(1, n / 20, n);
  z.nodeExchange.neighbours = fv::Array<std::int32_t>{(id + 1) % 2};
  z.nodeExchange.send = rows(1, n / 20, n);
  z.nodeExchange.recv = rows(1, n / 20, n);
  return z;
}

} // namespace

int main(int argc, char** argv) {
  return fv::run_main("bench_zone_file", [&] {
    FV_VERIFY_USAGE(argc == 4 || argc == 5, "usage: bench_zone_file CELLS ZONES PATH [KIND]");
    const long cells = std::stol(argv[1]);
    const int nz = std::stoi(argv[2]);
    const std::string path = argv[3];
    const std::string kind = argc == 5 ? argv[4] : "synthetic";
    long nCells = 0;
    double tBuild = 0, tWrite = 0;
    if (kind == "synthetic") {
      const auto per = static_cast<fv::idx_t>(cells / nz);
      nCells = per * static_cast<long>(nz);
      fv::ZoneFileHeader h;
      h.creator = "bench";
      h.nZones = nz;
      h.nGlobalCells = nCells;
      h.patches = {{"wall", "BCWall"}};
      const double t1 = now();
      fv::ZoneFileWriter w(path, h);
      for (int z = 0; z < nz; ++z) {
        const double b = now();
        const fv::Zone zone = hex_like_zone(z, per);
        tBuild += now() - b;
        w.write_zone(zone);
      }
      w.commit();
      tWrite = now() - t1 - tBuild;
    } else {
      fv::GenOptions g;
      g.cells = fv::parse_gen_cells(kind);
      g.targetCells = cells;
      const double b = now();
      const fv::Mesh mesh = fv::generate_mesh(g);
      const fv::GlobalMesh gm = fv::build_global_mesh(mesh, fv::PrepOptions{});
      const std::vector<fv::idx_t> part = fv::partition_cells(gm.cellCells, nz);
      std::vector<fv::idx_t> byMesh(part.size());
      for (std::size_t c = 0; c < part.size(); ++c)
        byMesh[gm.cellMesh[c]] = part[c];
      const std::vector<fv::Zone> zones = fv::build_zones(gm, byMesh, nz, fv::PrepOptions{});
      fv::ZoneFileHeader h = fv::make_zone_header(mesh, gm, nz);
      tBuild = now() - b;
      nCells = gm.nCells();
      const double t1 = now();
      fv::write_zone_file(path, h, zones);
      tWrite = now() - t1;
      std::printf("generated %s mesh and built zones in %.1f s\n", kind.c_str(), tBuild);
    }
    const auto bytes = std::filesystem::file_size(path);

    double t0 = now();
    const fv::ZoneFile f = fv::open_zone_file(path);
    const double tOpen = now() - t0;
    t0 = now();
    std::vector<fv::Zone> zs;
    for (int z = 0; z < nz; ++z)
      zs.push_back(fv::map_zone(f, z, fv::MapOptions{false}));
    const double tMap = now() - t0;
    zs.clear();
    t0 = now();
    for (int z = 0; z < nz; ++z)
      zs.push_back(fv::map_zone(f, z, fv::MapOptions{true}));
    const double tVerify = now() - t0;

    std::printf("%ld cells in %d zones: file %.1f MiB (%.0f B/cell)\n", nCells, nz,
                static_cast<double>(bytes) / (1 << 20),
                static_cast<double>(bytes) / static_cast<double>(nCells));
    std::printf("  write (streaming, incl. checksums, fsync+rename) %.3f s = %.0f MiB/s\n", tWrite,
                static_cast<double>(bytes) / (1 << 20) / tWrite);
    std::printf("  open header %.4f s; map all zones %.4f s (%.2f ms/zone)\n", tOpen, tMap,
                1e3 * tMap / nz);
    std::printf("  map + verify checksums %.3f s = %.0f MiB/s (page cache warm)\n", tVerify,
                static_cast<double>(bytes) / (1 << 20) / tVerify);
    if (kind != "synthetic") {
      zs.clear();
      t0 = now();
      const int rc = fv::run_zone_check(path);
      std::printf("  fvprep check %.2f s (exit %d)\n", now() - t0, rc);
    }
    return 0;
  });
}
