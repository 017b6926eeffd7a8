#include "tests/testing/testing.hpp"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace fv::testing {

std::string shared_meshes_dir() {
  const char* env = std::getenv("FV_SHARED_MESHES");
  fs::path dir = env ? fs::path(env) : fs::path(FV_SHARED_DIR) / "meshes";
  std::error_code ec;
  return fs::is_directory(dir, ec) ? fs::canonical(dir, ec).string() : std::string();
}

std::string shared_mesh(const std::string& relative) {
  const std::string dir = shared_meshes_dir();
  if (dir.empty()) return {};
  fs::path p = fs::path(dir) / relative;
  std::error_code ec;
  return fs::is_regular_file(p, ec) ? p.string() : std::string();
}

std::vector<std::string> shared_mesh_list() {
  std::vector<std::string> out;
  const std::string dir = shared_meshes_dir();
  if (dir.empty()) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const auto ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".cgns" || ext == ".su2" || ext == ".msh"))
      out.push_back(fs::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "misc";
  std::replace(name.begin(), name.end(), '/', '_');
  fs::path dir = fs::path(FV_BINARY_DIR) / "test-scratch" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

namespace {
struct BytesVisitor {
  std::map<std::string, std::string>& out;
  template <class T>
  void add(const std::string& name, const Array<T>& a) {
    out[name] = std::string(reinterpret_cast<const char*>(a.data()), a.bytes());
  }
  template <class T>
  void array(const ArrayInfo& info, const Array<T>& a) {
    add(info.name, a);
  }
  template <class T>
  void optional_array(const ArrayInfo& info, const Array<T>& a) {
    add(info.name, a);
  }
  void csr(const CsrInfo& info, const Csr& c) {
    add(std::string(info.name) + "/offsets", c.offsets());
    add(std::string(info.name) + "/indices", c.indices());
  }
};
} // namespace

std::map<std::string, std::string> zone_dataset_bytes(const Zone& z) {
  std::map<std::string, std::string> out;
  visit_zone_arrays(z, BytesVisitor{out});
  return out;
}

} // namespace fv::testing
