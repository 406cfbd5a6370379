// Play under the draw rules with both counts (dtb_counts): the one place that
// decides which count rules a position, for dtb_probe_counted,
// dtb_best_move_counted, the root probe and the deprecated calls they replace.
//
// Why one place: inside a 6.3/6.4 class the class count decides (a class is
// entered by a conversion, so its count is never shorter than the 6.2 count,
// and its limit is below 50), elsewhere article 6.2 does. Callers that chose
// between dtb_best_move_rules and dtb_best_move_rule themselves could pick
// the wrong one; here the material picks.
#pragma once

#include "dtb/dtb.h"
#include "probe/handle.h"
#include "rules/movegen.h"
#include "rules/value.h"

namespace dtb::probe {

/// DTB_INVALID_ARGUMENT (message naming `function`) unless the 6.2 count of
/// `counts` is 0..49: at 50 the game is already drawn.
dtb_status check_counts(const dtb_counts& counts, const char* function, ProbeError* error);

/// The class count of `p` under `counts` (index/draw_rule_class.h,
/// class_count_of: never below the 6.2 count), -1 outside the classes.
int class_count(const Position& p, const dtb_counts& counts);

/// Whether the class count of `p` has reached its class's limit: the rule
/// has drawn the game.
bool class_count_ran_out(const Position& p, const dtb_counts& counts);

/// dtb_probe_counted for a valid position and checked counts.
dtb_status counted_value(dtb_tables& tables, const Position& p, const dtb_counts& counts, Wdl& out,
                         ProbeError* error);

/// dtb_best_move_counted for a valid position and checked counts; `value`
/// (if given) receives the value the move keeps.
dtb_status counted_best_move(dtb_tables& tables, const Position& p, const dtb_counts& counts, Move& out,
                             ProbeError* error, Wdl* value = nullptr);

}  // namespace dtb::probe
