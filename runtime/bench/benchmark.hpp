#pragma once
/// \file benchmark.hpp
/// The measurements of fvbench on one zone, on the active device: streaming ceilings, each
/// kernel of an explicit RK stage, the residual-assembly variants and the whole stage.
/// Times are medians of `repeats` runs after `warmup` runs (CUDA events on the GPU,
/// steady_clock on the CPU: backend/timer.hpp); bytes from byte_model.hpp.
#include "common/zone.hpp"
#include "runtime/kernels/flux_sum_variants.hpp"

#include <string>
#include <vector>

namespace fv::bench {

/// How the residual-assembly variant of the whole stage is chosen.
enum class KernelChoice { All, Auto, One };

struct BenchOptions {
  int warmup = 3;
  int repeats = 20;
  double ceilingMiB = 0; ///< array size of the ceiling kernels; 0 = 512 (GPU) / 128 (CPU)
  KernelChoice choice = KernelChoice::All;
  kernels::FluxSumVariant variant = kernels::FluxSumVariant::Gather; ///< for One
  std::string cachePath;                                             ///< for Auto
  bool secondOrder = true;
  kernels::Flux flux = kernels::Flux::Roe;
};

/// One measured line. section: "ceiling", "kernel", "variant", "stage", "choice".
struct BenchRow {
  std::string section, kernel, variant;
  double medianMs = 0, minMs = 0;
  double bytes = 0;      ///< byte model (0: not applicable)
  double gbs = 0;        ///< bytes / median time
  double pctCeiling = 0; ///< gbs / best ceiling * 100
  double nsPerCell = 0;  ///< median / owned cells
  double sharePct = 0;   ///< share of the stage (kernel rows of the selected variant)
  std::string note;
};

/// What the run measured, plus what it was run on.
struct BenchReport {
  std::string device, driver, mesh, uuid, renumber, date;
  long long cells = 0, faces = 0, nodes = 0;
  double ceilingGBs = 0;
  std::string selectedVariant, selectionNote;
  std::vector<BenchRow> rows;
};

/// Runs every measurement on zone `z` (a zone of the file with header `h`) on the active device.
BenchReport run_benchmark(const Zone& z, const ZoneFileHeader& h, const std::string& meshLabel,
                          const BenchOptions& o);

/// Human-readable table (printed last by fvbench).
void print_report(const BenchReport& r, std::ostream& os);

/// Appends the rows as CSV (header written when the file is new or empty).
void append_csv(const BenchReport& r, const std::string& path);

} // namespace fv::bench
