// The probe library's dtw and draw-limit values (probe/dtw_tables.h,
// probe/rule_tables.h), which `dtb probe`, `dtb serve`, the C API and the
// Python package all show, against the drawrules/ builders' tables in memory:
// every position of every 2-3 piece material and of KKKvK (6.3; its budgets
// as drawrules/ loads them whole), either side to move, at the counts where the
// limit matters, and the moves of a sample. And a damaged .dtw or .rule block
// is the library's DTB_CORRUPTED_TABLE naming the file and the block, which
// the probe report passes on as its error.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "dtb/dtb.hpp"
#include "index/colour.h"
#include "index/draw_rule_class.h"
#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "drawrules/rule_probe.h"
#include "probe/handle.h"
#include "rules/notation.h"
#include "serve/probe_report.h"
#include "tests/support/damage.h"
#include "tests/support/temp_dir.h"

namespace dtb {
namespace {

// The builders' tables written as files, with .wdl tables made from the dtw
// values (what the probe needs for the moves that leave the classes).
void write_tables(const TableSet& dtw, const TableSet& rules, const std::string& dir) {
  REQUIRE_FALSE(dtw.write_all(dir));
  REQUIRE_FALSE(rules.write_all(dir));
  WriteOptions fast;
  fast.zstd_level = 1;
  for (const Material& m : dtw.materials()) {
    std::vector<std::uint16_t> wdl;
    for (const std::uint16_t v : dtw.values(m)) wdl.push_back(static_cast<std::uint16_t>(decode_dtw(v).value));
    REQUIRE_FALSE(write_table(table_path(dir, m, TableKind::Wdl), TableContents{m, TableKind::Wdl, wdl, {}}, fast));
  }
}

// What the builders say a move is worth: its distance for the mover, and
// under the count its rule value (negated to the mover's view).
Outcome dtw_after_in_memory(const TableSet& dtw, const Position& p, const Move& m) {
  const Position after = make_move(p, m);
  if (after.pieces(after.side) == 0) return Outcome{Wdl::Win, 1};
  const Outcome o = decode_dtw(*dtw.lookup(after));
  return o.value == Wdl::Draw ? Outcome{} : Outcome{negate(o.value), static_cast<std::uint16_t>(o.plies + 1)};
}

probe::RuleStep rule_after_in_memory(const TableSet& dtw, const TableSet& rules, const Position& p, int count,
                                     const Move& m) {
  probe::RuleStep step;
  step.plies_in_class = plies_in_class_after(p, count, m);
  const Position after = make_move(p, m);
  if (step.plies_in_class < 0)
    step.value = dtw_after_in_memory(dtw, p, m).value;
  else if (step.plies_in_class > limit_plies(rule_class(material_of(after))))
    step.value = Wdl::Draw;
  else
    step.value = negate(*rule_value(rules, after, step.plies_in_class));
  return step;
}

// The counts a class position is probed at: the ends, where the limit
// strikes, and between (the budget, checked too, settles every other count).
std::vector<int> counts(RuleClass c) {
  const int limit = limit_plies(c);
  return {0, 1, limit / 2, limit - 1, limit};
}

// Compares the handle's readers with the tables in memory, counting the
// disagreements (the first few are reported).
struct Comparison {
  dtb_tables& tables;
  const TableSet& dtw;
  const TableSet& rules;
  long checked = 0, mismatches = 0;

  // `say()` tells what differs; called only then (building the text for
  // every probe would cost more than the probe).
  template <class Say>
  void expect(bool same, Say say) {
    ++checked;
    if (!same && mismatches++ < 5) UNSCOPED_INFO(say());
  }

  void position(const Position& p, bool with_moves) {
    probe::ProbeError e;
    Outcome d;
    expect(tables.dtw->dtw(p, d, &e) == DTB_OK && d == decode_dtw(*dtw.lookup(p)),
           [&] { return to_fen(p) + ": dtw " + e.message; });
    const RuleClass c = rule_class(material_of(p));
    Outcome budget;
    const dtb_status budget_status = tables.rules->budget(p, budget, &e);
    if (c == RuleClass::None) {
      expect(budget_status == DTB_NOT_IN_CLASS, [&] { return to_fen(p) + ": a budget outside the classes"; });
    } else {
      expect(budget_status == DTB_OK && budget == decode_rule(*rules.lookup(p)),
             [&] { return to_fen(p) + ": budget " + e.message; });
      for (const int count : counts(c)) {
        Wdl v;
        expect(tables.rules->rule_value(p, count, v, &e) == DTB_OK && v == *rule_value(rules, p, count),
               [&] { return to_fen(p) + ": rule value at " + std::to_string(count) + " " + e.message; });
      }
    }
    if (with_moves) moves(p, c);
  }

  void moves(const Position& p, RuleClass c) {
    MoveList list;
    generate_moves(p, list);
    probe::ProbeError e;
    for (const Move& m : list) {
      const auto said = [&](const std::string& what) {
        return to_fen(p) + ": " + what + " after " + move_to_string(p, m) + " " + e.message;
      };
      Outcome d;
      expect(tables.dtw->dtw_after(p, m, d, &e) == DTB_OK && d == dtw_after_in_memory(dtw, p, m),
             [&] { return said("dtw"); });
      if (c == RuleClass::None) continue;
      for (const int count : counts(c)) {
        probe::RuleStep got;
        const probe::RuleStep want = rule_after_in_memory(dtw, rules, p, count, m);
        expect(tables.rules->rule_after(p, count, m, got, &e) == DTB_OK &&
                   got.plies_in_class == want.plies_in_class && got.value == want.value,
               [&] { return said("rule value at " + std::to_string(count)); });
      }
    }
  }

  // Every position of `m` with White to move and its colour reversal (Black
  // to move, the same table entry); the moves of every `move_step`-th.
  void material(const Material& m, std::uint64_t move_step) {
    const PositionIndex index(m);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Position p = index.unrank(i);
      position(p, i % move_step == 0);
      position(colour_reversed(p), i % move_step == 1 % move_step);
    }
  }
};

// The explorer's test tables: .wdl up to 4 pieces, .dtw and .rule up to 3
// and for the 6.3 classes (tests/serve/make_tables.sh --rules).
std::string tables_dir() {
  const char* dir = std::getenv("DTB_SERVE_TABLES");
  return dir && *dir ? dir : "test-tables-serve";
}

Tablebase open_tables(const std::string& dir) {
  Tablebase tables;
  REQUIRE(tables.open(dir, 16 << 20) == DTB_OK);
  return tables;
}

// Damage a table file's block data and return the block that no longer
// decodes.
std::uint64_t damage(const std::string& path) {
  test::damage_last_quarter(path);
  TableError error;
  const auto reader = TableReader::open(path, &error);
  REQUIRE(reader);
  std::vector<std::uint16_t> values;
  for (std::uint64_t b = 0; b < reader->block_count(); ++b)
    if (reader->decode_block(b, values)) return b;
  FAIL("no block of " << path << " is damaged");
  return 0;
}

}  // namespace

TEST_CASE("limit values: the probe library reads the dtw and rule values the builders made") {
  const TableSet dtw3 = build_dtw_up_to(3);
  TableSet rules = build_rules(dtw3, {}, 3);
  SECTION("every 2-3 piece position and the moves of every third") {
    test::TempDir dir;
    write_tables(dtw3, rules, dir.path());
    Tablebase tables = open_tables(dir.path());
    Comparison compare{*tables.handle(), dtw3, rules};
    for (const Material& m : dtw3.materials()) compare.material(m, 3);
    CHECK(compare.mismatches == 0);
    CHECK(compare.checked > 4'000'000);
  }
  SECTION("every KKKvK and KvKKK position and the moves of a sample") {
    // Read from the explorer's test tables, where `dtb rules --build` wrote
    // the 6.3 classes. dtw from the builder in memory (KKKvK and what it
    // reaches: seconds); the 6.3 budgets as the rules report loads them,
    // whole files through drawrules/ (building every 6.3 class in memory again
    // would take minutes).
    const std::vector<Material> kkkvk{*parse_material("KKKvK"), *parse_material("KvKKK")};
    const TableSet dtw = build_dtw(dependency_closure(kkkvk));
    REQUIRE_FALSE(rules.load_materials(tables_dir(), kkkvk, true));
    Tablebase tables = open_tables(tables_dir());
    Comparison compare{*tables.handle(), dtw, rules};
    for (const Material& m : kkkvk) compare.material(m, 101);
    CHECK(compare.mismatches == 0);
    CHECK(compare.checked > 20'000'000);
  }
}

TEST_CASE("limit values: a damaged .dtw or .rule block is DTB_CORRUPTED_TABLE with its file and block") {
  const TableSet dtw = build_dtw_up_to(3);
  const TableSet rules = build_rules(dtw, {}, 3);
  for (const TableKind kind : {TableKind::Dtw, TableKind::Rule}) {
    const std::string file = std::string("KMvK") + table_extension(kind);
    INFO(file);
    test::TempDir dir;
    write_tables(dtw, rules, dir.path());
    const std::uint64_t block = damage(dir.file(file));
    Tablebase tables = open_tables(dir.path());
    dtb_tables& handle = *tables.handle();
    const PositionIndex index(*parse_material("KMvK"));
    long damaged = 0, intact = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Position p = index.unrank(i);
      probe::ProbeError e;
      Outcome o;
      const dtb_status s = kind == TableKind::Dtw ? handle.dtw->dtw(p, o, &e) : handle.rules->budget(p, o, &e);
      if (s == DTB_OK) {
        ++intact;
        continue;
      }
      REQUIRE(s == DTB_CORRUPTED_TABLE);
      CHECK(e.material == "KMvK");
      CHECK(e.block == static_cast<std::int64_t>(block));
      CHECK(e.message.find(file) != std::string::npos);
      if (damaged++ > 0) continue;
      // The report of the same position fails the same way (HTTP 500).
      const ProbeReport r = probe_report(tables, to_fen(p), 0);
      CHECK(r.failure.kind == FailureKind::TableDamaged);
      CHECK(r.failure.file == file);
      CHECK(r.failure.material == "KMvK");
      CHECK(r.failure.block == static_cast<std::int64_t>(block));
    }
    CHECK(damaged > 0);
    CHECK(intact > 0);
  }
}

}  // namespace dtb
