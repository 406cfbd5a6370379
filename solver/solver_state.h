// The one byte per position the solver keeps while it solves a build unit.
//
//   2 .. 245          undecided: (in-unit moves not yet refuted) << 1 | draw flag
//                     (the flag: some conversion - capture-free promotion - draws)
//   kWaitLoss         (distance policy, exit_distances.h) every king move refuted,
//                     lost once its longest exit has passed: a scheduled round
//   kWaitWin          (distance policy) wins through an exit in a scheduled
//                     round, or sooner through a king move
//   kWaitCaptureWin   (distance policy) must capture, and wins by a capture in
//                     a scheduled round: a king move is not one of its moves,
//                     so nothing decides it sooner
//   kDraw             decided draw (no in-unit move left and a conversion draws)
//   kWinAt[parity]    decided win/loss in the propagation round of that parity,
//   kLossAt[parity]   not yet propagated to its predecessors
//   kWin, kLoss       decided and propagated
//
// Two parities let round r scan for its own frontier while it marks the
// frontier of round r + 1 in the same arrays, without a separate queue.
// Whatever is still undecided when no frontier is left is a draw: neither
// side can force a win, so the game can go on forever (RULES 6.1).
#pragma once

#include <array>
#include <cstdint>

#include "rules/value.h"

namespace dtb::gen::state {

inline constexpr int kMaxCounter = 122;  // 8 pieces need at most 7 kings * 17 moves
inline constexpr std::uint8_t kWaitLoss = 246;
inline constexpr std::uint8_t kWaitWin = 247;
inline constexpr std::uint8_t kDraw = 248;
inline constexpr std::array<std::uint8_t, 2> kWinAt = {249, 250};
inline constexpr std::array<std::uint8_t, 2> kLossAt = {251, 252};
inline constexpr std::uint8_t kWin = 253;
inline constexpr std::uint8_t kLoss = 254;
inline constexpr std::uint8_t kWaitCaptureWin = 255;

constexpr bool undecided(std::uint8_t s) { return s < kWaitLoss; }
constexpr std::uint8_t undecided_state(int moves, bool draw_flag) {
  return static_cast<std::uint8_t>(moves << 1 | (draw_flag ? 1 : 0));
}
constexpr bool is_frontier(std::uint8_t s, int parity) {
  return s == kWinAt[parity] || s == kLossAt[parity];
}
/// The WDL value of a state once solving is over.
constexpr Wdl final_value(std::uint8_t s) {
  if (s == kWin || s == kWinAt[0] || s == kWinAt[1]) return Wdl::Win;
  if (s == kLoss || s == kLossAt[0] || s == kLossAt[1]) return Wdl::Loss;
  return Wdl::Draw;
}

static_assert(undecided_state(kMaxCounter, true) < kWaitLoss);

}  // namespace dtb::gen::state
