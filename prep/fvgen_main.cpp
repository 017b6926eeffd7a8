// fvgen: generates synthetic test meshes (box, channel with a bump, supersonic wedge) of
// hexahedra, tetrahedra, prisms, pyramids or a conforming mix, and writes them as CGNS or SU2.
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/main.hpp"
#include "common/version.hpp"
#include "formats/cgns_writer.hpp"
#include "formats/su2_writer.hpp"
#include "prep/generate_mesh.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <sstream>

namespace {

/// "5000000", "5M", "2.5e6", "100k" -> count.
std::int64_t parse_count(const std::string& s) {
  std::size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(s, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  double scale = 1;
  const std::string rest = s.substr(pos);
  if (rest == "k" || rest == "K")
    scale = 1e3;
  else if (rest == "m" || rest == "M")
    scale = 1e6;
  else if (rest == "g" || rest == "G")
    scale = 1e9;
  else
    FV_VERIFY_USAGE(rest.empty() && pos > 0,
                    "--target: cannot read a cell count from '" << s << "'");
  FV_VERIFY_USAGE(v * scale >= 1 && v * scale < 1e12, "--target: " << s << " is out of range");
  return static_cast<std::int64_t>(v * scale + 0.5);
}

template <class T>
std::array<T, 3> parse_triple(const std::string& s, const char* what) {
  std::array<T, 3> out{};
  std::stringstream ss(s);
  std::string item;
  int k = 0;
  while (std::getline(ss, item, ',')) {
    FV_VERIFY_USAGE(k < 3, what << ": expected 3 comma-separated values, got '" << s << "'");
    std::size_t pos = 0;
    try {
      if constexpr (std::is_integral_v<T>)
        out[static_cast<std::size_t>(k)] = std::stoll(item, &pos);
      else
        out[static_cast<std::size_t>(k)] = std::stod(item, &pos);
    } catch (const std::exception&) {
      pos = 0;
    }
    FV_VERIFY_USAGE(pos == item.size() && pos > 0,
                    what << ": cannot read '" << item << "' in '" << s << "'");
    ++k;
  }
  FV_VERIFY_USAGE(k == 3, what << ": expected 3 comma-separated values, got '" << s << "'");
  return out;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

int main(int argc, char** argv) {
  return fv::run_main("fvgen", [&] {
    CLI::App app{"fvgen: generate a synthetic test mesh (box, channel with a bump, supersonic "
                 "wedge) and write it as CGNS/HDF5 or SU2"};
    app.set_version_flag("--version", std::string("fvkit ") + fv::kVersion);
    std::string family, cells = "hex", n, target, extent, output;
    fv::GenOptions o;
    bool mixedSection = false, quiet = false, verbose = false;
    app.add_option("family", family, "box | channel | wedge")->required();
    app.add_option("--cells", cells, "hex | tet | prism | pyramid | mixed (default hex)");
    app.add_option("--n", n, "block cells per direction ni,nj,nk (each split per --cells)");
    app.add_option("--target", target, "approximate number of cells instead of --n, e.g. 5M");
    app.add_option("--extent", extent, "domain extents Lx,Ly,Lz in m (default: per family)");
    app.add_option("--bump-height", o.bumpHeight, "channel: bump height / Ly (default 0.1)");
    app.add_option("--angle", o.wedgeAngleDeg, "wedge: ramp angle in degrees (default 15)");
    app.add_option("--ramp-start", o.rampStart, "wedge: ramp corner x / Lx (default 0.25)");
    app.add_option("--perturb", o.perturb,
                   "random interior node displacement, fraction of local spacing, 0..0.3");
    app.add_flag("--shuffle", o.shuffle, "randomly renumber cells, nodes and boundary faces");
    app.add_option("--seed", o.seed, "seed of --perturb and --shuffle (default 1)");
    app.add_option("-o,--output", output, "output file: *.cgns (CGNS/HDF5) or *.su2");
    app.add_flag("--mixed-section", mixedSection,
                 "CGNS: one MIXED volume section in mesh order instead of one per cell type");
    app.add_flag("-q,--quiet", quiet, "no progress lines on stderr");
    app.add_flag("-v,--verbose", verbose, "also time each generator step on stderr");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    if (quiet) fv::log::set_level(fv::log::Level::Warn);
    if (verbose) fv::log::set_level(fv::log::Level::Debug);
    o.family = fv::parse_mesh_family(family);
    o.cells = fv::parse_gen_cells(cells);
    FV_VERIFY_USAGE(n.empty() != target.empty(), "give exactly one of --n and --target");
    if (!n.empty())
      o.n = parse_triple<std::int64_t>(n, "--n");
    else
      o.targetCells = parse_count(target);
    if (!extent.empty()) o.extent = parse_triple<double>(extent, "--extent");
    o.fileIds = false;
    FV_VERIFY_USAGE(output.empty() || ends_with(output, ".cgns") || ends_with(output, ".su2"),
                    "output '" << output << "' must end in .cgns or .su2");
    const fv::GenGrid grid = fv::resolve_grid(o);

    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    fv::Mesh m;
    {
      fv::log::Phase p("generating " + std::to_string(grid.cells) + " cells");
      m = fv::generate_mesh(o);
    }
    const double genSeconds = std::chrono::duration<double>(clock::now() - t0).count();

    std::int64_t byType[5] = {0, 0, 0, 0, 0};
    for (fv::CellType t : m.cellType)
      ++byType[static_cast<int>(t)];
    std::vector<std::int64_t> perPatch(m.patches.size(), 0), tris(m.patches.size(), 0);
    for (fv::idx_t f = 0; f < m.nBoundaryFaces(); ++f) {
      const auto p = static_cast<std::size_t>(m.bfacePatch[static_cast<std::size_t>(f)]);
      ++perPatch[p];
      tris[p] += m.bfaceNodes.size(f) == 3;
    }
    static const char* typeNames[] = {"tetrahedra", "pyramids", "prisms", "hexahedra", "polyhedra"};
    std::printf("fvgen: %s of %s cells, block %lldx%lldx%lld, extent %gx%gx%g m, perturb %g, %s\n",
                fv::to_string(o.family), fv::to_string(o.cells), static_cast<long long>(grid.n[0]),
                static_cast<long long>(grid.n[1]), static_cast<long long>(grid.n[2]),
                grid.extent[0], grid.extent[1], grid.extent[2], o.perturb,
                o.shuffle ? ("shuffled (seed " + std::to_string(o.seed) + ")").c_str()
                          : "not shuffled");
    std::printf("  cells    %lld (", static_cast<long long>(m.nCells()));
    const char* sep = "";
    for (int t = 0; t < 5; ++t) {
      if (byType[t] == 0) continue;
      std::printf("%s%s %lld", sep, typeNames[t], static_cast<long long>(byType[t]));
      sep = ", ";
    }
    std::printf(")\n  nodes    %lld\n  bfaces   %lld\n", static_cast<long long>(m.nNodes()),
                static_cast<long long>(m.nBoundaryFaces()));
    for (std::size_t p = 0; p < m.patches.size(); ++p)
      std::printf("  patch    %-12s %-16s %lld faces (%lld triangles, %lld quadrilaterals)\n",
                  m.patches[p].name.c_str(), m.patches[p].bcType.c_str(),
                  static_cast<long long>(perPatch[p]), static_cast<long long>(tris[p]),
                  static_cast<long long>(perPatch[p] - tris[p]));
    std::printf("  generate %.2f s\n", genSeconds);
    std::fflush(stdout);

    if (!output.empty()) {
      t0 = clock::now();
      std::int64_t bytes = -1;
      {
        fv::log::Phase p("writing " + output);
        if (ends_with(output, ".cgns")) {
          fv::CgnsWriteOptions w;
          w.mixedSection = mixedSection;
          w.generatedBy = std::string("fvkit ") + fv::kVersion + " fvgen: " + m.writer;
          bytes = fv::write_cgns(m, output, w).fileBytes;
        } else {
          fv::write_su2(m, output);
          std::FILE* f = std::fopen(output.c_str(), "rb");
          if (f) {
            std::fseek(f, 0, SEEK_END);
            bytes = std::ftell(f);
            std::fclose(f);
          }
        }
      }
      const double wSeconds = std::chrono::duration<double>(clock::now() - t0).count();
      std::printf("  write    %.2f s  %s (%.1f MB)\n", wSeconds, output.c_str(),
                  static_cast<double>(bytes) / 1e6);
    }
    return 0;
  });
}
