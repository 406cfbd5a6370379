#include "serve/probe_report.h"

#include <utility>

#include "index/draw_rule_class.h"
#include "index/material.h"
#include "probe/c_position.h"
#include "probe/handle.h"
#include "rules/article62.h"
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
  for (const dtb_move& m : moves) {
    MoveReport mr;
    mr.move = Tablebase::move_text(pos, m);
    mr.wdl = m.wdl;
    mr.keeps_best = m.keeps_best != 0;
    r.moves.push_back(std::move(mr));
  }
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

// Whether the class count of p (class_count_of) has reached its class's
// limit: the rule has drawn the game.
bool class_count_ran_out(const Position& p, int class_count) {
  const RuleClass rule = rule_class(material_of(p));
  return rule != RuleClass::None && class_count >= limit_plies(rule);
}

// The value under article 6.2 (with 6.3/6.4 in their classes) and the move
// that keeps it. Tables that cannot give them exactly (missing, or not solved
// under the rule: DTB_NOT_EXACT) leave both unset; other failures fail the
// answer. In a 6.3/6.4 class the class count decides the value, and the move
// is dtb_best_move_rule's with that count (the given one, else the 6.2 count:
// the class was entered at the last conversion); none once the count has
// reached the class's limit (the rule has drawn the game).
Failure add_rules(const Tablebase& tables, const dtb_position& pos, const Position& p,
                  int plies_since_conversion, int rules_class_count, ProbeReport& r) {
  dtb_error e{};
  dtb_wdl v = DTB_DRAW;
  const dtb_status s = tables.rules(pos, plies_since_conversion, rules_class_count, v, &e);
  if (s == DTB_TABLE_MISSING || s == DTB_NOT_EXACT) return {};
  if (s != DTB_OK) return failure_of(s, e);
  r.rules_wdl = static_cast<Wdl>(v);
  const RuleClass rule = rule_class(material_of(p));
  const int class_count = class_count_of(material_of(p), plies_since_conversion, rules_class_count);
  if (class_count_ran_out(p, class_count)) return {};
  dtb_move best{};
  const dtb_status m = rule == RuleClass::None ? tables.best_move_rules(pos, plies_since_conversion, best, &e)
                                               : tables.best_move_rule(pos, class_count, best, &e);
  if (m == DTB_OK)
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
  if (step.plies_in_class >= 0) out.plies_in_class = step.plies_in_class;
  if (s == DTB_OK) out.rule_wdl = step.value;
  return {};
}

// A move's MTC and, with a 6.2 count (`since` >= 0), the count after it and
// the mover's value under the rules there, through the handle's perfect-play
// reader and the C API's dtb_probe_rules. A missing .mtc or .rule table, or
// a value the tables cannot give exactly, leaves a field unset.
Failure add_move_perfect_play(const Tablebase& tables, const Position& before, const Move& m, int since,
                              int rules_class_count, MoveReport& out) {
  const Position after = make_move(before, m);
  const bool converts = probe::PerfectPlay::converts(before, m);
  if (out.wdl != DTB_DRAW) {
    probe::ProbeError e;
    Wdl v;
    std::optional<int> plies;
    if (converts) {
      out.mtc = 1;
    } else if (const dtb_status s = tables.handle()->play->mtc(after, v, plies, &e); s == DTB_OK) {
      if (plies) out.mtc = 1 + *plies;  // 1 + 0 when the move leaves the opponent no move
    } else if (s != DTB_TABLE_MISSING) {
      return failure_of(e);
    }
  }
  if (since < 0) return {};
  // The class count of the position (class_count_of). At its class's limit
  // the rule has already drawn the game.
  const int class_before = class_count_of(material_of(before), since, rules_class_count);
  const bool drawn_already = class_count_ran_out(before, class_before);
  MoveList replies;
  generate_moves(after, replies);
  if (replies.size == 0) {  // the move ends the game: no count runs on, the result stands
    out.rules_wdl = drawn_already ? Wdl::Draw : static_cast<Wdl>(out.wdl);
    return {};
  }
  const int count = converts ? 0 : since + 1;
  out.plies_since_conversion = count;
  if (count == kArticle62Plies || drawn_already) {
    out.rules_wdl = Wdl::Draw;
    return {};
  }
  dtb_error e{};
  dtb_wdl v = DTB_DRAW;
  const int class_count = plies_in_class_after(before, class_before, m);  // carried on, or a fresh class
  const dtb_status s = tables.rules(probe::to_c(after), count, class_count, v, &e);
  if (s == DTB_OK)
    out.rules_wdl = negate(static_cast<Wdl>(v));
  else if (s != DTB_TABLE_MISSING && s != DTB_NOT_EXACT)
    return failure_of(s, e);
  return {};
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
  if (Failure f = add_perfect_play(tables, pos, r)) return failed(std::move(r), std::move(f));
  const auto p = parse_fen(r.fen);
  if (!p) return r;
  if (plies_since_conversion >= 0)
    if (Failure f = add_rules(tables, pos, *p, plies_since_conversion, rules_class_count, r))
      return failed(std::move(r), std::move(f));
  if (Failure f = add_limits(*tables.handle(), *p, plies_in_class, r)) return failed(std::move(r), std::move(f));
  if (p->pieces(p->side) == 0) return r;  // lost, no move: nothing more to say
  if (Failure f = for_each_move(*p, r, [&](const Move& m, MoveReport& mr) {
        return add_move_perfect_play(tables, *p, m, plies_since_conversion, rules_class_count, mr);
      }))
    return failed(std::move(r), std::move(f));
  return r;
}

}  // namespace dtb
