// The dense index: sizes against the published placement counts, exhaustive
// bijection for up to 4 pieces, random round trips for 5 to 7 pieces, slices.
#include <catch2/catch.hpp>

#include <random>
#include <stdexcept>

#include "index/position_index.h"
#include "index_test_helpers.h"

using namespace dtb;

namespace {

// Placements with both sides to move (RULES.md, "Public reference figures").
std::uint64_t both_sides_total(int pieces) {
  std::uint64_t total = 0;
  for (const Material& m : test::materials_with(pieces)) total += 2 * PositionIndex(m).size();
  return total;
}

}  // namespace

TEST_CASE("sizes summed over materials match the published placement counts") {
  CHECK(both_sides_total(2) == 17'690);
  CHECK(both_sides_total(3) == 1'612'600);
  CHECK(both_sides_total(4) == 83'942'400);
  CHECK(both_sides_total(5) == 3'141'201'500);
  CHECK(both_sides_total(6) == 92'397'517'500);
}

TEST_CASE("a few sizes by hand") {
  CHECK(PositionIndex(Material{1, 0, 1, 0}).size() == 50 * 49);
  CHECK(PositionIndex(Material{0, 1, 1, 0}).size() == 45 * 49);
  // White man on 46..50 (5 ways, 45 black squares left) or 6..45 (40 ways, 44 left).
  CHECK(PositionIndex(Material{0, 1, 0, 1}).size() == 5 * 45 + 40 * 44);
  const PositionIndex kkvk(Material{2, 0, 1, 0});
  CHECK(kkvk.slice_count() == 1);
  CHECK(kkvk.kings_per_slice() == 1225 * 48);
}

TEST_CASE("exhaustive: every position up to 4 pieces gets its own index, none skipped") {
  for (int n = 2; n <= 4; ++n) {
    for (const Material& m : test::materials_with(n)) {
      INFO("material " << m.name());
      const PositionIndex index(m);
      std::vector<std::uint64_t> seen((index.size() + 63) / 64, 0);
      std::uint64_t count = 0, duplicates = 0, out_of_range = 0, round_trip_errors = 0;
      test::for_each_placement(m, Color::White, [&](const Position& p) {
        ++count;
        const std::uint64_t i = index.rank(p);
        if (i >= index.size()) return void(++out_of_range);
        std::uint64_t& word = seen[i / 64];
        if (word >> (i % 64) & 1) ++duplicates;
        word |= std::uint64_t{1} << (i % 64);
        if (index.unrank(i) != p) ++round_trip_errors;
      });
      // count positions enumerated == size, each rank distinct and in range:
      // the ranks cover 0..size-1 exactly once.
      CHECK(count == index.size());
      CHECK(out_of_range == 0);
      CHECK(duplicates == 0);
      CHECK(round_trip_errors == 0);
    }
  }
}

TEST_CASE("exhaustive: rank(unrank(i)) == i for every index up to 4 pieces") {
  for (int n = 2; n <= 4; ++n) {
    for (const Material& m : test::materials_with(n)) {
      INFO("material " << m.name());
      const PositionIndex index(m);
      std::uint64_t errors = 0, foreign = 0;
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unrank(i);
        if (index.rank(p) != i) ++errors;
        // contains() is slow (it explains itself); sample it.
        if (i % 97 == 0 && !index.contains(p)) ++foreign;
      }
      CHECK(errors == 0);
      CHECK(foreign == 0);
    }
  }
}

TEST_CASE("random round trips for every material with 5, 6 and 7 pieces (and the kings' part of the rank, and its two terms)") {
  std::mt19937_64 rng(20261129);
  constexpr int kSamples = 100'000;
  for (int n = 5; n <= 7; ++n) {
    for (const Material& m : test::materials_with(n)) {
      INFO("material " << m.name());
      const PositionIndex index(m);
      std::uniform_int_distribution<std::uint64_t> any_index(0, index.size() - 1);
      std::uint64_t index_errors = 0, position_errors = 0, foreign = 0, kings_errors = 0;
      for (int k = 0; k < kSamples; ++k) {
        const std::uint64_t i = any_index(rng);
        const Position p = index.unrank(i);
        if (index.rank(p) != i) ++index_errors;
        if (index.kings_rank(p) != i - index.slice_of(i) * index.kings_per_slice()) ++kings_errors;
        if (index.white_kings_term(p) + index.black_kings_term(p) != index.kings_rank(p)) ++kings_errors;
        if (k % 64 == 0 && !index.contains(p)) ++foreign;
        const Position q = test::random_position(m, rng);
        const std::uint64_t j = index.rank(q);
        if (j >= index.size() || index.unrank(j) != q) ++position_errors;
      }
      CHECK(index_errors == 0);
      CHECK(kings_errors == 0);
      CHECK(position_errors == 0);
      CHECK(foreign == 0);
    }
  }
}

TEST_CASE("the first and last index of the largest 7-piece tables round-trip") {
  for (const Material& m : test::materials_with(7)) {
    const PositionIndex index(m);
    for (const std::uint64_t i : {std::uint64_t{0}, index.size() - 1, index.size() / 2}) {
      INFO(m.name() << " index " << i);
      CHECK(index.rank(index.unrank(i)) == i);
    }
  }
}

TEST_CASE("a slice is one men configuration and holds every king placement of it") {
  std::mt19937_64 rng(7);
  for (const Material m : {Material{1, 2, 1, 1}, Material{0, 3, 2, 0}, Material{2, 0, 0, 3}}) {
    INFO("material " << m.name());
    const PositionIndex index(m);
    std::uniform_int_distribution<std::uint64_t> any_slice(0, index.slice_count() - 1);
    for (int k = 0; k < 200; ++k) {
      const std::uint64_t slice = any_slice(rng);
      const auto [white_men, black_men] = index.unrank_men(slice);
      CHECK(index.rank_men(white_men, black_men) == slice);
      const auto [first, last] = index.slice_range(slice);
      CHECK(last - first == index.kings_per_slice());
      for (std::uint64_t i = first; i < last; i += 37) {
        const Position p = index.unrank(i);
        CHECK((p.white & ~p.kings) == white_men);
        CHECK((p.black & ~p.kings) == black_men);
        CHECK(index.slice_of(i) == slice);
      }
    }
  }
}

TEST_CASE("men moves leave the slice, king moves stay in it") {
  const PositionIndex index(Material{1, 1, 1, 0});
  const auto pos = Position{square_bb(33) | square_bb(20), square_bb(1), square_bb(20) | square_bb(1),
                            Color::White};
  const std::uint64_t slice = index.slice_of(index.rank(pos));
  Position king_moved = pos;
  king_moved.white = square_bb(33) | square_bb(9);
  king_moved.kings = square_bb(9) | square_bb(1);
  CHECK(index.slice_of(index.rank(king_moved)) == slice);
  Position man_moved = pos;
  man_moved.white = square_bb(28) | square_bb(20);
  CHECK(index.slice_of(index.rank(man_moved)) != slice);
}

TEST_CASE("contains() explains why a position is not in the index") {
  const PositionIndex index(Material{0, 1, 1, 0});
  const Position ok{square_bb(33) | 0, square_bb(1), square_bb(1), Color::White};
  CHECK(index.contains(ok));
  Position black_to_move = ok;
  black_to_move.side = Color::Black;
  CHECK_THAT(index.why_not_contained(black_to_move), Catch::Contains("Black"));
  const Position man_on_row_one{square_bb(3), square_bb(1), square_bb(1), Color::White};
  CHECK_THAT(index.why_not_contained(man_on_row_one), Catch::Contains("1-5"));
  const Position wrong_material{square_bb(33), square_bb(1), 0, Color::White};
  CHECK_THAT(index.why_not_contained(wrong_material), Catch::Contains("MvM"));
}

TEST_CASE("materials that cannot be indexed are refused, not mis-indexed") {
  CHECK_THROWS_AS(PositionIndex(Material{0, 46, 1, 0}), std::invalid_argument);
  CHECK_THROWS_AS(PositionIndex(Material{30, 0, 30, 0}), std::invalid_argument);
  CHECK_THROWS_AS(PositionIndex(Material{10, 10, 10, 10}), std::invalid_argument);  // > 2^62 positions
}
