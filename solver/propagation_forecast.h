// How many positions a level's propagation has still to decide, forecast
// from the rounds so far: what the progress bar spreads the level's
// propagation work over.
//
// Why: each position of a level counts work in its first pass and a share
// of the propagation (unit_solver.h, kSolveWorkPerPosition). Draws are never
// decided, so counting that share per decided position made a level with many draws crawl
// through its rounds and then jump at the end: four kings against three
// (96 % of the quiet positions drawn) showed an ETA of 50 min at 60 % and
// was done soon after. Spreading the level's propagation work over the
// positions expected to be decided instead keeps the bar moving with time.
//
// The forecast: past its peak, the frontier of retrograde rounds (positions
// decided per round) shrinks roughly geometrically, each round a fraction q
// of the one before, so the rounds still to come decide about
// f·q/(1-q) positions after a round of f (the solver knows one round ahead:
// a round's decisions are the next round's frontier). While the frontier still grows
// nothing is known, and the caller assumes every undecided position may yet
// be decided (the old count). The forecast only steers the bar: the level's
// work is completed exactly when the level ends.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace dtb::gen {

/// Positions the rounds after the last of `frontiers` (positions decided in
/// each round so far, round 0 first) are expected to decide; nullopt while
/// the frontier is not shrinking. Round 0 (positions without a move) is
/// not part of the trend.
inline std::optional<std::uint64_t> forecast_remaining_decisions(std::span<const std::uint64_t> frontiers) {
  if (frontiers.size() < 3) return std::nullopt;  // rounds 1 and 2 at least
  const double last = static_cast<double>(frontiers[frontiers.size() - 1]);
  const double before = static_cast<double>(frontiers[frontiers.size() - 2]);
  if (before <= 0 || last >= before) return std::nullopt;
  const double q = last / before;
  return static_cast<std::uint64_t>(last * q / (1 - q) + 0.5);
}

}  // namespace dtb::gen
