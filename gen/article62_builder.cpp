#include "gen/article62_builder.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <stdexcept>
#include <utility>

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
// generated; only a capture position's captures are searched): counted at
// a tenth of a solve's work, and a position loaded as stored (decoded only)
// at a thirtieth. Which tables a unit loads is known only at its turn: those
// it reads that are not resident already (loaded for an earlier unit, kept
// while a later one reads them), smallest first, while they fit the budget.
// So each table's load work joins the total as it starts, and the bar moves
// while it loads.
// Counted from the start for every table a unit reads, the load work was
// mostly skipped (KMMMvKM's 13 % of a resumed phase in 10 s) and the ETA ran
// twice the time left.
constexpr std::uint64_t kLoadWorkPerPosition = kSolveWorkPerPosition / 10;
constexpr std::uint64_t kStoredLoadWorkPerPosition = kSolveWorkPerPosition / 30;

// Whether unit m reads table d only through promotions: then it is loaded as stored.
bool read_as_stored(const Material& m, const Material& d) { return d.pieces() >= m.pieces(); }

std::uint64_t load_work_per_position(const Material& m, const Material& d) {
  return read_as_stored(m, d) ? kStoredLoadWorkPerPosition : kLoadWorkPerPosition;
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

// What the progress line counts for a unit from the start: its solve and its writing.
std::uint64_t unit_work(const Material& m) { return unit_solve_work(m) + write_work(m); }

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
  theory.release_unread(remaining);
  std::vector<std::pair<std::uint64_t, Material>> reads;
  for (const Material& d : FinishedTables::tables_read_by(m)) {
    const bool ready = read_as_stored(m, d) ? theory.is_resident(d) : theory.is_resident_resolved(d);
    if (!ready && fs::exists(wdl_table_path(dir, d))) reads.emplace_back(PositionIndex(d).size(), d);
  }
  std::sort(reads.begin(), reads.end());
  for (const auto& [positions, d] : reads) {
    if (theory.resident_bytes() + UnitValues::bytes_for(positions) > theory.resident_budget()) break;
    progress.add_work(positions * load_work_per_position(m, d));
    if (!load_read_table(dir, theory, m, d, remaining, progress, error)) return false;
  }
  return true;
}

// The units that may need solving under the rule, as far as the directory
// says now: those without intact .r62 tables that MTC does not decide
// (exact). A dependency whose .r62 table is not yet written counts as not
// faithful (PerfectPlay::article62_facts), so such a unit may turn out exact
// once the units before it are written, never the other way. A unit whose
// facts cannot be read is here too; the build says why when it gets there.
std::set<Material> units_pending(const std::string& dir, probe::PerfectPlay& play, const std::vector<Material>& units) {
  std::set<Material> pending;
  for (const Material& m : units) {
    if (r62_tables_intact(dir, m)) continue;
    bool exact = true;
    std::string error;
    if (!unit_exact(play, m, exact, error) || !exact) pending.insert(m);
  }
  return pending;
}

// Whether pending unit m needs its solve whatever the pending units before
// it show: one of its tables with men converts later than 50 plies (a man
// move stays in the unit), or one converts into a table outside the
// pending units that is not faithful. Otherwise it needs its solve only if
// a pending table it converts into turns out not faithful once written.
bool surely_solved(probe::PerfectPlay& play, const Material& m, const std::set<Material>& pending_tables) {
  for (const Material& t : unit_of(m)) {
    bool clean = false;
    probe::ProbeError pe;
    if (t.men() > 0 && (play.clean(t, clean, &pe) != DTB_OK || !clean)) return true;
    for (const Material& d : direct_dependencies(t)) {
      if (pending_tables.count(d)) continue;
      bool faithful = false;
      if (play.article62_faithful(d, faithful, &pe) != DTB_OK || !faithful) return true;
    }
  }
  return false;
}

// What the progress line counts for the units the phase may solve, kept up
// to date as they are written. Most units MTC decides (exact): they take no
// time, and counting their solve work made the ETA promise two hours for a
// phase of forty minutes. A pending unit sure to be solved counts in full;
// one that may yet turn out exact counts half. In a rerun of the 2-6 phase
// with three units' .r62 removed, five units were pending: two sure, one
// (KMMMvMM) found to need its solve when KKMMvMM was written, two (MMMMvKM,
// MMMMvMM) found exact when KMMMvKM and KMMMvMM were; counted in full and
// skipped only at their turn, the last, the bar jumped from 79 % to 100 %
// and the ETA was over twice the time left on most lines. After each unit is
// written the others are decided again: one found exact has its count
// skipped, one found sure has its count made full.
class PendingWork {
 public:
  PendingWork(const std::string& dir, probe::Tablebase& base, const std::vector<Material>& units)
      : base_(base) {
    probe::PerfectPlay play(base_);
    pending_ = units_pending(dir, play, units);
    const std::set<Material> tables = pending_tables();
    for (const Material& m : pending_)
      counted_[m] = surely_solved(play, m, tables) ? unit_work(m) : unit_work(m) / 2;
  }

  const std::set<Material>& pending() const { return pending_; }
  std::uint64_t total() const {
    std::uint64_t work = 0;
    for (const auto& [m, w] : counted_) work += w;
    return work;
  }
  // Unit m needs no solve (exact, or its .r62 tables intact): its count is skipped.
  void drop(const Material& m, ProgressBar& progress) {
    if (const auto it = counted_.find(m); it != counted_.end()) {
      progress.skip(it->second);
      it->second = 0;
    }
    pending_.erase(m);
  }
  // Unit m is about to be solved: its whole work counts.
  void solving(const Material& m, ProgressBar& progress) {
    if (counted_[m] < unit_work(m)) progress.add_work(unit_work(m) - counted_[m]);
    counted_[m] = unit_work(m);
  }
  // Unit m is written: decide the others again.
  void written(const Material& m, ProgressBar& progress) {
    pending_.erase(m);
    probe::PerfectPlay play(base_);  // fresh: it must see the .r62 tables just written
    const std::set<Material> tables = pending_tables();
    for (const Material& u : std::set<Material>(pending_)) {
      bool exact = true;
      std::string error;
      if (unit_exact(play, u, exact, error) && exact)
        drop(u, progress);
      else if (surely_solved(play, u, tables))
        solving(u, progress);
    }
  }

 private:
  std::set<Material> pending_tables() const {
    std::set<Material> tables;
    for (const Material& m : pending_)
      for (const Material& t : unit_of(m)) tables.insert(t);
    return tables;
  }

  probe::Tablebase& base_;
  std::set<Material> pending_;
  std::map<Material, std::uint64_t> counted_;
};

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
  PendingWork work(dir, *base, units);
  for (const Material& m : units)
    if (work.pending().count(m)) summary.counted.push_back(m);
  if (options.show_progress && !summary.counted.empty()) {
    std::cerr << "dtb gen: article 6.2: " << summary.counted.size() << " units may need solving under the rule:";
    for (const Material& m : summary.counted) std::cerr << ' ' << m.name();
    std::cerr << " (MTC decides the others)\n";
  }
  ProgressBar progress("r62", work.total(), options.show_progress);
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
      work.drop(m, progress);
      continue;
    }
    // A fresh reader per unit: what it has found of the tables so far would
    // not see the .r62 tables just written.
    probe::PerfectPlay play(*base);
    bool exact = true;
    if (!unit_exact(play, m, exact, error)) return BuildStatus::Failed;
    if (exact) {
      ++summary.exact_units;
      work.drop(m, progress);
      continue;
    }
    if (!work.pending().count(m)) summary.counted.push_back(m);  // not foreseen: its facts could not be read then
    work.solving(m, progress);
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
    work.written(m, progress);
  }
  progress.finish();
  summary.seconds = watch.lap();
  return BuildStatus::Ok;
}

}  // namespace dtb::gen
