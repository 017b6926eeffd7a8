// compare_runs: checks that two fvrun runs agree to a relative tolerance (tests of the MPI
// runtime: the same case on different rank counts must give the same numbers up to summation
// order).
//
//   compare_runs history A/history.csv B/history.csv RTOL COLUMN...
//       every row of both files (same iterations), each named column:
//       |a - b| <= RTOL * max(|a|, |b|, floor), floor = 1e-3 of the largest |value| of the column
//       in A (columns that pass through zero, e.g. a lift that is ~0) and, where the column
//       changes sign next to the row, the size of the neighbouring value.
//   compare_runs solution A/solution.h5 B/solution.h5 RTOL
//       same mesh UUID and iteration; every value of every field (global cell order) as above
//       (floor per component: 1e-3 of its largest |value|).
// Exit 0 when they agree, 1 (with the first differences) otherwise, 2 on usage errors.
#include "common/error.hpp"
#include "common/main.hpp"
#include "formats/solution_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Table {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string f;
  while (std::getline(in, f, ','))
    out.push_back(f);
  return out;
}

Table read_csv(const std::string& path) {
  std::ifstream in(path);
  FV_VERIFY(in.good(), "cannot read '" << path << "'");
  Table t;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (t.names.empty()) {
      t.names = split(line);
      continue;
    }
    std::vector<double> r;
    for (const auto& f : split(line))
      r.push_back(std::strtod(f.c_str(), nullptr));
    FV_VERIFY(r.size() == t.names.size(), path << ": row " << t.rows.size() + 1 << " has "
                                               << r.size() << " values, header " << t.names.size());
    t.rows.push_back(r);
  }
  FV_VERIFY(!t.rows.empty(), path << ": no data rows");
  return t;
}

int column(const Table& t, const std::string& name, const std::string& path) {
  const auto it = std::find(t.names.begin(), t.names.end(), name);
  FV_VERIFY_USAGE(it != t.names.end(), path << " has no column '" << name << "'");
  return static_cast<int>(it - t.names.begin());
}

bool close(double a, double b, double rtol, double floor) {
  return std::fabs(a - b) <= rtol * std::max({std::fabs(a), std::fabs(b), floor});
}

int compare_history(const std::string& pa, const std::string& pb, double rtol,
                    const std::vector<std::string>& cols) {
  const Table a = read_csv(pa), b = read_csv(pb);
  FV_VERIFY(a.rows.size() == b.rows.size(),
            pa << " has " << a.rows.size() << " iterations, " << pb << " " << b.rows.size());
  int bad = 0;
  double worst = 0;
  for (const auto& name : cols) {
    const int ca = column(a, name, pa), cb = column(b, name, pb);
    double floor = 0;
    for (const auto& r : a.rows)
      floor = std::max(floor, std::fabs(r[ca]));
    floor *= 1e-3; // values 1000x below the column's largest count as relative to 1e-3 of it
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      const double x = a.rows[i][ca], y = b.rows[i][cb];
      // A value where the column changes sign (a lift coefficient passing through zero during
      // the transient) is compared relative to its size at the iterations either side: its own
      // size there is an accident of where the iterations fall, and the rounding of the large
      // terms it is the difference of does not shrink with it.
      double local = floor;
      if (i > 0 && a.rows[i - 1][ca] * x <= 0)
        local = std::max(local, std::fabs(a.rows[i - 1][ca]));
      if (i + 1 < a.rows.size() && a.rows[i + 1][ca] * x <= 0)
        local = std::max(local, std::fabs(a.rows[i + 1][ca]));
      const double scale = std::max({std::fabs(x), std::fabs(y), local, 1e-300});
      worst = std::max(worst, std::fabs(x - y) / scale);
      if (!close(x, y, rtol, local) && bad++ < 10)
        std::printf("row %zu (iteration %.0f) %s: %.17g vs %.17g (rel %.3g)\n", i + 1, a.rows[i][0],
                    name.c_str(), x, y, std::fabs(x - y) / scale);
    }
  }
  std::printf("%s vs %s: %zu iterations, largest relative difference %.3g (tolerance %g)\n",
              pa.c_str(), pb.c_str(), a.rows.size(), worst, rtol);
  return bad ? 1 : 0;
}

int compare_solution(const std::string& pa, const std::string& pb, double rtol) {
  const fv::SolutionData a = fv::read_solution(pa), b = fv::read_solution(pb);
  FV_VERIFY(a.info.meshUuid == b.info.meshUuid, pa << " belongs to mesh " << a.info.meshUuid << ", "
                                                   << pb << " to " << b.info.meshUuid);
  FV_VERIFY(a.info.iteration == b.info.iteration, pa << " is at iteration " << a.info.iteration
                                                     << ", " << pb << " at " << b.info.iteration);
  FV_VERIFY(a.fields.size() == b.fields.size(),
            pa << " has " << a.fields.size() << " fields, " << pb << " " << b.fields.size());
  int bad = 0;
  double worst = 0;
  std::size_t values = 0;
  for (std::size_t k = 0; k < a.fields.size(); ++k) {
    const fv::CellField &fa = a.fields[k], &fb = b.fields[k];
    FV_VERIFY(fa.name == fb.name && fa.values.size() == fb.values.size(),
              "field " << fa.name << " of " << pa << " does not match " << fb.name << " of " << pb);
    if (fa.name == "Cp") {
      // Cp = (p - p_inf) / q_inf is the compared field p shifted by p_inf: its rounding is
      // relative to p / q_inf (1e3-1e4 times Cp's own size at low Mach), not to Cp. p stands in.
      std::printf("  %-10s derived from p (not compared on its own scale)\n", fa.name.c_str());
      continue;
    }
    const std::size_t nc = static_cast<std::size_t>(fa.components);
    std::vector<double> floor(nc, 0.0);
    for (std::size_t i = 0; i < fa.values.size(); ++i)
      floor[i % nc] = std::max(floor[i % nc], std::fabs(fa.values[i]));
    // vector components (velocity; momentum = components 1-3 of the conservative variables)
    // are compared relative to the largest component of the vector: a component that is zero
    // in the exact solution (w of an extruded 2D flow) carries only rounding noise
    const std::size_t v0 = nc == 3 ? 0 : (nc == 5 ? 1 : nc), v1 = nc == 3 ? 3 : (nc == 5 ? 4 : nc);
    double vmax = 0;
    for (std::size_t j = v0; j < v1; ++j)
      vmax = std::max(vmax, floor[j]);
    for (std::size_t j = v0; j < v1; ++j)
      floor[j] = vmax * 1e3; // scaled back by 1e-3 below
    double fieldWorst = 0;
    for (std::size_t i = 0; i < fa.values.size(); ++i) {
      const double x = fa.values[i], y = fb.values[i], f = floor[i % nc] * 1e-3;
      fieldWorst = std::max(fieldWorst,
                            std::fabs(x - y) / std::max({std::fabs(x), std::fabs(y), f, 1e-300}));
      const double scale = std::max({std::fabs(x), std::fabs(y), f, 1e-300});
      worst = std::max(worst, std::fabs(x - y) / scale);
      if (!close(x, y, rtol, f) && bad++ < 10)
        std::printf("%s: cell %zu component %zu: %.17g vs %.17g\n", fa.name.c_str(), i / nc, i % nc,
                    x, y);
    }
    values += fa.values.size();
    std::printf("  %-10s largest relative difference %.3g\n", fa.name.c_str(), fieldWorst);
  }
  std::printf("%s vs %s: %zu values at iteration %lld, largest relative difference %.3g "
              "(tolerance %g)\n",
              pa.c_str(), pb.c_str(), values, static_cast<long long>(a.info.iteration), worst,
              rtol);
  return bad ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  return fv::run_main("compare_runs", [&]() -> int {
    FV_VERIFY_USAGE(argc >= 5, "usage: compare_runs history A B RTOL COLUMN... | compare_runs "
                               "solution A B RTOL");
    const std::string mode = argv[1];
    const double rtol = std::strtod(argv[4], nullptr);
    FV_VERIFY_USAGE(rtol > 0, "RTOL must be > 0 (got '" << argv[4] << "')");
    if (mode == "history") {
      std::vector<std::string> cols(argv + 5, argv + argc);
      FV_VERIFY_USAGE(!cols.empty(), "compare_runs history: name at least one column");
      return compare_history(argv[2], argv[3], rtol, cols);
    }
    FV_VERIFY_USAGE(mode == "solution", "unknown mode '" << mode << "' (history | solution)");
    return compare_solution(argv[2], argv[3], rtol);
  });
}
