// Timing program (not a test): builds a generated box, then the global mesh and the zones, and
// prints the prep report. Usage: bench_prep hex|tet|prism NX NY NZ NPARTS [none] [nowave]
// [contiguous]
#include "box_mesh.hpp"

#include "common/log.hpp"
#include "common/main.hpp"
#include "prep/zones.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  return fv::run_main("bench_prep", [&] {
    FV_VERIFY_USAGE(argc >= 6,
                    "usage: bench_prep hex|tet|prism NX NY NZ NPARTS [none] [nowave] [contiguous]");
    fv::testing::BoxSpec spec;
    const std::string shape = argv[1];
    spec.cells = shape == "tet"     ? fv::testing::BoxCells::Tet
                 : shape == "prism" ? fv::testing::BoxCells::Prism
                                    : fv::testing::BoxCells::Hex;
    spec.nx = std::atoi(argv[2]);
    spec.ny = std::atoi(argv[3]);
    spec.nz = std::atoi(argv[4]);
    spec.lx = spec.nx, spec.ly = spec.ny, spec.lz = spec.nz;
    spec.shuffle = true;
    const int nParts = std::atoi(argv[5]);
    fv::PrepOptions opts;
    for (int a = 6; a < argc; ++a) {
      const std::string o = argv[a];
      if (o == "nowave")
        opts.wavefrontOrder = false;
      else if (o == "contiguous")
        opts.contiguousHyperplanes = true;
      else
        opts.renumber = fv::parse_renumber(o);
    }
    fv::Mesh mesh;
    {
      fv::log::Phase p("generating box");
      mesh = fv::testing::make_box_mesh(spec);
    }
    // Slabs along x in file order of cells: part from the first node's x.
    std::vector<fv::idx_t> part(static_cast<std::size_t>(mesh.nCells()));
    for (fv::idx_t c = 0; c < mesh.nCells(); ++c) {
      const double x = mesh.xyz[3 * mesh.cellNodes.row(c)[0]];
      part[c] = std::min(nParts - 1, static_cast<int>(nParts * x / spec.lx));
    }
    fv::PrepReport report;
    const fv::GlobalMesh g = fv::build_global_mesh(mesh, opts, &report);
    const std::vector<fv::Zone> zones = fv::build_zones(g, part, nParts, opts, &report);
    fv::print_prep_report(std::cout, report);
    return 0;
  });
}
