#pragma once
/// \file cgns_file.hpp
/// The CGNS reader's and writers' one scope guard of an open CGNS file (internal to formats/).
#include <cgnslib.h>

namespace fv {

/// Closes the CGNS file `fn` (a cg_open handle; -1: none) when it goes out of scope, e.g. on an
/// exception. Owns the handle; not copyable.
struct CgnsFile {
  int fn = -1;
  CgnsFile() = default;
  CgnsFile(const CgnsFile&) = delete;
  CgnsFile& operator=(const CgnsFile&) = delete;
  ~CgnsFile() {
    if (fn >= 0) cg_close(fn);
  }
};

} // namespace fv
