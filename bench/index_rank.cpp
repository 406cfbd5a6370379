// Rank and unrank cost of the dense index on random 6-piece positions (target:
// below 20 ns each). Positions are spread over every 6-piece material, so the
// figure is an average over the real mix the generator and probe see.
//
// Run: build-*/bench/bench_index_rank --benchmark_repetitions=5
//      --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include "index/position_index.h"

namespace {

using namespace dtb;

struct Sample {
  const PositionIndex* index;
  Position position;
  std::uint64_t rank;
};

// 4096 random (material, index) pairs over all materials with `pieces` pieces,
// or over one material if `only` is given.
struct Samples {
  std::vector<std::unique_ptr<PositionIndex>> indexes;
  std::vector<Sample> samples;

  explicit Samples(int pieces, const Material* only = nullptr) {
    if (only) {
      indexes.push_back(std::make_unique<PositionIndex>(*only));
    } else {
      for (const Material& m : materials_in_build_order(pieces))
        if (m.pieces() == pieces) indexes.push_back(std::make_unique<PositionIndex>(m));
    }
    std::mt19937_64 rng(42);
    for (int k = 0; k < 4096; ++k) {
      const PositionIndex& index = *indexes[rng() % indexes.size()];
      const std::uint64_t i = rng() % index.size();
      samples.push_back({&index, index.unrank(i), i});
    }
  }
};

void run_rank(benchmark::State& state, const Samples& s) {
  std::size_t k = 0;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    const Sample& x = s.samples[k++ & 4095];
    sum += x.index->rank(x.position);
  }
  benchmark::DoNotOptimize(sum);
}

void run_unrank(benchmark::State& state, const Samples& s) {
  std::size_t k = 0;
  for (auto _ : state) {
    const Sample& x = s.samples[k++ & 4095];
    Position p = x.index->unrank(x.rank);
    benchmark::DoNotOptimize(p);
  }
}

// Latency rather than throughput: each rank depends on the previous one.
void run_chained_round_trip(benchmark::State& state, const Samples& s) {
  const PositionIndex& index = *s.samples[0].index;
  std::uint64_t i = s.samples[0].rank;
  for (auto _ : state) {
    const Position p = index.unrank(i);
    i = index.rank(p) * 2654435761ULL % index.size();
  }
  benchmark::DoNotOptimize(i);
}

void BM_Rank6(benchmark::State& state) {
  static const Samples s(6);
  run_rank(state, s);
}
void BM_Unrank6(benchmark::State& state) {
  static const Samples s(6);
  run_unrank(state, s);
}
void BM_Rank7(benchmark::State& state) {
  static const Samples s(7);
  run_rank(state, s);
}
void BM_Unrank7(benchmark::State& state) {
  static const Samples s(7);
  run_unrank(state, s);
}

// Extremes of the 6-piece mix: all kings (longest king loops) and all men.
const Material kAllKings{3, 0, 3, 0}, kAllMen{0, 3, 0, 3}, kMixed{1, 2, 1, 2};
void BM_Rank6_KKKvKKK(benchmark::State& state) {
  static const Samples s(6, &kAllKings);
  run_rank(state, s);
}
void BM_Unrank6_KKKvKKK(benchmark::State& state) {
  static const Samples s(6, &kAllKings);
  run_unrank(state, s);
}
void BM_Rank6_MMMvMMM(benchmark::State& state) {
  static const Samples s(6, &kAllMen);
  run_rank(state, s);
}
void BM_Unrank6_MMMvMMM(benchmark::State& state) {
  static const Samples s(6, &kAllMen);
  run_unrank(state, s);
}
void BM_RoundTripLatency6_KMMvKMM(benchmark::State& state) {
  static const Samples s(6, &kMixed);
  run_chained_round_trip(state, s);
}

}  // namespace

BENCHMARK(BM_Rank6);
BENCHMARK(BM_Unrank6);
BENCHMARK(BM_Rank7);
BENCHMARK(BM_Unrank7);
BENCHMARK(BM_Rank6_KKKvKKK);
BENCHMARK(BM_Unrank6_KKKvKKK);
BENCHMARK(BM_Rank6_MMMvMMM);
BENCHMARK(BM_Unrank6_MMMvMMM);
BENCHMARK(BM_RoundTripLatency6_KMMvKMM);

BENCHMARK_MAIN();
