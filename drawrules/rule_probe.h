// Reading the rule tables: the value of a position with a number of plies
// already played in its class, and a principal line under the limits.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "index/draw_rule_class.h"  // plies_in_class_after: the count the line carries
#include "drawrules/table_set.h"
#include "compress/value_encoding.h"
#include "rules/movegen.h"

namespace dtb {

/// The stored budget of a class position (value and least budget), or
/// nullopt if the position is in no class or its table is not held.
std::optional<Outcome> rule_budget(const TableSet& rules, const Position& p);

/// The rule value (side to move) with `plies_in_class` plies already played
/// in the class (0 = the class was just entered). nullopt: not in a class,
/// table missing, or plies_in_class outside 0..limit.
std::optional<Wdl> rule_value(const TableSet& rules, const Position& p, int plies_in_class);

/// One ply of a principal line, with the count after it (-1: out of classes).
struct LineStep {
  Move move;
  Position before;
  int plies_in_class_after = -1;
};

/// A principal line from `p` with `plies_in_class` played: inside a class
/// the side that wins under the limit plays the quickest move that keeps the
/// win within the remaining count and the loser the longest; after leaving
/// all classes both follow dtw (winner shortest, loser longest). Stops when
/// the game ends, or after `max_plies`, or when the position is a rule draw.
std::vector<LineStep> principal_line(const TableSet& rules, const TableSet& dtw, const Position& p,
                                     int plies_in_class, int max_plies = 400);

/// The line written as "1. 32-28 19x37 2. ..." (move numbers per White move).
std::string line_to_string(const std::vector<LineStep>& line);

}  // namespace dtb
