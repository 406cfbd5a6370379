// The answer about one position that `dtb probe` prints and `dtb serve`
// sends: its value, every legal move with the value it keeps (best first, in
// the order of the library's root probe, dtb_probe_root), and where the
// directory has them, distances to win (.dtw) and the values under the FMJD
// draw limits of articles 6.3/6.4 (.rule). Built here once so that the
// command line and the HTTP API can never drift apart; written as JSON by
// report_json.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/dtb.hpp"
#include "compress/value_encoding.h"
#include "rules/value.h"
#include "serve/report_failure.h"

namespace dtb {

struct MoveReport {
  std::string move;  // FMJD notation
  std::string fen;   // the position after the move
  dtb_wdl wdl = DTB_DRAW;  // for the side that made the move
  bool keeps_best = false;
  // Plies from the position before the move to the end of the game when this
  // move is played and both sides then play perfectly (1 + the dtw after it),
  // so the best move's dtw is the position's. Set when the result is decided
  // and the .dtw table of the position after the move exists.
  std::optional<int> dtw;
  // With the position's count running (it is in a 6.3/6.4 class): the rule
  // value for the mover, and the count after the move (0 when it enters a
  // new class, at most the class's limit; unset when it leaves the classes
  // or ends the game).
  std::optional<Wdl> rule_wdl;
  std::optional<int> plies_in_class;
  // Plies to the next conversion through this move, for the mover: 1 if it
  // converts (a capture or a man move) or ends the game, else 1 + the MTC of
  // the position it leads to; so the best move's equals the position's mtc.
  // Set when the result after it is decided and known to the .mtc tables.
  std::optional<int> mtc;
  // With a 6.2 count given: the count after the move (0 after a conversion,
  // one more after a king move; 50 means the rule has drawn the game) and
  // the mover's value under the rules there (dtb_probe_counted, the class
  // count carried on). When the move ends the game no count runs on
  // and rules_wdl is its result; rules_wdl is unset where the tables cannot
  // give it exactly.
  std::optional<int> plies_since_conversion;
  std::optional<Wdl> rules_wdl;
};

struct ProbeReport {
  std::string fen;  // canonical FEN, or the input if it did not parse
  Failure failure;  // set: the answer is only this
  dtb_wdl wdl = DTB_DRAW;
  std::optional<Outcome> dtw;  // from <dir>/<material>.dtw when it exists
  std::optional<Wdl> rule_wdl;  // from <dir>/<material>.rule, with the given count
  // Perfect play (dtb_probe_mtc, dtb_best_move). Unset where the directory
  // lacks the .mtc tables they need, so that a directory built without
  // `dtb gen --mtc` still answers everything else.
  std::optional<int> mtc;                // plies to the next conversion; unset for a draw
  std::optional<std::string> best_move;  // FMJD notation; unset without a legal move
  // With a 6.2 count given: the value under article 6.2 (and 6.3/6.4 in
  // their classes, dtb_probe_counted). Unset without the tables it needs, and
  // for a win or loss the tables cannot decide exactly (DTB_NOT_EXACT).
  std::optional<Wdl> rules_wdl;
  // With a 6.2 count given: the move of perfect play under the rule
  // (dtb_best_move_counted: in a 6.3/6.4 class the class count decides),
  // which keeps every win rules_wdl reports; it can differ
  // from best_move, whose least-MTC move may convert into a line the rule
  // draws or spend a class count. Unset where rules_wdl is, without a legal
  // move, and once a class count has reached its limit.
  std::optional<std::string> rules_best_move;
  std::vector<MoveReport> moves;
};

/// Everything the tables say about `fen` with `plies_in_class` plies already
/// played in its draw-limit class (ignored outside the classes), every kind
/// of table read through the probe library's handle `tables` (its one cache,
/// its statuses), which may be shared between threads.
/// With `plies_since_conversion` >= 0 also the value under article 6.2, with
/// `rules_class_count` as the class count of dtb_counts (-1: the class
/// was entered at the last conversion); the 6.3/6.4 values (rule_wdl, each
/// move's rule_wdl and plies_in_class) then use that same class count, as
/// the draw rules read it, up to the class's limit.
ProbeReport probe_report(const Tablebase& tables, std::string_view fen, int plies_in_class,
                         int plies_since_conversion = -1, int rules_class_count = -1);

}  // namespace dtb
