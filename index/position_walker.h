// Consecutive positions of one table, each for a few instructions instead of
// a full unrank (position_index.h: about 20 ns).
//
// Within a slice the men stand still, and the kings' part of the index is
//   kings_rank = white_kings_rank * C(F - wk, bk) + black_kings_rank,
// both ranks colex ranks of a set among the squares still free to it. So the
// position at index + 1 is the one at index with the black kings' set moved
// to its colex successor among the squares the men and the white kings leave,
// or, after the last such set, with the white kings' set moved on among the
// squares the men leave and the black kings back at their first set (the
// lowest free squares). Colex order is the order of the sets read as
// integers, and the padded layout (rules/board.h) keeps the order of the
// squares, so the successor is computed on the bitboard itself
// (next_set_among): no layout conversion, no division, no counter.
//
// The solver walks whole slices in index order; at a slice boundary (or
// anywhere) seek() unranks in full. The verifier does not use it: it
// unranks every position, independently of this shortcut.
#pragma once

#include <bit>
#include <cstdint>

#include "index/position_index.h"
#include "rules/position.h"

namespace dtb {

/// The `count` lowest squares of `mask` (the first set in colex order).
inline Bitboard first_set_among(int count, Bitboard mask) {
  Bitboard set = 0;
  for (; count > 0; --count) {
    set |= mask & (~mask + 1);
    mask &= mask - 1;
  }
  return set;
}

/// Moves the set `x` to its colex successor among the squares of `mask`:
/// the next larger integer with as many bits, all in `mask`. Returns false,
/// leaving x as it is, if x is the last such set (its squares the highest of
/// mask; the empty set is the only one of its size). Precondition: x is a
/// subset of mask. Why it works: adding x's lowest bit to x | ~mask carries
/// through the run of x's squares above it (and the squares outside mask
/// between them) into the first square of mask not in x, which is Gosper's
/// step among mask's squares; the run's other squares, cleared by the carry,
/// go to the lowest squares of mask. When the run reaches mask's highest
/// square, the carry runs through the bits above the board (all in ~mask)
/// out of the word, and the sum falls below x's lowest bit.
inline bool next_set_among(Bitboard& x, Bitboard mask) {
  const Bitboard lowest = x & (~x + 1);
  const Bitboard sum = (x | ~mask) + lowest;
  if (x == 0 || sum < lowest) return false;
  const Bitboard kept = sum & mask;
  x = kept | first_set_among(std::popcount(x) - std::popcount(kept), mask & ~kept);
  return true;
}

class PositionWalker {
 public:
  explicit PositionWalker(const PositionIndex& index)
      : index_(index), black_kings_(index.material().black_kings) {}

  /// The position at `index`, unranked in full.
  const Position& seek(std::uint64_t index) { return p_ = index_.unrank(index); }

  /// The position at the next index. Precondition: it is in the same slice
  /// (the current one is not the slice's last).
  const Position& next() {
    const Bitboard men = (p_.white | p_.black) & ~p_.kings;
    Bitboard white_kings = p_.white & p_.kings, black_kings = p_.black & p_.kings;
    if (!next_set_among(black_kings, kBoardMask & ~(men | white_kings))) {
      // past the black kings' last set: the white kings move on
      next_set_among(white_kings, kBoardMask & ~men);
      black_kings = first_set_among(black_kings_, kBoardMask & ~(men | white_kings));
    }
    p_.white = (p_.white & ~p_.kings) | white_kings;
    p_.black = (p_.black & ~p_.kings) | black_kings;
    p_.kings = white_kings | black_kings;
    return p_;
  }

  const Position& position() const { return p_; }

 private:
  const PositionIndex& index_;
  int black_kings_;
  Position p_{};
};

}  // namespace dtb
