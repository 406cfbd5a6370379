// Rank and unrank cost of the dense index on random 6-piece positions (target:
// below 20 ns each). Positions are spread over every 6-piece material, so the
// figure is an average over the real mix the generator and probe see.
//
// Run: build-*/bench/bench_index_rank --benchmark_repetitions=5
//      --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>
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

// The sample sets, built once each: every material with 6 or 7 pieces, and
// the extremes of the 6-piece mix: all kings (longest king spreads) and all men.
const Samples& samples(const std::string& which) {
  static const Material all_kings{3, 0, 3, 0}, all_men{0, 3, 0, 3}, mixed{1, 2, 1, 2};
  static const Samples six(6), seven(7), kings(6, &all_kings), men(6, &all_men), mix(6, &mixed);
  return which == "6" ? six : which == "7" ? seven : which == "KKKvKKK" ? kings : which == "MMMvMMM" ? men : mix;
}

void BM_Rank(benchmark::State& state, const std::string& which) { run_rank(state, samples(which)); }
void BM_Unrank(benchmark::State& state, const std::string& which) { run_unrank(state, samples(which)); }
void BM_RoundTripLatency(benchmark::State& state, const std::string& which) {
  run_chained_round_trip(state, samples(which));
}

}  // namespace

BENCHMARK_CAPTURE(BM_Rank, 6, std::string("6"));
BENCHMARK_CAPTURE(BM_Unrank, 6, std::string("6"));
BENCHMARK_CAPTURE(BM_Rank, 7, std::string("7"));
BENCHMARK_CAPTURE(BM_Unrank, 7, std::string("7"));
BENCHMARK_CAPTURE(BM_Rank, KKKvKKK, std::string("KKKvKKK"));
BENCHMARK_CAPTURE(BM_Unrank, KKKvKKK, std::string("KKKvKKK"));
BENCHMARK_CAPTURE(BM_Rank, MMMvMMM, std::string("MMMvMMM"));
BENCHMARK_CAPTURE(BM_Unrank, MMMvMMM, std::string("MMMvMMM"));
BENCHMARK_CAPTURE(BM_RoundTripLatency, KMMvKMM, std::string("KMMvKMM"));

BENCHMARK_MAIN();
