// One reader shared by several threads: every thread decodes every block
// (each with its own zstd context) and gets exactly the single-thread values,
// also while another thread drops the reader's mapped pages.
#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>

#include "compress/table_file.h"
#include "tests/compress/synthetic_values.h"
#include "tests/compress/table_test_support.h"

using namespace dtb;

TEST_CASE("concurrent decodes of one reader agree with a single thread", "[concurrency]") {
  testing::TempDir dir;
  const auto t = testing::tablebase_like(5 * kAutoDictionaryMinPackedBytes, 700, 25, 6);  // 4 values/byte: a dictionary
  REQUIRE_FALSE(write_table(dir.file("c.wdl"), {Material{2, 1, 1, 0}, TableKind::Wdl, t.values, t.dont_care}));
  TableError e;
  const auto r = TableReader::open(dir.file("c.wdl"), &e);
  REQUIRE(r);
  REQUIRE(r->dictionary_bytes() > 0);
  std::vector<std::vector<std::uint8_t>> expected(r->block_count());
  for (std::uint64_t b = 0; b < r->block_count(); ++b) REQUIRE_FALSE(r->decode_block_packed2(b, expected[b]));

  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&, k] {
      std::vector<std::uint8_t> packed, bytes;
      for (int round = 0; round < 3; ++round) {
        for (std::uint64_t i = 0; i < r->block_count(); ++i) {
          const std::uint64_t b = (i * 7 + static_cast<std::uint64_t>(k)) % r->block_count();  // different orders
          if (r->decode_block_packed2(b, packed) || packed != expected[b]) ++mismatches;
          if (r->decode_block_bytes(b, bytes)) ++mismatches;
          for (std::uint32_t j = 0; j < bytes.size(); ++j)
            if (bytes[j] != packed2_value(expected[b].data(), j)) ++mismatches;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(mismatches == 0);
}

namespace {
// This process's resident pages of mapped files (kB), from /proc/self/status.
long rss_file_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("RssFile:", 0) == 0) return std::stol(line.substr(8));
  return -1;
}
}  // namespace

TEST_CASE("dropping a reader's resident pages frees them and keeps every value, during decodes too", "[concurrency]") {
  testing::TempDir dir;
  // Random values: incompressible, so the file is ~4.7 MB of mapped pages.
  const auto values = testing::random_values(std::size_t{24} << 20, 2, 11);
  WriteOptions options;
  options.zstd_level = 1;
  REQUIRE_FALSE(write_table(dir.file("r.wdl"), {Material{2, 1, 1, 0}, TableKind::Wdl, values, {}}, options));
  TableError e;
  const auto r = TableReader::open(dir.file("r.wdl"), &e);
  REQUIRE(r);
  REQUIRE(r->file_bytes() > (std::uint64_t{3} << 20));
  std::vector<std::vector<std::uint8_t>> expected(r->block_count());
  for (std::uint64_t b = 0; b < r->block_count(); ++b) REQUIRE_FALSE(r->decode_block_packed2(b, expected[b]));
  const long before = rss_file_kb();
  r->drop_resident_pages();
  const long after = rss_file_kb();
  INFO("RssFile " << before << " kB -> " << after << " kB");
  CHECK(before - after > static_cast<long>(r->file_bytes() / 2048));  // at least half the file, in kB

  // Drops while other threads decode: every decode still sees the same bytes.
  std::atomic<int> mismatches{0};
  std::atomic<bool> done{false};
  std::thread dropper([&] {
    while (!done) r->drop_resident_pages();
  });
  std::vector<std::thread> readers;
  for (int k = 0; k < 2; ++k)
    readers.emplace_back([&] {
      std::vector<std::uint8_t> packed;
      for (std::uint64_t b = 0; b < r->block_count(); ++b)
        if (r->decode_block_packed2(b, packed) || packed != expected[b]) ++mismatches;
    });
  for (auto& th : readers) th.join();
  done = true;
  dropper.join();
  CHECK(mismatches == 0);
}
