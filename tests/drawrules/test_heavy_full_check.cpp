// The full independent check of the 4-piece class tables, too heavy for the
// test suite (about 6 GB and several minutes): an explicit game over every
// class position of 4 pieces, both sides to move, solved by synchronous
// depth-limited sweeps, against every dtw and every rule value at every
// count. Hidden ([.]): run by scripts/check-drawrules.
#include <catch2/catch.hpp>

#include "class_tables_fixture.h"
#include "index/draw_rule_class.h"
#include "drawrules/rule_probe.h"
#include "tests/reference/reference_minimax.h"
#include "rules/notation.h"
#include "tests/support/every_position.h"

using namespace dtb;

TEST_CASE("every 4-piece class position: dtw and rule value at every count (explicit game)", "[.heavy]") {
  const test::ClassTables& t = test::class_tables();
  std::vector<Position> seeds = reference::small_positions();
  for (const Material& m : class_materials()) {
    if (m.pieces() != 4) continue;
    for (Color side : {Color::White, Color::Black}) {
      const std::vector<Position> some = test::all_placements(m, side);
      seeds.insert(seeds.end(), some.begin(), some.end());
    }
  }
  const reference::ExplicitGame game(seeds);
  seeds = {};
  std::uint64_t checked = 0, mismatches = 0;
  for (const Material& m : class_materials()) {
    if (m.pieces() != 4) continue;
    const PositionIndex& index = t.rules.index(m);
    const int limit = limit_plies(rule_class(m));
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Position p = index.unrank(i);
      const reference::Value ref = game.value(p);
      const Outcome mine = decode_dtw(*t.dtw.lookup(p));
      bool ok = ref.wdl == mine.value && (ref.wdl == Wdl::Draw || ref.plies == mine.plies);
      for (int c = 0; c <= limit; ++c) ok = ok && *rule_value(t.rules, p, c) == game.rule_value(p, limit - c);
      if (!ok && ++mismatches <= 5) FAIL_CHECK(m.name() << " " << to_fen(p));
      ++checked;
    }
  }
  CHECK(mismatches == 0);
  CHECK(checked == 2 * (921200 + 2487240 + 2233440));
}
