// The root probe (dtb_probe_root): every legal move of a position with its
// theoretical value, its moves to conversion and its value under the draw
// rules with the game's counts, best first.
//
// Why in the library: an engine at the root and the explorer (serve/
// probe_report.cpp) both want the per-move picture, and each used to build it
// with its own loop over dtb_make_move and the probes. One loop here keeps
// the values, the unknowns and the order the same for both, and the order is
// the one dtb_best_move chooses by, so the first move is its move.
#pragma once

#include <vector>

#include "dtb/dtb.h"
#include "probe/handle.h"
#include "rules/movegen.h"

namespace dtb::probe {

/// The root moves of a valid position `p` in the order dtb.h documents for
/// dtb_probe_root. `counts` may be null (no counts); when given it must have
/// passed check_counts. A missing table leaves the fields that need it
/// unknown; any other failure (a damaged table, DTB_TOO_MANY_PIECES for `p`
/// itself) fails the call.
dtb_status probe_root(dtb_tables& tables, const Position& p, const dtb_counts* counts,
                      std::vector<dtb_root_move>& out, ProbeError* error);

/// Whether `a` comes before `b` in the root probe's order (steps 1-3 of
/// dtb_probe_root; equal moves keep their dtb_legal_moves order).
bool root_move_before(const dtb_root_move& a, const dtb_root_move& b);

}  // namespace dtb::probe
