// The writer's per-block thread pool: every block done once, errors and
// exceptions from any thread come back as one TableError.
#include <catch2/catch.hpp>

#include <atomic>
#include <new>
#include <vector>

#include "compress/parallel_blocks.h"

using namespace dtb;

TEST_CASE("every block runs exactly once on any number of threads", "[parallel_blocks]") {
  for (int threads : {1, 2, 4}) {
    for (std::size_t blocks : {0u, 1u, 3u, 500u}) {
      std::vector<std::atomic<int>> runs(blocks);
      const TableError e = for_each_block(blocks, threads, [&]() -> BlockJob {
        return [&](std::size_t b) -> TableError {
          runs[b].fetch_add(1);
          return {};
        };
      }, "test");
      CHECK_FALSE(e);
      for (std::size_t b = 0; b < blocks; ++b) REQUIRE(runs[b].load() == 1);
    }
  }
}

TEST_CASE("a failing block stops the work and its error is returned", "[parallel_blocks]") {
  for (int threads : {1, 3}) {
    const TableError e = for_each_block(1000, threads, [&]() -> BlockJob {
      return [](std::size_t b) -> TableError {
        if (b == 77) return {TableStatus::IoError, "block 77 failed"};
        return {};
      };
    }, "test");
    CHECK(e.status == TableStatus::IoError);
    CHECK(e.message == "block 77 failed");
  }
}

TEST_CASE("an exception in a helper thread becomes an error, not a crash", "[parallel_blocks]") {
  for (int threads : {1, 3}) {
    const TableError e = for_each_block(1000, threads, [&]() -> BlockJob {
      return [](std::size_t b) -> TableError {
        if (b == 500) throw std::bad_alloc();
        return {};
      };
    }, "cannot write T.wdl");
    CHECK(e.status == TableStatus::OutOfMemory);
    CHECK(e.message == "cannot write T.wdl: out of memory at block 500");
  }
}
