// probe_report against itself: each move's value, distance and rule value
// must be what the report of the position after the move says, and the
// position's own dtw and rule value must be the best its moves give. Random
// positions of the class materials (and a few others) from the explorer's
// test tables ($DTB_SERVE_TABLES: .wdl up to 4 pieces, .dtw and .rule up to
// 3 and for the 6.3 classes, whose captures start a fresh 6.4 count).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "index/draw_rule_class.h"
#include "index/material.h"
#include "index/position_index.h"
#include "rules/article62.h"
#include "rules/notation.h"
#include "serve/probe_report.h"

namespace dtb {
namespace {

const char* tables_dir() {
  const char* dir = std::getenv("DTB_SERVE_TABLES");
  return dir && *dir ? dir : "test-tables-serve";
}

struct Fixture {
  Tablebase tables;
  Fixture() { REQUIRE(tables.open(tables_dir(), 16 << 20) == DTB_OK); }
  ProbeReport report(const std::string& fen, int plies = 0, int since = -1, int class_count = -1) {
    ProbeReport r = probe_report(tables, fen, plies, since, class_count);
    INFO(fen << " at " << plies << " (6.2 count " << since << "): " << r.failure.message);
    REQUIRE_FALSE(r.failure);
    return r;
  }
};

Wdl wdl_of(dtb_wdl v) { return static_cast<Wdl>(v); }

// Random positions of a material, either side to move.
std::vector<std::string> sample(const char* material, int count, std::mt19937_64& rng) {
  const PositionIndex index(*parse_material(material));
  std::vector<std::string> fens;
  for (int i = 0; i < count; ++i) {
    Position p = index.unrank(rng() % index.size());
    if (rng() % 2) p = colour_reversed(p);
    fens.push_back(to_fen(p));
  }
  return fens;
}

// The position's dtw is the quickest win or the slowest loss among its moves.
void check_distances(const ProbeReport& r) {
  if (!r.dtw || r.dtw->value == Wdl::Draw || r.moves.empty()) return;
  int best = r.wdl == DTB_WIN ? 1 << 30 : -1;
  for (const MoveReport& m : r.moves) {
    if (m.wdl != r.wdl) continue;
    REQUIRE(m.dtw);
    best = r.wdl == DTB_WIN ? std::min(best, *m.dtw) : std::max(best, *m.dtw);
  }
  CHECK(best == r.dtw->plies);
}

void check_moves(Fixture& f, const ProbeReport& r) {
  for (const MoveReport& m : r.moves) {
    INFO(r.fen << " " << m.move << " -> " << m.fen);
    const int plies_after = m.plies_in_class.value_or(0);
    const ProbeReport after = f.report(m.fen, plies_after);
    CHECK(after.wdl == static_cast<dtb_wdl>(negate(wdl_of(m.wdl))));
    if (m.dtw && after.dtw) CHECK(after.dtw->plies == *m.dtw - 1);
    if (m.plies_in_class && *m.plies_in_class <= 32 && after.rule_wdl)
      CHECK(*m.rule_wdl == negate(*after.rule_wdl));
  }
  // Under the draw rules, too, a position is worth its best move (while the
  // count has not run out).
  if (r.rule_wdl && !r.moves.empty() && r.rule_wdl != Wdl::Draw) {
    Wdl best = Wdl::Loss;
    for (const MoveReport& m : r.moves) best = std::max(best, *m.rule_wdl);
    CHECK(best == *r.rule_wdl);
  }
}

// Each move's MTC and 6.2 value against the report of the position it leads
// to (at the counts the move carries), and the position's against its moves'.
// Returns the number of moves whose 6.2 value was compared.
int check_perfect_play(Fixture& f, const ProbeReport& r, int since) {
  const Position before = *parse_fen(r.fen);
  MoveList list;
  generate_moves(before, list);
  // dtb_probe_rules' class count: the class was entered at the last conversion.
  const int class_count = rule_class(material_of(before)) == RuleClass::None ? -1 : since;
  int compared = 0;
  std::optional<int> best_mtc;
  for (const MoveReport& m : r.moves) {
    INFO(r.fen << " " << m.move << " -> " << m.fen);
    if (!m.plies_since_conversion) {  // the move ends the game: the opponent cannot move
      CHECK(m.wdl == DTB_WIN);
      CHECK(m.mtc == 1);
      CHECK((m.rules_wdl == Wdl::Win || r.rules_wdl == Wdl::Draw));  // unless a class count has run out
      best_mtc = 1;
      continue;
    }
    const int count = *m.plies_since_conversion;
    CHECK((count == 0 || count == since + 1));
    if (count == kArticle62Plies) {
      CHECK(m.rules_wdl == Wdl::Draw);
      continue;
    }
    const Move* move = std::find_if(list.begin(), list.end(), [&](const Move& x) { return move_to_string(before, x) == m.move; });
    REQUIRE(move != list.end());
    const int class_after = plies_in_class_after(before, class_count, *move);
    const ProbeReport after = f.report(m.fen, 0, count, class_after);
    if (m.wdl != DTB_DRAW) {
      REQUIRE(m.mtc);
      CHECK(*m.mtc == (count == 0 ? 1 : 1 + after.mtc.value_or(-100)));
      if (m.wdl == r.wdl)
        best_mtc = r.wdl == DTB_WIN ? std::min(best_mtc.value_or(1 << 30), *m.mtc) : std::max(best_mtc.value_or(0), *m.mtc);
    } else {
      CHECK_FALSE(m.mtc);
    }
    if (m.rules_wdl && after.rules_wdl) {
      CHECK(*m.rules_wdl == negate(*after.rules_wdl));
      ++compared;
    }
  }
  if (best_mtc) CHECK(r.mtc == best_mtc);
  // Under the rule a position is worth its best move, and rules_best_move is
  // one: there is one wherever the game is not over (by a move or a count).
  if (r.rules_wdl && !r.moves.empty()) {
    INFO(r.fen << " at 6.2 count " << since);
    const RuleClass rule = rule_class(material_of(before));
    CHECK(r.rules_best_move.has_value() == (rule == RuleClass::None || class_count < limit_plies(rule)));
    Wdl best = Wdl::Loss;
    for (const MoveReport& m : r.moves) best = std::max(best, m.rules_wdl.value_or(Wdl::Loss));
    CHECK(best == *r.rules_wdl);
    for (const MoveReport& m : r.moves)
      if (r.rules_best_move && m.move == *r.rules_best_move) CHECK(m.rules_wdl == r.rules_wdl);
  }
  return compared;
}

}  // namespace

TEST_CASE("probe_report: each move's MTC and article 6.2 value agree with the position it leads to") {
  Fixture f;
  std::mt19937_64 rng(62);
  int compared = 0, turned = 0;
  for (const char* material : {"KKvM", "KMvM", "MMvK", "KvMM", "MvKM", "KKvK", "KMvK"}) {
    for (const std::string& fen : sample(material, 25, rng)) {
      for (const int since : {0, 30, 48, 49}) {
        const ProbeReport r = f.report(fen, 0, since);
        compared += check_perfect_play(f, r, since);
        turned += r.rules_wdl && static_cast<dtb_wdl>(*r.rules_wdl) != r.wdl;
      }
    }
  }
  CHECK(compared > 2000);
  CHECK(turned > 20);  // late counts draw some wins
}

TEST_CASE("probe_report: moves agree with the reports of the positions they lead to") {
  Fixture f;
  std::mt19937_64 rng(16);
  int with_rule = 0, with_dtw = 0, with_capture = 0;
  for (const char* material : {"KvK", "KKvK", "KMvK", "MMvK", "KMvM", "MvMM", "KKMvK", "KMMvK", "KKKvK"}) {
    for (const std::string& fen : sample(material, 40, rng)) {
      for (const int plies : {0, 3, 9}) {
        const ProbeReport r = f.report(fen, plies);
        check_distances(r);
        check_moves(f, r);
        with_rule += r.rule_wdl.has_value();
        with_dtw += r.dtw.has_value();
        with_capture += std::any_of(r.moves.begin(), r.moves.end(),
                                    [](const MoveReport& m) { return m.move.find('x') != std::string::npos; });
      }
    }
  }
  CHECK(with_rule > 500);
  CHECK(with_dtw > 500);
  CHECK(with_capture > 20);
}

TEST_CASE("probe_report: a count past the class limit is a draw for every move") {
  Fixture f;
  // 6.4 allows 10 plies: with all 10 played nothing can be won any more.
  const ProbeReport r = f.report("W:WK2,6:BK50", 10);
  REQUIRE(r.rule_wdl == Wdl::Draw);
  for (const MoveReport& m : r.moves) CHECK(m.rule_wdl == Wdl::Draw);
  // With 9 played, one ply is left: only a move that ends the game wins.
  const ProbeReport last = f.report("W:W28,K46:BK23", 9);
  REQUIRE(last.moves.size() == 1);
  CHECK(last.moves[0].rule_wdl == Wdl::Win);
  CHECK_FALSE(last.moves[0].plies_in_class);  // the game is over: no count
  CHECK(last.moves[0].dtw == 1);
}

TEST_CASE("probe_report: bad input and a NUL byte") {
  Fixture f;
  for (const std::string& fen : {std::string("nonsense"), std::string("W:W3:B20"),
                                 std::string("W:WK46:BK5\0W:WK1:BK2", 21)}) {
    const ProbeReport r = probe_report(f.tables, fen, 0);
    CHECK(r.failure.kind == FailureKind::BadInput);
    CHECK(r.moves.empty());
  }
  CHECK(probe_report(f.tables, "W:WK2,6:BK50", 11).failure.kind == FailureKind::BadInput);
}

}  // namespace dtb
