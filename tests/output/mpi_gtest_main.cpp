// main() for GoogleTest executables that run under mpiexec (fv_add_mpi_gtest in
// tests/CMakeLists.txt). Every rank runs every test; only rank 0 prints GoogleTest's report
// (other ranks print failures only, prefixed by their rank) and the exit code is non-zero on
// every rank when a test failed on any rank.
#include <cstdio>
#include <gtest/gtest.h>
#include <mpi.h>

namespace {

/// Prints failed assertions of a non-zero rank, so that they are not lost.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_,
                   r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
  }

 private:
  int rank_;
};

} // namespace

int main(int argc, char** argv) {
  int provided = 0;
  // FV_MPI_THREAD_MULTIPLE (fv_add_mpi_gtest(... THREAD_MULTIPLE)): for tests of code whose
  // threads call MPI themselves (threaded PT-Scotch); the others run as fvprep and fvrun do
#if defined(FV_MPI_THREAD_MULTIPLE)
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
#else
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
#endif
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  const int local = RUN_ALL_TESTS();
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return global;
}
