#include "serve/probe_report.h"

#include <utility>

#include "index/draw_rule_class.h"
#include "index/material.h"
#include "limits/rule_probe.h"
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
  for (const dtb_move& m : moves)
    r.moves.push_back(MoveReport{Tablebase::move_text(pos, m), "", m.wdl, m.keeps_best != 0, {}, {}, {}});
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

// dtw for the side to move; one left without pieces has lost (no table
// holds such a position).
std::optional<Outcome> dtw_of(LimitsTables& limits, const Position& p, TableError& e) {
  if (p.pieces(p.side) == 0) return Outcome{Wdl::Loss, 0};
  return limits.dtw(p, &e);
}

// The rule value for the side that moved into `after` with `count` plies now
// played in the class of `after` (articles 6.3/6.4).
std::optional<Wdl> rule_for_mover(LimitsTables& limits, const Position& after, int count,
                                  TableError& e) {
  // The count ran out on the previous ply: the game is drawn, whatever follows.
  if (count > limit_plies(rule_class(material_of(after)))) return Wdl::Draw;
  const auto v = limits.rule_value(after, count, &e);
  if (!v) return std::nullopt;
  return negate(*v);
}

// Distance and rule value of one move. `count` is the position's count when
// it is in a class with a rule table, else -1.
void add_move_limits(LimitsTables& limits, const Position& before, const Move& m, int count,
                     MoveReport& out, TableError& e) {
  const Position after = make_move(before, m);
  out.fen = to_fen(after);
  if (const auto d = dtw_of(limits, after, e); d && d->value != Wdl::Draw) out.dtw = d->plies + 1;
  if (e || count < 0) return;
  const int count_after = plies_in_class_after(before, count, m);
  if (count_after < 0) {  // out of every class, or the game is over: the theoretical value
    out.rule_wdl = static_cast<Wdl>(out.wdl);
    return;
  }
  out.plies_in_class = count_after;
  out.rule_wdl = rule_for_mover(limits, after, count_after, e);
}

// dtw and the rule value of the position and of each move, where those
// tables exist.
Failure add_limits(LimitsTables& limits, const Position& p, int plies_in_class, ProbeReport& r) {
  TableError e;
  r.dtw = limits.dtw(p, &e);
  if (!e) r.rule_wdl = limits.rule_value(p, plies_in_class, &e);
  if (e) return failure_of(e);
  MoveList list;
  generate_moves(p, list);
  const int count = r.rule_wdl ? plies_in_class : -1;
  for (MoveReport& mr : r.moves) {
    for (const Move& m : list) {
      if (move_to_string(p, m) != mr.move) continue;
      add_move_limits(limits, p, m, count, mr, e);
      if (!r.dtw) mr.dtw.reset();  // distances only where the position's own .dtw exists
      if (e) return failure_of(e);
      break;
    }
  }
  return {};
}

}  // namespace

ProbeReport probe_report(const Tablebase& tables, LimitsTables& limits, std::string_view fen,
                         int plies_in_class, int plies_since_conversion, int rules_class_count) {
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
  if (Failure f = add_perfect_play(tables, pos, r)) return failed(std::move(r), std::move(f));
  if (plies_since_conversion >= 0) {
    dtb_wdl v = DTB_DRAW;
    const dtb_status s = tables.rules(pos, plies_since_conversion, rules_class_count, v, &e);
    if (s == DTB_OK)
      r.rules_wdl = static_cast<Wdl>(v);
    else if (s != DTB_TABLE_MISSING)
      return failed(std::move(r), failure_of(s, e));
  }
  const auto p = parse_fen(r.fen);
  if (!p) return r;
  if (Failure f = add_limits(limits, *p, plies_in_class, r)) return failed(std::move(r), std::move(f));
  return r;
}

}  // namespace dtb
