// for_each_block (pd/parallel.hpp) replaces the PD loops' `omp parallel for if (...)`: it must give
// every index of the range to exactly one block, in blocks of consecutive indices, on any number of
// threads, and run the whole range as one block on this thread when the work is not worth the
// threads or one thread would run it (no OpenMP region then). Reference: a count per index kept by
// the test, and omp_get_level() (which counts a region of one thread too, where omp_in_parallel()
// does not).
#include "tribo/pd/parallel.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <vector>

namespace tribo::pd {
namespace {

struct ThreadCount {
  explicit ThreadCount(int n) : saved(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~ThreadCount() { omp_set_num_threads(saved); }
  int saved;
};

TEST(ForEachBlock, GivesEveryIndexToOneBlockOnOneToFourThreads) {
  for (int threads = 1; threads <= 4; ++threads) {
    ThreadCount scope(threads);
    for (const auto& [begin, end] : {std::pair{0, 0}, std::pair{5, 6}, std::pair{3, 10}, std::pair{-7, 1000}}) {
      std::vector<std::atomic<int>> seen(static_cast<std::size_t>(end - begin + 1));
      std::atomic<int> blocks{0};
      for_each_block<int>(begin, end, true, [&](int first, int last) {
        ASSERT_LE(begin, first);
        ASSERT_LE(first, last);
        ASSERT_LE(last, end);
        ++blocks;
        for (int i = first; i < last; ++i) ++seen[static_cast<std::size_t>(i - begin)];
      });
      for (int i = begin; i < end; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i - begin)].load(), 1) << i;
      EXPECT_LE(blocks.load(), threads) << "one block per thread at most";
    }
  }
}

TEST(ForEachBlock, RunsTheWholeRangeHereWhenNotWorthTheThreads) {
  ThreadCount scope(3);
  int calls = 0, first_seen = -1, last_seen = -1;
  bool in_region = true;
  for_each_block<int>(2, 40, false, [&](int first, int last) {
    ++calls;  // not atomic: a second thread here would be a data race the count would show
    first_seen = first;
    last_seen = last;
    in_region = omp_get_level() > 0;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(first_seen, 2);
  EXPECT_EQ(last_seen, 40);
  EXPECT_FALSE(in_region) << "no OpenMP region is opened for a serial loop";
}

TEST(ForEachBlock, OpensNoRegionOnOneThreadEvenWhenWorthIt) {
  ThreadCount scope(1);
  bool in_region = true;
  for_each_block<long>(0, 100, true, [&](long, long) { in_region = omp_get_level() > 0; });
  EXPECT_FALSE(in_region);
}

}  // namespace
}  // namespace tribo::pd
