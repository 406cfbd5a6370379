// dtb_probe_rules (article 6.2 with 6.3/6.4): against a depth-limited minimax
// written from the rule itself - with c plies of king moves counted, the
// side to move wins if within 50 - c plies it can force a conversion (a
// capture or a man move, or the end of the game) into a position lost for
// the opponent - and, for class materials, against dtb_probe_rule.
//
// The minimax values a conversion by the theoretical value of the position
// it reaches (a fresh count). That is the 6.2 value there whenever no
// conversion in the 2-4 piece set takes more than 50 plies, which the first
// test checks from the tables' own MTC.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <tuple>

#include "compress/table_file.h"
#include "dtb/dtb.h"
#include "index/material.h"
#include "index/draw_rule_class.h"
#include "index/position_index.h"
#include "probe/c_position.h"
#include "probe_test_support.h"
#include "tests/support/table_values.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::test {
namespace {

dtb_wdl theoretical(dtb_tables* tables, const Position& p) {
  if (p.pieces(p.side) == 0) return DTB_LOSS;
  const dtb_position c = c_position(p);
  dtb_wdl v = DTB_DRAW;
  REQUIRE(dtb_probe_wdl(tables, &c, &v, nullptr) == DTB_OK);
  return v;
}

dtb_wdl for_mover(dtb_wdl after) { return static_cast<dtb_wdl>(2 - static_cast<int>(after)); }

// The value when at most k more plies may pass without a conversion.
class Minimax {
 public:
  explicit Minimax(dtb_tables* tables) : tables_(tables) {}
  dtb_wdl within(const Position& p, int k) {
    const auto key = std::make_tuple(p.white, p.black, p.kings, static_cast<int>(p.side), k);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    MoveList moves;
    generate_moves(p, moves);
    dtb_wdl best = DTB_LOSS;  // no move: the game is over, lost
    if (moves.size > 0 && k == 0) best = DTB_DRAW;  // the count has run out
    for (int i = 0; i < moves.size && k > 0 && best != DTB_WIN; ++i) {
      const Move& m = moves[i];
      const Position after = make_move(p, m);
      const bool converts = m.is_capture() || (p.kings & (Bitboard{1} << m.from)) == 0;
      const dtb_wdl v = for_mover(converts ? theoretical(tables_, after) : within(after, k - 1));
      if (v > best) best = v;
    }
    return memo_[key] = best;
  }

 private:
  dtb_tables* tables_;
  std::map<std::tuple<Bitboard, Bitboard, Bitboard, int, int>, dtb_wdl> memo_;
};


struct Handle {
  dtb_tables* t = nullptr;
  explicit Handle(const std::string& dir) { REQUIRE(dtb_open(dir.c_str(), 16u << 20, &t, nullptr) == DTB_OK); }
  ~Handle() { dtb_close(t); }
};

}  // namespace

TEST_CASE("dtb_probe_rules: article 6.2 values equal a depth-limited minimax of the rule") {
  Handle h(mtc_tables_dir());
  std::uint64_t compared = 0, drawn_by_rule = 0;
  for (const char* name : {"MMvK", "KMvM", "MvKK", "KKvM", "MvKM"}) {
    const Material m = *parse_material(name);
    REQUIRE(rule_class(m) == RuleClass::None);
    const PositionIndex index(m);
    Minimax minimax(h.t);  // per material: its memo stays small
    for (std::uint64_t i = 0; i < index.size(); i += 5) {
      const Position p = index.unrank(i);
      const dtb_position c = c_position(p);
      dtb_wdl value = DTB_DRAW;
      int mtc = -1;
      REQUIRE(dtb_probe_mtc(h.t, &c, &value, &mtc, nullptr) == DTB_OK);
      CHECK(mtc <= 50);  // clean: what lets the minimax value conversions theoretically
      for (int count = 44; count <= 49; ++count) {
        dtb_wdl rule = DTB_DRAW;
        REQUIRE(dtb_probe_rules(h.t, &c, count, count, &rule, nullptr) == DTB_OK);
        const dtb_wdl expected = minimax.within(p, 50 - count);
        if (rule != expected)
          FAIL(name << " " << to_fen(p) << " with " << count << " plies counted: " << rule << ", minimax "
                    << expected);
        drawn_by_rule += rule == DTB_DRAW && value != DTB_DRAW;
        ++compared;
      }
    }
  }
  CHECK(compared > 10000);
  CHECK(drawn_by_rule > 0);  // the count bites somewhere, or the test shows nothing
}

TEST_CASE("dtb_probe_rules: a win that converts into a table with conversions past 50 plies is not exact") {
  // KKvK's .mtc rewritten to claim a 60-ply conversion (its header's largest
  // value): what converts into KKvK - KKvM, by Black's promotion - can no
  // longer trust "theoretical if MTC <= 50 - c" for a win or a loss.
  const TempDir dir;
  run_gen("--max-pieces 3 --mtc --threads 2", dir.path());
  rewrite_values(dir.file("KKvK.mtc"), *parse_material("KKvK"), TableKind::Mtc,
                 [](std::vector<std::uint16_t>& values) { values.back() = 60; });
  Handle h(dir.path());
  dtb_wdl v = DTB_DRAW;
  int mtc = -1;
  const dtb_position win = c_fen("W:WK2,K3:B1");  // KKvM: 2-7, then Black must capture
  REQUIRE(dtb_probe_mtc(h.t, &win, &v, &mtc, nullptr) == DTB_OK);
  REQUIRE((v == DTB_WIN && mtc == 2));
  dtb_error e{};
  CHECK(dtb_probe_rules(h.t, &win, 0, -1, &v, &e) == DTB_NOT_EXACT);
  CHECK(std::string(e.material) == "KKvM");
  CHECK(std::string(e.message).find("KKvK") != std::string::npos);
  // A draw stays exact: with 49 plies counted the 2-ply conversion comes too late.
  CHECK(dtb_probe_rules(h.t, &win, 49, -1, &v, nullptr) == DTB_OK);
  CHECK(v == DTB_DRAW);
  // KvM converts only into KvK (Black's promotion), MvM into KvM, MvK and
  // smaller: neither reaches KKvK. (KKvK itself is a 6.4 class material,
  // valued by its class count.)
  const dtb_position king = c_fen("W:WK2:B1");
  CHECK(dtb_probe_rules(h.t, &king, 0, -1, &v, nullptr) == DTB_OK);
  CHECK(v == DTB_WIN);
  const dtb_position men = c_fen("W:W6:B2");
  CHECK(dtb_probe_rules(h.t, &men, 0, -1, &v, nullptr) == DTB_OK);
  CHECK(v == DTB_WIN);
}

TEST_CASE("dtb gen --article62 answers the tables that convert into an unclean one, from their own .r62 tables") {
  // KKvK's .mtc rewritten so that every decision stored there takes 44 plies
  // more: from a fresh count, 6.2 then draws its wins and losses of true MTC
  // 7 or more (MTC decides KKvK itself: it converts only into KvK). KKvM
  // converts into KKvK by Black's promotion, and MvKK (its unit) by White's:
  // `dtb gen --article62` must solve that unit again under the rule.
  const TempDir dir;
  run_gen("--max-pieces 3 --mtc --threads 2", dir.path());
  rewrite_values(dir.file("KKvK.mtc"), *parse_material("KKvK"), TableKind::Mtc, [](std::vector<std::uint16_t>& v) {
    for (std::uint16_t& x : v) x = static_cast<std::uint16_t>(x > 0 ? x + 44 : 0);
  });
  const dtb_position win = c_fen("W:WK2,K3:B1");  // KKvM: 2-7, then Black must capture
  {
    Handle h(dir.path());
    dtb_wdl v = DTB_DRAW;
    CHECK(dtb_probe_rules(h.t, &win, 0, -1, &v, nullptr) == DTB_NOT_EXACT);
  }
  run_gen("--max-pieces 3 --article62 --threads 2", dir.path());
  // KMvK and KvKM convert into KKvK and KvKK by promotion as well.
  for (const char* name : {"KKvM", "MvKK", "KMvK", "KvKM"})
    CHECK(std::filesystem::exists(dir.file(std::string(name) + ".r62")));
  for (const char* name : {"KKvK", "KvKK", "KvK", "MvK"})  // MTC decides them
    CHECK_FALSE(std::filesystem::exists(dir.file(std::string(name) + ".r62")));
  Handle h(dir.path());
  dtb_wdl v = DTB_DRAW;
  REQUIRE(dtb_probe_rules(h.t, &win, 0, -1, &v, nullptr) == DTB_OK);
  CHECK(v == DTB_WIN);
  REQUIRE(dtb_probe_rules(h.t, &win, 49, -1, &v, nullptr) == DTB_OK);
  CHECK(v == DTB_DRAW);
  // Every KKvM position: a draw stays one, a decision either stays or is
  // drawn, never turned; later counts draw more, never less; and some wins
  // are drawn from a fresh count (through KKvK), or the test shows nothing.
  const PositionIndex index(*parse_material("KKvM"));
  std::uint64_t drawn_fresh = 0, kept = 0;
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const Position p = index.unrank(i);
    const dtb_position c = c_position(p);
    const dtb_wdl theory = theoretical(h.t, p);
    dtb_wdl previous = theory;
    for (const int count : {0, 20, 40, 49}) {
      dtb_wdl rule = DTB_DRAW;
      REQUIRE(dtb_probe_rules(h.t, &c, count, -1, &rule, nullptr) == DTB_OK);
      if (rule != previous && rule != DTB_DRAW) FAIL(to_fen(p) << " at " << count << ": " << rule);
      drawn_fresh += count == 0 && theory != DTB_DRAW && rule == DTB_DRAW;
      kept += count == 0 && theory != DTB_DRAW && rule == theory;
      previous = rule;
    }
  }
  CHECK(drawn_fresh > 0);
  CHECK(kept > drawn_fresh);

  // dtb_best_move_rules plays every 6.2 win of KKvM out within the rule,
  // for both sides: the winner's value stays a win at every ply, with the
  // count as it runs, until the loser has no move (the count never reaches
  // 50). The loser resists with the same function.
  std::uint64_t games = 0, plies_played = 0, converting = 0;
  for (std::uint64_t i = 0; i < index.size(); i += 7) {
    for (const int start : {0, 30}) {
      dtb_position c = c_position(index.unrank(i));
      dtb_wdl start_value = DTB_DRAW;
      REQUIRE(dtb_probe_rules(h.t, &c, start, -1, &start_value, nullptr) == DTB_OK);
      if (start_value != DTB_WIN) continue;
      Position p = index.unrank(i);
      int count = start;
      bool winner_to_move = true;
      for (int ply = 0;; ++ply) {
        REQUIRE(ply < 200);
        c = c_position(p);
        dtb_move m{};
        const dtb_status s = dtb_best_move_rules(h.t, &c, count, &m, nullptr);
        if (s == DTB_GAME_OVER) {
          CHECK_FALSE(winner_to_move);  // the loser is the one left without a move
          break;
        }
        REQUIRE(s == DTB_OK);
        CHECK(m.wdl == (winner_to_move ? DTB_WIN : DTB_LOSS));
        Move played;
        REQUIRE(probe::find_move(p, m, played));
        const bool converts = played.is_capture() || (p.kings & (Bitboard{1} << played.from)) == 0;
        converting += converts;
        p = make_move(p, played);
        count = converts ? 0 : count + 1;
        REQUIRE(count < 50);
        winner_to_move = !winner_to_move;
        ++plies_played;
      }
      ++games;
    }
  }
  CHECK(games > 1000);
  CHECK(converting > 0);
  INFO(plies_played);
}

TEST_CASE("dtb_probe_rules: in a 6.3/6.4 class the class count decides; bad counts are refused") {
  Handle h(dtw_tables_dir());  // with the .rule tables of the 6.4 materials
  const dtb_position kmvk = c_fen("W:WK12,40:BK11");  // 6.4
  for (int c = 0; c <= 10; ++c) {
    dtb_wdl rule = DTB_DRAW, rules = DTB_DRAW;
    REQUIRE(dtb_probe_rule(h.t, &kmvk, c, &rule, nullptr) == DTB_OK);
    REQUIRE(dtb_probe_rules(h.t, &kmvk, 0, c, &rules, nullptr) == DTB_OK);
    CHECK(rules == rule);
  }
  dtb_wdl v = DTB_WIN;
  CHECK(dtb_probe_rules(h.t, &kmvk, 12, 20, &v, nullptr) == DTB_OK);  // past the 10-ply limit
  CHECK(v == DTB_DRAW);
  dtb_error e{};
  CHECK(dtb_probe_rules(h.t, &kmvk, 5, 4, &v, &e) == DTB_INVALID_ARGUMENT);  // class count < 6.2 count
  const dtb_position mmvk = c_fen("W:W28,33:BK3");
  CHECK(dtb_probe_rules(h.t, &mmvk, 50, 0, &v, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_probe_rules(h.t, &mmvk, -1, 0, &v, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_probe_rules(h.t, nullptr, 0, 0, &v, &e) == DTB_INVALID_ARGUMENT);
}

}  // namespace dtb::test

TEST_CASE("class_count_of: the class count given, else the 6.2 count, and none outside the classes") {
  using dtb::class_count_of;
  const dtb::Material kkvk = *dtb::parse_material("KKvK"), kmmvk = *dtb::parse_material("KMMvK"),
                      mmvk = *dtb::parse_material("MMvK");
  CHECK(class_count_of(kkvk, 7, 9) == 9);    // 6.4, its own count
  CHECK(class_count_of(kkvk, 7, -1) == 7);   // entered at the last conversion
  CHECK(class_count_of(kmmvk, 0, -1) == 0);  // 6.3, fresh
  CHECK(class_count_of(mmvk, 12, -1) == -1); // two men against a king: no class until a promotion
  CHECK(class_count_of(mmvk, 12, 3) == -1);
}
