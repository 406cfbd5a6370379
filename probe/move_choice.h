// Choosing the move of perfect play once every legal move has a value and a
// cost: one rule for every kind of distance the probe library knows (MTC for
// dtb_best_move, the 6.2 plies for dtb_best_move_rules, the 6.3/6.4 class
// budget for dtb_best_move_rule).
//
// Why least cost for the winner and greatest for the loser: each distance is
// a min-max distance (the winner shortest, the loser longest) that falls by
// one along every ply of perfect play until its phase ends, so a winner that
// always takes the least cost finishes the phase and never shuffles, and a
// loser that takes the greatest resists as long as the tables allow.
#pragma once

#include <vector>

#include "dtb/dtb.h"
#include "rules/movegen.h"
#include "rules/value.h"

namespace dtb::probe {

/// The move of perfect play among `list`, each move's value for its mover in
/// `values` and `top` the best of them: in a draw the first move that keeps
/// it; else, among the moves that keep `top`, the least `cost` in a win and
/// the greatest in a loss, a tie keeping the earlier move (deterministic).
/// `cost(i, c)` sets move i's cost and returns a dtb_status, which a failure
/// passes on. `chosen` is the move's index.
template <class Cost>
dtb_status pick_move(const MoveList& list, const std::vector<Wdl>& values, Wdl top, Cost cost, int& chosen) {
  chosen = -1;
  int chosen_cost = 0;
  for (int i = 0; i < list.size; ++i) {
    if (values[static_cast<std::size_t>(i)] != top) continue;
    if (top == Wdl::Draw) {  // any drawing move will do; the first is deterministic
      chosen = i;
      break;
    }
    int c = 0;
    if (const dtb_status s = cost(i, c); s != DTB_OK) return s;
    const bool better = chosen < 0 || (top == Wdl::Win ? c < chosen_cost : c > chosen_cost);
    if (better) {
      chosen = i;
      chosen_cost = c;
    }
    if (top == Wdl::Win && chosen_cost == 1) break;  // no move finishes its phase sooner than at once
  }
  return DTB_OK;
}

}  // namespace dtb::probe
