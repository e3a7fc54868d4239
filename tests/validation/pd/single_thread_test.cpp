// The PD validation problems run on one OpenMP thread: the results are the same for any thread
// count (tests/pd: Threads.ResultsDoNotDependOnTheThreadCount), and on a machine whose cores
// are shared by parallel test programs one thread each keeps every run's time predictable.
#include <gtest/gtest.h>
#include <omp.h>

namespace {

class SingleThread : public ::testing::Environment {
 public:
  void SetUp() override { omp_set_num_threads(1); }
};

const auto* const single_thread = ::testing::AddGlobalTestEnvironment(new SingleThread);

}  // namespace
