// dtb_probe_rule: the FMJD 6.3/6.4 draw-limit value through the C API, read
// from the .rule tables that `dtb gen --dtw` writes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "index/position_index.h"
#include "probe_test_support.h"
#include "rules/notation.h"

using namespace dtb;

TEST_CASE("dtb_probe_rule: from a fresh count every 6.4 position keeps its theoretical value") {
  // The draw-rule report found that no 6.4 win is lost from a fresh count, so
  // with 0 plies played the rule value equals the theoretical one at every
  // position: a wrong table, index or colour mapping shows up as a mismatch.
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  long checked = 0, mismatches = 0;
  for (const char* name : {"KKvK", "KvKK", "KMvK", "KvKM", "KvK"}) {
    const Material m = *parse_material(name);
    const PositionIndex index(m);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      for (const Position& p : {index.unrank(i), colour_reversed(index.unrank(i))}) {
        const dtb_position c = test::c_position(p);
        dtb_wdl theoretical, rule;
        REQUIRE(dtb_probe_wdl(tables, &c, &theoretical, nullptr) == DTB_OK);
        REQUIRE(dtb_probe_rule(tables, &c, 0, &rule, nullptr) == DTB_OK);
        mismatches += theoretical != rule;
        ++checked;
      }
    }
  }
  CHECK(checked == 2 * (2 * 58800 + 2 * 105840 + 2450));
  CHECK(mismatches == 0);
  dtb_close(tables);
}

TEST_CASE("dtb_probe_rule: the longest KMvK win needs 9 of the 10 plies") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  const dtb_position pos = test::c_fen("W:WK2,6:BK50");
  dtb_wdl v;
  for (int played : {0, 1}) {
    REQUIRE(dtb_probe_rule(tables, &pos, played, &v, nullptr) == DTB_OK);
    CHECK(v == DTB_WIN);
  }
  for (int played : {2, 5, 10}) {
    REQUIRE(dtb_probe_rule(tables, &pos, played, &v, nullptr) == DTB_OK);
    CHECK(v == DTB_DRAW);
  }
  dtb_error error{};
  CHECK(dtb_probe_rule(tables, &pos, 11, &v, &error) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_probe_rule(tables, &pos, -1, &v, &error) == DTB_INVALID_ARGUMENT);
  // Two men against a king are in no class until a man promotes; so is MvM.
  const dtb_position men = test::c_fen("W:W31,32:BK3");
  CHECK(dtb_probe_rule(tables, &men, 0, &v, &error) == DTB_NOT_IN_CLASS);
  CHECK(std::string(dtb_status_string(DTB_NOT_IN_CLASS)) == "not in a draw-limit class");
  dtb_close(tables);
}

TEST_CASE("dtb_probe_rule: a directory without .rule tables says which table is missing") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(test::generated_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  const dtb_position pos = test::c_fen("W:WK2,6:BK50");
  dtb_wdl v;
  dtb_error error{};
  CHECK(dtb_probe_rule(tables, &pos, 0, &v, &error) == DTB_TABLE_MISSING);
  dtb_close(tables);
}

TEST_CASE("dtb_probe_rule_budget: the stored budget gives dtb_probe_rule's value at every count") {
  // dtb_probe_rule with c plies played must be the budget's result exactly
  // when the budget fits in the plies left, over every 6.4 position and count.
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  long mismatches = 0, decided = 0;
  for (const char* name : {"KKvK", "KMvK", "KvK"}) {
    for (const dtb_side side : {DTB_WHITE, DTB_BLACK}) {
      std::uint64_t size = 0;
      REQUIRE(dtb_material_size(name, &size, nullptr) == DTB_OK);
      std::vector<dtb_position> positions(size);
      REQUIRE(dtb_material_positions(name, side, 0, positions.data(), size, nullptr) == DTB_OK);
      for (const dtb_position& c : positions) {
        dtb_wdl result, theoretical;
        int plies = -1;
        REQUIRE(dtb_probe_rule_budget(tables, &c, &result, &plies, nullptr) == DTB_OK);
        REQUIRE(dtb_probe_wdl(tables, &c, &theoretical, nullptr) == DTB_OK);
        mismatches += result != DTB_DRAW && result != theoretical;  // a forced result is the true one
        mismatches += result == DTB_DRAW && plies != DTB_UNKNOWN;
        decided += result != DTB_DRAW;
        for (int played = 0; played <= 10; ++played) {
          dtb_wdl rule;
          REQUIRE(dtb_probe_rule(tables, &c, played, &rule, nullptr) == DTB_OK);
          const dtb_wdl expected = result != DTB_DRAW && plies <= 10 - played ? result : DTB_DRAW;
          mismatches += rule != expected;
        }
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(decided > 0);
  // The longest KMvK win of the report: 9 plies.
  const dtb_position longest = test::c_fen("W:WK2,6:BK50");
  dtb_wdl result;
  int plies = 0;
  REQUIRE(dtb_probe_rule_budget(tables, &longest, &result, &plies, nullptr) == DTB_OK);
  CHECK(result == DTB_WIN);
  CHECK(plies == 9);
  dtb_error error{};
  const dtb_position men = test::c_fen("W:W31,32:BK3");
  CHECK(dtb_probe_rule_budget(tables, &men, &result, &plies, &error) == DTB_NOT_IN_CLASS);
  CHECK(std::string(error.material) == "MMvK");
  CHECK(dtb_probe_rule_budget(tables, &men, &result, nullptr, &error) == DTB_INVALID_ARGUMENT);
  dtb_close(tables);
}
