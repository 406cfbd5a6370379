// The kings' ranks (position_index.h) of the positions that differ from one
// position only in where one of its white kings stands: what the retrograde
// solver ranks for every position it decides (the king un-moves into it,
// solver/unmove.h), about 20 a position.
//
// PositionIndex::kings_rank walks every king and counts the blocked squares
// below each one. Here the other pieces' share is computed once for the king
// that moves, and each placement s of it costs three popcounts and four table
// reads. With O the other white kings (o_0 < o_1 < ...), B the black kings
// (y_0 < y_1 < ...), pos(x) a square's place among the squares the men
// leave, and c (d) the white (black) kings below s:
//
//   white rank = sum_{i<c} C(pos(o_i), i+1) + C(pos(s), c+1) + sum_{i>=c} C(pos(o_i), i+2)
//     (the kings above s are one place further in the sorted set);
//   black rank = sum_{j<d} C(q_j, j+1) + sum_{j>=d} C(q_j - 1, j+1),
//     q_j = pos(y_j) - |O below y_j|: y_j's place among the squares the men
//     and O leave, one less when s is below it too.
//
// Both sums split at c (d) into a prefix and a suffix that do not depend on
// s, tabled by set_king() for every split point.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "index/binomial.h"
#include "index/position_index.h"
#include "rules/position.h"

namespace dtb {

namespace king_move_detail {

inline constexpr Bitboard below(int bit) { return index_detail::below(bit); }
// A square's place among those not blocked (the ghost bits blocked like
// men make a padded bit a dense place), as colex_rank_among counts it.
inline int place(int bit, Bitboard blocked) { return bit - std::popcount(blocked & below(bit)); }

// For a sorted set x_0 < x_1 < ... of n elements and every split k in
// 0..n: low[k] = sum_{i<k} C(place(x_i), i + low_k), and high[k] =
// sum_{i>=k} C(place(x_i) - high_place_shift, i + high_k).
template <class Place>
void table_splits(Bitboard set, Place place_of, int low_k, int high_k, std::array<std::uint64_t, 9>& low,
                  std::array<std::uint64_t, 9>& high, int high_place_shift = 0) {
  std::array<int, 8> places;
  std::size_t n = 0;
  for (Bitboard rest = set; rest; rest &= rest - 1) places[n++] = place_of(std::countr_zero(rest));
  low[0] = 0;
  for (std::size_t i = 0; i < n; ++i)
    low[i + 1] = low[i] + index_detail::kBinomial[i + static_cast<std::size_t>(low_k)]
                                                 [static_cast<std::size_t>(places[i])];
  // (a black king on the lowest square free to it has place 0, and no
  // square s below it: its high term is never used, and is clamped.)
  high[n] = 0;
  for (std::size_t i = n; i-- > 0;)
    high[i] = high[i + 1] + index_detail::kBinomial[i + static_cast<std::size_t>(high_k)][static_cast<std::size_t>(
                                std::max(0, places[i] - high_place_shift))];
}

}  // namespace king_move_detail

class KingMoveRanks {
 public:
  explicit KingMoveRanks(const PositionIndex& index) : black_sets_(black_sets(index.material())) {}

  /// Rank from now on the positions of the index (White to move) that are
  /// `p` with its white king on `king` (a bit of p.white & p.kings) moved
  /// elsewhere.
  void set_king(const Position& p, Bitboard king) {
    blocked_ = ((p.white | p.black) & ~p.kings) | kGhostBits;
    others_ = p.white & p.kings & ~king;
    black_ = p.black & p.kings;
    king_move_detail::table_splits(
        others_, [&](int bit) { return place(bit, blocked_); }, 1, 2, white_low_, white_high_);
    king_move_detail::table_splits(
        black_, [&](int bit) { return place(bit, blocked_ | others_); }, 1, 1, black_low_, black_high_,
        /*high_place_shift=*/1);
  }

  /// kings_rank of the position with the king on the padded bit `to` (a
  /// square empty in p), p and the king those of the last set_king().
  std::uint64_t kings_rank(int to) const {
    const auto c = static_cast<std::size_t>(std::popcount(others_ & below(to)));
    const auto d = static_cast<std::size_t>(std::popcount(black_ & below(to)));
    const std::uint64_t white = white_low_[c] + white_high_[c] +
                                index_detail::kBinomial[c + 1][static_cast<std::size_t>(place(to, blocked_))];
    return white * black_sets_ + black_low_[d] + black_high_[d];
  }

 private:
  static constexpr Bitboard below(int bit) { return king_move_detail::below(bit); }
  static int place(int bit, Bitboard blocked) { return king_move_detail::place(bit, blocked); }
  static std::uint64_t black_sets(const Material& m) {
    return index_detail::binomial(kSquares - m.men() - m.white_kings, m.black_kings);
  }

  std::uint64_t black_sets_;  // C(F - wk, bk)
  Bitboard blocked_ = 0, others_ = 0, black_ = 0;
  // (not zeroed: the solver makes one for every position it decides, and a
  // split past a set's size is never read)
  std::array<std::uint64_t, 9> white_low_, white_high_, black_low_, black_high_;
};

/// The black kings' term (PositionIndex::black_kings_term) of the positions
/// colour_reversed(p with one of its white kings moved): where a move of a
/// king of p leads in the twin table, White to move there. What `dtb verify`
/// ranks for every king move it checks.
///
/// Reversing the colours rotates the board (padded bit b to kBits - 1 - b),
/// and the moving king becomes one of the black kings, ranked with the other
/// kings of its colour among the squares the men and the other colour's
/// kings leave: the same sum as the white rank of KingMoveRanks, with O the
/// other kings of its colour after the rotation.
class ReversedKingMoveTerms {
 public:
  /// Rank from now on the moves of p's white king on `king` (a bit of p.white & p.kings).
  void set_king(const Position& p, Bitboard king) {
    const Bitboard movers = p.white & p.kings;
    blocked_ = rotate_bb(p.occupied() & ~movers) | kGhostBits;
    others_ = rotate_bb(movers & ~king);
    king_move_detail::table_splits(
        others_, [&](int bit) { return king_move_detail::place(bit, blocked_); }, 1, 2, low_, high_);
  }

  /// black_kings_term of the reversed position with the king moved to the
  /// padded bit `to` (a square empty in p).
  std::uint64_t black_kings_term(int to) const {
    const int r = kBits - 1 - to;
    const auto c = static_cast<std::size_t>(std::popcount(others_ & king_move_detail::below(r)));
    const auto at = static_cast<std::size_t>(king_move_detail::place(r, blocked_));
    return low_[c] + high_[c] + index_detail::kBinomial[c + 1][at];
  }

 private:
  Bitboard blocked_ = 0, others_ = 0;
  std::array<std::uint64_t, 9> low_, high_;  // (a split past the set's size is never read)
};

}  // namespace dtb
