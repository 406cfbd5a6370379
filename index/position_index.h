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
// rank{s_0 < s_1 < ... < s_k-1} = sum_i C(s_i, i + 1). Exactly:
//   kings_rank = white_kings_rank * C(F - wk, bk) + black_kings_rank
//   slice = first(j) + (home_rank * C(40, wm - j) + shared_rank) * C(45 - (wm - j), bm)
//           + black_men_rank
// with j the white men on 46..50 (home_rank among those 5 squares), the
// other white men ranked among 6..45, and first(j) the slices of smaller j.
// Cost (bench/index_rank.cpp, random 6-piece positions): about 10 ns per
// rank and 20 ns per unrank; both are thread-safe (const, no shared state).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "index/fast_divisor.h"
#include "index/material.h"
#include "rules/position.h"

namespace dtb {

class PositionIndex {
 public:
  /// Throws std::invalid_argument if the material cannot stand on the board
  /// (more than 45 men of a colour, more than 50 pieces) or its size would
  /// not fit comfortably in 64 bits (>= 2^62; far beyond any buildable table).
  explicit PositionIndex(const Material& m);

  const Material& material() const { return material_; }
  /// Number of positions (White to move): exactly the number of placements.
  std::uint64_t size() const { return slice_count_ * kings_per_slice_; }
  std::uint64_t slice_count() const { return slice_count_; }
  std::uint64_t kings_per_slice() const { return kings_per_slice_; }

  /// Index of a position with this material and White to move.
  /// Precondition (checked in debug builds only): material_of(p) == material().
  std::uint64_t rank(const Position& p) const;
  /// The kings' part of rank(): rank(p) = slice * kings_per_slice() + kings_rank(p).
  /// The retrograde solver undoes king moves, which keep the slice, and so
  /// need not rank the men again for each predecessor.
  std::uint64_t kings_rank(const Position& p) const;
  /// Its two terms: kings_rank(p) = white_kings_term(p) + black_kings_term(p).
  /// The first depends only on the men and the white kings, so for the
  /// positions a king move of Black reaches from one position it is one
  /// number, and a caller ranking them all (the verifier) computes it once.
  std::uint64_t white_kings_term(const Position& p) const;
  std::uint64_t black_kings_term(const Position& p) const;
  /// The position (White to move) at an index < size().
  Position unrank(std::uint64_t index) const;

  /// Slice of a men configuration (white men, black men), and back.
  std::uint64_t rank_men(Bitboard white_men, Bitboard black_men) const;
  std::pair<Bitboard, Bitboard> unrank_men(std::uint64_t slice) const;

  /// The slice holding an index, and the index range [first, last) of a slice.
  std::uint64_t slice_of(std::uint64_t index) const { return slice_div_.quotient(index); }
  std::pair<std::uint64_t, std::uint64_t> slice_range(std::uint64_t slice) const {
    return {slice * kings_per_slice_, (slice + 1) * kings_per_slice_};
  }

  /// Whether `p` is a position of this index: White to move, this material,
  /// no square used twice, kings among the pieces, men on their legal squares.
  /// rank() may only be called on such positions; use this on untrusted input.
  bool contains(const Position& p) const;
  /// Why `p` is not a position of this index ("" if it is).
  std::string why_not_contained(const Position& p) const;

 private:
  // Men configurations come in groups by j, the number of white men on 46..50
  // (squares no black man may use): group j has C(5, j) * C(40, wm - j) *
  // C(45 - (wm - j), bm) configurations, starting at slice `first`.
  struct MenGroup {
    std::uint64_t first = 0, end = 0;
    int shared_white_men = 0;                 // wm - j, on squares 6..45
    index_detail::FastDivisor shared_ranks;   // C(40, wm - j)
    index_detail::FastDivisor black_ranks;    // C(45 - (wm - j), bm)
    index_detail::FastDivisor white_ranks;    // C(40, wm - j) * C(45 - (wm - j), bm)
  };

  std::uint64_t rank_men_padded(Bitboard white_men, Bitboard black_men) const;
  std::pair<std::uint64_t, std::uint64_t> unrank_men_dense(std::uint64_t slice) const;

  Material material_;
  std::uint64_t slice_count_ = 0;
  std::uint64_t kings_per_slice_ = 0;
  int free_squares_ = 0;  // squares left by the men: 50 - wm - bm
  std::array<MenGroup, 6> groups_{};
  int group_count_ = 0;   // groups j = 0 .. group_count_ - 1
  index_detail::FastDivisor slice_div_;        // kings_per_slice
  index_detail::FastDivisor black_kings_div_;  // C(free - wk, bk)
  std::uint64_t white_king_sets_ = 1;          // C(free, wk)
};

}  // namespace dtb
