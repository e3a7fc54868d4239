// Each CPU's own speed, one at a time (the thread pinned to it), at what an MPM particle pass
// does most (stream a few MiB of particle data, read and write it back) and at plain arithmetic.
// Why it is here (issue 17): this project's 2-core machines are virtual, and their two CPUs do not
// always run alike. At one time of stop 26 a loop over 3 MiB split between two threads took
// 0.012 s on one CPU and 0.022-0.025 s on the other (whichever thread sat there); ten minutes later
// 0.011 s on both. A 2-thread MPM run, whose passes split the particles evenly and meet at a
// barrier, then waits for the slow CPU in every pass. Run it next to a speed-up measurement:
// `build/bench/bench_machine_cpu_stream` (bytes streamed per second, read + write, and
// multiply-adds per second, per CPU).
#include <benchmark/benchmark.h>
#include <sched.h>

#include <cstddef>
#include <random>
#include <utility>
#include <vector>

namespace {

// Pins the calling thread to `cpu` for its lifetime; gives back the mask it had. `ok` is false
// where the CPU is not in the process's mask (the benchmark is then skipped).
class PinnedTo {
 public:
  explicit PinnedTo(int cpu) {
    sched_getaffinity(0, sizeof(before_), &before_);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    ok_ = CPU_ISSET(cpu, &before_) && sched_setaffinity(0, sizeof(one), &one) == 0;
  }
  ~PinnedTo() { sched_setaffinity(0, sizeof(before_), &before_); }
  bool ok() const { return ok_; }

 private:
  cpu_set_t before_;
  bool ok_ = false;
};

// 3 MiB: one thread's share of the oblique disks' particle arrays (15 720 particles, about 400 B
// each, split in two), larger than a core's L2.
constexpr std::size_t kBytes = 3u << 20;

void stream_on_cpu(benchmark::State& state) {
  const PinnedTo pin(static_cast<int>(state.range(0)));
  if (!pin.ok()) {
    state.SkipWithError("CPU not available to this process");
    return;
  }
  std::vector<double> data(kBytes / sizeof(double), 1.0);  // first touched on the pinned CPU
  for (auto _ : state) {
    for (double& x : data) x = x * 1.0000001 + 1e-9;
    benchmark::DoNotOptimize(data.data());
    benchmark::ClobberMemory();
  }
  state.counters["bytes_per_second"] =
      benchmark::Counter(2.0 * kBytes * state.iterations(), benchmark::Counter::kIsRate);
}

void arithmetic_on_cpu(benchmark::State& state) {
  const PinnedTo pin(static_cast<int>(state.range(0)));
  if (!pin.ok()) {
    state.SkipWithError("CPU not available to this process");
    return;
  }
  constexpr long kSteps = 1 << 20;
  for (auto _ : state) {
    double a = 1.0, b = 0.5, c = 0.25, d = 0.125;  // four independent chains
    for (long i = 0; i < kSteps; ++i) {
      a = a * 0.999999 + 1e-7;
      b = b * 0.999999 + 1e-7;
      c = c * 0.999999 + 1e-7;
      d = d * 0.999999 + 1e-7;
    }
    benchmark::DoNotOptimize(a + b + c + d);
  }
  state.counters["multiply_adds_per_second"] =
      benchmark::Counter(4.0 * kSteps * state.iterations(), benchmark::Counter::kIsRate);
}

// Dependent loads in a random cycle over 4 MiB (the oblique disks' particle and node arrays that a
// step's scatter reaches at random: more than L2, less than the 32 MiB L3 the machine reports):
// loads per second (the time of an iteration in ms is about that of a load in ns). Within stop 29
// the same loop took 38 to 159 ns a load (a loop over 256 KiB, inside L2: 5 ns); at its slowest
// the MPM runs were twice as slow on one thread as at stop 28.
void random_loads_on_cpu(benchmark::State& state) {
  const PinnedTo pin(static_cast<int>(state.range(0)));
  if (!pin.ok()) {
    state.SkipWithError("CPU not available to this process");
    return;
  }
  constexpr std::size_t kSlots = (4u << 20) / sizeof(std::size_t);
  // One cycle through every slot in a shuffled order (Sattolo's algorithm), fixed seed.
  std::vector<std::size_t> next(kSlots);
  for (std::size_t i = 0; i < kSlots; ++i) next[i] = i;
  std::mt19937_64 random(29);
  for (std::size_t i = kSlots - 1; i > 0; --i) std::swap(next[i], next[random() % i]);
  constexpr long kLoads = 1 << 20;
  std::size_t at = 0;
  for (auto _ : state) {
    for (long i = 0; i < kLoads; ++i) at = next[at];
    benchmark::DoNotOptimize(at);
  }
  // An iteration is 2^20 loads: its time in ms is about the time of one load in ns (x 1.05).
  state.counters["loads_per_second"] =
      benchmark::Counter(static_cast<double>(kLoads) * state.iterations(), benchmark::Counter::kIsRate);
}

void every_cpu(benchmark::internal::Benchmark* b) {
  cpu_set_t mask;
  sched_getaffinity(0, sizeof(mask), &mask);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mask)) b->Arg(cpu);
  b->ArgName("cpu")->Unit(benchmark::kMillisecond);
}

BENCHMARK(stream_on_cpu)->Apply(every_cpu);
BENCHMARK(arithmetic_on_cpu)->Apply(every_cpu);
BENCHMARK(random_loads_on_cpu)->Apply(every_cpu);

}  // namespace

BENCHMARK_MAIN();
