// The walker against the index it shortcuts: every position it steps to is
// the one unrank() gives for that index.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "index/position_walker.h"
#include "tests/index/index_test_helpers.h"

namespace dtb {
namespace {

// Positions [first, first + count) of one slice, walked, that differ from unrank().
std::uint64_t walk_errors(const PositionIndex& index, std::uint64_t first, std::uint64_t count) {
  PositionWalker walker(index);
  std::uint64_t errors = walker.seek(first) != index.unrank(first);
  for (std::uint64_t i = first + 1; i < first + count; ++i) errors += walker.next() != index.unrank(i);
  return errors;
}

}  // namespace

TEST_CASE("next_set_among steps through every k-set of a mask in increasing order, and stops at the last") {
  std::mt19937_64 rng(20261206);
  for (int trial = 0; trial < 200; ++trial) {
    // A random mask of 6 to 16 board squares, and every set of k of them.
    Bitboard mask = 0;
    const int size = 6 + static_cast<int>(rng() % 11);
    while (std::popcount(mask) < size) mask |= square_bb(1 + static_cast<int>(rng() % 50));
    const int k = 1 + static_cast<int>(rng() % 4);
    std::vector<Bitboard> expected;
    for (std::uint64_t pick = 0; pick < (std::uint64_t{1} << size); ++pick) {
      if (std::popcount(pick) != k) continue;
      Bitboard set = 0, rest = mask;
      for (int b = 0; b < size; ++b, rest &= rest - 1)
        if (pick >> b & 1) set |= rest & (~rest + 1);
      expected.push_back(set);
    }
    std::sort(expected.begin(), expected.end());
    Bitboard empty = 0;
    CHECK_FALSE(next_set_among(empty, mask));
    INFO("mask " << mask << " k " << k);
    REQUIRE(first_set_among(k, mask) == expected.front());
    std::uint64_t errors = 0;
    for (std::size_t i = 0; i + 1 < expected.size(); ++i) {
      Bitboard set = expected[i];
      errors += !next_set_among(set, mask) || set != expected[i + 1];
    }
    CHECK(errors == 0);
    Bitboard last = expected.back();
    CHECK_FALSE(next_set_among(last, mask));
    CHECK(last == expected.back());
  }
}

TEST_CASE("exhaustive: walking every slice of every table up to 4 pieces gives unrank's positions") {
  for (int n = 2; n <= 4; ++n)
    for (const Material& m : test::materials_with(n)) {
      INFO("material " << m.name());
      const PositionIndex index(m);
      std::uint64_t errors = 0;
      for (std::uint64_t s = 0; s < index.slice_count(); ++s)
        errors += walk_errors(index, s * index.kings_per_slice(), index.kings_per_slice());
      CHECK(errors == 0);
    }
}

TEST_CASE("walking from random places of every 5-, 6- and 7-piece table gives unrank's positions, to a slice's end") {
  std::mt19937_64 rng(1206);
  for (int n = 5; n <= 7; ++n)
    for (const Material& m : test::materials_with(n)) {
      INFO("material " << m.name());
      const PositionIndex index(m);
      std::uniform_int_distribution<std::uint64_t> any_index(0, index.size() - 1);
      std::uint64_t errors = 0;
      for (int k = 0; k < 20; ++k) {
        // 2,000 positions from a random index, and the last 2,000 of its
        // slice (where the white kings move on), each within the slice.
        const std::uint64_t first = any_index(rng);
        const auto [slice_begin, slice_end] = index.slice_range(index.slice_of(first));
        errors += walk_errors(index, first, std::min<std::uint64_t>(slice_end - first, 2000));
        const std::uint64_t tail = std::max(slice_begin, slice_end > 2000 ? slice_end - 2000 : 0);
        errors += walk_errors(index, tail, slice_end - tail);
      }
      CHECK(errors == 0);
    }
}

}  // namespace dtb
