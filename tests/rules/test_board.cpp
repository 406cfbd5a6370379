// The padded board layout's geometry, checked square by square against the
// FMJD numbering rather than against another bit trick.
#include <catch2/catch.hpp>

#include <random>

#include "rules/board.h"
#include "rules/position.h"

using namespace dtb;

TEST_CASE("rotating the board takes square s to square 51 - s and ghosts to ghosts") {
  for (int s = 1; s <= kSquares; ++s) {
    INFO("square " << s);
    CHECK(rotate_bb(square_bb(s)) == square_bb(kSquares + 1 - s));
  }
  CHECK(rotate_bb(kGhostBits) == kGhostBits);
  CHECK(rotate_bb(0) == 0);
}

TEST_CASE("colour reversal of a position is an involution that swaps the colours") {
  const Position p{square_bb(1) | square_bb(28) | square_bb(46), square_bb(3) | square_bb(50),
                   square_bb(28) | square_bb(50), Color::White};
  const Position r = colour_reversed(p);
  CHECK(r.white == (square_bb(48) | square_bb(1)));
  CHECK(r.black == (square_bb(50) | square_bb(23) | square_bb(5)));
  CHECK(r.kings == (square_bb(23) | square_bb(1)));
  CHECK(r.side == Color::Black);
  CHECK(colour_reversed(r) == p);
}

TEST_CASE("colour reversal rotates each of the three boards as rotate_bb does, on random boards") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const Position p{rng() & kBoardMask, rng() & kBoardMask, rng() & kBoardMask,
                     (i & 1) ? Color::White : Color::Black};
    const Position r = colour_reversed(p);
    INFO(p.white << " " << p.black << " " << p.kings);
    CHECK(r.white == rotate_bb(p.black));
    CHECK(r.black == rotate_bb(p.white));
    CHECK(r.kings == rotate_bb(p.kings));
    CHECK(r.side == opposite(p.side));
  }
}
