#pragma once
/// \file halo_exchange.hpp
/// Halo exchange between zones with device-side packing (hybrid MPI-CUDA paper, §4.3,
/// Algorithms 12-13): values of the entities in a zone's ExchangeLists are packed into one
/// contiguous buffer by a fv::forall kernel (GPU or CPU from one source), sent as ONE message
/// per neighbour through the run's backend::Communicator (host-staged MPI, CUDA-aware MPI, NCCL
/// or CUDA IPC: backend/transport.hpp), and unpacked by another kernel. The exchange holds the
/// lists, the buffers and the pack/unpack kernels; how the bytes travel is the transport's.
///
///   parallel::HaloExchange cells(comm, zone.cellExchange, zone.nTotalCells(), 5,
///                                parallel::HaloMode::Copy);
///   cells.begin({parallel::FieldView::interleaved(u, 5)}); // pack + post
///   compute_interior_cells();    // [0, nInteriorCells), calling cells.progress() now and then
///   cells.finish();                                         // complete + unpack into halo cells
///   compute_interface_cells();
///
/// Modes: Copy (cell data: the owners' values overwrite the halo cells) and Sum (node partial
/// sums: each zone adds the partial sums its neighbours hold for the shared nodes, so every
/// zone ends with the total over all zones; the values sent are those before the exchange).
///
/// Message layout: neighbour k's message holds its list entries in list order, each entry's K
/// values contiguous (entity-major), so thread i of the pack kernel writes buffer[i]
/// (coalesced) and both sides agree because both lists are sorted by global id.
#include "common/zone.hpp"
#include "runtime/backend/communicator.hpp"

#include <memory>
#include <vector>

namespace fv::parallel {

/// What an exchange does with received values (see file comment).
enum class HaloMode { Copy, Sum };

/// K values per entity in the active backend's memory: value j of entity i is
/// data[i * entityStride + j * componentStride]. Not owning.
struct FieldView {
  real_t* data = nullptr;
  int components = 1;
  idx_t entityStride = 1;
  idx_t componentStride = 1;
  /// Interleaved (array of structures): data[i * k + j].
  static FieldView interleaved(real_t* d, int k) { return {d, k, k, 1}; }
  /// Blocked (structure of arrays) with n entities per component: data[j * n + i].
  static FieldView blocked(real_t* d, int k, idx_t n) { return {d, k, 1, n}; }
};

/// Halo exchange of one entity kind of one zone (see file comment). Owns its device index
/// lists and message buffers. Not copyable; one exchange in flight at a time.
class HaloExchange {
 public:
  /// At most this many FieldViews per exchange.
  static constexpr int kMaxFields = 8;

  /// COLLECTIVE over `comm` (rank r holds zone r), which must outlive the exchange. Checks the
  /// lists (ranges, ordering, duplicates, and that every neighbour pair agrees on its message
  /// sizes) and throws the same fv::Error on every rank naming the zones when they are
  /// inconsistent. `n_entities` bounds the local ids (cells: nCells + nHaloCells; nodes: nNodes);
  /// `max_components` is the largest total K of one exchange. `name` labels kernels and messages
  /// ("cells", "nodes"). Lists and buffers live on the device active at construction
  /// (fv::active_device()); the fields given to begin() must live there too.
  HaloExchange(backend::Communicator& comm, const ExchangeLists& lists, idx_t n_entities,
               int max_components, HaloMode mode, const char* name = "halo");
  ~HaloExchange();
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  /// Packs `fields` (total K <= max_components) and posts the receives and sends.
  void begin(const std::vector<FieldView>& fields);
  /// Optional, between begin() and finish(): lets the transport advance the messages (MPI:
  /// MPI_Testall; Open MPI moves large (rendezvous) messages only inside MPI calls, so calling
  /// this between interior kernels makes the overlap real for large halos). Cheap.
  void progress();
  /// Completes this rank's messages and unpacks them into the same fields (in stream order).
  void finish();
  /// begin() + finish().
  void exchange(const std::vector<FieldView>& fields) {
    begin(fields);
    finish();
  }

  bool in_flight() const;
  int neighbour_count() const;
  /// Entries sent / received per exchange (summed over neighbours).
  std::size_t send_entries() const;
  std::size_t recv_entries() const;
  /// The transport's name ("NCCL", "host-staged MPI", ...).
  std::string transport() const;

  /// Cumulative seconds spent in this exchange's phases (host clock). With timing on (the
  /// default), begin() and finish() first wait for the device work queued before them, so
  /// that kernels launched earlier are not billed to the exchange:
  ///   pack   = pack kernel + starting the messages (begin()),
  ///   wait   = completing the messages (finish(); the host-staged copy to the device included),
  ///   unpack = unpack kernel(s) (finish()).
  struct Timings {
    double pack = 0, wait = 0, unpack = 0;
    long exchanges = 0;
  };
  const Timings& timings() const;
  void reset_timings();
  /// Timing on/off (off: no extra device synchronisation; timings stay 0).
  void set_timing(bool on);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fv::parallel
