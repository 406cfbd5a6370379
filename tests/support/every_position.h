// Every material of n pieces and every position of a material, enumerated
// from the rules alone (the squares each kind of piece may stand on), without
// the index: what the tests check the index, the solvers and the probe
// against. Slow enough for whole materials of up to 4 pieces only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "index/material.h"
#include "rules/position.h"

namespace dtb::test {

/// Every material with exactly n pieces, each colour at least one, fewer men
/// first: a promotion adds a king and removes a man, and a capture removes a
/// piece, so solving materials_with(2), materials_with(3), ... in this order
/// has every material a move can reach solved first.
inline std::vector<Material> materials_with(int n) {
  std::vector<Material> out;
  for (int wk = 0; wk <= n; ++wk)
    for (int wm = 0; wk + wm <= n; ++wm)
      for (int bk = 0; wk + wm + bk <= n; ++bk) {
        const int bm = n - wk - wm - bk;
        if (wk + wm == 0 || bk + bm == 0) continue;
        out.push_back(Material{static_cast<std::uint8_t>(wk), static_cast<std::uint8_t>(wm),
                               static_cast<std::uint8_t>(bk), static_cast<std::uint8_t>(bm)});
      }
  std::stable_sort(out.begin(), out.end(), [](const Material& a, const Material& b) { return a.men() < b.men(); });
  return out;
}

/// materials_with(2), then 3, ... up to max_pieces: the same order.
inline std::vector<Material> materials_up_to(int max_pieces) {
  std::vector<Material> out;
  for (int n = 2; n <= max_pieces; ++n) {
    const std::vector<Material> some = materials_with(n);
    out.insert(out.end(), some.begin(), some.end());
  }
  return out;
}

/// Squares a piece kind may stand on: white men 6..50, black men 1..45
/// (never on their promotion row), kings anywhere.
inline Bitboard legal_squares(bool white, bool king) {
  if (king) return kBoardMask;
  return white ? squares_bb(6, 50) : squares_bb(1, 45);
}

/// Calls visit(p) once for every position of m with `side` to move: every
/// choice of white men, black men, white kings, black kings as sets of squares.
inline void for_each_placement(const Material& m, Color side, const std::function<void(const Position&)>& visit) {
  struct Group {
    int count;
    bool white, king;
  };
  const Group groups[] = {{m.white_men, true, false},
                          {m.black_men, false, false},
                          {m.white_kings, true, true},
                          {m.black_kings, false, true}};
  Position p{0, 0, 0, side};
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

/// The same, as a list.
inline std::vector<Position> all_placements(const Material& m, Color side) {
  std::vector<Position> out;
  for_each_placement(m, side, [&out](const Position& p) { out.push_back(p); });
  return out;
}

}  // namespace dtb::test
