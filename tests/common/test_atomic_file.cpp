#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "tests/testing/testing.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {
std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
} // namespace

TEST(AtomicFile, CommitReplacesTarget) {
  const std::string target = fv::testing::scratch_dir() + "/out.txt";
  std::ofstream(target) << "old";
  {
    fv::AtomicFile f(target);
    std::ofstream(f.temp_path()) << "new";
    EXPECT_EQ(slurp(target), "old") << "target untouched before commit";
    f.commit();
  }
  EXPECT_EQ(slurp(target), "new");
}

TEST(AtomicFile, AbandonedWriteKeepsPreviousFileAndLeavesNoTemporary) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string target = dir + "/out.txt";
  std::ofstream(target) << "good";
  try {
    fv::AtomicFile f(target);
    std::ofstream(f.temp_path()) << "half";
    FV_THROW("writer crashed");
  } catch (const fv::Error&) {
  }
  EXPECT_EQ(slurp(target), "good");
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
}

TEST(AtomicFile, MissingDirectoryIsAClearError) {
  EXPECT_THROW(fv::AtomicFile("/nonexistent-dir-fvkit/x.h5"), fv::Error);
}
