// Value arrays for tests and benchmarks of table files, deterministic for a
// given seed (std::mt19937_64 is specified exactly by the standard).
//
// "Tablebase-like" data mimics what the generator produces under the index
// of index/position_index.h: slices (men configurations) of kings placements
// where most slices are dominated by one value with runs of another, and a
// fraction of capture positions marked don't-care in short clusters.
#pragma once

#include <cstdint>
#include <algorithm>
#include <random>
#include <vector>

namespace dtb::testing {

struct SyntheticTable {
  std::vector<std::uint16_t> values;
  std::vector<std::uint8_t> dont_care;
};

/// Uniform random values in 0..max_value.
inline std::vector<std::uint16_t> random_values(std::size_t n, std::uint16_t max_value, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint16_t> v(n);
  for (auto& x : v) x = static_cast<std::uint16_t>(rng() % (max_value + 1u));
  return v;
}

/// WDL values (0..2) structured like a real table; about `capture_percent`
/// percent of positions are don't-care (their stored value is random: a
/// writer must not depend on it).
inline SyntheticTable tablebase_like(std::size_t n, std::size_t slice, int capture_percent, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  SyntheticTable t;
  t.values.resize(n);
  t.dont_care.resize(n);
  for (std::size_t first = 0; first < n; first += slice) {
    const auto dominant = static_cast<std::uint16_t>(rng() % 3);
    const auto other = static_cast<std::uint16_t>((dominant + 1 + rng() % 2) % 3);
    const std::size_t end = std::min(n, first + slice);
    std::uint16_t current = dominant;
    for (std::size_t i = first; i < end; ++i) {
      // Runs: switch away from the dominant value rarely, back to it often.
      if (current == dominant ? rng() % 64 == 0 : rng() % 8 == 0) current = current == dominant ? other : dominant;
      t.values[i] = current;
    }
  }
  for (std::size_t i = 0; i < n;) {  // don't-care clusters of 1..8 positions
    const std::size_t len = 1 + rng() % 8;
    const bool capture = static_cast<int>(rng() % 100) < capture_percent;
    for (std::size_t j = i; j < std::min(n, i + len); ++j) {
      t.dont_care[j] = capture;
      if (capture) t.values[j] = static_cast<std::uint16_t>(rng() % 3);
    }
    i += len;
  }
  return t;
}

}  // namespace dtb::testing
