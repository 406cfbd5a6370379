// Helpers shared by the index tests: random positions and exhaustive
// enumeration built directly from the rules (legal squares per piece kind),
// independently of the index arithmetic under test.
#pragma once

#include <functional>
#include <random>
#include <vector>

#include "index/material.h"
#include "rules/position.h"

namespace dtb::test {

/// Every material with exactly n pieces (each colour at least one).
inline std::vector<Material> materials_with(int n) {
  std::vector<Material> out;
  for (int wk = 0; wk <= n; ++wk)
    for (int wm = 0; wk + wm <= n; ++wm)
      for (int bk = 0; wk + wm + bk <= n; ++bk) {
        const int bm = n - wk - wm - bk;
        if (wk + wm > 0 && bk + bm > 0)
          out.push_back({static_cast<std::uint8_t>(wk), static_cast<std::uint8_t>(wm),
                         static_cast<std::uint8_t>(bk), static_cast<std::uint8_t>(bm)});
      }
  return out;
}

/// Squares a piece kind may stand on: white men 6..50, black men 1..45, kings anywhere.
inline Bitboard legal_squares(bool white, bool king) {
  if (king) return kBoardMask;
  return white ? squares_bb(6, 50) : squares_bb(1, 45);
}

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

/// Calls visit(p) once for every position of m with White to move: every
/// choice of white men, black men, white kings, black kings as sets of squares.
inline void for_each_position(const Material& m, const std::function<void(const Position&)>& visit) {
  struct Group {
    int count;
    bool white, king;
  };
  const Group groups[] = {{m.white_men, true, false},
                          {m.black_men, false, false},
                          {m.white_kings, true, true},
                          {m.black_kings, false, true}};
  Position p{0, 0, 0, Color::White};
  // Choose the pieces of groups[g] one by one in ascending squares, from `from`.
  std::function<void(int, int, int)> place = [&](int g, int left, int from) {
    if (left == 0) {
      if (g == 3) return visit(p);
      return place(g + 1, groups[g + 1].count, 1);
    }
    const Group& group = groups[g];
    for (int s = from; s <= 50; ++s) {
      const Bitboard b = square_bb(s);
      if ((b & legal_squares(group.white, group.king)) == 0 || (b & p.occupied()) != 0) continue;
      (group.white ? p.white : p.black) |= b;
      if (group.king) p.kings |= b;
      place(g, left - 1, s + 1);
      (group.white ? p.white : p.black) &= ~b;
      p.kings &= ~b;
    }
  };
  place(0, groups[0].count, 1);
}

}  // namespace dtb::test
