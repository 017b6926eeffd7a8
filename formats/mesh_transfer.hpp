#pragma once
/// \file mesh_transfer.hpp
/// An fv::Mesh as one flat byte stream, to hand a mesh from a child process to its parent
/// (formats/contained_read.hpp): every vector, CSR relation and string of the mesh, each as a
/// 64-bit count and its bytes, in the host's byte order (never stored in files). The reader
/// checks every count against the bytes left, so a truncated stream is an error, not a crash.
#include "formats/mesh.hpp"

#include <cstddef>
#include <cstdio>

namespace fv {

/// Writes `m` to `out`. Returns false on an I/O error.
bool write_mesh_stream(std::FILE* out, const Mesh& m);

/// The mesh written by write_mesh_stream() from `size` bytes at `data`. Throws fv::Error
/// naming `what` when the stream is truncated or malformed.
Mesh read_mesh_stream(const char* data, std::size_t size, const std::string& what);

} // namespace fv
