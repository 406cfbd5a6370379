// One reader shared by several threads: every thread decodes every block
// (each with its own zstd context) and gets exactly the single-thread values.
#include <catch2/catch.hpp>

#include <atomic>
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
