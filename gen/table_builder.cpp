#include "gen/table_builder.h"

#include <omp.h>

#include <filesystem>
#include <new>
#include <set>
#include <span>

#include "gen/interrupt.h"
#include "gen/progress_bar.h"
#include "gen/stopwatch.h"
#include "gen/table_loading.h"
#include "gen/unit_solver.h"

namespace dtb::gen {
namespace {

namespace fs = std::filesystem;

// Every unit needed for `target`: its own and, recursively, its dependencies'.
std::set<Material> closure(const Material& target) {
  std::set<Material> seen;
  std::vector<Material> todo = {target, target.reversed()};
  while (!todo.empty()) {
    const Material m = todo.back();
    todo.pop_back();
    if (!seen.insert(m).second) continue;
    todo.push_back(m.reversed());
    for (const Material& d : direct_dependencies(m)) todo.push_back(d);
  }
  return seen;
}

// Temporary files of a killed run: `<table>.tmp-XXXXXX` (compress/atomic_file).
void remove_leftovers(const std::string& dir, BuildSummary& summary) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".wdl.tmp-") == std::string::npos) continue;
    if (fs::remove(entry.path(), ec)) summary.notes.push_back("removed leftover " + name);
  }
}

// How the generator asks compress/ to write its tables. Every knob is pinned,
// not left to the writer's defaults: the generator promises the same bytes
// run after run (tables/CHECKSUMS holds them), so a retuned default in
// compress/ must not silently change its output; adopting new settings is a
// deliberate change here plus a regenerated CHECKSUMS.
//  - zstd level 9, not the writer's 19: 19 squeezes out 6% more but is ~7x
//    slower (KKKvKK, 21 M positions: 10.6 s at 19, 1.4 s at 9; 585 KB vs
//    620 KB); at 19, compression alone would take ~13 minutes for 2..5
//    pieces, more than the whole build's target.
//  - 16384 positions per block with the writer's automatic dictionary (4 KB,
//    for tables of at least 256 KB packed): on six 5-piece tables (238 M
//    positions) 4% smaller than without a dictionary (0.242 vs 0.253
//    bits/position) and faster to decode (3.8 vs 5.1 us per block), because
//    the blocks share the dictionary's entropy tables instead of each
//    carrying its own (compress/FORMAT.md, "Measurements").
//  - but blocks of at most 600 compressed bytes on average: a table that
//    compresses poorly (KKMvK: 1,246 bytes per 16384-position block, 7 us to
//    decode) gets 8192 or 4096 positions per block instead. Decoding costs
//    about 1.5 us + 4.5 ns per compressed byte, so 600 bytes keep a cache
//    miss near 4 us; on the 8 tables concerned, halving the block cost 5 %
//    of their size (compress/FORMAT.md, "Block size").
//  - the blocks are compressed by as many threads as the solver uses; the
//    bytes do not depend on it.
WriteOptions generator_write_options(int threads) {
  WriteOptions options;
  options.zstd_level = 9;
  options.positions_per_block = 16384;
  options.dictionary_bytes = std::nullopt;  // the writer's automatic choice
  options.max_average_block_bytes = 600;
  options.threads = threads;
  return options;
}

TableError write_unit_table(const std::string& path, const Material& m,
                            std::span<const std::uint8_t> values, int threads) {
  LargeArray<std::uint16_t> wdl(values.size());  // every element written below, in parallel
  LargeArray<std::uint8_t> dont_care(values.size());
  const std::int64_t n = static_cast<std::int64_t>(values.size());
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto i = static_cast<std::size_t>(k);
    wdl[i] = values[i] & kValueMask;
    dont_care[i] = (values[i] & kCaptureFlag) ? 1 : 0;
  }
  return write_table(path, TableContents{m, TableKind::Wdl, wdl, dont_care}, generator_write_options(threads));
}

// Write the tables of a solved unit. Small units write their two tables at
// the same time: most of a table's writing runs in parallel already, but
// training its zstd dictionary is serial (~25-60 ms a table; a third of the
// writing time of the 2-4 piece set). Each table still gets every thread, not
// half: the two tables of a unit often differ 3x in work (KKMvK compresses
// badly and is encoded again with smaller blocks, its reversal not), and with
// half the threads each the light one's threads would idle while the heavy
// one finishes (2-4 pieces, 2 threads: writing 1.62 s with half, 1.41 s with
// all; the OS shares the cores while both run). Large units
// write one table at a time with every thread, because writing holds 3 bytes
// per position of the table being written (value and don't-care arrays):
// for both tables of the largest 6-piece unit at once that would be ~12 GB.
constexpr std::uint64_t kConcurrentWriteMaxPositions = std::uint64_t{1} << 26;

}  // namespace

TableError write_unit_tables(const std::string& dir, const UnitSolution& solution) {
  const int tables = static_cast<int>(solution.materials.size());
  const int threads = omp_get_max_threads();
  std::uint64_t positions = 0;
  for (const auto& values : solution.values) positions += values.size();
  const int at_once = positions <= kConcurrentWriteMaxPositions ? std::min(tables, threads) : 1;
  std::vector<TableError> errors(solution.materials.size());
#pragma omp parallel for schedule(static, 1) num_threads(at_once)
  for (int k = 0; k < tables; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const Material& t = solution.materials[i];
    // Nothing may be thrown out of an OpenMP region (it would terminate the process).
    try {
      if (TableError e = write_unit_table(wdl_table_path(dir, t), t, solution.values[i], threads))
        errors[i] = {e.status, "writing " + t.name() + ": " + e.message};
    } catch (const std::bad_alloc&) {
      errors[i] = {TableStatus::OutOfMemory, "writing " + t.name() + ": out of memory"};
    }
  }
  for (TableError& e : errors)
    if (e) return e;
  return {};
}

namespace {

class Builder {
 public:
  Builder(const BuildOptions& options, WdlStore& store, BuildSummary& summary)
      : options_(options), store_(store), summary_(summary) {}

  BuildStatus run(std::string& error) {
    Stopwatch total;
    std::error_code ec;
    fs::create_directories(options_.out_dir, ec);
    if (ec || !fs::is_directory(options_.out_dir)) {
      error = "cannot create directory " + options_.out_dir + ": " + ec.message();
      return BuildStatus::Failed;
    }
    remove_leftovers(options_.out_dir, summary_);
    const std::vector<Material> units = units_to_build(options_);
    ProgressBar progress("gen", planned_work(units), options_.show_progress);
    for (const Material& m : units) {
      if (interrupt_requested()) return interrupted(error);
      if (store_.contains(m)) continue;
      const BuildStatus s = load_or_build(m, progress, error);
      if (s != BuildStatus::Ok) return s;
    }
    progress.finish();
    summary_.total_seconds = total.lap();
    return BuildStatus::Ok;
  }

 private:
  BuildStatus interrupted(std::string& error) {
    error = "interrupted; completed tables are kept, rerun to resume";
    return BuildStatus::Interrupted;
  }

  // Loading costs about one unit of work per position, solving about two.
  std::uint64_t planned_work(const std::vector<Material>& units) const {
    std::uint64_t work = 0;
    for (const Material& m : units)
      for (const Material& t : unit_of(m)) {
        const std::uint64_t n = PositionIndex(t).size();
        work += fs::exists(wdl_table_path(options_.out_dir, t)) ? n : 2 * n;
      }
    return work;
  }

  // Every table of the unit loaded from disk, or false (and a note) if one is
  // missing or damaged.
  bool try_load(const Material& m, ProgressBar& progress) {
    std::vector<std::pair<Material, std::vector<std::uint8_t>>> loaded;
    for (const Material& t : unit_of(m)) {
      const std::string path = wdl_table_path(options_.out_dir, t);
      if (!fs::exists(path)) return false;
      progress.set_item("check " + t.name());
      std::unique_ptr<TableReader> reader;
      TableError e = open_checked_table(path, t, reader);
      std::vector<std::uint8_t> values;
      if (!e) e = load_table_values(*reader, PositionIndex(t), store_, values);
      if (e) {
        summary_.notes.push_back(t.name() + ": " + e.message + "; rebuilding");
        return false;
      }
      progress.advance(values.size());
      loaded.emplace_back(t, std::move(values));
    }
    for (auto& [t, values] : loaded) {
      record(t, values);
      store_.add(t, values);
    }
    summary_.tables_reused += static_cast<int>(loaded.size());
    return true;
  }

  BuildStatus load_or_build(const Material& m, ProgressBar& progress, std::string& error) {
    if (try_load(m, progress)) return BuildStatus::Ok;
    progress.set_item(m.name());
    UnitSolution solution;
    Stopwatch watch;
    if (solve_unit(m, store_, &progress, solution) == SolveStatus::Interrupted) return interrupted(error);
    summary_.solve_seconds += watch.lap();
    if (interrupt_requested()) return interrupted(error);
    if (TableError e = write_unit_tables(options_.out_dir, solution)) {
      error = e.message;
      return BuildStatus::Failed;
    }
    for (std::size_t k = 0; k < solution.materials.size(); ++k) {
      const Material& t = solution.materials[k];
      record(t, solution.values[k]);
      store_.add(t, solution.values[k]);
      solution.values[k] = {};
      summary_.positions_solved += store_.index(t).size();
      ++summary_.tables_built;
    }
    const double write_seconds = watch.lap();
    summary_.write_seconds += write_seconds;
    UnitTiming timing{m, 0, solution.rounds, solution.seconds, write_seconds};
    for (const Material& t : solution.materials) timing.positions += store_.index(t).size();
    summary_.units.push_back(timing);
    return BuildStatus::Ok;
  }

  // Every table passes through memory with its true values: count them for
  // the summary here, instead of loading everything again in `dtb stats`.
  void record(const Material& m, std::span<const std::uint8_t> values) {
    MaterialStats s = count_values(m, values);
    std::error_code ec;
    s.bytes = fs::file_size(wdl_table_path(options_.out_dir, m), ec);
    summary_.tables.push_back(s);
  }

  const BuildOptions& options_;
  WdlStore& store_;
  BuildSummary& summary_;
};

}  // namespace

std::vector<Material> units_to_build(const BuildOptions& options) {
  std::set<Material> wanted;
  if (options.only) wanted = closure(*options.only);
  std::vector<Material> units;
  for (const auto& level : build_levels(options.max_pieces))
    for (const auto& unit : level) {
      if (unit.empty()) continue;
      if (options.only && !wanted.count(unit.front())) continue;
      units.push_back(unit.front());
    }
  return units;
}

BuildStatus build_tables(const BuildOptions& options, WdlStore& store, BuildSummary& summary,
                         std::string& error) {
  if (options.only && options.only->pieces() > options.max_pieces) {
    error = options.only->name() + " has more than " + std::to_string(options.max_pieces) + " pieces";
    return BuildStatus::Failed;
  }
  Builder builder(options, store, summary);
  return builder.run(error);
}

}  // namespace dtb::gen
