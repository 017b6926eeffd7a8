// libFuzzer harness of fvrun's zone-file reader: the input becomes a .zones.h5 file that
// open_zone_file() opens and map_zone() maps, every zone, checksums verified. Refusing it with an
// exception is the expected outcome for a corrupt file; a crash or sanitizer report is a bug.
#include "common/error.hpp"
#include "formats/zone_file_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <hdf5.h>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/fvfuzz_" + std::to_string(getpid()) + ".zones.h5";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    const fv::ZoneFile file = fv::open_zone_file(path);
    for (int z = 0; z < file.nZones() && z < 8; ++z) {
      const fv::Zone zone = fv::map_zone(file, z);
      (void)zone;
    }
  } catch (const std::exception&) {
  }
  // every HDF5 object the reader opened is closed again, on the error paths too
  if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) > 0) {
    std::fprintf(stderr, "fuzz_zone_file: %lld HDF5 objects left open\n",
                 static_cast<long long>(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL)));
    std::abort();
  }
  std::remove(path.c_str());
  return 0;
}
