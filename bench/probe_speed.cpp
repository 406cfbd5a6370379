// Probe speed over random positions of the largest tables in a directory:
// warm cache quiet positions (one table read), warm with capture resolution,
// cold (first touch of each block, with and without the cache's memory
// already touched), and 1 vs 2 threads on one shared handle.
//
//   DTB_BENCH_TABLES=tables build/bench/bench_probe_speed --benchmark_repetitions=5
//     (add --benchmark_report_aggregates_only=true for medians only)
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "probe/tablebase.h"
#include "index/material.h"
#include "index/position_index.h"
#include "rules/movegen.h"

namespace {

std::string tables_dir() {
  const char* d = std::getenv("DTB_BENCH_TABLES");
  return d && *d ? d : "tables";
}

// The materials with the most pieces present in the directory.
std::vector<dtb::Material> largest_materials(const std::string& dir) {
  std::vector<dtb::Material> out;
  int most = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".wdl") continue;
    const auto m = dtb::parse_material(entry.path().stem().string());
    if (!m) continue;
    if (m->pieces() > most) out.clear(), most = m->pieces();
    if (m->pieces() == most) out.push_back(*m);
  }
  if (out.empty()) throw std::runtime_error("no tables in " + dir + " (set DTB_BENCH_TABLES)");
  return out;
}

enum class Kind { Quiet, Any };

// Random positions of those materials, either side to move; Quiet keeps only
// positions without a capture for the side to move (a single table read).
std::vector<dtb::Position> random_board_positions(std::size_t count, Kind kind, std::uint64_t seed) {
  const auto materials = largest_materials(tables_dir());
  std::vector<dtb::PositionIndex> indexes(materials.begin(), materials.end());
  std::mt19937_64 rng(seed);
  std::vector<dtb::Position> out;
  while (out.size() < count) {
    const dtb::PositionIndex& index = indexes[rng() % indexes.size()];
    dtb::Position p = index.unrank(rng() % index.size());
    if (rng() & 1) p = dtb::colour_reversed(p);
    if (kind == Kind::Quiet && dtb::has_capture(p)) continue;
    out.push_back(p);
  }
  return out;
}

// The same, for the C API.
std::vector<dtb_position> random_positions(std::size_t count, Kind kind, std::uint64_t seed) {
  std::vector<dtb_position> out;
  for (const dtb::Position& p : random_board_positions(count, kind, seed))
    out.push_back(dtb_position{dtb::to_dense(p.white), dtb::to_dense(p.black), dtb::to_dense(p.kings),
                               p.side == dtb::Color::White ? 0u : 1u});
  return out;
}

dtb_tables* open_tables(std::size_t cache_bytes) {
  dtb_tables* t = nullptr;
  dtb_error e{};
  if (dtb_open(tables_dir().c_str(), cache_bytes, &t, &e) != DTB_OK)
    throw std::runtime_error(std::string("dtb_open: ") + e.message);
  return t;
}

// One handle shared by every benchmark thread, its cache big enough to hold
// every block the position pool touches, warmed before timing. A pool of 256
// positions keeps its cache pages in the CPU caches (the cost of the probe's
// arithmetic); 16384 positions touch 16384 random pages, so most probes also
// pay a DRAM access (what an engine probing a large tablebase sees).
struct Warm {
  dtb_tables* tables;
  std::vector<dtb_position> positions;
  Warm(Kind kind, std::size_t pool)
      : tables(open_tables(std::size_t{1} << 30)), positions(random_positions(pool, kind, 7)) {
    dtb_wdl v;
    for (const auto& p : positions)
      if (dtb_probe_wdl(tables, &p, &v, nullptr) != DTB_OK) throw std::runtime_error("probe failed");
  }
};

void probe_loop(benchmark::State& state, const Warm& warm) {
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 4099;
  const std::size_t mask = warm.positions.size() - 1;
  for (auto _ : state) {
    dtb_wdl v;
    const dtb_status s = dtb_probe_wdl(warm.tables, &warm.positions[i++ & mask], &v, nullptr);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

const Warm& warm_pool(Kind kind, std::int64_t pool) {
  static const Warm quiet_small(Kind::Quiet, 256), quiet_large(Kind::Quiet, 1 << 14);
  static const Warm any_small(Kind::Any, 256), any_large(Kind::Any, 1 << 14);
  if (kind == Kind::Quiet) return pool <= 256 ? quiet_small : quiet_large;
  return pool <= 256 ? any_small : any_large;
}

void BM_ProbeWarmQuiet(benchmark::State& state) {
  probe_loop(state, warm_pool(Kind::Quiet, state.range(0)));
}
BENCHMARK(BM_ProbeWarmQuiet)->Arg(256)->Arg(1 << 14)->Threads(1)->Threads(2)->UseRealTime();

void BM_ProbeWarmWithCaptures(benchmark::State& state) {
  probe_loop(state, warm_pool(Kind::Any, state.range(0)));
}
BENCHMARK(BM_ProbeWarmWithCaptures)->Arg(256)->Arg(1 << 14)->Threads(1)->Threads(2)->UseRealTime();

// Cold: a fresh handle for every batch, so each timed probe decodes its block
// (zstd + XXH3 check + packing into the cache). Before timing, a few other
// positions open every table file, so the batch times block decodes, not
// opens. The files stay in the OS page cache: this measures decoding, not disk.
void BM_ProbeColdBlock(benchmark::State& state) {
  static const std::vector<dtb_position> positions = random_positions(256, Kind::Quiet, 11);
  static const std::vector<dtb_position> openers = random_positions(256, Kind::Quiet, 99);
  dtb_wdl v;
  for (auto _ : state) {
    state.PauseTiming();
    dtb_tables* t = open_tables(std::size_t{256} << 20);
    for (const auto& p : openers) benchmark::DoNotOptimize(dtb_probe_wdl(t, &p, &v, nullptr));
    state.ResumeTiming();
    for (const auto& p : positions) benchmark::DoNotOptimize(dtb_probe_wdl(t, &p, &v, nullptr));
    state.PauseTiming();
    dtb_close(t);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(positions.size()));
}
BENCHMARK(BM_ProbeColdBlock)->Unit(benchmark::kMicrosecond);

// Cold, the cache's memory already touched: what an engine sees once its
// cache has filled. BM_ProbeColdBlock also pays the kernel for the cache's
// first touch: the cache asks for 2 MiB pages (block_cache.cpp), and the first
// store into each clears 2 MiB, which dominates there. Here one handle with a
// 16 MiB cache is filled by other probes first; then each probe is of a
// position not probed before, most of them decoding a block. Reported per
// block decoded (decode_us: the time of all probes, hits included, over the
// blocks they decoded) and the share of probes that decoded one.
void BM_ProbeColdTouchedCache(benchmark::State& state) {
  static std::unique_ptr<dtb::probe::Tablebase> tables = [] {
    std::unique_ptr<dtb::probe::Tablebase> t;
    if (dtb::probe::Tablebase::open(tables_dir(), std::size_t{16} << 20, 0, t, nullptr) != DTB_OK)
      throw std::runtime_error("cannot open " + tables_dir());
    dtb::Wdl v;
    for (const dtb::Position& p : random_board_positions(std::size_t{1} << 17, Kind::Quiet, 5)) t->wdl(p, v, nullptr);
    return t;
  }();
  static const std::vector<dtb::Position> positions = random_board_positions(std::size_t{1} << 18, Kind::Quiet, 13);
  static std::size_t next = 0;
  const std::uint64_t decoded_before = tables->blocks_decoded();
  std::int64_t probes = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < 256; ++k) {
      dtb::Wdl v;
      benchmark::DoNotOptimize(tables->wdl(positions[next++ % positions.size()], v, nullptr));
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(s);
    seconds += s;
    probes += 256;
  }
  const auto decoded = static_cast<double>(tables->blocks_decoded() - decoded_before);
  state.counters["decode_us"] = decoded > 0 ? 1e6 * seconds / decoded : 0;
  state.counters["decodes_per_probe"] = decoded / static_cast<double>(probes);
  state.SetItemsProcessed(probes);
}
BENCHMARK(BM_ProbeColdTouchedCache)->UseManualTime()->Iterations(200)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
