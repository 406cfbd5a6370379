// FinishedTables' resident tables answer as the loaded tables do, whether
// their capture positions were resolved at load or are resolved on lookup.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "gen/finished_tables.h"
#include "gen/table_discovery.h"
#include "solver/unit_solver.h"
#include "support/interrupt.h"
#include "index/position_index.h"
#include "tests/gen/test_tables.h"

using namespace dtb;
using namespace dtb::gen;

namespace {

// A unit of kTestPieces + 1 pieces that reads `m`, so that keep() holds it.
std::vector<Material> a_unit_reading(const Material& m) {
  for (const Material& u : materials_in_build_order(testing::kTestPieces + 1))
    if (FinishedTables::tables_read_by(u).count(m)) return {u};
  return {};
}

constexpr std::uint64_t kCache = 4 << 20, kResidentBudget = std::uint64_t{1} << 30;

}  // namespace

TEST_CASE("a table kept as stored answers every position as the resolved table does") {
  const std::string& dir = testing::test_tables_dir();
  const WdlStore& truth = testing::test_store();
  std::uint64_t stale = 0;  // positions whose value as stored is not their true one
  for (const Material m : {Material{2, 0, 1, 1}, Material{1, 1, 1, 1}, Material{0, 2, 0, 2}, Material{3, 0, 1, 0}}) {
    CAPTURE(m.name());
    const std::vector<Material> remaining = a_unit_reading(m);
    REQUIRE(!remaining.empty());
    FinishedTables tables(dir, testing::kTestPieces, kCache, kResidentBudget);
    auto values = std::make_unique<UnitValues>(PositionIndex(m).size());
    std::uint64_t bytes = 0;
    std::string error;
    REQUIRE(load_checked_stored(dir, m, *values, bytes, error));
    UnitValues stored(PositionIndex(m).size());
    REQUIRE(load_checked_stored(dir, m, stored, bytes, error));
    tables.keep(m, std::move(values), remaining, FinishedTables::Captures::ResolvedOnLookup);
    REQUIRE(tables.is_resident(m));
    REQUIRE(!tables.is_resident_resolved(m));

    const PositionIndex index(m);
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Position p = index.unrank(i);
      stale += stored.value(i) != truth.value(p);  // only capture positions may be
      differ += tables.value(p) != truth.value(p);
      const Position reversed = colour_reversed(p);
      differ += tables.value(reversed) != truth.value(reversed);
    }
    CHECK(differ == 0);
    CHECK(!tables.error());
  }
  CHECK(stale > 0);  // some capture positions as stored hold another value: the lookups resolved them
}

TEST_CASE("a table loaded resolved is kept resolved and answers as the loaded table does") {
  const std::string& dir = testing::test_tables_dir();
  const WdlStore& truth = testing::test_store();
  // (kings and men, kings only, men only: slices of many positions, and of one)
  for (const Material m : {Material{1, 1, 1, 1}, Material{2, 0, 2, 0}, Material{0, 2, 0, 2}, Material{3, 0, 0, 1}}) {
    CAPTURE(m.name());
    FinishedTables tables(dir, testing::kTestPieces, kCache, kResidentBudget);
    auto values = std::make_unique<UnitValues>(PositionIndex(m).size());
    std::uint64_t bytes = 0;
    std::string error;
    REQUIRE(load_checked(dir, m, tables, *values, bytes, error));
    tables.keep(m, std::move(values), a_unit_reading(m));
    REQUIRE(tables.is_resident_resolved(m));
    const PositionIndex index(m);
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i)
      differ += tables.value(index.unrank(i)) != truth.value(index.unrank(i));
    CHECK(differ == 0);
  }
}

namespace {

// Finished values that ask for a stop at their first lookup (a SIGTERM
// arriving while a table loads).
class StopAtFirstLookup final : public FinishedValues {
 public:
  explicit StopAtFirstLookup(const FinishedValues& inner) : inner_(inner) {}
  Wdl value(const Position& p) const override {
    request_interrupt();
    return inner_.value(p);
  }

 private:
  const FinishedValues& inner_;
};

}  // namespace

TEST_CASE("a table being loaded stops soon after a stop is asked for, and says it was interrupted") {
  const std::string& dir = testing::test_tables_dir();
  const Material m{2, 0, 1, 1};
  const StopAtFirstLookup store(testing::test_store());
  UnitValues values(PositionIndex(m).size());
  std::uint64_t bytes = 0, loaded = 0;
  std::string error;
  const bool ok = load_checked(dir, m, store, values, bytes, error, [&](std::uint64_t n) { loaded += n; });
  const bool stopped = interrupt_requested();
  clear_interrupt();
  REQUIRE(stopped);
  CHECK(!ok);
  CHECK(error.find("interrupted") != std::string::npos);
  CHECK(loaded < PositionIndex(m).size() / 2);  // the blocks after the stop were not decoded
}

TEST_CASE("a smaller resident budget drops the table read last and keeps the one read next") {
  const std::string& dir = testing::test_tables_dir();
  // Two tables a and b of kTestPieces pieces, and units that read them in
  // that order: the first reads a and not b, the second reads b.
  std::vector<Material> tables_of_n;
  for (const Material& m : materials_in_build_order(testing::kTestPieces))
    if (m.pieces() == testing::kTestPieces) tables_of_n.push_back(m);
  Material a, b;
  std::vector<Material> remaining;
  for (const Material& x : tables_of_n)
    for (const Material& y : tables_of_n) {
      if (!remaining.empty() || x == y) continue;
      const std::vector<Material> reads_x = a_unit_reading(x), reads_y = a_unit_reading(y);
      if (reads_x.empty() || reads_y.empty() || FinishedTables::tables_read_by(reads_x.front()).count(y)) continue;
      a = x, b = y, remaining = {reads_x.front(), reads_y.front()};
    }
  REQUIRE(!remaining.empty());
  FinishedTables tables(dir, testing::kTestPieces, kCache, kResidentBudget);
  std::uint64_t kept_bytes = 0;
  for (const Material& m : {a, b}) {
    auto values = std::make_unique<UnitValues>(PositionIndex(m).size());
    std::uint64_t bytes = 0;
    std::string error;
    REQUIRE(load_checked(dir, m, tables, *values, bytes, error));
    values->drop_capture_flags();
    kept_bytes = std::max(kept_bytes, values->memory_bytes());
    tables.keep(m, std::move(values), remaining);
  }
  REQUIRE(tables.is_resident(a));
  REQUIRE(tables.is_resident(b));

  tables.set_resident_budget(tables.resident_bytes(), remaining);  // as much as is held: nothing goes
  CHECK(tables.is_resident(a));
  CHECK(tables.is_resident(b));

  tables.set_resident_budget(tables.resident_bytes() - 1, remaining);
  CHECK(tables.is_resident(a));
  CHECK_FALSE(tables.is_resident(b));
  CHECK(tables.resident_bytes() <= kept_bytes);

  tables.set_resident_budget(0, remaining);
  CHECK_FALSE(tables.is_resident(a));
  CHECK(tables.resident_bytes() == 0);
}
