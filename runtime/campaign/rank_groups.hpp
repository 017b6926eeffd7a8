#pragma once
/// \file rank_groups.hpp
/// A campaign's ranks in groups ([sweep] groups, fvrun --sweep-groups G; README "Campaigns"):
/// the world's ranks split into G contiguous groups of equal size, each mapping its zones of
/// the zone file's partitioning into ranks/G parts and running a contiguous share of the
/// points in the sweep order (an unbroken warm-start chain per group) as an ordinary campaign
/// on its own communicator. G = 1 (the default): one group, the world itself; every point
/// runs on every rank.
#include <cstddef>
#include <mpi.h>
#include <utility>

namespace fv::campaign {

class RankGroups {
 public:
  /// COLLECTIVE over `world`: splits it into `groups` groups of consecutive ranks
  /// (MPI_Comm_split). A usage error on every rank when `groups` does not divide the rank
  /// count.
  RankGroups(MPI_Comm world, int groups);
  ~RankGroups();
  RankGroups(const RankGroups&) = delete;
  RankGroups& operator=(const RankGroups&) = delete;

  MPI_Comm world() const { return world_; }
  MPI_Comm comm() const { return comm_; } ///< this rank's group (the world when one)
  int index() const { return index_; }    ///< this rank's group, 0 ... count() - 1
  int count() const { return count_; }
  /// The points [first, last) of `n` (sweep order) that this group runs: group g takes
  /// [g n / G, (g + 1) n / G).
  std::pair<std::size_t, std::size_t> points(std::size_t n) const;

 private:
  MPI_Comm world_, comm_;
  int index_ = 0, count_ = 1;
};

/// COLLECTIVE over `world`: returns once every rank has called it. Polls a non-blocking
/// barrier with short sleeps, so that the ranks of a group done early leave their cores to
/// the groups still running instead of spinning in MPI.
void wait_for_every_group(MPI_Comm world);

} // namespace fv::campaign
