// A reference for the generator's distance policy (solver/exit_distances.h):
// exact min-max distances of one build unit from an explicit move graph of
// the whole unit (man moves included, about 8 bytes a move), swept by
// distance. A different method on the same game: the tests compare every
// .dtw and .rule value the generator's solver gives with it.
//
// A unit is a material M and its colour reversal R (one material if M is
// symmetric), White to move in both. A non-converting move from M leads to
// Black to move in M, which is White to move in R, so the two form one game
// graph whose edges are the "internal" moves. Every other move (a capture, a
// promotion, or whatever the caller decides leaves the unit) is "external":
// the caller gives its successor's Outcome, already known.
//
// Values, side to move's view: a position WINS in d plies if some move leads
// to a successor that LOSES in d - 1 (winner shortest); it LOSES in d if every
// move leads to a successor that WINS, the longest in d - 1 (loser longest);
// a position without a legal move loses in 0. Everything else is a draw
// (cycles that neither side can force out of).
//
// It computes distance to win (external successors: capture or promotion
// with their dtw) and the draw-rule budgets (external successors: a fresh
// class decided or not; drawrules/rule_builder.h) alike, which is why the
// external values are a callback.
#pragma once

#include <functional>
#include <vector>

#include "index/position_index.h"
#include "compress/value_encoding.h"
#include "rules/position.h"

namespace dtb::reference {

/// Outcome of a successor outside the unit, given White to move (the
/// colour reversal of the position after the move). Called from many threads.
using ExternalOutcome = std::function<Outcome(const Position& successor_white_to_move)>;

/// Solve a unit: `unit` holds the index of M and, unless M is symmetric, of
/// reversed(M). Returns one Outcome per position of each, in index order.
/// A move that takes the opponent's last piece is handled here (the
/// successor loses in 0), so `external` only sees positions with both colours.
std::vector<std::vector<Outcome>> solve_unit_by_graph(const std::vector<const PositionIndex*>& unit,
                                                      const ExternalOutcome& external);

}  // namespace dtb::reference
