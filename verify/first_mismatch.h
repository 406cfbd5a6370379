// The per-position checks of `dtb verify` that run as passes of their own
// (article62_verifier.h) share their loops: over a table, the first position whose stored value its
// moves contradict, in parallel; over a position's moves, where each goes.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>

#include "support/interrupt.h"
#include "support/progress_bar.h"
#include "index/colour.h"
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
    if (begin > first.load(std::memory_order_relaxed)) continue;  // cannot hold a smaller one: a failing check ends early
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
