// Helpers shared by the index tests: random positions, and (from
// tests/support/every_position.h) every material and every position, built
// directly from the rules (legal squares per piece kind), independently of
// the index arithmetic under test.
#pragma once

#include <random>

#include "index/material.h"
#include "rules/position.h"
#include "tests/support/every_position.h"

namespace dtb::test {

/// A uniformly placed random position of material m with the given side to move
/// (each piece on a random free legal square; not uniform over positions, but
/// every position has positive probability).
inline Position random_position(const Material& m, std::mt19937_64& rng, Color side = Color::White) {
  Position p{0, 0, 0, side};
  std::uniform_int_distribution<int> square(1, 50);
  const auto place = [&](int count, bool white, bool king) {
    for (int i = 0; i < count;) {
      const Bitboard b = square_bb(square(rng));
      if ((b & legal_squares(white, king)) == 0 || (b & p.occupied()) != 0) continue;
      (white ? p.white : p.black) |= b;
      if (king) p.kings |= b;
      ++i;
    }
  };
  place(m.white_men, true, false);
  place(m.black_men, false, false);
  place(m.white_kings, true, true);
  place(m.black_kings, false, true);
  return p;
}

}  // namespace dtb::test
