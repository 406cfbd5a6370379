// Throughput of the retrograde solver (solver/unit_solver.h) on one 4-piece
// unit, with 1 and 2 threads: the ratio is the parallel speed-up. The
// smaller tables it depends on are solved in memory first (not timed).
#include <benchmark/benchmark.h>
#include <omp.h>

#include "gen/table_builder.h"
#include "solver/unit_solver.h"
#include "tests/gen/wdl_store.h"
#include "index/position_index.h"

namespace {

using namespace dtb;

// Every table the unit of `target` depends on, solved in memory.
gen::WdlStore& dependencies_of(const Material& target) {
  static gen::WdlStore store;
  gen::BuildOptions options;
  options.only = target;
  options.max_pieces = target.pieces();
  for (const Material& m : gen::units_to_build(options)) {
    if (m == target || m == target.reversed() || store.contains(m)) continue;
    gen::UnitSolution solution;
    gen::solve_unit(m, store, nullptr, solution);
    for (std::size_t k = 0; k < solution.materials.size(); ++k) store.add(solution.materials[k], *solution.values[k]);
  }
  return store;
}

void BM_SolveUnit(benchmark::State& state, const char* name) {
  const Material m = *parse_material(name);
  const gen::WdlStore& store = dependencies_of(m);
  omp_set_num_threads(static_cast<int>(state.range(0)));
  std::uint64_t positions = 0;
  for (const Material& t : gen::unit_of(m)) positions += PositionIndex(t).size();
  for (auto _ : state) {
    gen::UnitSolution solution;
    gen::solve_unit(m, store, nullptr, solution);
    benchmark::DoNotOptimize(solution.values.data());
  }
  state.counters["positions/s"] =
      benchmark::Counter(static_cast<double>(positions), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK_CAPTURE(BM_SolveUnit, KKvKK, "KKvKK")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SolveUnit, KMvKM, "KMvKM")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
