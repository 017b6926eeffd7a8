#include "tests/newton/newton_cases.hpp"

#include "formats/mesh_reader.hpp"
#include "prep/faces.hpp"
#include "tests/testing/testing.hpp"

#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace fv::testing {

const PreparedZones& naca0012_zones(int parts, double span) {
  static std::map<std::pair<int, double>, std::unique_ptr<PreparedZones>> cache;
  auto& z = cache[{parts, span}];
  if (!z) {
    z = std::make_unique<PreparedZones>();
    const std::string path = shared_mesh("su2/naca0012_inv_su2.su2");
    if (!path.empty()) {
      ReadOptions ro;
      ro.extrudeThickness = span;
      const Mesh mesh = read_mesh(path, ro);
      PrepareOptions po;
      po.parts = parts;
      *z = prepare_zones(mesh, build_faces(mesh, po.prep.faces), po);
    }
  }
  return *z;
}

const PreparedZones& shared_2d_zones(const std::string& rel, double span, int parts,
                                     const std::vector<std::string>& walls) {
  static std::map<std::string, std::unique_ptr<PreparedZones>> cache;
  std::string key = rel + "/" + std::to_string(span) + "/" + std::to_string(parts);
  for (const std::string& w : walls)
    key += "/" + w;
  auto& z = cache[key];
  if (!z) {
    z = std::make_unique<PreparedZones>();
    const std::string path = shared_mesh(rel);
    if (!path.empty()) {
      ReadOptions ro;
      ro.extrudeThickness = span;
      const Mesh mesh = read_mesh(path, ro);
      PrepareOptions po;
      po.parts = parts;
      po.prep.walls = walls;
      *z = prepare_zones(mesh, build_faces(mesh, po.prep.faces), po);
    }
  }
  return *z;
}

std::string naca0012_case(const std::string& extra) {
  return R"([freestream]
mach = 0.8
aoa = 1.25
lift_axis = y
[patch airfoil]
type = slip_wall
[patch farfield]
type = farfield
[patch symmetry]
type = symmetry
)" + extra;
}

std::string example_case(const std::string& name) {
  std::ifstream in(std::string(FV_SOURCE_DIR) + "/examples/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace fv::testing
