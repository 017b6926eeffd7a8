#pragma once
/// \file kernel_sequence.hpp
/// fv::KernelSequence: a fixed sequence of fv::forall launches that is recorded once and
/// replayed many times, to avoid paying one launch latency per kernel when a sequence holds
/// thousands of small launches (LU-SGS sweeps over hyperplanes or colours).
///
///   fv::KernelSequence seq("lusgs forward", fv::KernelSequence::Mode::Graph);
///   seq.run([&] { for (g ...) fv::forall("group", n[g], ...); });   // every iteration
///
/// Graph mode on the CUDA backend: the first run() (and the first after reset()) captures the
/// launches that `record` makes into a CUDA graph on a private stream, instantiates it and
/// launches it on the default stream; later run() calls only launch the graph again, WITHOUT
/// calling `record`. The sequence must therefore be fixed: same kernels, same launch sizes, same
/// captured values (device pointers and scalars). Call reset() whenever any of them changes.
/// `record` may only launch kernels (no host synchronisation, copies or MPI).
/// Plain mode, and every mode on the CPU backend, simply calls `record` each time.
/// Owns the graph, its executable and the capture stream (released in the destructor).
#include "runtime/backend/forall.hpp"

#include <functional>
#include <string>

namespace fv {

class KernelSequence {
 public:
  enum class Mode { Plain, Graph };

  explicit KernelSequence(std::string label, Mode mode = Mode::Graph);
  ~KernelSequence();
  KernelSequence(const KernelSequence&) = delete;
  KernelSequence& operator=(const KernelSequence&) = delete;

  /// Runs the sequence (see the file comment): records it on the first call in graph mode.
  void run(const std::function<void()>& record);
  /// Forgets the recorded graph; the next run() records again.
  void reset();

  Mode mode() const { return mode_; }
  /// True when run() replays a captured CUDA graph (graph mode on the CUDA backend).
  bool uses_graph() const;
  /// Number of times the sequence was recorded (captures), for tests and logs.
  int captures() const { return captures_; }

 private:
  std::string label_;
  Mode mode_;
  int captures_ = 0;
  void* stream_ = nullptr; ///< cudaStream_t of the captures
  void* graph_ = nullptr;  ///< cudaGraph_t
  void* exec_ = nullptr;   ///< cudaGraphExec_t
};

} // namespace fv
