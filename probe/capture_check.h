// Whether the side to move must capture, computed with whole-board bitboard
// fills instead of walking each king's rays square by square.
//
// Every probe asks this once (a capture position is resolved by search, a
// quiet one read from the table), so it sits on the hot path; with several
// flying kings on the board the ray walk costs more than the rest of a probe.
// rules/movegen.h's has_capture stays the reference: tests/probe checks that
// both agree on every 2-3 piece position and on many random larger ones.
#pragma once

#include "rules/position.h"

namespace dtb::probe {

bool must_capture(const Position& p);

}  // namespace dtb::probe
