// Colour reversal at the index level: an involution that maps the positions of
// a material onto those of the reversed material.
#include <catch2/catch.hpp>

#include <random>

#include "index/colour.h"
#include "index_test_helpers.h"

using namespace dtb;

TEST_CASE("colour reversal is an involution and reverses the material") {
  std::mt19937_64 rng(3);
  for (int n = 2; n <= 6; ++n)
    for (const Material& m : test::materials_with(n))
      for (int k = 0; k < 200; ++k) {
        const Position p = test::random_position(m, rng, k % 2 ? Color::Black : Color::White);
        const Position r = colour_reversed(p);
        CHECK(colour_reversed(r) == p);
        CHECK(material_of(r) == m.reversed());
        CHECK(r.side == opposite(p.side));
        CHECK(white_to_move_form(p).side == Color::White);
      }
}

TEST_CASE("colour reversal maps each material's positions onto the reversed material's (exhaustive, 3 pieces)") {
  for (const Material& m : test::materials_with(3)) {
    INFO("material " << m.name());
    const PositionIndex mine(m), theirs(m.reversed());
    REQUIRE(mine.size() == theirs.size());
    std::vector<bool> hit(theirs.size(), false);
    std::uint64_t misses = 0, collisions = 0, back = 0;
    for (std::uint64_t i = 0; i < mine.size(); ++i) {
      // Position i of M with Black to move is stored in reversed(M).
      const Position black_to_move = table_unrank(theirs, i, Color::Black);
      if (material_of(black_to_move) != m) ++misses;
      const Position with_white = mine.unrank(i);
      Position as_black = with_white;
      as_black.side = Color::Black;
      if (table_material(as_black) != m.reversed()) ++misses;
      const Position reversed = white_to_move_form(as_black);
      if (!theirs.contains(reversed)) {
        ++misses;
        continue;
      }
      const std::uint64_t j = table_rank(theirs, as_black);
      if (hit[j]) ++collisions;
      hit[j] = true;
      if (table_unrank(theirs, j, Color::Black) != as_black) ++back;
    }
    CHECK(misses == 0);
    CHECK(collisions == 0);
    CHECK(back == 0);
  }
}

TEST_CASE("the table address of a Black-to-move position is that of its reversal") {
  std::mt19937_64 rng(11);
  const Material m{1, 2, 0, 2};
  const PositionIndex table(m.reversed());
  for (int k = 0; k < 1000; ++k) {
    const Position p = test::random_position(m, rng, Color::Black);
    REQUIRE(table_material(p) == m.reversed());
    CHECK(table_rank(table, p) == table.rank(colour_reversed(p)));
    CHECK(table_unrank(table, table_rank(table, p), Color::Black) == p);
  }
}
