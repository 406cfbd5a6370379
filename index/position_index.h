// Dense combinatorial index of the positions of one material, White to move.
//
//   index = slice * kings_per_slice + kings_rank
//
// Major part ("slice"): the men configuration. Minor part: the kings. Every
// men configuration is one contiguous range of kings_per_slice positions, so a
// king move stays inside its slice and a man move (or a capture) leaves it.
// The generator solves and parallelises slice by slice.
//
// Men: white men stand on 6..50 and black men on 1..45. White's men are ranked
// first; black's men are ranked among the squares 1..45 that white's men left.
// Because the number of such squares depends on how many white men stand on
// 46..50, the men ranking sums over that number (see position_index.cpp).
// Kings: white kings are ranked among the squares the men left free, black
// kings among the squares left after that, so
//   kings_per_slice = C(F, wk) * C(F - wk, bk),  F = 50 - wm - bm.
// Each set is ranked with the combinatorial number system (colex order):
// rank{s_0 < s_1 < ... < s_k-1} = sum_i C(s_i, i + 1).
#pragma once

#include <cstdint>
#include <utility>

#include "index/material.h"
#include "rules/position.h"

namespace dtb {

class PositionIndex {
 public:
  explicit PositionIndex(const Material& m);

  const Material& material() const { return material_; }
  /// Number of positions (White to move): exactly the number of placements.
  std::uint64_t size() const { return slice_count_ * kings_per_slice_; }
  std::uint64_t slice_count() const { return slice_count_; }
  std::uint64_t kings_per_slice() const { return kings_per_slice_; }

  /// Index of a position with this material and White to move.
  /// Precondition (checked in debug builds only): material_of(p) == material().
  std::uint64_t rank(const Position& p) const;
  /// The position (White to move) at an index < size().
  Position unrank(std::uint64_t index) const;

  /// Slice of a men configuration (white men, black men), and back.
  std::uint64_t rank_men(Bitboard white_men, Bitboard black_men) const;
  std::pair<Bitboard, Bitboard> unrank_men(std::uint64_t slice) const;

 private:
  Material material_;
  std::uint64_t slice_count_ = 0;
  std::uint64_t kings_per_slice_ = 0;
  // implementation data (offset tables etc.) added by the implementation
};

}  // namespace dtb
