// The don't-care fill keeps every value that matters and repeats the
// previous stored value elsewhere.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <span>

#include "compress/dont_care_fill.h"

using namespace dtb;

TEST_CASE("don't-care positions repeat the previous stored value", "[dont_care]") {
  const std::vector<std::uint16_t> values = {2, 0, 1, 1, 0, 2, 2, 0};
  const std::vector<std::uint8_t> dc = {1, 0, 1, 1, 0, 1, 0, 1};
  CHECK(fill_dont_care(values, dc) == std::vector<std::uint16_t>{0, 0, 0, 0, 0, 0, 2, 2});
}

TEST_CASE("without don't-care marks the values are unchanged", "[dont_care]") {
  const std::vector<std::uint16_t> values = {2, 0, 1};
  CHECK(fill_dont_care(values, {}) == values);
}

TEST_CASE("a table made only of don't-care positions stores zeros", "[dont_care]") {
  const std::vector<std::uint16_t> values = {2, 1, 2};
  const std::vector<std::uint8_t> dc = {1, 1, 1};
  CHECK(fill_dont_care(values, dc) == std::vector<std::uint16_t>{0, 0, 0});
}

// The writer fills each block on its own (and on any thread), from the
// block's carry: the result must be the sequential fill, position by position.
// The oracle here is the rule itself, written as plainly as possible.
namespace {

std::vector<std::uint16_t> sequential_fill(const std::vector<std::uint16_t>& values,
                                           const std::vector<std::uint8_t>& dc) {
  std::vector<std::uint16_t> out(values.size(), 0);
  std::size_t first_cared = 0;
  while (first_cared < values.size() && dc[first_cared]) ++first_cared;
  if (first_cared == values.size()) return out;  // nothing matters: zeros
  std::uint16_t previous = values[first_cared];
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!dc[i]) previous = values[i];
    out[i] = previous;
  }
  return out;
}

std::vector<std::uint16_t> blockwise_fill(const std::vector<std::uint16_t>& values,
                                          const std::vector<std::uint8_t>& dc, std::size_t per_block) {
  const std::vector<std::uint16_t> carries = block_carries(values, dc, per_block);
  std::vector<std::uint16_t> out(values.size(), 9);
  // Backwards, to show that no block depends on another being filled first.
  for (std::size_t b = carries.size(); b-- > 0;) {
    const std::size_t first = b * per_block, count = std::min(per_block, values.size() - first);
    fill_dont_care_block(values, dc, first, carries[b], std::span<std::uint16_t>(out).subspan(first, count));
  }
  return out;
}

}  // namespace

TEST_CASE("filling block by block gives the sequential fill", "[dont_care]") {
  std::mt19937_64 rng(20261129);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = rng() % 2000;
    // Don't-care density from none to all, in runs of varied length, so that
    // whole blocks (and the table's start) are often all don't-care.
    const unsigned density = static_cast<unsigned>(rng() % 11);
    std::vector<std::uint16_t> values(n);
    std::vector<std::uint8_t> dc(n);
    for (std::size_t i = 0; i < n;) {
      const std::size_t run = 1 + rng() % 200;
      const std::uint8_t mark = rng() % 10 < density ? 1 : 0;
      for (std::size_t k = 0; k < run && i < n; ++k, ++i) {
        values[i] = static_cast<std::uint16_t>(rng() % 3);
        dc[i] = mark;
      }
    }
    const auto expected = sequential_fill(values, dc);
    REQUIRE(fill_dont_care(values, dc) == expected);
    for (std::size_t per_block : {1u, 7u, 64u, 333u, 4096u}) {
      INFO("trial " << trial << ", " << n << " positions, " << per_block << " per block");
      REQUIRE(blockwise_fill(values, dc, per_block) == expected);
    }
  }
}
