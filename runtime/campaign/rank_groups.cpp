#include "runtime/campaign/rank_groups.hpp"

#include "common/error.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <chrono>
#include <thread>

namespace fv::campaign {

RankGroups::RankGroups(MPI_Comm world, int groups) : world_(world), comm_(world), count_(groups) {
  const int ranks = parallel::comm_size(world);
  FV_VERIFY_USAGE(groups >= 1 && ranks % groups == 0,
                  "--sweep-groups " << groups << " ([sweep] groups) does not divide the " << ranks
                                    << " MPI rank" << (ranks == 1 ? "" : "s")
                                    << ": run on a multiple of " << groups << " ranks");
  if (groups == 1) return;
  index_ = parallel::comm_rank(world) / (ranks / groups); // contiguous groups
  MPI_Comm_split(world, index_, parallel::comm_rank(world), &comm_);
}

RankGroups::~RankGroups() {
  if (comm_ != world_) MPI_Comm_free(&comm_);
}

std::pair<std::size_t, std::size_t> RankGroups::points(std::size_t n) const {
  const auto g = static_cast<std::size_t>(index_), G = static_cast<std::size_t>(count_);
  return {g * n / G, (g + 1) * n / G};
}

void wait_for_every_group(MPI_Comm world) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Ibarrier(world, &req);
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

} // namespace fv::campaign
