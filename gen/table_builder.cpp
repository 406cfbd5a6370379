#include "gen/table_builder.h"

#include <omp.h>

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <new>
#include <set>
#include <span>
#include <stdexcept>

#include "gen/cost_model.h"
#include "gen/finished_tables.h"
#include "support/interrupt.h"
#include "solver/level_checkpoint.h"
#include "gen/mtc_sidecar.h"
#include "support/progress_bar.h"
#include "gen/phases_sidecar.h"
#include "gen/stats_sidecar.h"
#include "gen/table_discovery.h"
#include "support/stopwatch.h"
#include "solver/table_loading.h"
#include "solver/unit_solver.h"

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

// Temporary files of a killed run: `<M>.<kind>.tmp-XXXXXX`
// (compress/atomic_file), of any file written atomically beside the tables:
// tables, sidecars (`.stats`, `.mtc-stats`, `.r62-stats`), checkpoints. A
// list of kinds missed the sidecars of a kind with a dash in its name, and
// a run killed while writing one left its temporary file for good.
void remove_leftovers(const std::string& dir, BuildSummary& summary) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const auto at = name.rfind(".tmp-");
    const auto dot = name.find('.');
    if (at == std::string::npos || name.size() != at + 11 || dot >= at || !parse_material(name.substr(0, dot)))
      continue;
    if (fs::remove(entry.path(), ec)) summary.notes.push_back("removed leftover " + name);
  }
}

// Scratch files of a killed run that nothing will resume from: MTC
// (`<table>.mtc-work`, solver/mtc_values.h; a byte a position, gigabytes for
// 6 pieces) and spilled values (`<table>.values-work`, solver/unit_values.h).
// A unit resumes its scratch files only with its level checkpoint, and its
// MTC ones only in a build with --mtc.
void remove_unused_scratch(const std::string& dir, bool mtc, BuildSummary& summary) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const auto ends_with = [&](const std::string& suffix) {
      return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    const bool mtc_file = ends_with(".mtc-work");
    if (!mtc_file && !ends_with(".values-work")) continue;
    const std::string suffix = mtc_file ? ".mtc-work" : ".values-work";
    const auto table = parse_material(name.substr(0, name.size() - suffix.size()));
    const bool resumable = (mtc || !mtc_file) && table &&
                           (fs::exists(level_checkpoint_path(dir, *table)) ||
                            fs::exists(level_checkpoint_path(dir, table->reversed())));
    if (!resumable && fs::remove(entry.path(), ec)) summary.notes.push_back("removed unused " + name);
  }
}


// The files a unit resumes from: its level checkpoint and scratch files.
void remove_resume_files(const std::string& dir, const Material& m) {
  std::error_code ec;
  fs::remove(level_checkpoint_path(dir, m), ec);
  for (const Material& t : unit_of(m)) {
    fs::remove(mtc_scratch_path(dir, t), ec);
    fs::remove(values_scratch_path(dir, t), ec);
  }
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
// write one table at a time with every thread: the memory plan counts the
// writer's memory (the compressed frames of a table, cost_model.h) once.
constexpr std::uint64_t kConcurrentWriteMaxPositions = std::uint64_t{1} << 26;

// Writing a table allocates its compressed frames (a vector per block, on
// the writer's threads, so in their malloc arenas) and the file image, and
// frees them when the file is written. `dtb gen` never trims its heap
// (cli/memory_reuse.h), so what a large table's writing freed stayed
// resident through the next units: in the 2-6 build, 192 MiB of thread
// arenas and 71 MiB of heap beside the arrays the memory plan counts, which
// took the peak RSS past --memory. After a large unit is written, give the
// free memory back (malloc_trim releases free pages in every arena).
void release_freed_heap() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace

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
//  - tables of 6 or more pieces: 32768 positions per block, at most 750
//    bytes on average (a decode then costs at most ~1.5 + 4.5 x 0.75 = 4.9
//    us). Their blocks are larger in positions but hold as few bytes as a
//    5-piece table's, and the 6-piece set is 11.8 % smaller for it (six
//    tables re-encoded: 38.5 -> 34.0 MB; compress/FORMAT.md, "Block
//    size"). They are also compressed by zstd's optimal
//    parser (2-7 % smaller blocks for ~2.5x the compression time) and get the
//    compact block table of format version 2 (6 bytes a block, not 16): the
//    16-byte entries alone were 3.5 % of the 6-piece set. 2-5 piece tables
//    keep 16384/600, level 9 and version 1, so their committed checksums stand.
//  - `.mtc` (and `.r62`) tables of 6 or more pieces (a byte a position, compressing 5-20x
//    worse than `.wdl`) use neither the optimal parser nor the plain halving
//    from 32768: each table was encoded two to four times at 2.5x the cost,
//    and writing the `.mtc` set took most of a 2-6 `--mtc` build (91 % of its
//    CPU samples while writing KKKKvKM). They use level 9 and start at the block
//    size a sample predicts (WriteOptions::size_blocks_by_sample): KKMvKM
//    re-encoded 3.4x faster, 9 % larger.
WriteOptions generator_write_options(const Material& m, TableKind kind, int threads) {
  const bool six_or_more = m.pieces() >= 6;
  const bool large_mtc = six_or_more && (kind == TableKind::Mtc || kind == TableKind::Article62);
  WriteOptions options;
  options.zstd_level = 9;
  options.positions_per_block = six_or_more ? 32768 : 16384;
  options.dictionary_bytes = std::nullopt;  // the writer's automatic choice
  options.max_average_block_bytes = six_or_more ? 750 : 600;
  options.zstd_optimal_parsing = six_or_more && !large_mtc;
  options.size_blocks_by_sample = large_mtc;
  options.compact_block_table = six_or_more;
  options.threads = threads;
  return options;
}

TableError write_unit_tables(const std::string& dir, const UnitSolution& solution,
                             const std::function<void(std::uint64_t positions)>& file_written) {
  const int tables = static_cast<int>(solution.materials.size());
  const int threads = omp_get_max_threads();
  std::uint64_t positions = 0;
  for (const auto& values : solution.values) positions += values->size();
  const int at_once = positions <= kConcurrentWriteMaxPositions ? std::min(tables, threads) : 1;
  std::vector<TableError> errors(solution.materials.size());
#pragma omp parallel for schedule(static, 1) num_threads(at_once)
  for (int k = 0; k < tables; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const Material& t = solution.materials[i];
    // Nothing may be thrown out of an OpenMP region (it would terminate the process).
    try {
      const std::uint64_t table_positions = solution.values[i]->size();
      if (TableError e = write_table(wdl_table_path(dir, t), t, TableKind::Wdl, *solution.values[i],
                                     generator_write_options(t, TableKind::Wdl, threads)))
        errors[i] = {e.status, "writing " + t.name() + ": " + e.message};
      else if (file_written)
        file_written(table_positions);
      if (!errors[i] && i < solution.mtc.size()) {
        if (TableError m = write_table(mtc_table_path(dir, t), t, TableKind::Mtc,
                                       MtcTableSource(*solution.mtc[i], *solution.values[i]),
                                       generator_write_options(t, TableKind::Mtc, threads)))
          errors[i] = {m.status, "writing " + t.name() + " MTC: " + m.message};
        else if (file_written)
          file_written(table_positions);
      }
    } catch (const std::bad_alloc&) {
      errors[i] = {TableStatus::OutOfMemory, "writing " + t.name() + ": out of memory"};
    }
  }
  for (TableError& e : errors)
    if (e) return e;
  return {};
}

namespace {

constexpr const char* kInterruptedMessage = "interrupted; completed tables are kept, rerun to resume";

// The progress bar's work is time: a position of a unit counts what solving
// it costs, in nanoseconds of a 2-thread build, split between the first
// pass and the propagation (unit_solver.h, kFirstPassWork; for kings-only
// units, first_pass_work below). Per-unit timings (--timings) put that cost at about the
// same for every 6-piece unit whatever its kings: 105 ns median, 64-205 ns
// (docs/data/gen-2-6-timings.tsv), against 85 ns at 5 pieces and 60 ns at 2-4; 7-piece
// units cost 350-600 ns (the state arrays of several GB). Weighing by the
// kings instead (6 + 5 a king) made a 2-6 build's ETA a tenth of the time
// left near its end: men-heavy units, built last, cost as much a position
// as kings-heavy ones. Replayed on the 2-6 timings, the ETA is now within
// a factor of two of the time left from 10 % to 99 % (25 % of the time
// outside before).
constexpr std::uint64_t kSolveNanosPerPosition[] = {60, 60, 60, 60, 60, 85, 105, 500};

// The bar's weight of a position's kSolveWorkPerPosition: its nanoseconds.
std::uint64_t solve_weight(const Material& m) {
  constexpr int last = std::size(kSolveNanosPerPosition) - 1;
  return kSolveNanosPerPosition[std::min(m.pieces(), last)];
}

// Writing a unit's files takes about a tenth of the time its solve took,
// with or without `.mtc` (a solve with MTC is slower too): 17 % in the 2-6
// build, 18 % in the kings-only 2-6 build with MTC, 2-21 % for the 7-piece
// units with MTC. Replayed on those timings, a tenth kept the ETA within a
// factor of two at least as often as 10 ns a position (50 with `.mtc`).
constexpr std::uint64_t kWriteShareOfSolve = 10;  // writing weighs 1/10 of solving

}  // namespace

// A kings-only unit's split between its first pass and its propagation
// follows its share of decided positions, which is close to that of the
// unit with one king fewer on the stronger side (four kings against three:
// propagation 0.26 of the first pass with MTC, three against three 0.32;
// six kings against one 6.1, five against one 4.0). That unit is built
// before it; if this run built it, its measured split is used, else the
// default one, and never past a quarter or three quarters either way: one
// unit's timing is one noisy sample. Replayed on those timings, the ETA of
// six kings against one with MTC strayed past a factor of two for 7 % of
// the run instead of 59 %.
namespace {
constexpr double kLeastSplitSeconds = 1.0;  // a shorter solve is too short to measure a split on
}  // namespace

std::optional<Material> split_sibling(const Material& m) {
  if (m.white_men + m.black_men != 0) return std::nullopt;
  Material smaller = m;
  auto& kings = m.black_kings > m.white_kings ? smaller.black_kings : smaller.white_kings;
  if (kings <= 1) return std::nullopt;
  kings -= 1;
  return smaller;
}

std::uint64_t first_pass_work_for(const Material& m, const std::vector<UnitTiming>& built) {
  const std::optional<Material> smaller = split_sibling(m);
  if (!smaller) return kFirstPassWork;
  for (const UnitTiming& u : built) {
    if (u.unit != *smaller && u.unit != smaller->reversed()) continue;
    const double first_pass = u.solve.first_pass, total = u.solve.first_pass + u.solve.propagate;
    if (total < kLeastSplitSeconds) break;  // too short to say
    const auto work = static_cast<std::uint64_t>(static_cast<double>(kSolveWorkPerPosition) * first_pass / total + 0.5);
    return std::clamp<std::uint64_t>(work, kSolveWorkPerPosition / 4, kSolveWorkPerPosition * 3 / 4);
  }
  return kFirstPassWork;
}

UnitBuilder::UnitBuilder(const BuildOptions& options, BuildSummary& summary)
    : options_(options), summary_(summary), progress_(std::make_unique<ProgressBar>("gen", 0, false)) {}

UnitBuilder::~UnitBuilder() = default;

BuildStatus UnitBuilder::prepare(std::vector<Material>& missing, std::string& error) {
  std::error_code ec;
  fs::create_directories(options_.out_dir, ec);
  if (ec || !fs::is_directory(options_.out_dir)) {
    error = "cannot create directory " + options_.out_dir + ": " + ec.message();
    return BuildStatus::Failed;
  }
  remove_leftovers(options_.out_dir, summary_);
  remove_unused_scratch(options_.out_dir, options_.mtc, summary_);
  const std::vector<Material> units = units_to_build(options_);
  progress_ = std::make_unique<ProgressBar>("gen", planned_work(units), options_.show_progress);
  missing.clear();
  for (const Material& m : units) {
    if (interrupt_requested()) return interrupted(error);
    if (!check_present(m)) missing.push_back(m);
  }
  if (const BuildStatus s = record_present(error); s != BuildStatus::Ok) return s;
  summary_.memory = plan_memory(options_, missing);
  if (!summary_.memory.fits()) {
    error = "the largest unit to build (" + summary_.memory.largest.name() + ") needs " +
            std::to_string(summary_.memory.least_budget >> 20) + " MiB, more than the memory bound of " +
            std::to_string(summary_.memory.budget >> 20) + " MiB; rerun with --memory " +
            std::to_string((summary_.memory.least_budget >> 20) + 1) + "M or more";
    return BuildStatus::Failed;
  }
  if (options_.show_progress && !missing.empty()) {
    std::cerr << "dtb gen: largest unit to build " << summary_.memory.largest.name() << ": "
              << (summary_.memory.largest_unit >> 20) << " MiB; block cache for finished tables "
              << (summary_.memory.cache >> 20) << " MiB; solved tables kept in memory up to "
              << (summary_.memory.resident >> 20) << " MiB\n";
    for (const Material& m : summary_.memory.compact_units)
      std::cerr << "dtb gen: " << m.name() << " solved with half a byte of working state a position, to fit\n";
    for (const Material& m : summary_.memory.spilled_units)
      std::cerr << "dtb gen: " << m.name() << " keeps its finished levels in scratch files (.values-work), to fit\n";
  }
  return BuildStatus::Ok;
}

BuildStatus UnitBuilder::open_finished(std::uint64_t cache_bytes, std::uint64_t resident_bytes,
                                       std::string& error) {
  try {
    finished_ = std::make_unique<FinishedTables>(options_.out_dir, options_.max_pieces, cache_bytes, resident_bytes);
  } catch (const std::exception& e) {
    error = e.what();
    return BuildStatus::Failed;
  }
  return BuildStatus::Ok;
}

const FinishedValues& UnitBuilder::finished() const {
  if (!finished_) throw std::logic_error("UnitBuilder::finished() before open_finished()");
  return *finished_;
}

BuildStatus UnitBuilder::interrupted(std::string& error) {
  error = kInterruptedMessage;
  return BuildStatus::Interrupted;
}

// Progress work: solving a table counts kSolveWorkPerPosition a position
// (the solver's first pass and propagation) times solve_weight, so that the ETA follows time
// rather than positions. A table found finished on disk counts the same but
// as skipped work (ProgressBar::skip): a resumed build shows how much of the
// whole build is done, and its ETA extrapolates only this run's solving, not
// the seconds spent checking finished tables (checked at a position's worth
// each, they made a resumed 2-6 --mtc build promise 19 min for 2 h of work).
// Writing a unit's files counts write_weight a position (write_work),
// reported once they are written: the bar reaches 100 % only when the last
// files are on disk, never while they are still being written.
std::uint64_t UnitBuilder::planned_work(const std::vector<Material>& units) const {
  std::uint64_t work = 0;
  for (const Material& m : units) work += unit_work(m);
  return work;
}

std::uint64_t UnitBuilder::unit_work(const Material& m) { return solve_work(m) + write_work(m); }

std::uint64_t UnitBuilder::write_work(const Material& m) {
  std::uint64_t positions = 0;
  for (const Material& t : unit_of(m)) positions += PositionIndex(t).size();
  return positions * write_weight(m);
}

std::uint64_t UnitBuilder::write_weight(const Material& m) {
  return kSolveWorkPerPosition * solve_weight(m) / kWriteShareOfSolve;
}

std::uint64_t UnitBuilder::solve_work(const Material& m) {
  return unit_solve_work(m) * solve_weight(m);  // a unit's two tables have the same pieces
}

// The files a finished table of `t` has: its .wdl, and its .mtc if asked for.
std::vector<std::string> UnitBuilder::table_paths(const Material& t) const {
  std::vector<std::string> paths = {wdl_table_path(options_.out_dir, t)};
  if (options_.mtc) paths.push_back(mtc_table_path(options_.out_dir, t));
  return paths;
}

bool UnitBuilder::present_on_disk(const Material& t) const {
  for (const std::string& path : table_paths(t))
    if (!fs::exists(path)) return false;
  return true;
}

// Whether every table of the unit is on disk and passes its checks (header,
// every block checksum); a damaged one is noted and will be rebuilt.
bool UnitBuilder::check_present(const Material& m) {
  int present = 0;
  std::vector<Material> unrecorded;
  for (const Material& t : unit_of(m)) {
    if (!present_on_disk(t)) continue;
    progress_->set_item("check " + t.name());
    bool intact = true;
    for (const std::string& path : table_paths(t)) {
      std::unique_ptr<TableReader> reader;
      const TableKind kind = path.ends_with(table_extension(TableKind::Mtc)) ? TableKind::Mtc : TableKind::Wdl;
      if (TableError e = open_checked_table(path, t, reader, kind)) {
        summary_.notes.push_back(t.name() + ": " + e.message + "; rebuilding");
        intact = false;
        break;
      }
    }
    if (!intact) continue;
    const auto recorded = read_stats_sidecar(options_.out_dir, t);
    if (recorded && (!options_.mtc || read_mtc_sidecar(options_.out_dir, t))) summary_.tables.push_back(*recorded);
    else unrecorded.push_back(t);
    ++present;
  }
  if (present != static_cast<int>(unit_of(m).size())) return false;  // solved again, both tables
  unrecorded_.insert(unrecorded_.end(), unrecorded.begin(), unrecorded.end());
  // A run killed after writing the unit but before removing what it resumes
  // from left them; kept (remove_unused_scratch keeps scratch files beside a
  // checkpoint), they would stay for good, gigabytes for 6 pieces.
  remove_resume_files(options_.out_dir, m);
  progress_->skip(unit_work(m));
  summary_.tables_reused += present;
  return true;
}

BuildStatus UnitBuilder::build(const Material& m, const std::vector<Material>& remaining, std::string& error) {
  ProgressBar& progress = *progress_;
  progress.set_item(m.name());
  UnitSolution solution;
  Stopwatch watch;
  progress.set_weight(solve_weight(m));  // the unit's twin has the same pieces
  SolveOptions solve_options;
  solve_options.mtc = options_.mtc;
  solve_options.first_pass_work = first_pass_work(m);
  solve_options.checkpoint_path = level_checkpoint_path(options_.out_dir, m);
  solve_options.checkpoint_seconds = options_.checkpoint_seconds;
  solve_options.compact_states = summary_.memory.compact_units.count(m) > 0;
  if (options_.mtc) solve_options.mtc_scratch_dir = options_.out_dir;
  if (summary_.memory.spilled_units.count(m) > 0) solve_options.values_scratch_dir = options_.out_dir;
  const SolveStatus status = solve_unit(m, *finished_, &progress, solution, solve_options);
  if (solution.resumed_level >= 0) {
    summary_.notes.push_back(m.name() + ": resumed at " +
                             (solution.resumed_round >= 0 ? "round " + std::to_string(solution.resumed_round)
                                                          : "level " + std::to_string(solution.resumed_level)) +
                             " from its checkpoint");
    if (options_.show_progress) std::cerr << "dtb gen: " << summary_.notes.back() << "\n";
  }
  progress.set_weight(1);
  switch (status) {
    case SolveStatus::Interrupted: return interrupted(error);
    case SolveStatus::Failed:
      error = "solving " + m.name() + ": " + solution.error;
      return BuildStatus::Failed;
    case SolveStatus::Ok: break;
  }
  summary_.solve_seconds += watch.lap();
  return write_solved(m, solution, remaining, error);
}

BuildStatus UnitBuilder::write_solved(const Material& m, UnitSolution& solution, const std::vector<Material>& remaining,
                                      std::string& error) {
  Stopwatch watch;
  if (interrupt_requested()) return interrupted(error);
  progress_->set_item(m.name() + " writing");
  // Each file in place moves the bar by its share of nine tenths of the
  // unit's write work (a 7-piece unit writes for minutes); the rest comes
  // once the sidecars are there too, so 100 % still means every file is.
  // (write_work is write_weight a position: a table's files share its own.)
  const std::uint64_t work = write_work(m), files_per_table = solution.mtc.empty() ? 1 : 2;
  std::atomic<std::uint64_t> reported{0};
  const auto file_written = [&](std::uint64_t positions) {
    const std::uint64_t share = positions * write_weight(m) * 9 / 10 / files_per_table;
    reported += share;
    progress_->advance(share);
  };
  if (TableError e = write_unit_tables(options_.out_dir, solution, file_written)) {
    error = e.message;
    return BuildStatus::Failed;
  }
  UnitTiming timing{m, 0, solution.rounds, solution.seconds, 0};
  for (std::size_t k = 0; k < solution.materials.size(); ++k) {
    const Material& t = solution.materials[k];
    if (!record(t, *solution.values[k], k < solution.mtc.size() ? solution.mtc[k].get() : nullptr, error))
      return BuildStatus::Failed;
    summary_.positions_solved += solution.values[k]->size();
    timing.positions += solution.values[k]->size();
    ++summary_.tables_built;
    if (finished_) finished_->keep(t, std::move(solution.values[k]), remaining);
  }
  if (timing.positions > kConcurrentWriteMaxPositions) release_freed_heap();
  remove_resume_files(options_.out_dir, m);  // the tables are in place: nothing to resume
  record_phases(m, solution);
  progress_->advance(work - std::min(work, reported.load()));
  timing.write = watch.lap();
  summary_.write_seconds += timing.write;
  summary_.units.push_back(timing);
  return BuildStatus::Ok;
}

std::uint64_t UnitBuilder::first_pass_work(const Material& m) const {
  std::vector<UnitTiming> known = summary_.units;
  if (const std::optional<Material> smaller = split_sibling(m))
    for (const Material& name : {*smaller, smaller->reversed()})
      if (const auto phases = read_phases_sidecar(options_.out_dir, name, options_.mtc)) {
        UnitTiming recorded;
        recorded.unit = name;
        recorded.solve = *phases;
        known.push_back(recorded);
      }
  return first_pass_work_for(m, known);
}

// Only the units whose split a later unit may follow (kings-only ones) are
// recorded, and only when solved from their start in this run (the phases
// of a resumed solve are those of its last levels or rounds) and for long
// enough to measure. The record helps the progress line and is not part of
// the set: a unit it cannot be written for is noted, and the build goes on.
void UnitBuilder::record_phases(const Material& m, const UnitSolution& solution) {
  if (m.white_men + m.black_men != 0 || solution.resumed_level >= 0) return;
  if (solution.seconds.first_pass + solution.seconds.propagate < kLeastSplitSeconds) return;
  if (std::string why; !write_phases_sidecar(options_.out_dir, m, solution.seconds, options_.mtc, why))
    summary_.notes.push_back(m.name() + ": its phases not recorded: " + why);
}

// Every table built passes through memory with its true values: count them
// for the summary and for `dtb stats` (stats_sidecar.h) here, and its MTC,
// if built, for `dtb rules --article 6.2` (mtc_sidecar.h: one more read of
// the scratch file, seconds for the largest 6-piece table).
bool UnitBuilder::record(const Material& m, const UnitValues& values, const MtcValues* mtc, std::string& error) {
  if (!mtc) return record(m, values, static_cast<const MtcReader*>(nullptr), error);
  const MtcReader read = [mtc](std::uint64_t first, std::span<std::uint8_t> plies) { mtc->read(first, plies); };
  return record(m, values, &read, error);
}

bool UnitBuilder::record(const Material& m, const UnitValues& values, const MtcReader* mtc, std::string& error) {
  MaterialStats s = values.count(m);
  std::error_code ec;
  s.bytes = fs::file_size(wdl_table_path(options_.out_dir, m), ec);
  summary_.tables.push_back(s);
  if (!write_stats_sidecar(options_.out_dir, s, error)) return false;
  if (!mtc) return true;
  return write_mtc_sidecar(options_.out_dir, count_mtc_table(m, values, *mtc), error);
}

// The sidecars of tables found finished but without them (or with stale
// ones), counted from the tables. A unit's sidecars are written after its
// tables: a run stopped between the two (a full disk, a kill) left tables
// that check, and a rerun that kept them without their counts left the set
// without them for good (`dtb stats` and `dtb rules` then decode every such
// table, hours for 6 pieces). One table at a time: its values, packed, and
// its MTC read block by block. A table whose values alone do not fit the
// memory bound is left without them, as before (`dtb stats` and `dtb rules`
// then decode it).
BuildStatus UnitBuilder::record_present(std::string& error) {
  if (unrecorded_.empty()) return BuildStatus::Ok;
  const std::uint64_t budget = options_.memory_bytes ? options_.memory_bytes : default_memory_bytes();
  std::unique_ptr<FinishedTables> smaller;
  try {
    smaller = std::make_unique<FinishedTables>(options_.out_dir, options_.max_pieces, kMinCacheBytes);
  } catch (const std::exception& e) {
    error = e.what();
    return BuildStatus::Failed;
  }
  for (const Material& t : unrecorded_) {
    if (interrupt_requested()) return interrupted(error);
    const std::uint64_t positions = PositionIndex(t).size();
    if (UnitValues::bytes_for(positions) + kBuildOverheadBytes > budget) {
      summary_.notes.push_back(t.name() + ": no counts recorded (its values do not fit the memory bound)");
      continue;
    }
    progress_->set_item("count " + t.name());
    UnitValues values(positions);
    std::uint64_t bytes = 0;
    if (!load_checked(options_.out_dir, t, *smaller, values, bytes, error)) return BuildStatus::Failed;
    if (const auto e = smaller->error()) {
      error = *e;
      return BuildStatus::Failed;
    }
    std::unique_ptr<TableReader> mtc_table;
    if (options_.mtc)
      if (TableError e = open_checked_table(mtc_table_path(options_.out_dir, t), t, mtc_table, TableKind::Mtc)) {
        error = e.message;
        return BuildStatus::Failed;
      }
    // count_mtc_table reads on its OpenMP threads, where nothing may be
    // thrown: a block that does not decode is remembered, and the sidecar
    // counted with it removed.
    std::atomic<bool> failed{false};
    const MtcReader read = [&](std::uint64_t first, std::span<std::uint8_t> plies) {
      const std::uint64_t per_block = mtc_table->positions_per_block();
      std::vector<std::uint8_t> block;
      for (std::uint64_t i = first; i < first + plies.size();) {
        const std::uint64_t b = i / per_block, start = b * per_block;
        if (mtc_table->decode_block_bytes(b, block) || start + block.size() <= i) {
          failed = true;
          return;
        }
        const std::uint64_t n = std::min<std::uint64_t>(start + block.size(), first + plies.size()) - i;
        std::copy_n(block.begin() + static_cast<std::ptrdiff_t>(i - start), n,
                    plies.begin() + static_cast<std::ptrdiff_t>(i - first));
        i += n;
      }
    };
    if (!record(t, values, mtc_table ? &read : nullptr, error)) return BuildStatus::Failed;
    if (failed) {
      std::error_code ec;
      fs::remove(mtc_sidecar_path(options_.out_dir, t), ec);
      error = "cannot decode " + mtc_table_path(options_.out_dir, t);
      return BuildStatus::Failed;
    }
    summary_.notes.push_back(t.name() + ": counts recorded again from its tables");
  }
  unrecorded_.clear();
  return BuildStatus::Ok;
}

namespace {

// The most cache a unit can use: its direct dependencies decoded at 2 bits a
// position, and as much again for the smaller tables that resolving their
// captures reads. More would only hold blocks no unit reads again.
std::uint64_t useful_cache_bytes(const Material& m) {
  std::uint64_t bytes = 0;
  for (const Material& t : unit_of(m))
    for (const Material& d : direct_dependencies(t)) bytes += PositionIndex(d).size() / 4;
  return 2 * bytes;
}

}  // namespace

std::uint64_t default_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::uint64_t{4} << 30;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) / 4;
}

MemoryPlan plan_memory(const BuildOptions& options, const std::vector<Material>& units) {
  MemoryPlan plan;
  plan.budget = options.memory_bytes ? options.memory_bytes : default_memory_bytes();
  std::uint64_t useful_cache = kMinCacheBytes;
  for (const Material& m : units) {
    const bool levels = m.men() != 0;  // more than one level: its values can be spilled
    const UnitMemory u = options.compact_states && !levels ? unit_memory(m, options.mtc, true)
                         : options.spill_values && levels  ? unit_memory(m, options.mtc, false, true)
                                                           : unit_memory_within(m, options.mtc, plan.budget);
    if (u.compact_states) plan.compact_units.insert(m);
    if (u.spilled_values) plan.spilled_units.insert(m);
    const std::uint64_t need = u.total();
    if (need > plan.largest_unit) {
      plan.largest_unit = need;
      plan.largest = m;
    }
    useful_cache = std::max(useful_cache, useful_cache_bytes(m));
  }
  plan.least_budget = plan.largest_unit + kBuildOverheadBytes;
  if (!plan.fits()) return plan;
  // What the largest unit leaves: a block cache as large as a unit can use
  // (but at most a quarter), the rest for solved tables kept resident.
  const std::uint64_t left = plan.budget - plan.largest_unit - kOverheadBytes - kMappedPagesBytes;
  plan.cache = std::max(kMinCacheBytes, std::min(useful_cache, left / 4));
  plan.resident = left - plan.cache;
  return plan;
}

std::vector<Material> units_to_build(const BuildOptions& options) {
  std::set<Material> wanted;
  if (options.only) wanted = closure(*options.only);
  std::vector<Material> units;
  for (const auto& level : build_levels(options.max_pieces))
    for (const auto& unit : level) {
      if (unit.empty()) continue;
      if (options.only && !wanted.count(unit.front())) continue;
      // Kings-only materials reach only kings-only materials (a capture
      // removes a king, and there is no man to promote): a closed set.
      if (options.kings_only && unit.front().men() > 0) continue;
      units.push_back(unit.front());
    }
  return units;
}

BuildStatus build_tables(const BuildOptions& options, BuildSummary& summary, std::string& error) {
  if (options.only && options.only->pieces() > options.max_pieces) {
    error = options.only->name() + " has more than " + std::to_string(options.max_pieces) + " pieces";
    return BuildStatus::Failed;
  }
  Stopwatch total;
  UnitBuilder builder(options, summary);
  std::vector<Material> missing;
  BuildStatus status = builder.prepare(missing, error);
  if (status == BuildStatus::Ok && !missing.empty())
    status = builder.open_finished(summary.memory.cache, summary.memory.resident, error);
  for (std::size_t k = 0; status == BuildStatus::Ok && k < missing.size(); ++k) {
    const std::vector<Material> remaining(missing.begin() + static_cast<std::ptrdiff_t>(k) + 1, missing.end());
    status = interrupt_requested() ? BuildStatus::Interrupted : builder.build(missing[k], remaining, error);
    if (status == BuildStatus::Interrupted) error = kInterruptedMessage;
  }
  if (status != BuildStatus::Ok) return status;
  builder.progress().finish();
  summary.total_seconds = total.lap();
  return BuildStatus::Ok;
}

}  // namespace dtb::gen
