// Article 6.2 where MTC alone does not decide it: `dtb gen --article62`.
//
// FMJD 6.2 draws the game after 50 plies (25 moves of each player) with only
// kings moving and no capture; a conversion (a capture or a man move) starts
// the count again. With c plies counted, a position's 6.2 value is that of
// its game with the current phase cut off after 50 - c plies, every
// conversion leading to a position valued under 6.2 from a fresh count,
// phase after phase. gen/mtc_report.h shows that MTC decides it (the
// theoretical value if MTC <= 50 - c, else a draw) when every table the
// position converts into is *faithful*: keeps its theoretical values under
// 6.2 from a fresh count. Where that fails (KKKMvKM has wins that convert
// only after 53 plies, so a man move in it, or a promotion into it, may reach
// a position that 6.2 draws), this builds the exact values with the
// generator's own solver (unit_solver.h) and a third value policy:
//   - a conversion that leaves the unit (a capture, a promotion) is valued by
//     its 6.2 value from a fresh count (Article62Exits: the theoretical value in
//     a faithful table, else what probe::PerfectPlay::article62 reads there);
//   - a man move stays in the unit, one level up; the solver reads that
//     level's values, where SolveOptions::article62_plies has made each win or
//     loss decided past 50 plies a draw: its 6.2 value from a fresh count.
// Why that is exact: inside a level only kings move and every exit has a
// fixed value, so the level is a finite game and round r of the solver
// decides exactly the positions whose side can force its result within r
// plies (unit_solver.h, "Rounds are plies to conversion"); the 6.2 value with
// c counted is that result if its round is at most 50 - c, else a draw.
// Levels go from the most advanced men down, so every level read is final.
// 6.2 only turns results into draws (a side that avoids losing without the
// rule still does with it), so every decided value is the theoretical one:
// the writer checks it against the `.wdl` table.
//
// Each unit that is not exact gets `<M>.r62` for both its tables
// (compress/FORMAT.md: the round, or 51 where no result can be forced within
// the count; draws don't-care) and `<M>.r62-stats`, its counts for `dtb
// rules --article 6.2` (mtc_sidecar.h). A unit MTC decides gets none.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "solver/finished_values.h"
#include "gen/table_builder.h"
#include "solver/unit_solver.h"
#include "index/material.h"

namespace dtb::probe {
class PerfectPlay;
}

namespace dtb::gen {

/// The stored `.r62` value of a position: the round that decided it (its
/// 6.2 value `rule` not a draw), else `plies + 1`: nothing forced in time.
inline int r62_value(Wdl rule, int round, int plies) {
  return rule == Wdl::Draw || round > plies ? plies + 1 : round;
}

/// The exits of a rule-aware solve: a position of a finished table valued
/// under 6.2 from a fresh count. Faithful tables (given up front) answer
/// their theoretical value from `theory`; the others go through `play`.
/// Thread-safe.
class Article62Exits final : public FinishedValues {
 public:
  Article62Exits(const FinishedValues& theory, probe::PerfectPlay& play, std::map<Material, bool> faithful)
      : theory_(theory), play_(play), faithful_(std::move(faithful)) {}
  Wdl value(const Position& p) const override;
  std::optional<std::string> error() const override;

 private:
  const FinishedValues& theory_;
  probe::PerfectPlay& play_;
  const std::map<Material, bool> faithful_;
  mutable std::mutex error_mutex_;
  mutable std::optional<std::string> error_;
};

/// Which tables m's unit converts into (direct_dependencies) are faithful
/// (probe::PerfectPlay::article62_faithful): what Article62Exits is given.
bool dependencies_faithful(probe::PerfectPlay& play, const Material& m, std::map<Material, bool>& out,
                           std::string& error);

/// Solve m's unit under 6.2 with a count of `plies` (50 in the game; tests
/// use fewer), its conversions valued by `exits` (their values under the same
/// count from a fresh count): out.values are the 6.2 values from a fresh
/// count, out.mtc the rounds (r62_value). MTC in scratch files in
/// `scratch_dir` if not empty.
/// Work reported to `progress`: unit_solve_work(m), as solve_unit.
SolveStatus solve_unit_article62(const Material& m, const FinishedValues& exits, int plies, ProgressBar* progress,
                              UnitSolution& out, const std::string& scratch_dir = {});

struct Article62Summary {
  std::vector<Material> solved;  // units solved and written
  std::vector<Material> reused;  // units whose .r62 tables were there, intact
  int exact_units = 0;           // units MTC decides: no .r62
  // Units whose work the progress line counted: first, in build order, those
  // the directory said before the first was solved that the rule may need to
  // solve; then any other found to need it at its turn. Every unit solved is
  // here; some here may have turned out exact.
  std::vector<Material> counted;
  double seconds = 0;
};

/// Write the `.r62` tables of every unit of `options` (build order; their
/// `.wdl` and `.mtc` tables must be in options.out_dir) that is not exact.
/// A rerun keeps the units whose `.r62` tables are there and intact.
BuildStatus build_article62_tables(const BuildOptions& options, Article62Summary& summary, std::string& error);

}  // namespace dtb::gen
