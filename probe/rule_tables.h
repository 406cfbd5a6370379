// The FMJD draw-limit values (articles 6.3 and 6.4) of positions and moves,
// for the C API's dtb_probe_rule and dtb_probe_rule_budget and for what `dtb
// probe` and `dtb serve` show (serve/probe_report.h): reads the `.rule`
// budget tables that `dtb gen --dtw` writes.
// Each class position stores one number, the least budget b of plies left in
// the class's count that still forces its result (encoding in
// compress/value_encoding.h, the proof that one number covers every count in
// drawrules/rule_builder.h): with c plies played and limit 2N, the rule value is
// the stored result if 2N - c >= b, else a draw.
//
// The files are opened and read by LimitTableFiles (lazily, in the handle's
// block cache).
//
// Thread safety: every member may be called from many threads at once.
#pragma once

#include <string>

#include "dtb/dtb.h"
#include "compress/value_encoding.h"
#include "probe/limit_table_files.h"
#include "probe/tablebase.h"
#include "rules/movegen.h"
#include "rules/value.h"

namespace dtb::probe {

/// A move of a class position under its count.
struct RuleStep {
  /// The count after the move (index/draw_rule_class.h, plies_in_class_after):
  /// +1 in the same class, 0 on entering the other class, -1 out of the
  /// classes or when the game is over.
  int plies_in_class = -1;
  /// For the side that made the move: the rule value with that count; a
  /// draw if the count ran out with the move; the theoretical value (WDL)
  /// out of the classes.
  Wdl value = Wdl::Draw;
};

class RuleTables {
 public:
  /// `base` (which must outlive this) gives the value of moves that leave the
  /// classes, and its cache keeps the decoded blocks.
  explicit RuleTables(Tablebase& base) : base_(base), files_(base.cache(), base.locator(), TableKind::Rule) {}

  /// The rule value of `p` (side to move's view) with `plies_in_class` plies
  /// already played in its class. DTB_NOT_IN_CLASS if its material is in no
  /// class, DTB_INVALID_ARGUMENT if the count is outside 0..limit.
  dtb_status rule_value(const Position& p, int plies_in_class, Wdl& out, ProbeError* error);

  /// The stored budget of `p` itself (side to move's view): the result that
  /// can be forced and the least plies of the count it needs (value Draw if
  /// no budget forces a result). DTB_NOT_IN_CLASS as for rule_value.
  dtb_status budget(const Position& p, Outcome& out, ProbeError* error);

  /// Move `m` (legal in `p`) with `plies_in_class` plies played in the class
  /// of `p`: statuses as rule_value. out.plies_in_class is set before any
  /// table is read, so it holds also when the status is DTB_TABLE_MISSING
  /// (the .rule file of the class the move leads to is absent).
  dtb_status rule_after(const Position& p, int plies_in_class, const Move& m, RuleStep& out,
                        ProbeError* error);

  /// The move of perfect play under the class count (dtb_best_move_rule):
  /// each move valued by rule_after; in a win, among the moves that keep it,
  /// the one needing the least of the count, in a loss the most (the rule
  /// game's distance: 1 for a move that ends the game or enters the other
  /// class, whose fresh count takes over, else 1 + the budget of the
  /// position reached, which stays in the class); in a draw the first move
  /// that keeps it. So the budget falls by one with every move of the line
  /// and a win under the rule is won before the count runs out. `value` (if
  /// given) receives the rule value of `p`, which the move keeps.
  /// DTB_GAME_OVER if the side to move has no legal move; else as rule_after.
  dtb_status best_move(const Position& p, int plies_in_class, Move& out, ProbeError* error, Wdl* value = nullptr);

 private:
  // DTB_NOT_IN_CLASS or DTB_INVALID_ARGUMENT unless `p` is in a class and
  // `plies_in_class` within its limit.
  static dtb_status check_count(const Position& p, int plies_in_class, ProbeError* error);

  Tablebase& base_;
  LimitTableFiles files_;
};

}  // namespace dtb::probe
