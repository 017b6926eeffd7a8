#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "tests/testing/testing.hpp"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
    ++files;
  EXPECT_EQ(files, 1);
}

TEST(AtomicFile, MissingDirectoryIsAClearError) {
  EXPECT_THROW(fv::AtomicFile("/nonexistent-dir-fvkit/x.h5"), fv::Error);
}

namespace {

int count_temporaries(const std::string& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    n += e.path().filename().string().find(".tmp.") != std::string::npos;
  return n;
}

/// The id of a process that has exited (and been reaped).
pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

} // namespace

TEST(AtomicFile, TemporaryNamesItsHostAndProcess) {
  const std::string target = fv::testing::scratch_dir() + "/out.txt";
  fv::AtomicFile f(target);
  const std::string host = fv::temporary_host_name();
  EXPECT_EQ(host.find('.'), std::string::npos);
  EXPECT_EQ(
      f.temp_path().rfind(target + ".tmp." + host + "." + std::to_string(::getpid()) + ".", 0), 0u)
      << f.temp_path();
}

// A temporary left by a process killed outright (SIGKILL, OOM) is removed by the next writer of
// the same target on the same host; those of live processes, of other hosts and of other
// targets, and names not in the pattern, stay.
TEST(AtomicFile, TemporaryOfADeadProcessIsRemovedByTheNextWriter) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string target = dir + "/out.h5", host = fv::temporary_host_name();
  const std::string dead = std::to_string(dead_pid());
  const std::string stale = target + ".tmp." + host + "." + dead + ".0";
  const std::vector<std::string> kept = {
      target + ".tmp." + host + "." + std::to_string(::getpid()) + ".99", // this live process
      target + ".tmp.other-host." + dead + ".0",                          // another host's
      dir + "/other.h5.tmp." + host + "." + dead + ".0",                  // another target's
      target + ".tmp." + host + ".x" + dead + ".0",                       // not a process id
  };
  for (const std::string& p : kept)
    std::ofstream(p) << "x";
  std::ofstream(stale) << "half";
  EXPECT_EQ(fv::stale_temporaries(target, host), std::vector<std::string>{stale});
  {
    fv::AtomicFile f(target);
    std::ofstream(f.temp_path()) << "new";
    f.commit();
  }
  EXPECT_FALSE(fs::exists(stale));
  for (const std::string& p : kept)
    EXPECT_TRUE(fs::exists(p)) << p;
  EXPECT_EQ(slurp(target), "new");
}

// SIGTERM / SIGINT (a batch system's time limit, Ctrl-C) while a temporary is being written:
// the temporary goes, the previous file stays, and the process still dies of the signal. Each
// death test runs in a fresh process (threadsafe style), so the handlers are installed there.
TEST(AtomicFileDeathTest, TerminatingSignalRemovesTheTemporary) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string dir = fv::testing::scratch_dir();
  const std::string target = dir + "/out.txt";
  std::ofstream(target) << "good";
  for (const int sig : {SIGTERM, SIGINT}) {
    EXPECT_EXIT(
        {
          fv::AtomicFile f(target);
          std::ofstream(f.temp_path()) << "half";
          std::raise(sig);
          std::_Exit(3); // not reached
        },
        ::testing::KilledBySignal(sig), "");
    EXPECT_EQ(count_temporaries(dir), 0) << "signal " << sig;
    EXPECT_EQ(slurp(target), "good");
  }
}

// A signal the process ignores (nohup's SIGHUP) stays ignored: the writer goes on.
TEST(AtomicFileDeathTest, IgnoredSignalStaysIgnored) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string dir = fv::testing::scratch_dir();
  const std::string target = dir + "/out.txt";
  EXPECT_EXIT(
      {
        std::signal(SIGHUP, SIG_IGN);
        fv::AtomicFile f(target);
        std::ofstream(f.temp_path()) << "new";
        std::raise(SIGHUP);
        f.commit();
        std::_Exit(std::ifstream(target) ? 7 : 8);
      },
      ::testing::ExitedWithCode(7), "");
  EXPECT_EQ(slurp(target), "new");
  EXPECT_EQ(count_temporaries(dir), 0);
}
