// The per-position checks of `dtb verify` share their loops: over a table, the
// first position whose stored value its moves contradict, in parallel (the
// passes of their own, article62_verifier.h); over a position's moves, where
// each goes (those passes and the level check, verifier.cpp).
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>

#include "support/interrupt.h"
#include "support/progress_bar.h"
#include "index/colour.h"
#include "index/king_move_ranks.h"
#include "index/position_index.h"
#include "rules/movegen.h"

namespace dtb::gen {

inline constexpr std::uint64_t kNoMismatch = std::numeric_limits<std::uint64_t>::max();
inline constexpr std::uint64_t kInterrupted = kNoMismatch - 1;

/// The least i in [0, n) with wrong(i), or kNoMismatch. Chunks of positions,
/// so that the progress line (if any) moves without an atomic update per
/// position: a 6-piece table's check takes minutes. `wrong` is called from
/// many threads. A stop request (interrupt.h) skips the chunks left and
/// gives kInterrupted (never kNoMismatch): a 7-piece table's check takes most
/// of an hour, and a stop must not wait for it.
template <class Wrong>
std::uint64_t first_mismatch(std::uint64_t n, ProgressBar* progress, const Wrong& wrong) {
  constexpr std::uint64_t kChunk = 1 << 16;
  std::atomic<std::uint64_t> first{kNoMismatch};
  const auto chunks = static_cast<std::int64_t>((n + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    if (interrupt_requested()) continue;
    const std::uint64_t begin = static_cast<std::uint64_t>(c) * kChunk, end = std::min(n, begin + kChunk);
    // (a chunk past a mismatch found cannot hold a smaller one: a failing check ends early)
    if (begin > first.load(std::memory_order_relaxed)) continue;
    for (std::uint64_t i = begin; i < end; ++i) {
      if (!wrong(i)) continue;
      std::uint64_t cur = first.load();
      while (i < cur && !first.compare_exchange_weak(cur, i)) {
      }
    }
    if (progress) progress->advance(end - begin);
  }
  if (first.load() == kNoMismatch && interrupt_requested()) return kInterrupted;
  return first.load();
}

/// Where a move leads that leaves the unit (for_each_quiet_successor).
inline constexpr std::uint64_t kLeavesUnit = std::numeric_limits<std::uint64_t>::max();

/// Each move of `moves`, the quiet moves of p (White to move in one table of a
/// unit, need not capture), with where it leads in the twin table `twin`:
/// `visit(k, j, kings_rank)` for moves[k], j the successor's index in twin
/// (kLeavesUnit for a promotion) and, for a king move, kings_rank its kings'
/// rank in its slice (else kLeavesUnit).
/// A king move stays in the level, and all of p's in one slice of the twin:
/// they share the men's rank and the unmoved side's kings' term, and each
/// one's own term comes from the moving king's square alone
/// (ReversedKingMoveTerms). A man move goes to the level above, ranked whole.
template <class Visit>
void for_each_quiet_successor(const Position& p, const MoveList& moves, const PositionIndex& twin,
                              const Visit& visit) {
  const int kings = popcount(p.kings);
  std::uint64_t slice_first = kLeavesUnit, unmoved_term = 0;
  ReversedKingMoveTerms terms;
  Bitboard terms_king = 0;  // the king `terms` is set for
  for (int k = 0; k < moves.size; ++k) {
    const Move& mv = moves[k];
    const Bitboard from = Bitboard{1} << mv.from;
    if (p.kings & from) {
      if (slice_first == kLeavesUnit) {
        const Position w = colour_reversed(p);  // its men and white kings are those of every king move's successor
        slice_first = twin.rank_men(w.men_of(Color::White), w.men_of(Color::Black)) * twin.kings_per_slice();
        unmoved_term = twin.white_kings_term(w);
      }
      if (terms_king != from) {
        terms.set_king(p, from);
        terms_king = from;
      }
      const std::uint64_t kings_rank = unmoved_term + terms.black_kings_term(mv.to);
      visit(k, slice_first + kings_rank, kings_rank);
    } else {
      const Position after = make_move(p, mv);
      visit(k, popcount(after.kings) != kings ? kLeavesUnit : twin.rank(colour_reversed(after)), kLeavesUnit);
    }
  }
}

/// Each move of p (White to move in one table of a unit) for the checks:
/// `visit(value for the mover, cost)`. A move that leaves the unit (a
/// capture or a promotion) is valued by `exit(position after it)` and costs
/// 1; one that stays reaches position j of the twin table (`twin`: Black to
/// move here is White to move there), valued by `inside(j)`, costing 1 for a
/// man move and 1 + `plies(j)` for a king move.
template <class Exit, class Inside, class Plies, class Visit>
void for_each_move_outcome(const Position& p, const PositionIndex& twin, const Exit& exit, const Inside& inside,
                           const Plies& plies, const Visit& visit) {
  MoveList moves;
  generate_moves(p, moves);
  for (const Move& mv : moves) {
    const Position after = make_move(p, mv);
    const Bitboard from = Bitboard{1} << mv.from, to = Bitboard{1} << mv.to;
    const bool man = (p.men_of(p.side) & from) != 0;
    if (mv.is_capture() || (man && (to & promotion_row(p.side)))) {
      visit(negate(exit(after)), 1);
      continue;
    }
    const std::uint64_t j = twin.rank(colour_reversed(after));
    visit(negate(inside(j)), man ? 1 : 1 + plies(j));
  }
}

}  // namespace dtb::gen
