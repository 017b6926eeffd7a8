// libFuzzer harness of the OpenFOAM polyMesh reader: the input is the five files of a polyMesh
// directory (points, faces, owner, neighbour, boundary) joined by '\x01' bytes; missing parts
// are empty files. They are written to a case directory that read_mesh() reads as fvprep
// does. Refusing the input with an exception is the expected outcome for a corrupt mesh; a
// crash, hang, leak or sanitizer report is a bug.
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fs = std::filesystem;
  static const fs::path caseDir = "/tmp/fvfuzz_polymesh_" + std::to_string(getpid());
  static const fs::path dir = caseDir / "constant" / "polyMesh";
  static const bool made = fs::create_directories(dir) || fs::is_directory(dir);
  if (!made) return 0;
  const char* names[5] = {"points", "faces", "owner", "neighbour", "boundary"};
  const char* p = reinterpret_cast<const char*>(data);
  const char* end = p + size;
  for (const char* name : names) {
    const char* q = p;
    while (q < end && *q != '\x01')
      ++q;
    std::ofstream(dir / name, std::ios::binary | std::ios::trunc)
        .write(p, static_cast<std::streamsize>(q - p));
    p = q < end ? q + 1 : end;
  }
  try {
    const fv::Mesh m = fv::read_mesh(caseDir.string());
    (void)m;
  } catch (const std::exception&) { // refused: what a corrupt mesh must get
  }
  return 0;
}
