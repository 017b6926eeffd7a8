// A zone file written the way a distributed fvprep writes it: the process holding the
// ZoneFileWriter places each zone from its shape alone (ZoneShape, sent as bytes), the process
// that built the zone writes its bytes into the temporary file itself (write_zone_pieces()) and
// sends the checksums back (set_zone_written()). The file must be the one write_zone() writes.
#include "common/error.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "formats/zone_shape.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/zone_check.hpp"
#include "prep/zones.hpp"
#include "synthetic_zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Placement = fv::ZoneFileWriter::RemotePlacement;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A zone file's bytes without the one thing two writes of the same zones legitimately
/// differ in: the creation time that HDF5 stamps (with default properties, out of the writer's
/// hands) on the superblock extension's object header, which holds the file-space settings.
/// Those four timestamps and the header's checksum are zeroed (HDF5 superblock version 2/3 and
/// object header version 2 layouts, in the HDF5 file format specification).
std::string without_creation_time(std::string f) {
  auto u64 = [&](std::size_t at) {
    std::uint64_t v = 0;
    std::memcpy(&v, f.data() + at, 8);
    return v;
  };
  EXPECT_GE(f.size(), 48u);
  if (f.size() < 48 || f.compare(0, 8, "\x89HDF\r\n\x1a\n") != 0) return f;
  EXPECT_TRUE(f[8] == 2 || f[8] == 3) << "superblock version " << int(f[8]);
  EXPECT_EQ(f[9], 8) << "size of offsets";
  const std::uint64_t ext = u64(20);
  if (ext == ~std::uint64_t{0}) return f; // no extension
  EXPECT_LT(ext + 64, f.size());
  if (ext + 64 >= f.size() || f.compare(ext, 4, "OHDR") != 0) {
    ADD_FAILURE() << "no object header at the superblock extension's address " << ext;
    return f;
  }
  const auto flags = static_cast<unsigned char>(f[ext + 5]);
  std::size_t at = ext + 6;
  if (flags & 0x20) { // times stored
    std::fill(f.begin() + static_cast<std::ptrdiff_t>(at),
              f.begin() + static_cast<std::ptrdiff_t>(at + 16), '\0');
    at += 16;
  }
  if (flags & 0x10) at += 4; // attribute phase change values
  const std::size_t sizeBytes = std::size_t{1} << (flags & 3);
  std::uint64_t chunk = 0;
  std::memcpy(&chunk, f.data() + at, sizeBytes);
  at += sizeBytes + chunk; // the checksum follows chunk 0
  EXPECT_LE(at + 4, f.size());
  if (at + 4 <= f.size())
    std::fill(f.begin() + static_cast<std::ptrdiff_t>(at),
              f.begin() + static_cast<std::ptrdiff_t>(at + 4), '\0');
  return f;
}

using fv::testing::error_of;

bool has_temporaries(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().string().find(".tmp.") != std::string::npos) return true;
  return false;
}

/// 3 zones of a generated mixed-element box with walls (so that the optional datasets, wall
/// distance and linear node weights, are present), as fvprep builds them.
struct Prepared {
  fv::ZoneFileHeader header;
  std::vector<fv::Zone> zones;
};

Prepared prepared_zones(int parts) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Box;
  o.cells = fv::GenCells::Mixed;
  o.n = {6, 5, 4};
  o.extent = {2, 1, 1};
  const fv::Mesh mesh = fv::generate_mesh(o);
  fv::PrepOptions po;
  po.walls = {"ymin", "ymax"};
  const fv::GlobalMesh g = fv::build_global_mesh(mesh, po);
  Prepared p;
  p.zones = fv::build_zones(
      g, fv::parts_in_mesh_order(g, fv::partition_cells(g.cellCells, parts, {})), parts, po);
  p.header = fv::make_zone_header(mesh, g, parts);
  p.header.commandLine = "test_zone_file_remote";
  return p;
}

/// The writer's side (a zone file over write_zone()).
void write_serial(const std::string& path, const fv::ZoneFileHeader& header,
                  const std::vector<fv::Zone>& zones) {
  fv::ZoneFileWriter w(path, header);
  for (const fv::Zone& z : zones)
    w.write_zone(z);
  w.commit();
}

/// The holding process's side: given only the temporary path, the placement (as bytes) and its
/// zone, writes the zone's bytes, syncs them and returns its checksums.
std::vector<std::uint64_t> holder_writes(const std::string& tempPath,
                                         const std::vector<std::uint8_t>& placementBytes,
                                         const fv::Zone& zone) {
  std::vector<std::uint64_t> sums =
      fv::write_zone_pieces(tempPath, fv::placement_from_bytes(placementBytes), zone);
  fv::sync_zone_pieces(tempPath);
  return sums;
}

/// The same in a child process (another file descriptor, another process's page writes); the
/// checksums come back through a pipe.
std::vector<std::uint64_t> child_writes(const std::string& tempPath,
                                        const std::vector<std::uint8_t>& placementBytes,
                                        const fv::Zone& zone, std::size_t nPieces) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    int rc = 0;
    try {
      const std::vector<std::uint64_t> sums = holder_writes(tempPath, placementBytes, zone);
      const std::size_t bytes = sums.size() * sizeof(std::uint64_t);
      if (::write(fds[1], sums.data(), bytes) != static_cast<ssize_t>(bytes)) rc = 2;
    } catch (...) {
      rc = 1;
    }
    ::close(fds[1]);
    ::_exit(rc);
  }
  ::close(fds[1]);
  std::vector<std::uint64_t> sums(nPieces);
  std::size_t got = 0;
  auto* dst = reinterpret_cast<char*>(sums.data());
  while (got < nPieces * sizeof(std::uint64_t)) {
    const ssize_t r = ::read(fds[0], dst + got, nPieces * sizeof(std::uint64_t) - got);
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  EXPECT_EQ(got, nPieces * sizeof(std::uint64_t));
  return sums;
}

/// The distributed way: every zone placed from its shape (after a trip through bytes), its
/// bytes written by the holder (zone ids in `inChild` by a child process), in reverse zone
/// order, then committed.
void write_by_shape(const std::string& path, const fv::ZoneFileHeader& header,
                    const std::vector<fv::Zone>& zones, const std::vector<int>& inChild = {}) {
  fv::ZoneFileWriter w(path, header);
  std::vector<Placement> placed;
  for (const fv::Zone& z : zones) {
    const std::vector<std::uint8_t> sent = fv::to_bytes(fv::zone_shape(z));
    placed.push_back(w.place_zone_shape(fv::zone_shape_from_bytes(sent)));
  }
  for (std::size_t k = zones.size(); k-- > 0;) {
    const Placement& p = placed[k];
    EXPECT_EQ(p.zoneId, zones[k].zoneId);
    const std::vector<std::uint8_t> sent = fv::to_bytes(p);
    const bool child = std::find(inChild.begin(), inChild.end(), p.zoneId) != inChild.end();
    const std::vector<std::uint64_t> sums =
        child ? child_writes(w.temp_path(), sent, zones[k], p.pieces.size())
              : holder_writes(w.temp_path(), sent, zones[k]);
    w.set_zone_written(p.zoneId, sums);
  }
  w.commit();
}

/// Every dataset of every zone: bytes, offset and stored checksum, through the reader (which
/// verifies the checksums while mapping).
void expect_same_through_reader(const std::string& a, const std::string& b) {
  const fv::ZoneFile fa = fv::open_zone_file(a), fb = fv::open_zone_file(b);
  ASSERT_EQ(fa.nZones(), fb.nZones());
  EXPECT_EQ(fa.fileBytes(), fb.fileBytes());
  for (int z = 0; z < fa.nZones(); ++z) {
    EXPECT_EQ(fv::testing::zone_dataset_bytes(fv::map_zone(fa, z)),
              fv::testing::zone_dataset_bytes(fv::map_zone(fb, z)))
        << "zone " << z;
    const auto ia = fv::zone_dataset_info(fa, z), ib = fv::zone_dataset_info(fb, z);
    ASSERT_EQ(ia.size(), ib.size());
    for (std::size_t k = 0; k < ia.size(); ++k) {
      EXPECT_EQ(ia[k].name, ib[k].name);
      EXPECT_EQ(ia[k].offset, ib[k].offset) << ia[k].name;
      EXPECT_EQ(ia[k].bytes, ib[k].bytes) << ia[k].name;
      EXPECT_EQ(ia[k].checksum, ib[k].checksum) << ia[k].name;
    }
  }
}

TEST(ZoneShape, RoundTripsThroughBytes) {
  const auto zones = fv::testing::strip_zones({3, 4});
  const fv::ZoneShape s = fv::zone_shape(zones[1]);
  EXPECT_EQ(s.zone_id(), 1);
  EXPECT_EQ(s.counts.size(), fv::zone_count_names().size());
  ASSERT_EQ(s.elements.size(), fv::zone_piece_paths().size());
  std::size_t k = 0;
  fv::visit_zone_pieces(zones[1], [&](const std::string& path, const auto& a) {
    EXPECT_EQ(path, fv::zone_piece_paths()[k]);
    EXPECT_EQ(s.elements[k], a.size()) << path;
    ++k;
  });
  const std::vector<std::uint8_t> bytes = fv::to_bytes(s);
  const fv::ZoneShape back = fv::zone_shape_from_bytes(bytes);
  EXPECT_EQ(back.counts, s.counts);
  EXPECT_EQ(back.elements, s.elements);

  // not a shape, truncated, or padded: refused
  std::vector<std::uint8_t> bad = bytes;
  bad[0] ^= 1;
  EXPECT_NE(error_of([&] { fv::zone_shape_from_bytes(bad); }).find("zone shape"),
            std::string::npos);
  bad = bytes;
  bad.pop_back();
  EXPECT_THROW(fv::zone_shape_from_bytes(bad), fv::Error);
  bad = bytes;
  bad.push_back(0);
  EXPECT_THROW(fv::zone_shape_from_bytes(bad), fv::Error);
  EXPECT_THROW(fv::zone_shape_from_bytes(nullptr, 0), fv::Error);
  // a shape of another schema (one dataset fewer) is refused by the writer
  fv::ZoneShape fewer = s;
  fewer.elements.pop_back();
  EXPECT_THROW(fv::zone_shape_from_bytes(fv::to_bytes(fewer)), fv::Error);
  const std::string dir = fv::testing::scratch_dir();
  fv::ZoneFileWriter w(dir + "/x.zones.h5", fv::testing::strip_header(7, 2));
  EXPECT_NE(error_of([&] { w.place_zone_shape(fewer); }).find("the zone schema has"),
            std::string::npos);

  // a placement too
  fv::ZoneFileWriter::RemotePlacement p;
  p.zoneId = 3;
  p.pieces = {{64, 8}, {0, 0}, {128, 24}};
  const fv::ZoneFileWriter::RemotePlacement pb = fv::placement_from_bytes(fv::to_bytes(p));
  EXPECT_EQ(pb.zoneId, 3);
  ASSERT_EQ(pb.pieces.size(), 3u);
  EXPECT_EQ(pb.pieces[2].offset, 128u);
  EXPECT_EQ(pb.pieces[2].bytes, 24u);
  std::vector<std::uint8_t> pbad = fv::to_bytes(p);
  pbad.pop_back();
  EXPECT_THROW(fv::placement_from_bytes(pbad), fv::Error);
  EXPECT_THROW(fv::placement_from_bytes(bytes), fv::Error); // a shape is no placement
}

// The file written by shape + write_zone_pieces() (one zone from a child process) is the file
// write_zone() writes, byte for byte; it passes `fvprep check` and verifies its checksums.
TEST(ZoneFileRemote, ByShapeIsByteIdenticalToWriteZone) {
  const Prepared p = prepared_zones(3);
  ASSERT_EQ(p.zones.size(), 3u);
  EXPECT_FALSE(p.zones[0].cellWallDistance.empty());
  EXPECT_FALSE(p.zones[0].nodeCellWeightLinear.empty());
  const std::string dir = fv::testing::scratch_dir();
  const std::string serial = dir + "/serial.zones.h5", remote = dir + "/remote.zones.h5";
  write_serial(serial, p.header, p.zones);
  ::sleep(1); // the files' creation times differ
  write_by_shape(remote, p.header, p.zones, /*inChild=*/{1});
  EXPECT_FALSE(has_temporaries(dir));

  const std::string a = slurp(serial), b = slurp(remote);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a.size(), b.size());
  EXPECT_TRUE(a != b) << "written a second apart, the files' creation times should differ";
  EXPECT_TRUE(without_creation_time(a) == without_creation_time(b)) << "the two files differ";
  expect_same_through_reader(serial, remote);

  std::ostringstream log;
  EXPECT_EQ(fv::run_zone_check(remote, {}, &log), 0) << log.str();
  const fv::ZoneFile f = fv::open_zone_file(remote);
  for (int z = 0; z < 3; ++z) {
    const fv::Zone m = fv::map_zone(f, z, fv::MapOptions{true}); // checksums verified
    EXPECT_EQ(fv::testing::zone_dataset_bytes(m),
              fv::testing::zone_dataset_bytes(p.zones[static_cast<std::size_t>(z)]));
  }
}

// The same for the hand-built strip zones (empty exchange lists on one zone, optional
// datasets absent), and mixing zones written here (place_zone/write_zone) with zones placed by
// shape in one file; placements are 64-byte aligned and say where the reader finds the bytes.
TEST(ZoneFileRemote, MixedLocalAndRemoteZones) {
  const std::string dir = fv::testing::scratch_dir();
  for (const std::vector<int>& blocks : {std::vector<int>{5}, std::vector<int>{3, 5, 2, 4}}) {
    const auto zones = fv::testing::strip_zones(blocks);
    int nx = 0;
    for (int b : blocks)
      nx += b;
    const auto header = fv::testing::strip_header(nx, static_cast<int>(blocks.size()));
    const std::string serial = dir + "/serial.zones.h5", mixed = dir + "/mixed.zones.h5";
    write_serial(serial, header, zones);
    std::vector<Placement> placed(zones.size());
    {
      fv::ZoneFileWriter w(mixed, header);
      for (std::size_t z = 0; z < zones.size(); ++z) {
        if (z % 2 == 0) {
          w.write_zone(zones[z]);
          continue;
        }
        placed[z] = w.place_zone_shape(fv::zone_shape(zones[z]));
        for (const auto& piece : placed[z].pieces)
          if (piece.bytes > 0) {
            EXPECT_EQ(piece.offset % fv::kZoneFileAlignment, 0u);
          }
        w.set_zone_written(static_cast<int>(z),
                           holder_writes(w.temp_path(), fv::to_bytes(placed[z]), zones[z]));
      }
      w.commit();
    }
    EXPECT_TRUE(without_creation_time(slurp(serial)) == without_creation_time(slurp(mixed)))
        << blocks.size() << " zones";
    expect_same_through_reader(serial, mixed);
    const fv::ZoneFile f = fv::open_zone_file(mixed);
    for (std::size_t z = 1; z < zones.size(); z += 2) {
      const auto info = fv::zone_dataset_info(f, static_cast<int>(z));
      ASSERT_EQ(info.size(), placed[z].pieces.size());
      for (std::size_t k = 0; k < info.size(); ++k) {
        EXPECT_EQ(info[k].name, fv::zone_piece_paths()[k]);
        EXPECT_EQ(info[k].bytes, placed[z].pieces[k].bytes) << info[k].name;
        if (info[k].bytes > 0) {
          EXPECT_EQ(info[k].offset, placed[z].pieces[k].offset);
        }
      }
    }
  }
}

// What the writer refuses: checksums of the wrong count, an unknown zone, a zone placed
// locally or marked twice; a zone placed by shape but never marked written makes commit() fail
// and leaves no file (an existing one untouched); write_zone_pieces() refuses a zone that does
// not match its placement, before writing anything.
TEST(ZoneFileRemote, ErrorsLeaveNoFile) {
  const std::string dir = fv::testing::scratch_dir();
  const auto zones = fv::testing::strip_zones({3, 3, 3});
  const auto header = fv::testing::strip_header(9, 3);
  const std::string path = dir + "/e.zones.h5";
  const std::size_t nPieces = fv::zone_piece_paths().size();

  std::string msg = error_of([&] {
    fv::ZoneFileWriter w(path, header);
    const Placement p = w.place_zone_shape(fv::zone_shape(zones[0]));
    const std::vector<std::uint64_t> sums = holder_writes(w.temp_path(), fv::to_bytes(p), zones[0]);
    ASSERT_EQ(sums.size(), nPieces);
    EXPECT_NE(error_of([&] {
                w.set_zone_written(0, std::vector<std::uint64_t>(nPieces - 1));
              }).find("checksums for its"),
              std::string::npos);
    EXPECT_NE(error_of([&] { w.set_zone_written(3, sums); }).find("zone id 3 outside [0, 3)"),
              std::string::npos);
    EXPECT_NE(error_of([&] { w.set_zone_written(-1, sums); }).find("outside"), std::string::npos);
    EXPECT_NE(error_of([&] { w.set_zone_written(2, sums); }).find("never placed"),
              std::string::npos);
    w.write_zone(zones[1]);
    EXPECT_NE(error_of([&] { w.set_zone_written(1, sums); }).find("placed by place_zone()"),
              std::string::npos);
    w.set_zone_written(0, sums);
    EXPECT_NE(error_of([&] { w.set_zone_written(0, sums); }).find("twice"), std::string::npos);
    EXPECT_THROW(w.place_zone_shape(fv::zone_shape(zones[0])), fv::Error); // placed twice

    // zone 2 placed by shape, its bytes even written, but never marked written
    const Placement p2 = w.place_zone_shape(fv::zone_shape(zones[2]));
    holder_writes(w.temp_path(), fv::to_bytes(p2), zones[2]);
    w.commit();
  });
  EXPECT_NE(msg.find("zone 2 of 3 was never written"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(has_temporaries(dir));

  // an existing file stays as it was
  write_serial(path, header, zones);
  const std::string before = slurp(path);
  msg = error_of([&] {
    fv::ZoneFileWriter w(path, header);
    w.write_zone(zones[0]);
    w.write_zone(zones[2]);
    w.place_zone_shape(fv::zone_shape(zones[1]));
    w.commit();
  });
  EXPECT_NE(msg.find("zone 1 of 3 was never written"), std::string::npos) << msg;
  EXPECT_EQ(slurp(path), before);
  EXPECT_FALSE(has_temporaries(dir));

  // write_zone_pieces: wrong zone, wrong sizes, no such file
  {
    fv::ZoneFileWriter w(path, header);
    const Placement p = w.place_zone_shape(fv::zone_shape(zones[0]));
    const std::string tmp = w.temp_path();
    const std::string tmpBefore = slurp(tmp);
    msg = error_of([&] { fv::write_zone_pieces(tmp, p, zones[1]); });
    EXPECT_NE(msg.find(tmp), std::string::npos) << msg;
    EXPECT_NE(msg.find("placement given is zone 0's"), std::string::npos) << msg;

    fv::Zone bigger = zones[0];
    bigger.cellVolume = fv::Array<fv::real_t>(bigger.cellVolume.size() + 1, 1.0);
    msg = error_of([&] { fv::write_zone_pieces(tmp, p, bigger); });
    EXPECT_NE(msg.find(tmp + ": cannot write zone 0, dataset cells/volume"), std::string::npos)
        << msg;
    EXPECT_EQ(slurp(tmp), tmpBefore) << "nothing written on a mismatch";

    Placement fewer = p;
    fewer.pieces.pop_back();
    EXPECT_THROW(fv::write_zone_pieces(tmp, fewer, zones[0]), fv::Error);

    msg = error_of([&] { fv::write_zone_pieces(dir + "/no-such.tmp", p, zones[0]); });
    EXPECT_NE(msg.find(dir + "/no-such.tmp: cannot write zone 0: cannot open"), std::string::npos)
        << msg;
    EXPECT_FALSE(fs::exists(dir + "/no-such.tmp")) << "write_zone_pieces() creates no file";
    msg = error_of([&] { fv::sync_zone_pieces(dir + "/no-such.tmp"); });
    EXPECT_NE(msg.find(dir + "/no-such.tmp: cannot open"), std::string::npos) << msg;
    EXPECT_FALSE(fs::exists(dir + "/no-such.tmp")) << "sync_zone_pieces() creates no file";
  }
  EXPECT_EQ(slurp(path), before);
  EXPECT_FALSE(has_temporaries(dir));
}

} // namespace
