// Conversion between the public dtb_position (dense bitboards: bit s-1 is
// square s) and the internal Position (padded bitboards, rules/board.h), with
// the validation every position from outside must pass before it is probed.
#pragma once

#include <string>

#include "dtb/dtb.h"
#include "rules/movegen.h"
#include "rules/position.h"

namespace dtb::probe {

/// Validate and convert. On failure returns DTB_INVALID_POSITION and says why
/// in `why` (if given). A position whose side to move has no pieces is valid
/// (it is lost); one where only the other side has none is not (the game
/// ended before it).
dtb_status from_c(const dtb_position& in, Position& out, std::string* why);

dtb_position to_c(const Position& p);

/// The public form of a move (value fields left at LOSS / 0).
dtb_move to_c(const Move& m);

/// The legal move of `p` that `m` describes (same from, to and captured set).
bool find_move(const Position& p, const dtb_move& m, Move& out);

}  // namespace dtb::probe
