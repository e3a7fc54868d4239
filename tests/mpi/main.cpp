// GoogleTest under mpiexec: MPI is started around the whole run, only rank 0 prints, and the exit
// status is failure when any rank failed (a test that fails on one rank only still fails).
#include <gtest/gtest.h>

#include "tribo/parallel/communicator.hpp"

int main(int argc, char** argv) {
  tribo::parallel::MpiSession mpi(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const auto world = tribo::parallel::Communicator::world();
  if (world.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed_here = RUN_ALL_TESTS() != 0 ? 1 : 0;
  const long long failed = world.sum(static_cast<long long>(failed_here));
  if (world.rank() == 0 && failed > 0) std::fprintf(stderr, "%lld rank(s) had a failing test\n", failed);
  return failed > 0 ? 1 : 0;
}
