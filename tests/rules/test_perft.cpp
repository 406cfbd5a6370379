// Perft against the published figures (RULES.md) and the "Woldouby" position.
#include <catch2/catch.hpp>

#include "rules/notation.h"
#include "rules/perft.h"

using namespace dtb;

TEST_CASE("perft from the start position matches the published figures to depth 8") {
  const std::uint64_t expected[] = {1, 9, 81, 658, 4265, 27117, 167140, 1049442, 6483961};
  const Position start = start_position();
  for (int depth = 0; depth <= 8; ++depth) {
    INFO("depth " << depth);
    CHECK(perft(start, depth) == expected[depth]);
  }
}

TEST_CASE("perft of the Woldouby position (black list first) to depth 9") {
  const auto pos = parse_fen("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38");
  REQUIRE(pos);
  const std::uint64_t expected[] = {6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436};
  for (int depth = 1; depth <= 11; ++depth) {
    INFO("depth " << depth);
    CHECK(perft(*pos, depth) == expected[depth - 1]);
  }
}

TEST_CASE("counting capture paths separately gives the published 'with duplicates' figure") {
  // RULES.md: 6,483,971 at depth 8 when duplicate captures are counted
  // separately, versus 6,483,961 with each move once: exactly 10 leaves differ.
  CHECK(perft_paths(start_position(), 8) == 6483971);
}
