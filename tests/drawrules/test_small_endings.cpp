// Every position of up to 3 pieces: dtw against the explicit reference game,
// and the 6.4 rule values at every count against the depth-limited minimax.
#include <catch2/catch.hpp>

#include "index/draw_rule_class.h"
#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "drawrules/rule_probe.h"
#include "rules/notation.h"
#include "tests/reference/reference_minimax.h"

using namespace dtb;

namespace {

const reference::ExplicitGame& small_game() {
  static const reference::ExplicitGame game(reference::small_positions());
  return game;
}

}  // namespace

TEST_CASE("dtw of every position of 2 and 3 pieces equals the explicit reference game") {
  const TableSet dtw = build_dtw_up_to(3);
  const std::vector<Position> all = reference::small_positions();
  REQUIRE(all.size() == 17690 + 1612600);  // RULES.md placement counts
  std::uint64_t mismatches = 0, wins = 0;
  for (const Position& p : all) {
    const Outcome mine = decode_dtw(*dtw.lookup(p));
    const reference::Value ref = small_game().value(p);
    wins += mine.value == Wdl::Win;
    if (mine.value != ref.wdl || (ref.wdl != Wdl::Draw && mine.plies != ref.plies)) {
      if (++mismatches <= 5)
        FAIL_CHECK(to_fen(p) << ": table " << to_string(mine.value) << " " << mine.plies
                             << ", reference " << to_string(ref.wdl) << " " << ref.plies);
    }
  }
  CHECK(mismatches == 0);
  CHECK(wins > 0);
}

TEST_CASE("6.4 rule values of every position at every count equal the depth-limited minimax") {
  const TableSet dtw = build_dtw_up_to(3);
  const TableSet rules = build_rules(dtw, {}, 3);
  std::uint64_t checked = 0, turned = 0, mismatches = 0;
  for (const Material& m : class_materials()) {
    if (m.pieces() > 3) continue;
    const PositionIndex& index = rules.index(m);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Position p = index.unrank(i);
      for (int c = 0; c <= 10; ++c) {
        const Wdl expected = small_game().rule_value(p, 10 - c);
        const auto got = rule_value(rules, p, c);
        if ((!got || *got != expected) && ++mismatches <= 5)
          FAIL_CHECK(m.name() << " " << to_fen(p) << " after " << c << " plies: table "
                              << (got ? to_string(*got) : "none") << ", minimax " << to_string(expected));
        ++checked;
        turned += expected == Wdl::Draw && decode_dtw(*dtw.lookup(p)).value != Wdl::Draw;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(checked == 11 * (2450 + 2 * 58800 + 2 * 105840));
  CHECK(turned > 0);  // late in the count some wins do become draws
}
