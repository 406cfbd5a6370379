// The arithmetic under the index: binomial table, inverse search, small-set
// tables, colex rank/unrank, available-square mapping and fast division,
// each against a plain reference.
#include <catch2/catch.hpp>

#include <random>

#include "index/binomial.h"
#include "index/fast_divisor.h"

using namespace dtb::index_detail;

namespace {

std::uint64_t reference_binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return c;
}

}  // namespace

TEST_CASE("binomial table matches the multiplicative formula") {
  for (int n = 0; n <= 50; ++n)
    for (int k = 0; k <= 50; ++k) {
      INFO("C(" << n << ", " << k << ")");
      CHECK(binomial(n, k) == reference_binomial(n, k));
    }
}

TEST_CASE("largest_below is exact at both ends of every step, for tables and search") {
  for (int k = 1; k <= 12; ++k)
    for (int c = k - 1; c < 50; ++c) {
      const std::uint64_t low = binomial(c, k), high = binomial(c + 1, k) - 1;
      if (low > high) continue;  // C(c, k) == C(c + 1, k) only when both are 0 (c < k - 1)
      for (const std::uint64_t r : {low, high, low + (high - low) / 2}) {
        INFO("k " << k << " r " << r);
        CHECK(largest_below(k, r, 50) == c);
      }
    }
}

TEST_CASE("colex unrank inverts colex rank for every 1-, 2- and 3-set of 50 and random larger sets") {
  for (int k = 1; k <= 3; ++k) {
    std::uint64_t errors = 0;
    for (std::uint64_t r = 0; r < binomial(50, k); ++r) {
      const std::uint64_t set = colex_unrank(k, r, 50);
      if (std::popcount(set) != k || colex_rank(set) != r || set >> 50) ++errors;
    }
    CHECK(errors == 0);
  }
  std::mt19937_64 rng(5);
  for (int k = 4; k <= 10; ++k) {
    std::uniform_int_distribution<std::uint64_t> any(0, binomial(50, k) - 1);
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t r = any(rng);
      INFO("k " << k << " r " << r);
      const std::uint64_t set = colex_unrank(k, r, 50);
      REQUIRE(std::popcount(set) == k);
      REQUIRE(colex_rank(set) == r);
    }
  }
}

TEST_CASE("spread_around skips blocked squares and agrees with ranking among them") {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::uint64_t blocked = rng() & rng() & rng() & ((std::uint64_t{1} << 50) - 1);
    const int free = 50 - std::popcount(blocked);
    const int p = static_cast<int>(rng() % static_cast<std::uint64_t>(free));
    int square = -1;
    for (int s = 0, seen = -1; s < 50; ++s)  // reference: walk the board
      if (!(blocked >> s & 1) && ++seen == p) {
        square = s;
        break;
      }
    REQUIRE(spread_around(std::uint64_t{1} << p, blocked) == std::uint64_t{1} << square);
    CHECK(colex_rank_among(std::uint64_t{1} << square, blocked) == static_cast<std::uint64_t>(p));
  }
}

TEST_CASE("fast division agrees with the hardware for edge and random values, in both forms") {
  std::mt19937_64 rng(13);
  std::vector<std::uint64_t> divisors = {1, 2, 3, 7, 1225, 4096, 58800, 0xFFFFFFFF, 0x100000000ULL,
                                         (std::uint64_t{1} << 62) - 1, std::uint64_t{1} << 62};
  for (int i = 0; i < 200; ++i) divisors.push_back((rng() >> (rng() % 63)) | 1);
  for (int i = 0; i < 20; ++i) divisors.push_back(std::uint64_t{1} << (rng() % 62));
  const std::uint64_t limit = std::uint64_t{1} << 63;
  for (const std::uint64_t d : divisors) {
    // Largest dividend: small (exact form where n * d < 2^64) or 2^63 - 1.
    for (const std::uint64_t max : {std::min(limit - 1, ~std::uint64_t{0} / d), limit - 1}) {
      const FastDivisor fast(d, max);
      std::vector<std::uint64_t> dividends = {0, 1, d - 1, d, d + 1, max, max - 1, max - max % d,
                                              max - max % d - 1};
      if (d < max / 3) dividends.insert(dividends.end(), {2 * d - 1, 2 * d, 3 * d - 1});
      for (int i = 0; i < 300; ++i) dividends.push_back(rng() % (max + 1));
      for (const std::uint64_t n : dividends) {
        if (n > max) continue;
        INFO(n << " / " << d << " (max " << max << ")");
        REQUIRE(fast.quotient(n) == n / d);
        const auto [q, r] = fast.divmod(n);
        REQUIRE(q == n / d);
        REQUIRE(r == n % d);
      }
    }
  }
}
