#include "formats/surface_file.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <numeric>

namespace fv {
namespace {
/// Writes ",<v>" with the shortest text that reads back as exactly v.
void put_real(std::FILE* f, double v) {
  char buf[40];
  buf[0] = ',';
  const auto r = std::to_chars(buf + 1, buf + sizeof(buf), v);
  std::fwrite(buf, 1, static_cast<std::size_t>(r.ptr - buf), f);
}
} // namespace

std::string surface_file_path(const std::string& prefix, const std::string& patch) {
  std::string name = patch;
  for (char& c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) c = '_';
  }
  if (name.empty()) name = "patch";
  return prefix + "_" + name + ".csv";
}

std::string surface_vtp_path(const std::string& prefix, const std::string& patch) {
  std::string p = surface_file_path(prefix, patch);
  return p.substr(0, p.size() - 4) + ".vtp";
}

void write_surface_vtp(const std::string& path, const SurfacePatchData& d) {
  const std::size_t n = d.nFaces();
  FV_VERIFY(d.cornerOffsets.size() == n + 1 && d.cornerOffsets.front() == 0 &&
                d.cornerXyz.size() == 3 * static_cast<std::size_t>(d.cornerOffsets.back()) &&
                d.area.size() == 3 * n,
            path << ": patch " << d.patch << ": the faces' corners or areas do not match its " << n
                 << " faces");
  for (const SurfaceColumn& c : d.columns)
    FV_VERIFY(c.values.size() == n && !c.name.empty() &&
                  c.name.find_first_of("\"<>&\n\r") == std::string::npos,
              path << ": patch " << d.patch << ": column '" << c.name << "' has " << c.values.size()
                   << " values for " << n << " faces, or a bad name");
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return d.faceGlobalId[a] < d.faceGlobalId[b]; });
  auto real = [](std::FILE* f, double v) {
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v);
    std::fwrite(buf, 1, static_cast<std::size_t>(r.ptr - buf), f);
    std::fputc(' ', f);
  };
  AtomicFile out(path);
  {
    std::FILE* f = std::fopen(out.temp_path().c_str(), "w");
    FV_VERIFY(f, path << ": cannot create " << out.temp_path());
    const auto nPoints = static_cast<long long>(d.cornerOffsets.back());
    std::fprintf(f,
                 "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" "
                 "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<PolyData>\n"
                 "<Piece NumberOfPoints=\"%lld\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
                 "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n",
                 nPoints, n);
    std::fputs("<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" "
               "format=\"ascii\">\n",
               f);
    for (std::size_t i : order)
      for (std::int64_t c = d.cornerOffsets[i]; c < d.cornerOffsets[i + 1]; ++c) {
        for (int k = 0; k < 3; ++k)
          real(f, d.cornerXyz[3 * static_cast<std::size_t>(c) + k]);
        std::fputc('\n', f);
      }
    std::fputs("</DataArray>\n</Points>\n<Polys>\n"
               "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n",
               f);
    long long next = 0;
    for (std::size_t i : order) {
      for (std::int64_t c = d.cornerOffsets[i]; c < d.cornerOffsets[i + 1]; ++c)
        std::fprintf(f, "%lld ", next++);
      std::fputc('\n', f);
    }
    std::fputs("</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", f);
    next = 0;
    for (std::size_t i : order) {
      next += d.cornerOffsets[i + 1] - d.cornerOffsets[i];
      std::fprintf(f, "%lld\n", next);
    }
    std::fputs("</DataArray>\n</Polys>\n<CellData>\n"
               "<DataArray type=\"Int64\" Name=\"faceId\" format=\"ascii\">\n",
               f);
    for (std::size_t i : order)
      std::fprintf(f, "%lld\n", static_cast<long long>(d.faceGlobalId[i]));
    std::fputs("</DataArray>\n<DataArray type=\"Float64\" Name=\"S\" NumberOfComponents=\"3\" "
               "format=\"ascii\">\n",
               f);
    for (std::size_t i : order) {
      for (int k = 0; k < 3; ++k)
        real(f, d.area[3 * i + k]);
      std::fputc('\n', f);
    }
    std::fputs("</DataArray>\n", f);
    for (const SurfaceColumn& c : d.columns) {
      std::fprintf(f, "<DataArray type=\"Float64\" Name=\"%s\" format=\"ascii\">\n",
                   c.name.c_str());
      for (std::size_t i : order) {
        real(f, c.values[i]);
        std::fputc('\n', f);
      }
      std::fputs("</DataArray>\n", f);
    }
    std::fputs("</CellData>\n</Piece>\n</PolyData>\n</VTKFile>\n", f);
    const bool ok = !std::ferror(f);
    FV_VERIFY(std::fclose(f) == 0 && ok, path << ": write error (disk full?)");
  }
  out.commit();
}

void write_surface_csv(const std::string& path, const SurfacePatchData& d) {
  const std::size_t n = d.nFaces();
  FV_VERIFY(d.centroid.size() == 3 * n && d.area.size() == 3 * n,
            path << ": patch " << d.patch << ": " << n << " faces but " << d.centroid.size()
                 << " centroid and " << d.area.size() << " area values (expected 3 per face)");
  for (const SurfaceColumn& c : d.columns) {
    FV_VERIFY(!c.name.empty() && c.name.find_first_of(",\"\n\r") == std::string::npos,
              path << ": column name '" << c.name << "' is empty or holds , \" or a newline");
    FV_VERIFY(c.values.size() == n, path << ": patch " << d.patch << ": column " << c.name
                                         << " has " << c.values.size() << " values for " << n
                                         << " faces");
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return d.faceGlobalId[a] < d.faceGlobalId[b]; });

  AtomicFile out(path);
  {
    std::FILE* f = std::fopen(out.temp_path().c_str(), "w");
    FV_VERIFY(f, path << ": cannot create " << out.temp_path());
    std::fputs("faceId,x,y,z,Sx,Sy,Sz", f);
    for (const SurfaceColumn& c : d.columns)
      std::fprintf(f, ",%s", c.name.c_str());
    std::fputc('\n', f);
    for (std::size_t i : order) {
      std::fprintf(f, "%lld", static_cast<long long>(d.faceGlobalId[i]));
      for (int k = 0; k < 3; ++k)
        put_real(f, d.centroid[3 * i + k]);
      for (int k = 0; k < 3; ++k)
        put_real(f, d.area[3 * i + k]);
      for (const SurfaceColumn& c : d.columns)
        put_real(f, c.values[i]);
      std::fputc('\n', f);
    }
    const bool ok = !std::ferror(f);
    FV_VERIFY(std::fclose(f) == 0 && ok, path << ": write error (disk full?)");
  }
  out.commit();
}

} // namespace fv
