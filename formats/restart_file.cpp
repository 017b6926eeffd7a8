#include "formats/restart_file.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/version.hpp"
#include "formats/hdf5_file.hpp"

#include <algorithm>
#include <cmath>

namespace fv {
namespace {

const char* kRestartFormatName = "fvkit-restart";

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out += (i ? "," : "") + v[i];
  return out;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= s.size()) {
    const std::size_t e = std::min(s.find(',', b), s.size());
    out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

} // namespace

void write_restart(const std::string& path, const RestartData& d) {
  FV_VERIFY(d.nVars >= 1, path << ": restart with " << d.nVars << " variables per cell");
  FV_VERIFY(d.state.size() % static_cast<std::size_t>(d.nVars) == 0 && !d.state.empty(),
            path << ": restart state holds " << d.state.size() << " values, not a positive "
                 << "multiple of " << d.nVars << " variables per cell");
  FV_VERIFY(d.variables.size() == static_cast<std::size_t>(d.nVars),
            path << ": " << d.variables.size() << " variable names for " << d.nVars
                 << " variables per cell");
  FV_VERIFY(!d.info.meshUuid.empty(), path << ": refusing to write a restart without mesh UUID");
  for (std::size_t i = 0; i < d.state.size(); ++i)
    FV_VERIFY(std::isfinite(d.state[i]), path << ": refusing to write a restart with a non-finite "
                                              << d.variables[i % d.nVars] << " in global cell "
                                              << i / d.nVars);
  AtomicFile out(path);
  {
    h5::File f = h5::File::create(out.temp_path());
    f.attr("format", std::string(kRestartFormatName));
    f.attr("formatVersion", std::int64_t{kRestartFormatVersion});
    f.attr("creator", std::string("fvkit ") + kVersion);
    f.attr("nVars", std::int64_t{d.nVars});
    f.attr("variables", join(d.variables));
    f.attr("iteration", d.info.iteration);
    f.attr("time", d.info.time);
    f.attr("meshUuid", d.info.meshUuid);
    f.attr("config", d.info.config);
    if (d.info.cfl > 0) f.attr("cfl", d.info.cfl);
    f.write("state", d.state.data(), static_cast<std::uint64_t>(d.nCells()), d.nVars);
    f.close();
  }
  out.commit();
}

RestartData read_restart(const std::string& path, const std::string& expected_uuid,
                         gidx_t expected_cells) {
  h5::File f = h5::File::open_read(path, "restart file");
  FV_VERIFY(f.has_attr("format") && f.attr_string("format") == kRestartFormatName,
            path << ": not an fvkit restart file (attribute format != '" << kRestartFormatName
                 << "')");
  const std::int64_t version = f.attr_int("formatVersion");
  FV_VERIFY(version == kRestartFormatVersion,
            path << ": restart format version " << version << " cannot be read by this fvkit "
                 << "(it reads version " << kRestartFormatVersion << ")");
  RestartData d;
  d.info.meshUuid = f.attr_string("meshUuid");
  FV_VERIFY(d.info.meshUuid == expected_uuid,
            path << ": restart belongs to mesh " << d.info.meshUuid << ", but this run uses mesh "
                 << expected_uuid << " (restart only on the mesh that wrote it; any part count)");
  d.nVars = static_cast<int>(f.attr_int("nVars"));
  d.variables = split(f.attr_string("variables"));
  FV_VERIFY(d.nVars >= 1 && d.variables.size() == static_cast<std::size_t>(d.nVars),
            path << ": restart declares " << d.nVars << " variables but names "
                 << d.variables.size());
  d.info.iteration = f.attr_int("iteration");
  d.info.time = f.attr_real("time");
  d.info.config = f.attr_string("config");
  if (f.has_attr("cfl")) { // (written since the CFL continues at a restart)
    d.info.cfl = f.attr_real("cfl");
    FV_VERIFY(std::isfinite(d.info.cfl) && d.info.cfl > 0,
              path << ": attribute cfl = " << d.info.cfl << " is not a CFL number > 0");
  }
  // a restart's counters continue a run: no value a run cannot have reached (a solver
  // iteration is an int, and the run must be able to go on from it)
  FV_VERIFY(d.info.iteration >= 0 && d.info.iteration <= kMaxRestartIteration,
            path << ": attribute iteration = " << d.info.iteration << " is outside [0, "
                 << kMaxRestartIteration << "]");
  FV_VERIFY(std::isfinite(d.info.time) && d.info.time >= 0,
            path << ": attribute time = " << d.info.time << " is not a finite time >= 0");
  const auto shape = f.shape("state");
  FV_VERIFY(shape.size() == 2 && shape[1] == static_cast<std::uint64_t>(d.nVars),
            path << ": dataset /state is not cells x " << d.nVars);
  FV_VERIFY(expected_cells < 0 || shape[0] == static_cast<std::uint64_t>(expected_cells),
            path << ": restart holds " << shape[0] << " cells, the mesh has " << expected_cells);
  d.state = f.read_real("state");
  for (std::size_t i = 0; i < d.state.size(); ++i)
    FV_VERIFY(std::isfinite(d.state[i]), path << ": " << d.variables[i % d.nVars]
                                              << " of global cell " << i / d.nVars
                                              << " is not finite (" << d.state[i] << ")");
  return d;
}

} // namespace fv
