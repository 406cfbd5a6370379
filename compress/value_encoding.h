// How distance-to-win and rule budgets are stored as the uint16 values of
// compress/ tables (TableKind::Dtw and TableKind::Rule). Side to move's view,
// White to move (the table convention).
//
// .dtw: 0 = draw (never decided); otherwise dtw + 1, where dtw is the number
//       of plies to the end of the game with perfect play (winner shortest,
//       loser longest). The last ply of a won game is the winner's, so a win
//       always has an odd dtw and a loss an even one (0: no legal move, or no
//       pieces left): the value alone says win or loss.
// .rule: 0 = the draw limit always decides a draw ("never decided within any
//       budget"); otherwise 2 * b + 1 for a loss and 2 * b + 2 for a win, where
//       b is the least number of plies remaining in the class's count that
//       still lets the result be forced (see rule_builder.h for the proof that
//       this one number gives the value for every count). b has no parity
//       rule: a move into a fresh class decides at once, so both are stored.
#pragma once

#include <cstdint>
#include <optional>

#include "rules/value.h"

namespace dtb {

/// A decided or undecided result with its distance in plies.
struct Outcome {
  Wdl value = Wdl::Draw;
  std::uint16_t plies = 0;  // meaningful only when value != Draw
  friend constexpr bool operator==(const Outcome&, const Outcome&) = default;
};

inline constexpr std::uint16_t kMaxStoredPlies = 32000;

constexpr std::uint16_t encode_dtw(Outcome o) {
  return o.value == Wdl::Draw ? 0 : static_cast<std::uint16_t>(o.plies + 1);
}
constexpr Outcome decode_dtw(std::uint16_t v) {
  if (v == 0) return Outcome{};
  const std::uint16_t plies = static_cast<std::uint16_t>(v - 1);
  return Outcome{plies % 2 == 1 ? Wdl::Win : Wdl::Loss, plies};
}

constexpr std::uint16_t encode_rule(Outcome o) {
  if (o.value == Wdl::Draw) return 0;
  return static_cast<std::uint16_t>(2 * o.plies + (o.value == Wdl::Win ? 2 : 1));
}
constexpr Outcome decode_rule(std::uint16_t v) {
  if (v == 0) return Outcome{};
  const bool win = v % 2 == 0;
  return Outcome{win ? Wdl::Win : Wdl::Loss, static_cast<std::uint16_t>((v - (win ? 2 : 1)) / 2)};
}

/// The rule value with `remaining` plies left in the class's count: decided
/// iff the stored budget fits, a draw otherwise.
constexpr Wdl rule_value_with_budget(Outcome budget, int remaining) {
  return budget.value != Wdl::Draw && budget.plies <= remaining ? budget.value : Wdl::Draw;
}

static_assert(decode_dtw(encode_dtw(Outcome{Wdl::Loss, 0})) == Outcome{Wdl::Loss, 0});
static_assert(decode_dtw(encode_dtw(Outcome{Wdl::Win, 31})) == Outcome{Wdl::Win, 31});
static_assert(encode_dtw(Outcome{}) == 0 && decode_dtw(0) == Outcome{});
static_assert(decode_rule(encode_rule(Outcome{Wdl::Loss, 1})) == Outcome{Wdl::Loss, 1});
static_assert(decode_rule(encode_rule(Outcome{Wdl::Win, 0})) == Outcome{Wdl::Win, 0});
static_assert(encode_rule(Outcome{}) == 0 && decode_rule(0) == Outcome{});

}  // namespace dtb
