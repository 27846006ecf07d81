// Overhead of modeltuned, in Google Benchmark: the cached lookup every bcast/reduce call pays
// (budget 30 ns) and one new size class decided on a large communicator (budget 100 us at P=256).
// Run: make bench (or build/tools/overhead/bench-decision --benchmark_filter=...).
#include <benchmark/benchmark.h>

#include "model/calibration/table.hpp"
#include "model/select/selector.hpp"

extern "C" {
void *bench_lookup_module(int classes_filled);
void *bench_lookup_module_with_model(const char *table_path, int nranks);
int bench_lookup(void *module, size_t count, size_t type_size, int root);
}

using namespace modeltuned;

static void BM_CachedLookup_SameSize(benchmark::State &state) {
  void *m = bench_lookup_module(64);
  size_t count = 1000;
  for (auto _ : state) {
    benchmark::DoNotOptimize(count);
    benchmark::DoNotOptimize(bench_lookup(m, count, 4, 0));
  }
}
BENCHMARK(BM_CachedLookup_SameSize);

static void BM_CachedLookup_VaryingSizes(benchmark::State &state) {
  void *m = bench_lookup_module(64);
  const size_t counts[8] = {1, 17, 300, 4096, 70000, 1 << 20, 5, 123456};
  unsigned i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(bench_lookup(m, counts[i++ & 7], 4, 0));
}
BENCHMARK(BM_CachedLookup_VaryingSizes);

// A program that rotates the root (bcast from rank i in turn) on 256 ranks: after one pass, every
// call must still be a lookup (decisions are remembered per root, not only for the last one).
static void BM_CachedLookup_RotatingRoots(benchmark::State &state) {
  void *m = bench_lookup_module_with_model(MODELTUNED_ORFEO_TABLE, 256);
  if (!m) {
    state.SkipWithError("cannot build the model");
    return;
  }
  for (int root = 0; root < 256; ++root) bench_lookup(m, 4096, 1, root);  // first decisions
  int root = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(bench_lookup(m, 4096, 1, root));
    root = (root + 1) & 255;
  }
}
BENCHMARK(BM_CachedLookup_RotatingRoots);

// 2 nodes x 2 sockets x 16 L3 x 4 cores (ORFEO EPYC), ranks mapped by core like --map-by core.
static Placement orfeo_by_core(int p) {
  std::vector<RankPlace> ranks;
  for (int r = 0; r < p; ++r) {
    int core = r % 256;
    ranks.push_back(RankPlace{core / 128, (core / 64) % 2, (core / 16) % 8, core / 4, core});
  }
  return Placement(std::move(ranks));
}

static void BM_DecideNewSizeClass(benchmark::State &state) {
  static const CalibrationTable table = load_calibration(MODELTUNED_ORFEO_TABLE);
  const int p = static_cast<int>(state.range(0));
  const Op op = state.range(1) ? Op::reduce : Op::bcast;
  Placement placement = orfeo_by_core(p);
  CallShape call{op, static_cast<size_t>(state.range(2)), 1, 0, true};
  size_t candidates = 0;
  // What the component does for a new size class on a communicator that already decided one
  // (plans are kept per communicator), and for the very first decision (plans built too).
  Selector selector(table, placement);
  const bool first = state.range(3) != 0;
  selector.decide(CallShape{op, 1, 1, 0, true});
  for (auto _ : state) {
    auto d = first ? decide(table, placement, call, kAllAlgorithms) : selector.decide(call);
    candidates = d->predictions.size();
    benchmark::DoNotOptimize(d);
  }
  state.counters["candidates"] = static_cast<double>(candidates);
}
BENCHMARK(BM_DecideNewSizeClass)
    ->ArgNames({"P", "reduce", "bytes", "first"})
    ->Args({256, 0, 1, 0})
    ->Args({256, 0, 1 << 16, 0})
    ->Args({256, 0, 1 << 20, 0})
    ->Args({256, 1, 1 << 20, 0})
    ->Args({256, 0, 1 << 20, 1})
    ->Args({1024, 0, 1 << 20, 0})
    ->Args({4096, 0, 1 << 20, 0})
    ->Args({16384, 0, 1 << 20, 0})
    ->Args({16384, 0, 1 << 20, 1})
    ->Unit(benchmark::kMicrosecond);

// What the component pays at enable, once per placement, to learn whether an op keeps Open MPI's
// default at every size (Selector::keeps_default_everywhere): the model built, then the sweep. With
// ORFEO's checks (none of allgather or alltoall: no sweep at all), and without checks, where the
// sweep runs through every power of two up to 1 GiB.
static void BM_KeepsDefaultEverywhere(benchmark::State &state) {
  static const CalibrationTable checked = load_calibration(MODELTUNED_ORFEO_TABLE);
  static const CalibrationTable unchecked = [] {
    CalibrationTable t = checked;
    t.checks.clear();
    return t;
  }();
  const Placement placement = orfeo_by_core(static_cast<int>(state.range(0)));
  const Op op = state.range(1) ? Op::alltoall : Op::allgather;
  const CalibrationTable &table = state.range(2) ? checked : unchecked;
  for (auto _ : state) {
    Selector selector(table, placement);
    benchmark::DoNotOptimize(selector.keeps_default_everywhere(op, Metric::completion));
  }
}
BENCHMARK(BM_KeepsDefaultEverywhere)
    ->ArgNames({"P", "alltoall", "checks"})
    ->Args({2, 0, 0})
    ->Args({2, 1, 0})
    ->Args({16, 0, 0})
    ->Args({16, 1, 0})
    ->Args({64, 0, 0})
    ->Args({64, 1, 0})
    ->Args({256, 0, 1})
    ->Args({256, 0, 0})
    ->Args({256, 1, 0})
    ->Args({1024, 0, 0})
    ->Args({1024, 1, 0})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
