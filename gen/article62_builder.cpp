#include "gen/article62_builder.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <span>
#include <stdexcept>

#include "gen/finished_tables.h"
#include "support/interrupt.h"
#include "gen/mtc_report.h"
#include "gen/mtc_sidecar.h"
#include "solver/mtc_values.h"
#include "support/progress_bar.h"
#include "support/stopwatch.h"
#include "gen/table_discovery.h"
#include "solver/table_loading.h"
#include "index/colour.h"
#include "probe/perfect_play.h"
#include "probe/tablebase.h"

namespace dtb::gen {

namespace fs = std::filesystem;

Wdl Article62Exits::value(const Position& p) const {
  const Wdl v = theory_.value(p);
  if (v == Wdl::Draw || p.pieces(Color::White) == 0 || p.pieces(Color::Black) == 0) return v;
  if (const auto it = faithful_.find(material_of(white_to_move_form(p))); it != faithful_.end() && it->second)
    return v;
  Wdl rule = Wdl::Draw;
  probe::ProbeError e;
  if (play_.article62_fresh(p, v, rule, &e) == DTB_OK) return rule;
  std::lock_guard lock(error_mutex_);
  if (!error_) error_ = "article 6.2 value of a conversion into " + e.material + ": " + e.message;
  return Wdl::Draw;
}

std::optional<std::string> Article62Exits::error() const {
  if (auto e = theory_.error()) return e;
  std::lock_guard lock(error_mutex_);
  return error_;
}

SolveStatus solve_unit_article62(const Material& m, const FinishedValues& exits, int plies, ProgressBar* progress,
                              UnitSolution& out, const std::string& scratch_dir) {
  SolveOptions options;
  options.mtc = true;
  options.mtc_scratch_dir = scratch_dir;
  options.article62_plies = plies;
  return solve_unit(m, exits, progress, out, options);
}

namespace {

// One table's `.r62` values, from its rule-aware solve (the 6.2 values and
// rounds) and its theoretical values: don't-care where those are a draw.
// Counts the positions whose 6.2 value is decided but differs from the
// theoretical one, which would be a bug (article62_builder.h).
class Article62TableSource final : public ValueSource {
 public:
  Article62TableSource(const MtcValues& rounds, const UnitValues& rule, const UnitValues& theory)
      : rounds_(rounds), rule_(rule), theory_(theory) {}
  std::uint64_t size() const override { return rule_.size(); }
  bool has_dont_care() const override { return true; }
  void read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const override {
    thread_local std::vector<std::uint8_t> plies;
    plies.resize(values.size());
    stored(first, plies);
    for (std::size_t k = 0; k < values.size(); ++k) {
      values[k] = plies[k];
      dont_care[k] = static_cast<std::uint8_t>(theory_.value(first + k) == Wdl::Draw);
    }
  }
  // The stored values [first, first + out.size()).
  void stored(std::uint64_t first, std::span<std::uint8_t> out) const {
    rounds_.read(first, out);
    for (std::size_t k = 0; k < out.size(); ++k) {
      const Wdl rule = rule_.value(first + k);
      if (rule != Wdl::Draw && rule != theory_.value(first + k)) mismatches_.fetch_add(1, std::memory_order_relaxed);
      out[k] = static_cast<std::uint8_t>(r62_value(rule, out[k], kArticle62Plies));
    }
  }
  std::uint64_t mismatches() const { return mismatches_.load(); }

 private:
  const MtcValues& rounds_;
  const UnitValues& rule_;
  const UnitValues& theory_;
  mutable std::atomic<std::uint64_t> mismatches_{0};
};

bool fail(std::string& error, std::string message) {
  error = std::move(message);
  return false;
}

// Every table of the unit has its .wdl and .mtc: the rule-aware solve reads
// the MTC of the tables it converts into, and the writer the theoretical values.
bool has_theory_tables(const std::string& dir, const Material& m, std::string& error) {
  for (const Material& t : unit_of(m))
    for (const std::string& path : {wdl_table_path(dir, t), mtc_table_path(dir, t)})
      if (!fs::exists(path))
        return fail(error, path + " missing: `dtb gen --article62` needs the .wdl and .mtc tables (dtb gen --mtc)");
  return true;
}

// Whether both .r62 tables of the unit are there and pass their checks, each
// with its counts. A unit with only one, a damaged one, or one without its
// counts (a disk that filled up while they were written: the tables alone
// would look finished for good) loses both and their counts.
bool r62_tables_intact(const std::string& dir, const Material& m) {
  bool intact = true;
  for (const Material& t : unit_of(m)) {
    std::unique_ptr<TableReader> reader;
    intact = intact && fs::exists(r62_table_path(dir, t)) &&
             !open_checked_table(r62_table_path(dir, t), t, reader, TableKind::Article62) &&
             read_mtc_sidecar(dir, t, TableKind::Article62).has_value();
  }
  if (intact) return true;
  std::error_code ec;
  for (const Material& t : unit_of(m)) {
    fs::remove(r62_table_path(dir, t), ec);
    fs::remove(mtc_sidecar_path(dir, t, TableKind::Article62), ec);
  }
  return false;
}

// Whether MTC decides 6.2 for both tables of the unit (probe::PerfectPlay::article62_exact).
bool unit_exact(probe::PerfectPlay& play, const Material& m, bool& exact, std::string& error) {
  exact = true;
  for (const Material& t : unit_of(m)) {
    bool e = true;
    std::string unclean;
    probe::ProbeError pe;
    if (play.article62_exact(t, e, unclean, &pe) != DTB_OK) return fail(error, pe.message);
    exact = exact && e;
  }
  return true;
}

// Write table k of a solved unit: its .r62 and its counts.
bool write_r62_table(const std::string& dir, const UnitSolution& solution, std::size_t k,
                     const FinishedValues& theory_store, std::string& error) {
  const Material& t = solution.materials[k];
  UnitValues theory(PositionIndex(t).size());
  std::uint64_t bytes = 0;
  if (!load_checked(dir, t, theory_store, theory, bytes, error)) return false;
  const Article62TableSource source(*solution.mtc[k], *solution.values[k], theory);
  const std::string path = r62_table_path(dir, t);
  if (TableError e = write_table(path, t, TableKind::Article62, source,
                                 generator_write_options(t, TableKind::Article62, omp_get_max_threads())))
    return fail(error, "writing " + t.name() + " article 6.2: " + e.message);
  const MtcTableReport counts = count_mtc_table(
      t, theory, [&source](std::uint64_t first, std::span<std::uint8_t> out) { source.stored(first, out); }, true);
  if (source.mismatches() != 0) {
    std::error_code ec;
    fs::remove(path, ec);
    return fail(error, t.name() + ": " + std::to_string(source.mismatches()) +
                           " positions decided under article 6.2 with another value than their theoretical one");
  }
  return write_mtc_sidecar(dir, counts, error, TableKind::Article62);
}

// The rule-aware solve values every capture and promotion through the
// theoretical values (Article62Exits). Read back through the probe, such a
// lookup costs several times a resident one (finished_tables.h): a capture
// position there is resolved by searching its captures, on every lookup.
// The build before this phase kept the tables it had just solved resident;
// this phase starts with none, so before each unit it loads the tables the
// unit reads, smallest first, while they fit the budget. A table with fewer
// pieces than the unit (captures lead into it) is read all over and is
// loaded with its capture positions resolved. One with as many (only
// promotions lead into it) is read at few positions, and resolving all of
// its captures at load cost minutes a unit (KKKMvKM: most of its 4 minutes
// of loading); it is kept as stored and a capture position is resolved when
// it is read (FinishedTables::Captures). The values are the same either way:
// only where they are read from changes.
//
// Progress: loading a position costs less than solving one (no move is
// generated; only a capture position's captures are searched), counted at a
// quarter of a solve's work, a first estimate; a position loaded as stored
// (decoded only) at a twelfth. Each unit's work counts every table it reads
// at its weight, and what it need not load (resident already, or past the
// budget) is skipped: without it the bar stood still while a unit loaded
// and the ETA read tens of hours.
constexpr std::uint64_t kLoadWorkPerPosition = kSolveWorkPerPosition / 4;
constexpr std::uint64_t kStoredLoadWorkPerPosition = kSolveWorkPerPosition / 12;

// Whether unit m reads table d only through promotions: then it is loaded as stored.
bool read_as_stored(const Material& m, const Material& d) { return d.pieces() >= m.pieces(); }

std::uint64_t load_work_per_position(const Material& m, const Material& d) {
  return read_as_stored(m, d) ? kStoredLoadWorkPerPosition : kLoadWorkPerPosition;
}

std::uint64_t load_work(const Material& m) {
  std::uint64_t work = 0;
  for (const Material& d : FinishedTables::tables_read_by(m))
    work += PositionIndex(d).size() * load_work_per_position(m, d);
  return work;
}

// Writing a unit's .r62 tables (the theoretical values loaded again to mark
// the draws don't-care, the tables compressed, their counts) took about half
// as long as loading and solving it (KKMMvKM, 4.16 G positions: 4 min 50 s
// against 10 min 20 s): counted per table written, so the bar moves and
// names the phase instead of showing the last round for minutes.
constexpr std::uint64_t kWriteWorkPerPosition = kSolveWorkPerPosition / 2;

std::uint64_t write_work(const Material& m) {
  std::uint64_t work = 0;
  for (const Material& t : unit_of(m)) work += PositionIndex(t).size() * kWriteWorkPerPosition;
  return work;
}

std::uint64_t unit_work(const Material& m) { return unit_solve_work(m) + load_work(m) + write_work(m); }

// Loads table d for unit m and keeps it, resolved or as stored (above).
bool load_read_table(const std::string& dir, FinishedTables& theory, const Material& m, const Material& d,
                     const std::vector<Material>& remaining, ProgressBar& progress, std::string& error) {
  const std::uint64_t weight = load_work_per_position(m, d);
  auto values = std::make_unique<UnitValues>(PositionIndex(d).size());
  std::uint64_t bytes = 0;
  const LoadProgress advance = [&progress, weight](std::uint64_t n) { progress.advance(n * weight); };
  if (read_as_stored(m, d)) {
    if (!load_checked_stored(dir, d, *values, bytes, error, advance)) return false;
    theory.keep(d, std::move(values), remaining, FinishedTables::Captures::ResolvedOnLookup);
  } else {
    if (!load_checked(dir, d, theory, *values, bytes, error, advance)) return false;
    theory.keep(d, std::move(values), remaining);
  }
  return true;
}

bool load_read_tables(const std::string& dir, FinishedTables& theory, const Material& m,
                      const std::vector<Material>& remaining, ProgressBar& progress, std::string& error) {
  std::uint64_t loaded = 0;
  theory.release_unread(remaining);
  std::vector<std::pair<std::uint64_t, Material>> reads;
  for (const Material& d : FinishedTables::tables_read_by(m)) {
    const bool ready = read_as_stored(m, d) ? theory.is_resident(d) : theory.is_resident_resolved(d);
    if (!ready && fs::exists(wdl_table_path(dir, d))) reads.emplace_back(PositionIndex(d).size(), d);
  }
  std::sort(reads.begin(), reads.end());
  for (const auto& [positions, d] : reads) {
    if (theory.resident_bytes() + UnitValues::bytes_for(positions) > theory.resident_budget()) break;
    if (!load_read_table(dir, theory, m, d, remaining, progress, error)) return false;
    loaded += positions * load_work_per_position(m, d);
  }
  progress.skip(load_work(m) - loaded);
  return true;
}

// The units whose work the progress line counts: those that will be solved
// under the rule, as far as the directory says before the first is. Most
// units MTC decides (exact): they take no time, and counting their solve
// work made the ETA promise two hours for a phase of forty minutes. A
// dependency whose .r62 table is not yet written counts as not faithful
// (PerfectPlay::article62_facts), so a unit counted here may turn out exact
// when its turn comes (its work is then skipped), never the other way. A
// unit whose .r62 tables are intact is reused; one whose facts cannot be
// read is counted, and the build says why when it gets there.
std::set<Material> units_to_solve(const std::string& dir, probe::Tablebase& base, const std::vector<Material>& units) {
  probe::PerfectPlay play(base);
  std::set<Material> counted;
  for (const Material& m : units) {
    if (r62_tables_intact(dir, m)) continue;
    bool exact = true;
    std::string error;
    if (!unit_exact(play, m, exact, error) || !exact) counted.insert(m);
  }
  return counted;
}

// The budget of the tables kept resident: what the memory plan of the build
// leaves beside its largest unit, less the two block caches of this phase.
std::uint64_t resident_budget(const BuildOptions& options, const std::vector<Material>& units, std::uint64_t cache) {
  const MemoryPlan plan = plan_memory(options, units);
  const std::uint64_t left = plan.fits() ? plan.resident + plan.cache : 0;
  return left > 2 * cache ? left - 2 * cache : 0;
}

}  // namespace

bool dependencies_faithful(probe::PerfectPlay& play, const Material& m, std::map<Material, bool>& out,
                           std::string& error) {
  for (const Material& t : unit_of(m))
    for (const Material& d : direct_dependencies(t)) {
      bool f = false;
      probe::ProbeError pe;
      if (play.article62_faithful(d, f, &pe) != DTB_OK) return fail(error, pe.message);
      out[d] = f;
    }
  return true;
}

BuildStatus build_article62_tables(const BuildOptions& options, Article62Summary& summary, std::string& error) {
  Stopwatch watch;
  const std::string& dir = options.out_dir;
  const std::vector<Material> units = units_to_build(options);
  const std::uint64_t budget = options.memory_bytes ? options.memory_bytes : default_memory_bytes();
  std::unique_ptr<FinishedTables> theory;
  std::unique_ptr<probe::Tablebase> base;
  try {
    theory = std::make_unique<FinishedTables>(dir, options.max_pieces, budget / 8,
                                              resident_budget(options, units, budget / 8));
  } catch (const std::exception& e) {
    error = e.what();
    return BuildStatus::Failed;
  }
  probe::ProbeError pe;
  if (probe::Tablebase::open(dir, budget / 8, 0, base, &pe) != DTB_OK) {
    error = pe.message;
    return BuildStatus::Failed;
  }
  const std::set<Material> counted = units_to_solve(dir, *base, units);
  std::uint64_t total = 0;
  for (const Material& m : units)
    if (counted.count(m)) {
      total += unit_work(m);
      summary.counted.push_back(m);
    }
  ProgressBar progress("r62", total, options.show_progress);
  for (std::size_t k = 0; k < units.size(); ++k) {
    const Material& m = units[k];
    if (interrupt_requested()) {
      error = "interrupted; completed tables are kept, rerun to resume";
      return BuildStatus::Interrupted;
    }
    progress.set_item(m.name());
    if (!has_theory_tables(dir, m, error)) return BuildStatus::Failed;
    if (r62_tables_intact(dir, m)) {
      summary.reused.push_back(m);
      if (counted.count(m)) progress.skip(unit_work(m));
      continue;
    }
    // A fresh reader per unit: what it has found of the tables so far would
    // not see the .r62 tables just written.
    probe::PerfectPlay play(*base);
    bool exact = true;
    if (!unit_exact(play, m, exact, error)) return BuildStatus::Failed;
    if (exact) {
      ++summary.exact_units;
      if (counted.count(m)) progress.skip(unit_work(m));
      continue;
    }
    std::map<Material, bool> faithful;
    if (!dependencies_faithful(play, m, faithful, error)) return BuildStatus::Failed;
    const std::vector<Material> remaining(units.begin() + static_cast<std::ptrdiff_t>(k), units.end());
    progress.set_item(m.name() + ": loading");
    if (!load_read_tables(dir, *theory, m, remaining, progress, error)) return BuildStatus::Failed;
    progress.set_item(m.name());
    const Article62Exits exits(*theory, play, std::move(faithful));
    UnitSolution solution;
    switch (solve_unit_article62(m, exits, kArticle62Plies, &progress, solution, dir)) {
      case SolveStatus::Interrupted:
        error = "interrupted; completed tables are kept, rerun to resume";
        return BuildStatus::Interrupted;
      case SolveStatus::Failed:
        error = "solving " + m.name() + " under article 6.2: " + solution.error;
        return BuildStatus::Failed;
      case SolveStatus::Ok: break;
    }
    if (const auto e = exits.error()) {
      error = "solving " + m.name() + " under article 6.2: " + *e;
      return BuildStatus::Failed;
    }
    progress.set_item(m.name() + " writing");
    for (std::size_t t = 0; t < solution.materials.size(); ++t) {
      if (!write_r62_table(dir, solution, t, *theory, error)) return BuildStatus::Failed;
      progress.advance(solution.values[t]->size() * kWriteWorkPerPosition);
    }
    std::error_code ec;
    for (const Material& t : solution.materials) fs::remove(mtc_scratch_path(dir, t), ec);
    summary.solved.push_back(m);
  }
  progress.finish();
  summary.seconds = watch.lap();
  return BuildStatus::Ok;
}

}  // namespace dtb::gen
