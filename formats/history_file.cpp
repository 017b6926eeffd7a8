#include "formats/history_file.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fv {
namespace {

std::string header_line(const std::vector<std::string>& columns) {
  std::string h = "iteration";
  for (const auto& c : columns)
    h += "," + c;
  return h;
}

} // namespace

HistoryFile::HistoryFile(std::string path, std::vector<std::string> columns)
    : path_(std::move(path)), columns_(std::move(columns)) {
  for (const auto& c : columns_)
    FV_VERIFY(!c.empty() && c.find_first_of(",\"\n\r") == std::string::npos,
              path_ << ": history column name '" << c << "' is empty or holds , \" or a newline");
}

std::size_t HistoryFile::resume(std::int64_t last_iteration) {
  iterations_.clear();
  values_.clear();
  resumedComments_.clear();
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) return 0;
  std::ifstream in(path_);
  FV_VERIFY(in, path_ << ": cannot read the history to resume it");
  std::string line;
  std::size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] != '#') break;
    resumedComments_.push_back(line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1));
  }
  FV_VERIFY(line == header_line(columns_),
            path_ << ": line " << lineno << ": history columns '" << line
                  << "' differ from this run's '" << header_line(columns_)
                  << "' (move the old file away to start a new one)");
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    const char* p = line.c_str();
    char* end = nullptr;
    errno = 0;
    const long long it = std::strtoll(p, &end, 10);
    FV_VERIFY(end != p && errno == 0, path_ << ": line " << lineno << ": bad iteration number");
    if (it > last_iteration) break; // rows after the restart point are recomputed
    std::vector<double> row;
    for (std::size_t k = 0; k < columns_.size(); ++k) {
      FV_VERIFY(*end == ',',
                path_ << ": line " << lineno << ": expected " << columns_.size() + 1 << " values");
      p = end + 1;
      row.push_back(std::strtod(p, &end));
      FV_VERIFY(end != p,
                path_ << ": line " << lineno << ": column " << columns_[k] << " is not a number");
    }
    FV_VERIFY(*end == '\0',
              path_ << ": line " << lineno << ": more than " << columns_.size() + 1 << " values");
    add(it, row);
  }
  return rows();
}

void HistoryFile::add(std::int64_t iteration, const std::vector<double>& values) {
  FV_VERIFY(values.size() == columns_.size(), path_ << ": history row of iteration " << iteration
                                                    << " has " << values.size() << " values for "
                                                    << columns_.size() << " columns");
  FV_VERIFY(iterations_.empty() || iteration > iterations_.back(),
            path_ << ": history iteration " << iteration << " does not follow "
                  << iterations_.back());
  iterations_.push_back(iteration);
  values_.insert(values_.end(), values.begin(), values.end());
}

void HistoryFile::flush() const {
  AtomicFile out(path_);
  {
    std::FILE* f = std::fopen(out.temp_path().c_str(), "w");
    FV_VERIFY(f, path_ << ": cannot create " << out.temp_path());
    std::size_t b = 0;
    while (b < comments_.size()) { // "# " + each line of the comment text
      std::size_t e = comments_.find('\n', b);
      if (e == std::string::npos) e = comments_.size();
      const std::string l = comments_.substr(b, e - b);
      std::fprintf(f, "%s%s\n", l.rfind('#', 0) == 0 ? "" : "# ", l.c_str());
      b = e + 1;
    }
    std::fprintf(f, "%s\n", header_line(columns_).c_str());
    const std::size_t nc = columns_.size();
    for (std::size_t r = 0; r < iterations_.size(); ++r) {
      std::fprintf(f, "%lld", static_cast<long long>(iterations_[r]));
      for (std::size_t k = 0; k < nc; ++k)
        std::fprintf(f, ",%.*g", digits_, values_[r * nc + k]);
      std::fputc('\n', f);
    }
    const bool ok = !std::ferror(f);
    FV_VERIFY(std::fclose(f) == 0 && ok, path_ << ": write error (disk full?)");
  }
  out.commit();
}

} // namespace fv
