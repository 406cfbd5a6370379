#include "serve/probe_report.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "index/draw_rule_class.h"
#include "index/material.h"
#include "probe/counted_play.h"
#include "probe/handle.h"
#include "rules/notation.h"

namespace dtb {
namespace {

ProbeReport failed(ProbeReport r, Failure f) {
  r.failure = std::move(f);
  r.moves.clear();
  return r;
}

Failure bad_input(std::string message) {
  Failure f;
  f.kind = FailureKind::BadInput;
  f.message = std::move(message);
  return f;
}

// The value of the position and of every move, from the probe library.
Failure add_wdl(const Tablebase& tables, const dtb_position& pos, ProbeReport& r) {
  dtb_error e{};
  if (const dtb_status s = tables.probe(pos, r.wdl, &e); s != DTB_OK) return failure_of(s, e);
  std::vector<dtb_move> moves;
  dtb_wdl best = DTB_LOSS;
  if (const dtb_status s = tables.moves(pos, moves, &best, &e); s != DTB_OK) return failure_of(s, e);
  // The table value and the best move value are found independently (one
  // table read against a probe of every successor); they must agree.
  if (best != r.wdl) {
    Failure f;
    f.kind = FailureKind::TableDamaged;
    f.message = std::string("inconsistent tables: the position probes as ") + to_string(r.wdl) +
                " but its best move gives " + to_string(best);
    return f;
  }
  return {};
}

// Whether `move` of `pos` leaves the opponent no legal move (or no piece).
bool ends_game(const dtb_position& pos, const dtb_move& move) {
  dtb_position after;
  std::size_t replies = 0;
  if (dtb_make_move(&pos, &move, &after) != DTB_OK) return false;
  dtb_legal_moves(&after, nullptr, 0, &replies, nullptr);  // capacity 0: only the number
  return replies == 0;
}

// One move of the root probe as the report shows it. With counts, the 6.2
// count after the move is shown only while the game goes on.
MoveReport move_report(const dtb_position& pos, const dtb_root_move& m, bool counted) {
  MoveReport mr;
  mr.move = Tablebase::move_text(pos, m.move);
  mr.wdl = m.move.wdl;
  mr.keeps_best = m.move.keeps_best != 0;
  if (m.mtc != DTB_UNKNOWN) mr.mtc = m.mtc;
  if (m.counted_wdl != DTB_UNKNOWN_WDL) mr.rules_wdl = static_cast<Wdl>(m.counted_wdl);
  if (counted && !ends_game(pos, m.move)) mr.plies_since_conversion = m.counts_after.plies_since_conversion;
  return mr;
}

// Every move, best first, with its value, MTC and (with a 6.2 count, and
// `rules_class_count` as in dtb_counts) its value under the draw rules, from
// the library's root probe: a missing table leaves a field unset, a damaged
// one fails the answer.
Failure add_root_moves(const Tablebase& tables, const dtb_position& pos, int plies_since_conversion,
                       int rules_class_count, ProbeReport& r) {
  const bool counted = plies_since_conversion >= 0;
  const dtb_counts counts{plies_since_conversion, rules_class_count};
  std::vector<dtb_root_move> moves;
  dtb_error e{};
  if (const dtb_status s = tables.root(pos, counted ? &counts : nullptr, moves, &e); s != DTB_OK)
    return failure_of(s, e);
  for (const dtb_root_move& m : moves) r.moves.push_back(move_report(pos, m, counted));
  return {};
}

// Moves to conversion and the move of perfect play, through the probe library
// like the value. A missing .mtc table leaves them unset (a directory built
// without `dtb gen --mtc` is normal); a damaged one fails the answer, as a
// damaged .wdl or .dtw does.
Failure add_perfect_play(const Tablebase& tables, const dtb_position& pos, ProbeReport& r) {
  dtb_error e{};
  dtb_wdl value = DTB_DRAW;
  int plies = -1;
  if (const dtb_status s = tables.mtc(pos, value, plies, &e); s == DTB_OK) {
    if (plies >= 0) r.mtc = plies;
  } else if (s != DTB_TABLE_MISSING) {
    return failure_of(s, e);
  }
  dtb_move best{};
  if (const dtb_status s = tables.best_move(pos, best, &e); s == DTB_OK)
    r.best_move = Tablebase::move_text(pos, best);
  else if (s != DTB_TABLE_MISSING && s != DTB_GAME_OVER)
    return failure_of(s, e);
  return {};
}

// The value under article 6.2 (with 6.3/6.4 in their classes) and the move
// that keeps it (dtb_probe_counted, dtb_best_move_counted). Tables that
// cannot give them exactly (missing, or not solved under the rule:
// DTB_NOT_EXACT) leave both unset; other failures fail the answer. No move
// once a class count has reached its class's limit (the rule has drawn the
// game).
Failure add_rules(const Tablebase& tables, const dtb_position& pos, const Position& p,
                  int plies_since_conversion, int rules_class_count, ProbeReport& r) {
  const dtb_counts counts{plies_since_conversion, rules_class_count};
  dtb_error e{};
  dtb_wdl v = DTB_DRAW;
  const dtb_status s = tables.counted(pos, counts, v, &e);
  if (s == DTB_TABLE_MISSING || s == DTB_NOT_EXACT) return {};
  if (s != DTB_OK) return failure_of(s, e);
  r.rules_wdl = static_cast<Wdl>(v);
  if (probe::class_count_ran_out(p, counts)) return {};
  dtb_move best{};
  if (const dtb_status m = tables.best_move_counted(pos, counts, best, &e); m == DTB_OK)
    r.rules_best_move = Tablebase::move_text(pos, best);
  else if (m != DTB_GAME_OVER)
    return failure_of(m, e);
  return {};
}

// Calls visit(move, its report) for each move of the report, in its order.
template <class Visit>
Failure for_each_move(const Position& p, ProbeReport& r, Visit visit) {
  MoveList list;
  generate_moves(p, list);
  for (MoveReport& mr : r.moves) {
    for (const Move& m : list) {
      if (move_to_string(p, m) != mr.move) continue;
      if (Failure f = visit(m, mr)) return f;
      break;
    }
  }
  return {};
}

// One move's distance and rule value, through the handle's readers. `count`
// is the position's count when it is in a class with a rule table, else -1.
// A missing .dtw or .rule table leaves a value unset (the directory need not
// have them); any other failure fails the answer.
Failure add_move_limits(dtb_tables& tables, const Position& before, const Move& m, int count,
                        MoveReport& out) {
  out.fen = to_fen(make_move(before, m));
  probe::ProbeError e;
  Outcome d;
  if (const dtb_status s = tables.dtw->dtw_after(before, m, d, &e); s == DTB_OK) {
    if (d.value != Wdl::Draw) out.dtw = d.plies;
  } else if (s != DTB_TABLE_MISSING) {
    return failure_of(e);
  }
  if (count < 0) return {};
  probe::RuleStep step;
  const dtb_status s = tables.rules->rule_after(before, count, m, step, &e);
  if (s != DTB_OK && s != DTB_TABLE_MISSING) return failure_of(e);
  // Once the count has reached its limit the rule has drawn the game and the
  // count stays there: a client can carry it on, and ask with it, as it is.
  const int limit_after = limit_plies(rule_class(material_of(make_move(before, m))));
  if (step.plies_in_class >= 0) out.plies_in_class = std::min(step.plies_in_class, limit_after);
  if (s == DTB_OK) out.rule_wdl = step.value;
  return {};
}

// The class count of the answer's 6.3/6.4 values. Without a 6.2 count the
// one given. With one, the count the draw rules read (dtb_counts: never
// below the 6.2 count, which it is when none is given), so that rule_wdl,
// rules_wdl and the counts carried by the moves mean one count; past the
// class's limit the limit, where the rule has drawn the game all the same.
// A given count past the limit stays, to be refused as bad input.
int class_count_of_answer(const Position& p, int plies_in_class, int plies_since_conversion,
                          int rules_class_count) {
  const Material m = material_of(p);
  const int limit = limit_plies(rule_class(m));
  if (plies_since_conversion < 0 || limit == 0) return plies_in_class;
  return std::max(plies_in_class, std::min(class_count_of(m, plies_since_conversion, rules_class_count), limit));
}

// dtw and the rule value of the position and of each move, where those
// tables exist, from the probe library like everything else in the answer.
Failure add_limits(dtb_tables& tables, const Position& p, int plies_in_class, ProbeReport& r) {
  // A side to move without pieces has lost and no table holds the position:
  // the answer has its value and no distance.
  if (p.pieces(p.side) == 0) return {};
  probe::ProbeError e;
  Outcome d;
  if (const dtb_status s = tables.dtw->dtw(p, d, &e); s == DTB_OK)
    r.dtw = d;
  else if (s != DTB_TABLE_MISSING)
    return failure_of(e);
  Wdl v;
  if (const dtb_status s = tables.rules->rule_value(p, plies_in_class, v, &e); s == DTB_OK)
    r.rule_wdl = v;
  else if (s != DTB_TABLE_MISSING && s != DTB_NOT_IN_CLASS)
    return failure_of(e);
  const int count = r.rule_wdl ? plies_in_class : -1;
  return for_each_move(p, r, [&](const Move& m, MoveReport& mr) -> Failure {
    if (Failure f = add_move_limits(tables, p, m, count, mr)) return f;
    if (!r.dtw) mr.dtw.reset();  // distances only where the position's own .dtw exists
    return {};
  });
}

}  // namespace

ProbeReport probe_report(const Tablebase& tables, std::string_view fen, int plies_in_class,
                         int plies_since_conversion, int rules_class_count) {
  ProbeReport r;
  r.fen = std::string(fen);
  // The C API reads a NUL-terminated string: a NUL inside would silently cut
  // the FEN short and answer for another position.
  if (fen.find('\0') != std::string_view::npos)
    return failed(std::move(r), bad_input("bad FEN: it contains a NUL byte"));
  dtb_error e{};
  dtb_position pos;
  if (Tablebase::from_fen(r.fen, pos, &e) != DTB_OK) return failed(std::move(r), bad_input(e.message));
  if (std::string canonical = Tablebase::to_fen(pos); !canonical.empty()) r.fen = std::move(canonical);
  if (Failure f = add_wdl(tables, pos, r)) return failed(std::move(r), std::move(f));
  if (Failure f = add_root_moves(tables, pos, plies_since_conversion, rules_class_count, r))
    return failed(std::move(r), std::move(f));
  if (Failure f = add_perfect_play(tables, pos, r)) return failed(std::move(r), std::move(f));
  const auto p = parse_fen(r.fen);
  if (!p) return r;
  if (plies_since_conversion >= 0)
    if (Failure f = add_rules(tables, pos, *p, plies_since_conversion, rules_class_count, r))
      return failed(std::move(r), std::move(f));
  const int class_count = class_count_of_answer(*p, plies_in_class, plies_since_conversion, rules_class_count);
  if (Failure f = add_limits(*tables.handle(), *p, class_count, r)) return failed(std::move(r), std::move(f));
  return r;
}

}  // namespace dtb
