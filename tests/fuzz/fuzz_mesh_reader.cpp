// libFuzzer harness of fvprep's mesh readers (tests/fuzz/CMakeLists.txt builds one binary per
// format from this file with FV_FUZZ_EXTENSION set). The input becomes a file of that format
// (the readers take paths; the format is detected from its bytes and extension as fvprep
// does), then formats/'s read_mesh() reads it. A reader may refuse the input with fv::Error or
// any std::exception; it may not crash, hang, leak or trip a sanitizer.
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <unistd.h>

#ifndef FV_FUZZ_EXTENSION
#error "define FV_FUZZ_EXTENSION, e.g. \".su2\""
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/fvfuzz_" + std::to_string(getpid()) + FV_FUZZ_EXTENSION;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    const fv::Mesh m = fv::read_mesh(path);
    (void)m;
  } catch (const std::exception&) { // refused: what a corrupt file must get
  }
  std::remove(path.c_str());
  return 0;
}
