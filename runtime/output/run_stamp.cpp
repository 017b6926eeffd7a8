#include "runtime/output/run_stamp.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "runtime/output/run_record.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace fv::output {
namespace {

namespace fs = std::filesystem;

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

/// The "key = value" of an earlier run.txt, or "".
std::string earlier(const fs::path& runTxt, const std::string& key) {
  std::ifstream in(runTxt);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key + " = ", 0) == 0) return line.substr(key.size() + 3);
  return {};
}

} // namespace

bool is_run_output(const std::string& name) {
  for (const char* f :
       {"run.txt", "case.resolved.ini", "history.csv", "history.png", "profile.csv", "restart.h5"})
    if (name == f) return true;
  if (name.rfind("solution", 0) == 0)
    for (const char* e : {".h5", ".xmf", ".cgns"})
      if (ends_with(name, e)) return true;
  return name.rfind("surface_", 0) == 0 && (ends_with(name, ".csv") || ends_with(name, ".vtp"));
}

RunStamp::RunStamp(std::string dir, int iteration) : dir_(std::move(dir)), started_(utc_now()) {
  char host[256] = "host";
  gethostname(host, sizeof host - 1);
  id_ = std::string(host) + "-" + std::to_string(getpid()) + "-" +
        std::to_string(static_cast<long long>(std::time(nullptr)));
  if (iteration <= 0) { // a new run: the outputs of another one go to previous_run/
    std::vector<fs::path> stale;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_, ec))
      if (e.is_regular_file() && is_run_output(e.path().filename().string()))
        stale.push_back(e.path());
    if (!stale.empty()) {
      const fs::path prev = fs::path(dir_) / "previous_run";
      const fs::path runTxt = fs::path(dir_) / "run.txt";
      const std::string was = fs::exists(runTxt)
                                  ? earlier(runTxt, "id") + " (" + earlier(runTxt, "status") + ")"
                                  : "without run.txt";
      fs::remove_all(prev, ec);
      fs::create_directories(prev, ec);
      FV_VERIFY(!ec, prev.string() << ": cannot create it: " << ec.message());
      for (const fs::path& p : stale) {
        fs::rename(p, prev / p.filename(), ec);
        FV_VERIFY(!ec,
                  p.string() << ": cannot move it to " << prev.string() << ": " << ec.message());
      }
      FV_LOG_WARN("the output folder " << dir_ << " held the outputs of another run (" << was
                                       << "): moved to " << prev.string()
                                       << " (an output folder holds one run)");
    }
  }
  write("running", "");
}

void RunStamp::finish(const std::string& status) {
  write(status, utc_now());
}

void RunStamp::write(const std::string& status, const std::string& finished) const {
  std::string one = status; // one line
  for (char& c : one)
    if (c == '\n') c = ' ';
  std::string text = "# fvrun run record: an output folder holds one run (docs/output-files.md)\n"
                     "id = " +
                     id_ + "\nstarted = " + started_ + "\nstatus = " + one + "\n";
  if (!finished.empty()) text += "finished = " + finished + "\n";
  write_text_file((fs::path(dir_) / "run.txt").string(), text);
}

} // namespace fv::output
