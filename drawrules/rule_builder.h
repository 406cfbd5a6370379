// Rule budgets: the value of a class position under articles 6.3 and 6.4,
// for every count of plies already played in the class, as ONE number.
//
// Let V(p, r) be the value of position p (side to move's view) when r plies
// of the class's count remain (r = 2N - c with c plies played, N = 16 or 5):
//   - no legal move (or no piece left): loss, for every r >= 0;
//   - otherwise r = 0: draw (2N plies were played: the limit has struck);
//   - otherwise the best over the moves m of the negated successor value,
//     where a successor in the SAME class continues the count (r - 1), a
//     successor in the OTHER class starts a fresh count (its full 2N'), and a
//     successor in no class has its theoretical value (dtw sign).
//
// Claim (monotonicity): if V(p, r) is decided (win or loss), then
// V(p, r + 1) = V(p, r).
// Proof by induction on r. r = 0: only positions without a move are decided
// at 0, and they are lost for every r. Step r -> r + 1, p with a move:
//   - V(p, r) = win: some move reaches a successor that loses; if it is in the
//     same class it loses with r - 1 remaining, by induction also with r, so
//     p wins with r + 1; fresh-class and no-class successors do not depend on
//     r at all; taking the last piece wins at any r >= 1.
//   - V(p, r) = loss: EVERY move reaches a successor that wins (with r - 1,
//     or independently of r); by induction each still wins with r, so p
//     still loses with r + 1.
// So as the budget grows, only draw -> decided can happen, once, and never
// back; and the decided value is always the theoretical one (a forced result
// under the limit is a forced result without it; same induction). Hence
// b(p) = least r with V(p, r) decided (or "never") gives every rule value:
//   V(p, 2N - c) = theoretical value if 2N - c >= b(p), else draw.
//
// Computing b: it is a min-max distance exactly like dtw, in a game in
// which a move into another class or into no class ENDS the game at once
// with that successor's decided value (or a draw when it is undecided with
// its fresh budget). The generator's solver computes it under its distance
// policy (drawrules/distance_solve.h): b(p) = 1 + b(best successor) for a
// win (winner shortest), 1 + max for a loss.
#pragma once

#include <optional>

#include "index/draw_rule_class.h"
#include "drawrules/dtw_builder.h"
#include "drawrules/table_set.h"
#include "compress/value_encoding.h"

namespace dtb {

/// A successor's value in the rule game of a class `own` position, from the
/// successor's side to move, given White to move (the colour reversal of the
/// position after the move, both colours present): same class -> its stored
/// budget; another class -> decided at distance 0 iff its budget fits the
/// fresh limit; no class -> the theoretical value (dtw sign) at distance 0.
Outcome successor_in_rule_game(const TableSet& rules, const TableSet& dtw, RuleClass own,
                               const Position& successor_white_to_move);

/// The first material that `m` (a class material) or its reversal reaches
/// and whose table is not held (rules for class materials, dtw otherwise),
/// or nullopt when everything needed is there.
std::optional<Material> missing_for_rules(const TableSet& rules, const TableSet& dtw, const Material& m);

/// The class materials of both colours, in build order (6.4 before 6.3).
std::vector<Material> class_materials();

/// Rule budgets (TableKind::Rule, value_encoding.h) for every class material
/// of both colours with at most `max_pieces` pieces (4: all of them; 3: the
/// 6.4 materials only). `dtw` must hold every material they reach.
TableSet build_rules(const TableSet& dtw, const Progress& progress = {}, int max_pieces = 4);

}  // namespace dtb
