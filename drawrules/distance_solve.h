// Solving a unit of the draw-rule tables (.dtw, .rule) with the generator's
// solver under its distance policy (solver/exit_distances.h), into encoded
// table values.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "compress/value_encoding.h"
#include "drawrules/table_set.h"
#include "index/material.h"
#include "solver/exit_distances.h"

namespace dtb {

/// The outcome of a position reached by a capture or a promotion (White to
/// move, both colours present), from its side to move's view. Thread-safe.
using ExitOutcome = std::function<Outcome(const Position& successor_white_to_move)>;

/// Solve the unit of `m` (m and, unless symmetric, reversed(m)) and put each
/// table into `out`, each position's Outcome encoded by `encode`. Throws
/// std::runtime_error if the solver fails (a distance past kMaxStoredPlies).
void solve_into(const Material& m, const ExitOutcome& exits, std::uint16_t (*encode)(Outcome), TableSet& out);

}  // namespace dtb
