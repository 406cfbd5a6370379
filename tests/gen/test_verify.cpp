// dtb verify's library entry point: it passes on good tables, matches the
// committed checksums, and fails on a single changed value or a damaged file;
// and its check of a unit held in memory (what a distributed build runs
// before writing a unit solved in parts).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "compress/table_file.h"
#include "gen/checksums.h"
#include "gen/table_builder.h"
#include "gen/table_discovery.h"
#include "solver/slice_order.h"
#include "solver/table_loading.h"
#include "solver/unit_solver.h"
#include "support/interrupt.h"
#include "verify/unit_progress.h"
#include "verify/verifier.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "tests/gen/test_tables.h"
#include "tests/support/table_values.h"

using namespace dtb;
namespace fs = std::filesystem;

namespace {

// A copy of the 2- and 3-piece tables (small, so verify runs in a moment).
std::string copy_small_tables(const std::string& tag) {
  const std::string dir = gen::testing::make_temp_dir(tag);
  for (const auto& e : fs::directory_iterator(gen::testing::test_tables_dir())) {
    const auto m = parse_material(e.path().stem().string());
    if (e.path().extension() == ".wdl" && m && m->pieces() <= 3) fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  }
  return dir;
}

bool verify(const std::string& dir, std::string& failure, const std::string& checksums = "") {
  gen::VerifyOptions options;
  options.dir = dir;
  options.checksums_file = checksums;
  gen::VerifyReport report;
  return gen::verify_tables(options, report, failure);
}

using test::read_raw_values;

void rewrite_table(const std::string& path, const Material& m, const std::vector<std::uint16_t>& values,
                   TableKind kind = TableKind::Wdl) {
  const PositionIndex index(m);
  std::vector<std::uint8_t> dont_care(values.size());
  for (std::uint64_t i = 0; i < values.size(); ++i) dont_care[i] = has_capture(index.unrank(i));
  const TableError written = write_table(path, TableContents{m, kind, values, dont_care});
  INFO(written.message);
  REQUIRE(!written);
}

// Change the value of one position of m's table that need not capture (the
// stored value of a capture position is "don't care").
void change_one_quiet_value(const std::string& dir, const Material& m) {
  const std::string path = gen::wdl_table_path(dir, m);
  std::vector<std::uint16_t> values = read_raw_values(path);
  const PositionIndex index(m);
  std::uint64_t victim = 0;
  while (has_capture(index.unrank(victim))) ++victim;
  values[victim] = static_cast<std::uint16_t>((values[victim] + 1) % 3);
  rewrite_table(path, m, values);
}

}  // namespace

TEST_CASE("verify passes on the 2-4 piece tables and they match tables/CHECKSUMS") {
  const char* source = std::getenv("DTB_SOURCE_DIR");
  REQUIRE(source);
  std::string failure;
  const bool ok = verify(gen::testing::test_tables_dir(), failure, std::string(source) + "/tables/CHECKSUMS");
  INFO(failure);
  CHECK(ok);
}

TEST_CASE("verify fails when a single stored value is changed") {
  const std::string dir = copy_small_tables("changed");
  change_one_quiet_value(dir, *parse_material("KMvK"));

  std::string failure;
  CHECK_FALSE(verify(dir, failure));
  INFO(failure);
  CHECK(failure.find("KMvK") != std::string::npos);
  CHECK(failure.find("W:") != std::string::npos);  // the position, as a FEN
}

TEST_CASE("verify fails on a damaged file and on a wrong checksum list") {
  const std::string dir = copy_small_tables("damaged");
  std::string failure;
  REQUIRE(verify(dir, failure));

  // A checksum list that disagrees about one file.
  {
    std::ofstream list(dir + "/CHECKSUMS");
    list << "0000000000000000  KvK.wdl\n";
  }
  CHECK_FALSE(verify(dir, failure, dir + "/CHECKSUMS"));
  CHECK(failure.find("KvK.wdl") != std::string::npos);

  // One flipped byte near the end of a file (in its last block).
  const std::string path = dir + "/KMvM.wdl";
  const auto size = fs::file_size(path);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size - 3));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(size - 3));
    f.put(static_cast<char>(c ^ 0x5a));
  }
  CHECK_FALSE(verify(dir, failure));
  INFO(failure);
  CHECK(failure.find("KMvM") != std::string::npos);
}


namespace {

// The trap of verifier.h step 2: relabel drawn positions of KKvK as wins for
// the two kings and drawn positions of KvKK (the lone king to move) as
// losses, keeping only those where the relabelling stays consistent (a
// greatest fixed point: a "win" needs a move to a "loss", a "loss" needs
// every move to go to a win). Every value then agrees with its successors,
// yet the "wins" are a cycle with no end. Plants it in the tables in `dir`
// and returns, per table, which positions were relabelled.
std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> plant_false_win_cycle(const std::string& dir) {
  const Material kings2 = *parse_material("KKvK"), lone = *parse_material("KvKK");
  const PositionIndex two(kings2), one(lone);
  const gen::WdlStore& truth = gen::testing::test_store();
  auto draws = [&](const PositionIndex& index) {
    std::vector<std::uint8_t> in(index.size());
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Position p = index.unrank(i);
      in[i] = !has_capture(p) && truth.value(p) == Wdl::Draw;
    }
    return in;
  };
  std::vector<std::uint8_t> wins = draws(two), losses = draws(one);
  // Value of a successor (the other side to move) under the relabelling.
  auto relabelled = [&](const Position& s) {
    const Position w = colour_reversed(s);
    if (material_of(w) == kings2 && wins[two.rank(w)]) return Wdl::Win;
    if (material_of(w) == lone && losses[one.rank(w)]) return Wdl::Loss;
    return truth.value(s);
  };
  MoveList list;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint64_t i = 0; i < two.size(); ++i) {
      if (!wins[i]) continue;
      generate_moves(two.unrank(i), list);
      bool keeps = false;
      for (const Move& m : list) keeps |= relabelled(make_move(two.unrank(i), m)) == Wdl::Loss;
      if (!keeps) wins[i] = 0, changed = true;
    }
    for (std::uint64_t i = 0; i < one.size(); ++i) {
      if (!losses[i]) continue;
      generate_moves(one.unrank(i), list);
      bool keeps = true;
      for (const Move& m : list) keeps &= relabelled(make_move(one.unrank(i), m)) == Wdl::Win;
      if (!keeps) losses[i] = 0, changed = true;
    }
  }
  const auto count = [](const std::vector<std::uint8_t>& v) { return std::count(v.begin(), v.end(), 1); };
  REQUIRE(count(wins) > 0);
  REQUIRE(count(losses) > 0);

  std::vector<std::uint16_t> values = read_raw_values(gen::wdl_table_path(dir, kings2));
  for (std::uint64_t i = 0; i < values.size(); ++i)
    if (wins[i]) values[i] = static_cast<std::uint16_t>(Wdl::Win);
  rewrite_table(gen::wdl_table_path(dir, kings2), kings2, values);
  values = read_raw_values(gen::wdl_table_path(dir, lone));
  for (std::uint64_t i = 0; i < values.size(); ++i)
    if (losses[i]) values[i] = static_cast<std::uint16_t>(Wdl::Loss);
  rewrite_table(gen::wdl_table_path(dir, lone), lone, values);
  return {wins, losses};
}

}  // namespace

TEST_CASE("verify fails on a self-consistent cycle of false wins") {
  const std::string dir = copy_small_tables("cycle");
  plant_false_win_cycle(dir);
  std::string failure;
  CHECK_FALSE(verify(dir, failure));
  INFO(failure);
  // (Consistent, so step 1 passes: only step 2 says "unfounded".)
  CHECK(failure.find("unfounded value") != std::string::npos);
  CHECK((failure.find("KKvK") != std::string::npos || failure.find("KvKK") != std::string::npos));
}

// With .mtc tables the verifier leaves step 2 out: the MTC check must catch
// the same cycle, whatever depths the cycle's positions claim (here all the
// same, a plausible 3).
TEST_CASE("verify with .mtc tables fails on a self-consistent cycle of false wins through the depths") {
  const std::string dir = gen::testing::make_mtc_tables_up_to_3("cycle-mtc");
  std::string failure;
  const auto [wins, losses] = plant_false_win_cycle(dir);
  for (const auto& [name, planted] : {std::pair{"KKvK", wins}, std::pair{"KvKK", losses}}) {
    const Material m = *parse_material(name);
    std::vector<std::uint16_t> mtc = read_raw_values(gen::mtc_table_path(dir, m));
    for (std::uint64_t i = 0; i < mtc.size(); ++i)
      if (planted[i]) mtc[i] = 3;
    rewrite_table(gen::mtc_table_path(dir, m), m, mtc, TableKind::Mtc);
  }
  gen::VerifyOptions options;
  options.dir = dir;
  gen::VerifyReport report;
  CHECK_FALSE(gen::verify_tables(options, report, failure));
  INFO(failure);
  CHECK(report.units_proven_by_depth > 0);
  CHECK((failure.find("KKvK.mtc") != std::string::npos || failure.find("KvKK.mtc") != std::string::npos));
}

TEST_CASE("verify checks .mtc tables and fails on a single changed MTC") {
  const std::string dir = gen::testing::make_mtc_tables_up_to_3("mtc");
  std::string failure;
  gen::VerifyOptions options;
  options.dir = dir;
  gen::VerifyReport report;
  const bool ok = gen::verify_tables(options, report, failure);
  INFO(failure);
  REQUIRE(ok);
  CHECK(report.mtc_tables == report.tables);

  // A won position of KKvK that need not capture: one more ply to conversion.
  const Material m = *parse_material("KKvK");
  const PositionIndex index(m);
  const std::vector<std::uint16_t> wdl = read_raw_values(gen::wdl_table_path(dir, m));
  std::vector<std::uint16_t> mtc = read_raw_values(gen::mtc_table_path(dir, m));
  std::uint64_t changed = index.size();
  for (std::uint64_t i = 0; i < index.size() && changed == index.size(); ++i)
    if (!has_capture(index.unrank(i)) && wdl[i] == static_cast<std::uint16_t>(Wdl::Win) && mtc[i] > 1) changed = i;
  REQUIRE(changed < index.size());
  mtc[changed] += 2;
  rewrite_table(gen::mtc_table_path(dir, m), m, mtc, TableKind::Mtc);
  gen::VerifyReport again;
  CHECK_FALSE(gen::verify_tables(options, again, failure));
  // The changed position itself, or a position of the twin table (KvKK)
  // whose moves lead to it, depending on which table is checked first.
  INFO(failure);
  CHECK((failure.find("KKvK.mtc: position " + std::to_string(changed) + " ") != std::string::npos ||
         failure.find("KvKK.mtc") != std::string::npos));
}

TEST_CASE("verify refuses a memory bound its largest unit does not fit and passes in the least that does") {
  const std::string dir = gen::testing::make_mtc_tables_up_to_3("verify-memory");
  std::vector<Material> materials;
  std::string failure;
  REQUIRE(gen::discover_tables(dir, materials, failure));
  const gen::VerifyMemoryPlan plan = gen::plan_verify_memory(dir, materials, std::uint64_t{1} << 30);
  REQUIRE(plan.fits());
  // With .mtc tables a unit holds its MTC, a byte a position, beside its
  // values; without them a byte a position of its largest level.
  const Material km = *parse_material("KMvK");
  std::uint64_t positions = 0;
  for (const Material& t : gen::unit_of(km)) positions += PositionIndex(t).size();
  CHECK(gen::verify_unit_bytes(dir, km) > positions);
  CHECK(gen::verify_unit_bytes(copy_small_tables("verify-memory-wdl"), km) < gen::verify_unit_bytes(dir, km));
  CHECK(plan.largest_unit >= gen::verify_unit_bytes(dir, km));

  gen::VerifyOptions options;
  options.dir = dir;
  bool told = false;
  options.on_memory_plan = [&](const gen::VerifyMemoryPlan& p) { told = !p.fits(); };
  options.memory_bytes = plan.least_budget - 1;
  gen::VerifyReport refused;
  CHECK_FALSE(gen::verify_tables(options, refused, failure));
  CHECK(told);
  CHECK(failure.find("the unit of " + plan.largest.name() + " needs") != std::string::npos);
  CHECK(failure.find("--memory " + std::to_string((plan.least_budget + (1 << 20) - 1) >> 20) + "M") !=
        std::string::npos);
  CHECK(refused.tables == 0);

  // At the least bound nothing stays resident beside the largest unit: its
  // dependencies are read back from their files, and every check passes.
  options.memory_bytes = plan.least_budget;
  gen::VerifyReport passed;
  const bool ok = gen::verify_tables(options, passed, failure);
  INFO(failure);
  CHECK(ok);
  CHECK(!told);
  CHECK(passed.tables == static_cast<int>(materials.size()));
  CHECK(passed.mtc_tables == passed.tables);
}

TEST_CASE("a verify journal skips the units it lists and checks a changed one again") {
  const std::string dir = copy_small_tables("journal");
  const std::string journal = dir + "/journal";
  gen::VerifyOptions options;
  options.dir = dir;
  options.journal_file = journal;
  gen::VerifyReport first;
  std::string failure;
  REQUIRE(gen::verify_tables(options, first, failure));
  CHECK(first.tables_from_journal == 0);
  // Every table verified is listed, with its file's XXH3.
  gen::ChecksumList listed;
  REQUIRE(gen::read_checksum_list(journal, listed, failure));
  CHECK(static_cast<int>(listed.size()) == first.tables);

  gen::VerifyReport again;
  REQUIRE(gen::verify_tables(options, again, failure));
  CHECK(again.tables == first.tables);
  CHECK(again.positions == first.positions);
  CHECK(again.tables_from_journal == first.tables);

  // A file changed since: its unit is checked again, and fails.
  change_one_quiet_value(dir, *parse_material("KMvK"));
  gen::VerifyReport changed;
  CHECK_FALSE(gen::verify_tables(options, changed, failure));
  CHECK(failure.find("KMvK") != std::string::npos);
}

TEST_CASE("a verify resumed from its journal counts every unit it lists as done before checking the first other") {
  const std::string dir = copy_small_tables("journal-progress");
  gen::VerifyOptions options;
  options.dir = dir;
  options.journal_file = dir + "/journal";
  gen::VerifyReport first;
  std::string failure;
  REQUIRE(gen::verify_tables(options, first, failure));
  // Forget the first unit of the build order: the units after it stay listed.
  const Material unit = *parse_material("KvK");
  gen::ChecksumList listed;
  REQUIRE(gen::read_checksum_list(options.journal_file, listed, failure));
  REQUIRE(listed.erase(unit.name() + ".wdl") == 1);
  REQUIRE(gen::write_checksum_list(options.journal_file, listed, failure));

  std::vector<std::string> started;
  std::uint64_t done = 0, total = 0;
  options.on_unit_start = [&](const Material& m, std::uint64_t d, std::uint64_t t) {
    started.push_back(m.name());
    done = d;
    total = t;
  };
  gen::VerifyReport again;
  REQUIRE(gen::verify_tables(options, again, failure));
  REQUIRE(started == std::vector<std::string>{unit.name()});
  // (no .mtc here: a table's work is three passes over its positions)
  CHECK(total - done == 3 * PositionIndex(unit).size());
}

namespace {

bool in_unit(const Material& m, const Material& unit) { return m == unit || m == unit.reversed(); }

// Verify with `options`, whose hook asks for a stop: the run must fail as
// "interrupted".
gen::VerifyReport verify_expecting_stop(const gen::VerifyOptions& options) {
  gen::VerifyReport report;
  std::string failure;
  const bool ok = gen::verify_tables(options, report, failure);
  gen::clear_interrupt();
  CHECK_FALSE(ok);
  CHECK(failure == "interrupted");
  return report;
}

// Verify with `options` (a journal) and stop the run once `levels` levels of
// `unit` have passed: the last level that passed.
int verify_stopped_in(gen::VerifyOptions options, const Material& unit, int levels) {
  int passed = 0, last = -1;
  options.on_level_passed = [&](const Material& m, int level) {
    if (!in_unit(m, unit)) return;
    last = level;
    if (++passed == levels) gen::request_interrupt();
  };
  verify_expecting_stop(options);
  return last;
}

// Verify with `options`: the levels of `unit` checked, in order.
std::vector<int> levels_checked(gen::VerifyOptions options, const Material& unit, gen::VerifyReport& report) {
  std::vector<int> checked;
  options.on_level_passed = [&](const Material& m, int level) {
    if (in_unit(m, unit)) checked.push_back(level);
  };
  std::string failure;
  const bool ok = gen::verify_tables(options, report, failure);
  INFO(failure);
  CHECK(ok);
  return checked;
}

}  // namespace

TEST_CASE("a verify journal resumes a unit at the level where a run stopped") {
  const std::string dir = copy_small_tables("journal-levels");
  const Material unit = *parse_material("MMvM");
  gen::VerifyOptions options;
  options.dir = dir;
  gen::VerifyReport whole;
  std::string failure;
  REQUIRE(gen::verify_tables(options, whole, failure));

  options.journal_file = dir + "/journal";
  options.progress_seconds = 0;  // small units: record after every level
  const int stopped_after = verify_stopped_in(options, unit, 3);
  REQUIRE(stopped_after > 0);
  REQUIRE(fs::exists(options.journal_file + ".unit"));

  // The rerun checks MMvM from the level below, and nothing is lost.
  gen::VerifyReport resumed;
  const std::vector<int> checked = levels_checked(options, unit, resumed);
  CHECK(resumed.resumed_inside_unit);
  CHECK(resumed.levels_resumed == 3);
  REQUIRE_FALSE(checked.empty());
  CHECK(checked.front() == stopped_after - 1);
  CHECK(checked.back() == 0);
  CHECK(resumed.tables == whole.tables);
  CHECK(resumed.positions == whole.positions);
  CHECK_FALSE(fs::exists(options.journal_file + ".unit"));  // the journal lists the unit now
}

TEST_CASE("a stop inside a unit with .mtc tables resumes with their MTC checked up to there, not from an older record") {
  const std::string dir = gen::testing::make_mtc_tables_up_to_3("mtc-stop");
  const Material unit = *parse_material("MMvK");
  gen::VerifyOptions options;
  options.dir = dir;
  options.journal_file = dir + "/journal";
  options.progress_seconds = 0;
  const std::string record = options.journal_file + ".unit";
  const int stopped_after = verify_stopped_in(options, unit, 2);
  REQUIRE(stopped_after > 0);
  gen::UnitProgress progress;
  std::string failure;
  REQUIRE(gen::read_unit_progress(record, progress, failure));
  CHECK(progress.levels_passed_from == stopped_after);
  CHECK(progress.levels_with_mtc);  // the level's MTC was checked with its values
  CHECK_FALSE(progress.mtc_passed);
  fs::copy_file(options.journal_file, dir + "/journal.kept");

  // The rerun takes the unit from the level below, and checks every .mtc table.
  gen::VerifyReport resumed;
  std::vector<int> checked = levels_checked(options, unit, resumed);
  CHECK(resumed.resumed_inside_unit);
  REQUIRE_FALSE(checked.empty());
  CHECK(checked.front() == stopped_after - 1);
  CHECK(resumed.mtc_tables == resumed.tables - resumed.tables_from_journal);

  // A record of levels whose MTC was to be checked after them (as an older
  // verifier did) does not vouch for their MTC: the unit is checked from its start.
  fs::copy_file(dir + "/journal.kept", options.journal_file, fs::copy_options::overwrite_existing);
  progress.levels_with_mtc = false;
  REQUIRE(gen::write_unit_progress(record, progress, failure));
  gen::VerifyReport again;
  checked = levels_checked(options, unit, again);
  CHECK_FALSE(again.resumed_inside_unit);
  REQUIRE_FALSE(checked.empty());
  CHECK(checked.front() > stopped_after);
  CHECK(again.mtc_tables == again.tables - again.tables_from_journal);
}

TEST_CASE("a verify journal resumes inside a level of a unit with .mtc tables, at the part where a run stopped") {
  const std::string dir = gen::testing::make_mtc_tables_up_to_3("mtc-parts");
  const Material unit = *parse_material("KKvK");  // one level: kings only
  gen::VerifyOptions options;
  options.dir = dir;
  gen::VerifyReport whole;
  std::string failure;
  REQUIRE(gen::verify_tables(options, whole, failure));

  options.journal_file = dir + "/journal";
  options.progress_seconds = 0;
  options.level_part_positions = 4096;
  std::uint64_t stopped_at = 0;
  int parts = 0;
  options.on_level_part_passed = [&](const Material& m, int, int table, std::uint64_t positions) {
    if (in_unit(m, unit) && table == 1 && ++parts == 2) {
      stopped_at = positions;
      gen::request_interrupt();
    }
  };
  verify_expecting_stop(options);
  REQUIRE(stopped_at > 0);
  gen::UnitProgress progress;
  REQUIRE(gen::read_unit_progress(options.journal_file + ".unit", progress, failure));
  CHECK(progress.levels_passed_from == -1);
  CHECK(progress.part_level == 0);
  CHECK(progress.part_table == 1);
  CHECK(progress.part_positions == stopped_at);
  fs::copy_file(options.journal_file, dir + "/journal.kept");

  // The rerun checks the second table from there on, and nothing of the first.
  std::vector<std::pair<int, std::uint64_t>> checked;
  options.on_level_part_passed = [&](const Material& m, int, int table, std::uint64_t positions) {
    if (in_unit(m, unit)) checked.emplace_back(table, positions);
  };
  gen::VerifyReport resumed;
  const bool ok = gen::verify_tables(options, resumed, failure);
  INFO(failure);
  REQUIRE(ok);
  CHECK(resumed.level_part_resumed);
  REQUIRE_FALSE(checked.empty());
  CHECK(checked.front().first == 1);
  CHECK(checked.front().second > stopped_at);
  CHECK(resumed.positions == whole.positions);
  CHECK(resumed.mtc_tables == resumed.tables - resumed.tables_from_journal);
  CHECK_FALSE(fs::exists(options.journal_file + ".unit"));

  // A record of a part the level cannot have (past its end) is not trusted.
  fs::copy_file(dir + "/journal.kept", options.journal_file, fs::copy_options::overwrite_existing);
  progress.part_positions = std::uint64_t{1} << 40;
  REQUIRE(gen::write_unit_progress(options.journal_file + ".unit", progress, failure));
  checked.clear();
  gen::VerifyReport again;
  REQUIRE(gen::verify_tables(options, again, failure));
  CHECK_FALSE(again.level_part_resumed);
  REQUIRE_FALSE(checked.empty());
  CHECK(checked.front() == std::pair<int, std::uint64_t>{0, 4096});
}

TEST_CASE("a verify journal checks a unit from its start when its files changed since it stopped") {
  const std::string dir = copy_small_tables("journal-changed-unit");
  const Material unit = *parse_material("MMvM");
  gen::VerifyOptions options;
  options.dir = dir;
  options.journal_file = dir + "/journal";
  options.progress_seconds = 0;  // small units: record after every level
  const int stopped_after = verify_stopped_in(options, unit, 2);

  // The progress was recorded for other bytes: a file of the unit changed.
  gen::UnitProgress progress;
  std::string failure;
  REQUIRE(gen::read_unit_progress(options.journal_file + ".unit", progress, failure));
  REQUIRE(progress.levels_passed_from == stopped_after);
  REQUIRE_FALSE(progress.files.empty());
  progress.files.begin()->second ^= 1;
  REQUIRE(gen::write_unit_progress(options.journal_file + ".unit", progress, failure));

  gen::VerifyReport again;
  const std::vector<int> checked = levels_checked(options, unit, again);
  CHECK_FALSE(again.resumed_inside_unit);
  REQUIRE_FALSE(checked.empty());
  CHECK(checked.front() == stopped_after + 1);  // the unit's top level: two had passed
}

TEST_CASE("verify compares the checksum list first and --checksums-only stops there") {
  const std::string dir = copy_small_tables("checksums-only");
  const std::string list = dir + "/listed";
  gen::VerifyOptions options;
  options.dir = dir;
  options.write_checksums_file = list;
  options.checksums_only = true;
  gen::VerifyReport written;
  std::string failure;
  REQUIRE(gen::verify_tables(options, written, failure));
  gen::ChecksumList listed;
  REQUIRE(gen::read_checksum_list(list, listed, failure));
  CHECK(static_cast<int>(listed.size()) == written.tables);

  options.write_checksums_file.clear();
  options.checksums_file = list;
  gen::VerifyReport compared;
  REQUIRE(gen::verify_tables(options, compared, failure));
  CHECK(compared.checksums_compared == written.tables);

  // A changed value changes the file: the comparison names it, and a full
  // verify fails on the checksum before it re-derives a single value.
  change_one_quiet_value(dir, *parse_material("KMvK"));
  CHECK_FALSE(gen::verify_tables(options, compared, failure));
  CHECK(failure.find("KMvK.wdl: XXH3") != std::string::npos);
  options.checksums_only = false;
  CHECK_FALSE(gen::verify_tables(options, compared, failure));
  CHECK(failure.find("KMvK.wdl: XXH3") != std::string::npos);

  // With the list made from the changed file, --checksums-only passes: it
  // vouches for the bytes, not the values. The full verify still fails.
  options.checksums_only = true;
  options.checksums_file.clear();
  options.write_checksums_file = list;
  REQUIRE(gen::verify_tables(options, written, failure));
  options.checksums_file = list;
  options.write_checksums_file.clear();
  CHECK(gen::verify_tables(options, compared, failure));
  options.checksums_only = false;
  CHECK_FALSE(gen::verify_tables(options, compared, failure));
  CHECK(failure.find("W:") != std::string::npos);
}

namespace {

// A copy of `values` where position j holds at(j): its value and capture
// flag (UnitValues only ORs or sets whole words: every word is written).
template <class At>
gen::UnitValues rewritten(const gen::UnitValues& values, const At& at) {
  gen::UnitValues out(values.size(), gen::UnitValues::Unset{});
  for (std::uint64_t word = 0; word * 64 < values.size(); ++word) {
    std::uint64_t half[2] = {0, 0}, captures = 0;
    for (std::uint64_t k = 0; k < 64 && word * 64 + k < values.size(); ++k) {
      const auto [v, capture] = at(word * 64 + k);
      half[k / 32] |= std::uint64_t{static_cast<std::uint8_t>(v)} << ((k % 32) * 2);
      captures |= std::uint64_t{capture} << k;
    }
    out.set_words(word, half[0], half[1], captures);
  }
  return out;
}

// `values` with position i set to v and its capture flag to `capture`.
gen::UnitValues with_value(const gen::UnitValues& values, std::uint64_t i, Wdl v, bool capture) {
  return rewritten(values, [&](std::uint64_t j) {
    return j == i ? std::pair{v, capture} : std::pair{values.value(j), values.capture(j)};
  });
}

// m's unit solved in memory, with MTC.
gen::UnitSolution solved_with_mtc(const Material& m) {
  gen::UnitSolution solved;
  gen::SolveOptions options;
  options.mtc = true;
  REQUIRE(gen::solve_unit(m, gen::testing::test_store(), nullptr, solved, options) == gen::SolveStatus::Ok);
  return solved;
}

// Where i stands in the solve of m: "level A slice S".
std::string level_and_slice(const PositionIndex& index, std::uint64_t i) {
  const Position p = index.unrank(i);
  return "level " + std::to_string(gen::advancement(p.men_of(Color::White), p.men_of(Color::Black))) + " slice " +
         std::to_string(i / index.kings_per_slice());
}

}  // namespace

// What a distributed build checks before writing a unit solved in parts:
// the values as solved pass; one quiet value, one capture flag, one capture
// position's value or one MTC changed fails, naming the level and slice.
TEST_CASE("the check of a unit held in memory finds one changed value, capture flag or MTC") {
  const Material m = *parse_material("KMvM");
  const gen::UnitSolution solved = solved_with_mtc(m);
  const PositionIndex index(m);
  const auto check = [&](const gen::UnitValues& first, std::span<const std::uint8_t> first_mtc, std::string& failure) {
    const std::vector<const gen::UnitValues*> values = {&first, solved.values[1].get()};
    const std::vector<std::span<const std::uint8_t>> mtc = {first_mtc, solved.mtc[1]->bytes()};
    return gen::verify_unit_in_memory(solved.materials, values, mtc, gen::testing::test_store(), failure);
  };
  const gen::UnitValues& values = *solved.values[0];
  const std::span<const std::uint8_t> mtc = solved.mtc[0]->bytes();
  std::string failure;
  REQUIRE(check(values, mtc, failure));

  std::uint64_t quiet_win = 0, capture = 0;
  while (values.capture(quiet_win) || values.value(quiet_win) != Wdl::Win || mtc[quiet_win] < 2) ++quiet_win;
  while (!values.capture(capture)) ++capture;
  const std::string where = "KMvM " + level_and_slice(index, quiet_win);

  CHECK_FALSE(check(with_value(values, quiet_win, Wdl::Draw, false), mtc, failure));
  CHECK(failure.find("value mismatch at " + where) != std::string::npos);

  CHECK_FALSE(check(with_value(values, quiet_win, Wdl::Win, true), mtc, failure));
  CHECK(failure.find("capture flag mismatch at " + where) != std::string::npos);

  const Wdl other = values.value(capture) == Wdl::Win ? Wdl::Loss : Wdl::Win;
  CHECK_FALSE(check(with_value(values, capture, other, true), mtc, failure));
  CHECK(failure.find("value mismatch at KMvM " + level_and_slice(index, capture)) != std::string::npos);

  std::vector<std::uint8_t> changed(mtc.begin(), mtc.end());
  changed[quiet_win] += 2;
  CHECK_FALSE(check(values, changed, failure));
  CHECK(failure.find("KMvM.mtc: position " + std::to_string(quiet_win) + " ") != std::string::npos);
  CHECK(failure.find(level_and_slice(index, quiet_win)) != std::string::npos);
}

namespace {

// A worker's view of a unit (cluster/): only the values and MTC of the
// slices `kept(table, slice)` says, everything else zero, as a worker's
// arrays hold a part and the level above it reads.
struct SparseCopy {
  std::vector<std::unique_ptr<gen::UnitValues>> values;
  std::vector<std::vector<std::uint8_t>> mtc;
};

template <class Kept>
SparseCopy sparse_copy(const gen::UnitSolution& solved, const Kept& kept) {
  SparseCopy out;
  for (std::size_t t = 0; t < solved.values.size(); ++t) {
    const gen::UnitValues& from = *solved.values[t];
    const std::uint64_t kps = PositionIndex(solved.materials[t]).kings_per_slice();
    out.values.push_back(std::make_unique<gen::UnitValues>(rewritten(from, [&](std::uint64_t i) {
      return kept(t, i / kps) ? std::pair{from.value(i), from.capture(i)} : std::pair{Wdl{}, false};
    })));
    std::vector<std::uint8_t> mtc(from.size(), 0);
    for (std::uint64_t i = 0; i < from.size(); ++i)
      if (kept(t, i / kps)) mtc[i] = static_cast<std::uint8_t>(solved.mtc[t]->get(i));
    out.mtc.push_back(std::move(mtc));
  }
  return out;
}

}  // namespace

// What a worker of a distributed build checks of a part another worker
// solved: one slice of KMvM and its colour reversal in MvKM, with only the
// level above besides. The part as solved passes; a value or an MTC changed
// in it fails, naming its level and slice.
TEST_CASE("the check of one part of a level reads only the part and the level above, and finds a changed value") {
  const Material m = *parse_material("KMvM");
  const gen::UnitSolution solved = solved_with_mtc(m);
  const PositionIndex index(m), twin_index(m.reversed());
  const std::uint64_t kps = index.kings_per_slice();
  std::uint64_t quiet_win = 0;
  while (solved.values[0]->capture(quiet_win) || solved.values[0]->value(quiet_win) != Wdl::Win ||
         solved.mtc[0]->get(quiet_win) < 2)
    ++quiet_win;
  const auto slice = static_cast<std::uint32_t>(quiet_win / kps);
  const auto [white, black] = index.unrank_men(slice);
  const auto twin = static_cast<std::uint32_t>(twin_index.rank_men(rotate_bb(black), rotate_bb(white)));
  const int level = gen::advancement(white, black);
  const std::vector<std::vector<std::uint32_t>> part = {{slice}, {twin}};
  const auto in_part_or_above = [&](std::size_t t, std::uint64_t s) {
    if (s == (t == 0 ? slice : twin)) return true;
    const auto [w, b] = (t == 0 ? index : twin_index).unrank_men(s);
    return gen::advancement(w, b) == level + 1;
  };
  const auto check = [&](const SparseCopy& copy, std::string& failure) {
    const std::vector<const gen::UnitValues*> values = {copy.values[0].get(), copy.values[1].get()};
    const std::vector<std::span<const std::uint8_t>> mtc = {copy.mtc[0], copy.mtc[1]};
    return gen::verify_part_in_memory(solved.materials, level, part, values, mtc, gen::testing::test_store(), failure);
  };
  std::string failure;
  SparseCopy copy = sparse_copy(solved, in_part_or_above);
  CHECK(check(copy, failure));
  INFO(failure);

  const std::string where = "KMvM level " + std::to_string(level) + " slice " + std::to_string(slice);
  SparseCopy drawn = sparse_copy(solved, in_part_or_above);
  drawn.values[0] = std::make_unique<gen::UnitValues>(with_value(*drawn.values[0], quiet_win, Wdl::Draw, false));
  CHECK_FALSE(check(drawn, failure));
  CHECK(failure.find("value mismatch at " + where) != std::string::npos);

  copy.mtc[0][quiet_win] += 2;
  CHECK_FALSE(check(copy, failure));
  CHECK(failure.find("KMvM.mtc: position " + std::to_string(quiet_win) + " ") != std::string::npos);

  // Without the level above, the part's man moves read zeros: the check
  // must notice rather than pass.
  const SparseCopy alone = sparse_copy(solved, [&](std::size_t t, std::uint64_t s) { return s == (t == 0 ? slice : twin); });
  CHECK_FALSE(check(alone, failure));
}
