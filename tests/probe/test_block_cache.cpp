// The decoded-page cache: what goes in comes out, it stays within its
// budget, and it evicts the least recently used page of a set.
#include <catch2/catch.hpp>
#include <vector>

#include "probe/block_cache.h"

namespace dtb::probe {
namespace {

using Page = std::vector<std::uint8_t>;

// A page whose value i is (i * seed) % 3, packed 2 bits per value.
Page make_page(std::uint32_t seed) {
  Page page(BlockCache::kPageBytes, 0);
  for (std::uint32_t i = 0; i < BlockCache::kPagePositions; ++i)
    page[i >> 2] = static_cast<std::uint8_t>(page[i >> 2] | (((i * seed) % 3) << ((i & 3) * 2)));
  return page;
}

TEST_CASE("cached pages return the values stored", "[cache]") {
  BlockCache cache(1 << 20);
  CHECK(cache.lookup(7, 0) == -1);
  const Page a = make_page(1), b = make_page(2);
  cache.insert(7, a.data());
  cache.insert(8, b.data());
  for (std::uint32_t i : {0u, 1u, 2u, 3u, 4u, 5u, 1000u, BlockCache::kPagePositions - 1}) {
    CHECK(cache.lookup(7, i) == static_cast<int>(i % 3));
    CHECK(cache.lookup(8, i) == static_cast<int>((2 * i) % 3));
  }
  // Inserting a key already present keeps the first copy.
  cache.insert(7, b.data());
  CHECK(cache.lookup(7, 1) == 1);
}

TEST_CASE("the cache stays within its byte budget", "[cache]") {
  const std::size_t budget = 40 * BlockCache::kWays * BlockCache::kPageBytes + 123;
  BlockCache cache(budget);
  CHECK(cache.capacity_bytes() <= budget);
  CHECK(cache.capacity_bytes() > budget / 2);
  const Page page = make_page(1);
  const std::uint64_t inserted = 10 * cache.capacity_bytes() / BlockCache::kPageBytes;
  for (std::uint64_t k = 1; k <= inserted; ++k) cache.insert(k, page.data());
  std::uint64_t present = 0;
  for (std::uint64_t k = 1; k <= inserted; ++k) present += cache.lookup(k, 0) >= 0;
  CHECK(present * BlockCache::kPageBytes <= cache.capacity_bytes());
  CHECK(present > 0);
}

TEST_CASE("a full set evicts its least recently used page", "[cache]") {
  BlockCache cache(1);  // the minimum: one set of kWays pages
  REQUIRE(cache.capacity_bytes() == BlockCache::kWays * BlockCache::kPageBytes);
  const Page page = make_page(1);
  for (std::uint64_t k = 1; k <= BlockCache::kWays; ++k) cache.insert(k, page.data());
  CHECK(cache.lookup(1, 0) == 0);  // page 1 is now the most recently used; 2 is the oldest
  cache.insert(100, page.data());
  CHECK(cache.lookup(2, 0) == -1);
  CHECK(cache.lookup(1, 0) == 0);
  CHECK(cache.lookup(100, 1) == 1);
  for (std::uint64_t k = 3; k <= BlockCache::kWays; ++k) CHECK(cache.lookup(k, 0) == 0);
}

}  // namespace
}  // namespace dtb::probe
