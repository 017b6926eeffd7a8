#pragma once
/// \file benchmark.hpp
/// The measurements of fvbench on one zone, on the active device: streaming ceilings, each
/// kernel of an explicit RK stage, the residual-assembly variants and the whole stage.
/// Times are medians of `repeats` runs after `warmup` runs (CUDA events on the GPU,
/// steady_clock on the CPU: backend/timer.hpp); bytes from byte_model.hpp.
#include "bench/fvbench/assembly_variants.hpp"
#include "common/zone.hpp"

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
  FluxSumVariant variant = FluxSumVariant::Gather; ///< for One
  std::string cachePath;                           ///< for Auto
  bool secondOrder = true;
  kernels::Flux flux = kernels::Flux::Roe;
  bool viscous = false; ///< whole stage with the Navier-Stokes model (--model navier_stokes)
  bool rans = false;    ///< whole stage with RANS, Spalart-Allmaras (--model rans_sa)
  /// --batched: batch sizes of the batched-conditions section (batched_conditions.hpp); when
  /// set, fvbench measures the ceilings and that section only
  std::vector<int> batched;
};

/// One measured line. section: "ceiling", "kernel", "variant", "layout", "stage", "batched".
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

/// Run-to-run spread of one row when the whole measurement was repeated (fvbench --runs N).
struct RunSpread {
  std::vector<double> medianMs; ///< the row's median in runs 2..N (run 1 is BenchRow::medianMs)
  double devPct = 0; ///< max relative deviation of the runs' medians, (max - min) / min * 100
};

/// Rows deviating more than this between runs are flagged as not reproducible.
inline constexpr double kReproduciblePct = 5.0;

/// What the run measured, plus what it was run on.
struct BenchReport {
  std::string device, driver, mesh, uuid, renumber, date;
  long long cells = 0, faces = 0, nodes = 0;
  double ceilingGBs = 0;
  std::string selectedVariant, selectionNote;
  std::vector<BenchRow> rows;
  int runs = 1;                  ///< complete measurements made (rows hold run 1's values)
  std::vector<RunSpread> spread; ///< per row when runs > 1 (empty otherwise)
};

/// Combines complete measurements of the same zone (same rows in the same order, checked):
/// the values of run 1 with the other runs' medians and the deviation per row.
BenchReport merge_runs(std::vector<BenchReport> runs);

/// Runs every measurement on zone `z` (a zone of the file with header `h`) on the active device.
BenchReport run_benchmark(const Zone& z, const ZoneFileHeader& h, const std::string& meshLabel,
                          const BenchOptions& o);

/// Human-readable table (printed last by fvbench).
void print_report(const BenchReport& r, std::ostream& os);

/// Appends the rows as CSV (header written when the file is new or empty).
void append_csv(const BenchReport& r, const std::string& path);

} // namespace fv::bench
