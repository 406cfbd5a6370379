// Read costs of table files (targets in compress/FORMAT.md): one value from
// a block already decoded (< 50 ns), and decoding one block on a cache miss
// (< 5 us). The table is $DTB_BENCH_TABLE (a real .wdl file, e.g. the largest
// 4-piece table) or, when unset, a synthetic tablebase-like table. With
// DTB_BENCH_REENCODE=1 the real table's stored values are first rewritten
// with write_table's default options, to measure the default format on real
// data whatever settings the file was made with.
//
//   DTB_BENCH_TABLE=tables/KKMvK.wdl bench_compress_read --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>

#include "compress/table_file.h"
#include "tests/compress/synthetic_values.h"

using namespace dtb;

namespace {

// The table under test, opened once; its file pages are made resident by a
// full verification so that the decode figures measure zstd and the checks,
// not the disk.
const TableReader& table() {
  static const std::unique_ptr<TableReader> reader = [] {
    std::string path;
    if (const char* env = std::getenv("DTB_BENCH_TABLE")) {
      path = env;
    } else {
      path = (std::filesystem::temp_directory_path() / "dtb-bench-compress-read.wdl").string();
      const auto t = testing::tablebase_like(4'000'000, 1225, 30, 1);
      if (TableError e = write_table(path, {Material{2, 1, 1, 0}, TableKind::Wdl, t.values, t.dont_care})) {
        std::cerr << e.message << "\n";
        std::exit(1);
      }
    }
    TableError e;
    auto r = TableReader::open(path, &e);
    if (r && std::getenv("DTB_BENCH_REENCODE")) {
      std::vector<std::uint16_t> all, block;
      for (std::uint64_t b = 0; b < r->block_count() && !e; ++b) {
        e = r->decode_block(b, block);
        all.insert(all.end(), block.begin(), block.end());
      }
      const std::string copy = (std::filesystem::temp_directory_path() / "dtb-bench-compress-reencoded.wdl").string();
      if (!e) e = write_table(copy, {r->material(), r->kind(), all, {}});
      if (!e) r = TableReader::open(copy, &e);
    }
    if (!r || (e = r->verify_all())) {
      std::cerr << e.message << "\n";
      std::exit(1);
    }
    std::cerr << "table " << path << ": " << r->positions() << " positions, " << r->block_count() << " blocks of "
              << r->positions_per_block() << ", dictionary " << r->dictionary_bytes() << " bytes, " << r->file_bytes()
              << " bytes\n";
    return r;
  }();
  return *reader;
}

std::vector<std::uint32_t> random_offsets(std::uint32_t limit) {
  std::mt19937 rng(7);
  std::vector<std::uint32_t> v(4096);
  for (auto& x : v) x = static_cast<std::uint32_t>(rng() % limit);
  return v;
}

void BM_ValueFromDecodedBlockPacked2(benchmark::State& state) {
  const TableReader& r = table();
  std::vector<std::uint8_t> block;
  if (TableError e = r.decode_block_packed2(0, block)) state.SkipWithError(e.message.c_str());
  const auto offsets = random_offsets(r.block_values(0));
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(packed2_value(block.data(), offsets[k++ & 4095]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValueFromDecodedBlockPacked2);

void BM_ValueFromDecodedBlockBytes(benchmark::State& state) {
  const TableReader& r = table();
  std::vector<std::uint8_t> block;
  if (TableError e = r.decode_block_bytes(0, block)) state.SkipWithError(e.message.c_str());
  const auto offsets = random_offsets(r.block_values(0));
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(block[offsets[k++ & 4095]]);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValueFromDecodedBlockBytes);

// A cache miss: every iteration decodes another block (checksum + zstd + range check).
template <typename Decode>
void decode_blocks(benchmark::State& state, Decode decode) {
  const TableReader& r = table();
  std::vector<std::uint8_t> out;
  std::uint64_t b = 0, values = 0;
  for (auto _ : state) {
    if (TableError e = decode(r, b, out)) {
      state.SkipWithError(e.message.c_str());
      break;
    }
    values += r.block_values(b);
    b = (b + 1) % r.block_count();
  }
  state.counters["values_per_block"] = benchmark::Counter(static_cast<double>(values) / static_cast<double>(state.iterations()));
}

void BM_DecodeBlockPacked2(benchmark::State& state) {
  decode_blocks(state, [](const TableReader& r, std::uint64_t b, std::vector<std::uint8_t>& out) {
    return r.decode_block_packed2(b, out);
  });
}
BENCHMARK(BM_DecodeBlockPacked2);

void BM_DecodeBlockBytes(benchmark::State& state) {
  decode_blocks(state, [](const TableReader& r, std::uint64_t b, std::vector<std::uint8_t>& out) {
    return r.decode_block_bytes(b, out);
  });
}
BENCHMARK(BM_DecodeBlockBytes);

}  // namespace

BENCHMARK_MAIN();
