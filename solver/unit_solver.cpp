#include "solver/unit_solver.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include <xxhash.h>

#include "support/interrupt.h"
#include "support/large_array.h"
#include "solver/level_checkpoint.h"
#include "solver/level_states.h"
#include "solver/propagation_forecast.h"
#include "support/scratch_file.h"
#include "solver/slice_order.h"
#include "solver/solver_state.h"
#include "solver/spread_scheduler.h"
#include "support/stopwatch.h"
#include "solver/table_loading.h"
#include "solver/unmove.h"
#include "index/position_index.h"
#include "probe/capture_check.h"
#include "rules/movegen.h"

namespace dtb::gen {
namespace {

// Positions per scheduling chunk: a multiple of 64 so that each chunk owns
// whole words of the capture bitset (no two threads write the same word).
constexpr std::uint64_t kChunk = 64 * 64;

constexpr Bitboard bit(int b) { return Bitboard{1} << b; }

// King un-moves into one position: a king reaches at most 17 squares, and
// quiet_state refuses a position whose kings have more than kMaxCounter
// moves; 7 kings (one side of an 8-piece ending) have at most 119.
constexpr std::size_t kMaxPredecessors = state::kMaxCounter + 1;
static_assert(7 * 17 < kMaxPredecessors);

std::uint64_t chunks_of(std::uint64_t positions) { return (positions + kChunk - 1) / kChunk; }

// Directions a colour's men step in.
constexpr std::array<int, 2> forward_directions(Color c) {
  return c == Color::White ? std::array<int, 2>{kUpLeft, kUpRight} : std::array<int, 2>{kDownLeft, kDownRight};
}

template <class States>
struct Side {
  Material material;
  PositionIndex index;
  // The table's slices by level: made by a whole-unit solve only (a part
  // of a level is given its slices, and listing them all costs more than
  // solving a small part).
  std::optional<SliceLevels> levels;
  std::unique_ptr<UnitValues> values;  // final values of the finished levels
  std::unique_ptr<MtcValues> mtc;      // with SolveOptions::mtc: plies to conversion
  // MTC in a scratch file, with checkpoints: per level, the hash of its
  // values once finished (MtcValues::hash_slices), which a checkpoint keeps
  // instead of the values themselves (they are in the file).
  std::vector<std::uint64_t> mtc_hashes;
  // Spilled values (unit_values.h), with checkpoints: per level, the hash of
  // its values once finished, kept by a checkpoint in their stead.
  std::vector<std::uint64_t> value_hashes;
  // The level being solved, in local order (LevelCursor): the working state
  // with the must-capture bits (level_states.h), written in full by the
  // first pass (in parallel: no serial zeroing first, large_array.h).
  std::span<const std::uint32_t> slices;
  std::uint64_t positions = 0;
  States state;
  // pending[parity][chunk]: the chunk holds frontier positions of that parity.
  // A round visits only those chunks instead of scanning the whole level.
  std::array<std::vector<std::atomic<bool>>, 2> pending;

  explicit Side(const Material& m) : material(m), index(m) {}
  std::uint64_t kps() const { return index.kings_per_slice(); }
  void mark_pending(int parity, std::uint64_t local) {
    std::atomic<bool>& flag = pending[static_cast<std::size_t>(parity)][local / kChunk];
    if (!flag.load(std::memory_order_relaxed)) flag.store(true, std::memory_order_relaxed);
  }
  // Start level a, or only `part` of it (its slices of this table, sorted).
  void start_level(int a, std::span<const std::uint32_t> part = {}) {
    slices = part.empty() ? levels->level(a) : part;
    positions = slices.size() * kps();
    state.resize_for_overwrite(positions);
    for (auto& flags : pending) flags = std::vector<std::atomic<bool>>(chunks_of(positions));
  }
};

// One task of a propagation round: a chunk of one table's level.
struct ChunkTask {
  int side;
  std::uint64_t chunk;
};

// Positions a round (or a chunk of it) propagated, and how many of their
// predecessors it decided: the frontier of the next round.
struct RoundCount {
  std::uint64_t propagated = 0, marked = 0;
};

template <class States>
class UnitSolver {
 public:
  UnitSolver(const Material& m, const FinishedValues& finished, ProgressBar* progress, const SolveOptions& options)
      : finished_(finished), progress_(progress), options_(options) {
    for (const Material& u : unit_of(m)) sides_.emplace_back(u);
  }

  SolveStatus solve(UnitSolution& out) {
    Stopwatch watch;
    for (Side<States>& s : sides_) s.levels.emplace(s.index);
    const int levels = sides_.front().levels->levels();
    // A unit of one level (kings only) never reads its own final values
    // while it solves: they are made from the states at the end, and the
    // states are released as that goes (finalize_releasing), so the two
    // never coexist. What keeps 5 kings against 2 inside the default bound.
    one_level_ = levels == 1;
    if (!States::kCountsMoves && (!one_level_ || sides_.front().material.men() != 0))
      throw std::logic_error("compact states are for kings-only units");
    if (!one_level_ && !make_values(levels, out)) return SolveStatus::Failed;
    if (options_.article62_plies > 0 && !options_.mtc) throw std::logic_error("a rule-aware solve records MTC");
    if (options_.mtc && !make_mtc(levels, out)) return SolveStatus::Failed;
    out.seconds.allocate += watch.lap();
    out.levels = levels;
    const bool checkpoints = !one_level_ && !options_.checkpoint_path.empty();
    round_checkpoints_ = one_level_ && !options_.checkpoint_path.empty();
    saved_at_ = std::chrono::steady_clock::now();
    const int first = checkpoints ? resume(levels, out) : levels - 1;
    if (first < 0) return SolveStatus::Failed;
    for (int a = first; a >= 0; --a) {
      const SolveStatus s = solve_level(a, out);
      if (s != SolveStatus::Ok) return s;
      if (!checkpoints || a == 0 || !due_for_checkpoint()) continue;
      show_phase("checkpoint");
      if (!sync_scratch_files(out) ||
          !save_level_checkpoint(options_.checkpoint_path, sides_.front().material, {a - 1, out.rounds},
                                 checkpoint_arrays(), out.error))
        return SolveStatus::Failed;
      saved_at_ = std::chrono::steady_clock::now();
    }
    out.materials.clear();
    out.values.clear();
    out.mtc.clear();
    for (Side<States>& s : sides_) {
      out.materials.push_back(s.material);
      out.values.push_back(std::move(s.values));
      if (s.mtc) out.mtc.push_back(std::move(s.mtc));
    }
    if (progress_) progress_->advance(remaining_work());
    return SolveStatus::Ok;
  }

 private:
  int other(int t) const { return sides_.size() == 1 ? 0 : 1 - t; }

  bool spilled() const { return !one_level_ && !options_.values_scratch_dir.empty(); }

  // Each side's values, in memory or spilled to a scratch file. A spilled
  // file is kept only for a checkpoint to resume from (resume() checks it);
  // otherwise it starts afresh, all zero.
  bool make_values(int levels, UnitSolution& out) {
    const bool may_resume = !options_.checkpoint_path.empty() && std::filesystem::exists(options_.checkpoint_path);
    for (Side<States>& s : sides_) {
      if (!spilled()) {
        s.values = std::make_unique<UnitValues>(s.index.size());
        continue;
      }
      if (!open_spilled_values(s, !may_resume, out)) return false;
      if (!options_.checkpoint_path.empty()) s.value_hashes.assign(static_cast<std::size_t>(levels), 0);
    }
    return true;
  }

  // A side's spilled values: `fresh`, in a new file (every value zero), or
  // in the file a checkpoint may resume from.
  bool open_spilled_values(Side<States>& s, bool fresh, UnitSolution& out) {
    const std::string path = values_scratch_path(options_.values_scratch_dir, s.material);
    s.values.reset();
    std::error_code ec;
    if (fresh) std::filesystem::remove(path, ec);
    auto file = ScratchFile::open(path, UnitValues::bytes_for(s.index.size()), out.error);
    if (!file) return false;
    s.values = std::make_unique<UnitValues>(s.index.size(), std::move(file),
                                            std::make_unique<LevelOrder>(s.index, *s.levels));
    return true;
  }

  // Each side's MTC values, in memory or in a scratch file.
  bool make_mtc(int levels, UnitSolution& out) {
    for (Side<States>& s : sides_) {
      if (options_.mtc_scratch_dir.empty()) {
        s.mtc = std::make_unique<MtcValues>(s.index.size());
        continue;
      }
      auto file = ScratchFile::open(mtc_scratch_path(options_.mtc_scratch_dir, s.material),
                                    MtcValues::bytes_for(s.index.size()), out.error);
      if (!file) return false;
      s.mtc = std::make_unique<MtcValues>(std::move(file));
      if (!one_level_ && !options_.checkpoint_path.empty()) s.mtc_hashes.assign(static_cast<std::size_t>(levels), 0);
    }
    return true;
  }

  // What a level checkpoint holds: per side its values, capture flags, MTC
  // (or, for MTC in a scratch file, the hash of each finished level's).
  std::vector<std::span<std::uint8_t>> checkpoint_arrays() {
    std::vector<std::span<std::uint8_t>> arrays;
    for (Side<States>& s : sides_) {
      if (s.values->file()) {
        arrays.push_back({reinterpret_cast<std::uint8_t*>(s.value_hashes.data()), s.value_hashes.size() * 8});
      } else {
        arrays.push_back(s.values->value_bytes());
        arrays.push_back(s.values->capture_bytes());
      }
      if (s.mtc && s.mtc->file())
        arrays.push_back({reinterpret_cast<std::uint8_t*>(s.mtc_hashes.data()), s.mtc_hashes.size() * 8});
      else if (s.mtc)
        arrays.push_back(s.mtc->bytes());
    }
    return arrays;
  }

  // Whether the scratch files still hold the values and MTC values of the
  // levels a checkpoint says are finished (those above next_level).
  bool scratch_matches(int next_level, int levels) {
    for (Side<States>& s : sides_) {
      if (!s.values->file()) continue;
      for (int a = next_level + 1; a < levels; ++a)
        if (s.values->hash_slices(s.levels->level(a), s.kps()) != s.value_hashes[static_cast<std::size_t>(a)])
          return false;
    }
    for (Side<States>& s : sides_) {
      if (!s.mtc || !s.mtc->file()) continue;
      for (int a = next_level + 1; a < levels; ++a) {
        const bool same = s.mtc->hash_slices(s.levels->level(a), s.kps()) == s.mtc_hashes[static_cast<std::size_t>(a)];
        s.mtc->drop_resident_pages();
        if (!same) return false;
      }
    }
    return true;
  }

  // The level to start at: below a valid checkpoint's levels, or the top
  // (-1 with out.error if spilled values cannot be had afresh).
  int resume(int levels, UnitSolution& out) {
    const auto at = load_level_checkpoint(options_.checkpoint_path, sides_.front().material, checkpoint_arrays());
    if (!at || at->next_level >= levels - 1 || !scratch_matches(at->next_level, levels)) {
      // Nothing (valid) to resume from: a partial load must not leave values behind.
      if (std::filesystem::exists(options_.checkpoint_path))
        for (Side<States>& s : sides_) {
          if (!spilled()) s.values = std::make_unique<UnitValues>(s.index.size());
          else if (!open_spilled_values(s, true, out)) return -1;
        }
      return levels - 1;
    }
    // Spilled values of the levels not finished may hold part of the
    // finalize an interruption cut short: those levels start from zero.
    for (Side<States>& s : sides_)
      if (s.values->file())
        for (int a = 0; a <= at->next_level; ++a) s.values->clear_slices(s.levels->level(a), s.kps());
    out.resumed_level = at->next_level;
    out.rounds = at->rounds;
    std::uint64_t skipped = 0;
    for (const Side<States>& s : sides_)
      for (int a = at->next_level + 1; a < levels; ++a) skipped += kSolveWorkPerPosition * s.levels->positions(a);
    if (progress_) progress_->skip(skipped);
    reported_work_.fetch_add(skipped, std::memory_order_relaxed);
    return at->next_level;
  }

  SolveStatus stopped(UnitSolution& out) {
    if (interrupt_requested()) return SolveStatus::Interrupted;
    if (const auto e = finished_.error()) {
      out.error = *e;
      return SolveStatus::Failed;
    }
    return SolveStatus::Ok;
  }

 public:
  // Solve only `part` of level a (slice_order.h: a part closed under colour
  // reversal needs nothing of its level outside it) into `io`'s values,
  // which must hold every value of level a + 1 that its man moves reach.
  SolveStatus solve_part(int a, const std::vector<std::vector<std::uint32_t>>& part, UnitSolution& io) {
    for (std::size_t t = 0; t < sides_.size(); ++t) {
      sides_[t].values = std::move(io.values.at(t));
      if (!io.mtc.empty()) sides_[t].mtc = std::move(io.mtc.at(t));
    }
    const SolveStatus status = solve_level(a, io, part);
    for (std::size_t t = 0; t < sides_.size(); ++t) {
      io.values[t] = std::move(sides_[t].values);
      if (!io.mtc.empty()) io.mtc[t] = std::move(sides_[t].mtc);
    }
    return status;
  }

 private:
  SolveStatus solve_level(int a, UnitSolution& out, const std::vector<std::vector<std::uint32_t>>& part = {}) {
    Stopwatch watch;
    level_ = a;
    show_phase("first pass");
    for (std::size_t t = 0; t < sides_.size(); ++t)
      sides_[t].start_level(a, part.empty() ? std::span<const std::uint32_t>() : std::span(part.at(t)));
    out.seconds.allocate += watch.lap();
    const std::optional<int> resumed = round_checkpoints_ ? resume_round(out) : std::nullopt;
    if (!resumed) {
      for (int t = 0; t < static_cast<int>(sides_.size()); ++t) first_pass(t);
      out.seconds.first_pass += watch.lap();
      if (const SolveStatus s = stopped(out); s != SolveStatus::Ok) return s;
    }
    start_level_progress(resumed.has_value());
    const std::optional<int> rounds = propagate(resumed.value_or(0), resumed.has_value(), out);
    if (!rounds) return SolveStatus::Failed;
    finish_level_progress();
    out.rounds = std::max(out.rounds, *rounds);
    out.seconds.propagate += watch.lap();
    if (const SolveStatus s = stopped(out); s != SolveStatus::Ok) return s;
    if (options_.mtc && out.rounds > kMaxMtc + 1) {
      out.error = "a position of " + sides_.front().material.name() + " converts only after " +
                  std::to_string(out.rounds - 1) + " plies, more than a .mtc table holds (" +
                  std::to_string(kMaxMtc) + ")";
      return SolveStatus::Failed;
    }
    for (Side<States>& s : sides_)
      if (s.mtc && !s.mtc_hashes.empty() && part.empty())
        s.mtc_hashes[static_cast<std::size_t>(a)] = s.mtc->hash_slices(s.slices, s.kps());
    // Spilled values: what is resident now is level a + 1, which only this
    // level's first pass and rounds read; finalize writes level a, which
    // stays resident for the level below to read.
    for (Side<States>& s : sides_)
      if (s.values) s.values->drop_resident_pages();
    for (Side<States>& s : sides_) one_level_ ? finalize_releasing(s, options_.article62_plies)
                                              : finalize(s, options_.article62_plies);
    for (Side<States>& s : sides_)
      if (!s.value_hashes.empty() && part.empty())
        s.value_hashes[static_cast<std::size_t>(a)] = s.values->hash_slices(s.slices, s.kps());
    for (Side<States>& s : sides_)
      if (s.mtc) s.mtc->drop_resident_pages();  // (in a file) the solver never reads this level's MTC again
    out.seconds.finalize += watch.lap();
    return SolveStatus::Ok;
  }

  std::uint64_t remaining_work() const {
    std::uint64_t total = 0;
    for (const Side<States>& s : sides_) total += kSolveWorkPerPosition * s.index.size();
    const std::uint64_t reported = reported_work_.load();
    return total > reported ? total - reported : 0;
  }
  void report(std::uint64_t work) {
    if (!progress_) return;
    progress_->advance(work);
    reported_work_.fetch_add(work, std::memory_order_relaxed);
  }

  // Progress of a level's propagation (propagation_forecast.h): its work,
  // kPropagationWork a position of the level, is spread over the positions
  // the rounds are expected to decide, and completed when the level ends.
  void start_level_progress(bool resumed_round) {
    LevelProgress& l = level_progress_;
    l.positions = 0;
    for (const Side<States>& s : sides_) l.positions += s.positions;
    l.budget = kPropagationWork * l.positions;
    // A resumed round checkpoint restored the work reported so far: the
    // first pass and the propagation before it.
    const std::uint64_t before = reported_work_.load(), first_pass = kFirstPassWork * l.positions;
    l.reported = resumed_round && before > first_pass ? std::min(before - first_pass, l.budget) : 0;
    l.decided = 0;
    l.frontiers.clear();
    l.scale = 1.0;
  }

  // During a round: each position decided counts the level's work over the
  // positions it is expected to decide in all (never past the level's work).
  void report_decided(std::uint64_t decided) {
    const auto wanted = static_cast<std::uint64_t>(static_cast<double>(decided) * level_progress_.scale + 0.5);
    advance_level_work([wanted](std::uint64_t reported) { return reported + wanted; });
  }

  // After a round: the level's propagation is D / (D + E) done, D the
  // positions propagated so far and E the forecast of the rounds to come
  // (from round 1 on, the next round's frontier is known: the positions
  // this round decided).
  void forecast_after_round(const RoundCount& count) {
    LevelProgress& l = level_progress_;
    l.frontiers.push_back(count.propagated);
    l.decided += count.propagated;
    const std::uint64_t undecided = l.positions > l.decided ? l.positions - l.decided : 0;
    std::optional<std::uint64_t> forecast;
    if (l.frontiers.size() >= 2) {
      std::vector<std::uint64_t> known = l.frontiers;
      known.push_back(count.marked);
      forecast = forecast_remaining_decisions(known);
      if (forecast) *forecast += count.marked;
    }
    const std::uint64_t expected = std::min(undecided, forecast.value_or(undecided));
    const double in_all = static_cast<double>(l.decided + expected);
    if (in_all == 0) return;
    l.scale = static_cast<double>(l.budget) / in_all;
    const double done = static_cast<double>(l.decided) / in_all;
    const auto target = static_cast<std::uint64_t>(static_cast<double>(l.budget) * done);
    advance_level_work([target](std::uint64_t) { return target; });
  }

  // Move the level's reported work from r to next(r), never back and never
  // past the level's work (threads of a round race here), and report the step.
  template <class Next>
  void advance_level_work(Next next) {
    std::atomic<std::uint64_t>& reported = level_progress_.reported;
    std::uint64_t from = reported.load(std::memory_order_relaxed), to = from;
    do {
      to = std::max(from, std::min(next(from), level_progress_.budget));
    } while (to != from && !reported.compare_exchange_weak(from, to, std::memory_order_relaxed));
    if (to > from) report(to - from);
  }

  // The level is solved: the work its draws (never decided) and a forecast
  // that undershot left over. Never past the unit's own work.
  void finish_level_progress() {
    const LevelProgress& l = level_progress_;
    const std::uint64_t reported = l.reported.load();
    if (l.budget > reported) report(std::min(l.budget - reported, remaining_work()));
  }

  // Value for the mover of a move that leaves the unit (capture or promotion).
  Wdl conversion_value(const Position& p, const Move& m) const { return negate(finished_.value(make_move(p, m))); }

  // Value for the mover of a man move of side t (White to move) that stays in
  // the unit: it lands in the next level, already final. The position after
  // it has Black to move in M_t, i.e. White to move in M_other(t).
  Wdl man_move_value(int t, const Position& after) const {
    const Side<States>& u = sides_[static_cast<std::size_t>(other(t))];
    return negate(u.values->value(u.index.rank(colour_reversed(after))));
  }

  // A position that must capture: every move leaves the unit, so it is
  // final at once (the loader resolves such positions the same way).
  // Every move converts: MTC 1, so round 1 (unit_solver.h).
  std::uint8_t capture_state(const Position& p) const {
    const Wdl best = resolve_captures(p, finished_);
    if (best == Wdl::Win) return state::kWinAt[1];
    return best == Wdl::Loss ? state::kLossAt[1] : state::kDraw;
  }

  std::uint8_t quiet_state(int t, const Position& p) const {
    const Color us = p.side;
    const Bitboard empty = p.empty();
    const Bitboard men = p.men_of(us);
    int king_moves = 0;
    bool draw_flag = false, man_moves = false;
    for (int d : forward_directions(us)) {
      Bitboard targets = shift(men, d) & empty;
      while (targets) {
        const int to = pop_lsb(targets);
        const Move m{0, static_cast<std::uint8_t>(to + (-d)), static_cast<std::uint8_t>(to)};
        const bool promotes = (bit(to) & promotion_row(us)) != 0;
        const Wdl v = promotes ? conversion_value(p, m) : man_move_value(t, make_move(p, m));
        if (v == Wdl::Win) return state::kWinAt[1];  // converts at once: MTC 1
        draw_flag |= v == Wdl::Draw;
        man_moves = true;
      }
    }
    Bitboard kings = p.kings_of(us);
    while (kings) {
      const Bitboard at = bit(pop_lsb(kings));
      for (int d : kDirections)
        for (Bitboard to = shift(at, d) & empty; to; to = shift(to, d) & empty) ++king_moves;
    }
    // No king move: drawn by a man move, lost by converting (MTC 1), or lost
    // with no move at all, the end of the game (MTC 0).
    if (king_moves == 0) return draw_flag ? state::kDraw : state::kLossAt[man_moves ? 1 : 0];
    if constexpr (!States::kCountsMoves) return NibbleStates::kUncounted;  // kings only: no draw flag
    if (king_moves > state::kMaxCounter) throw std::logic_error("too many moves for the solver's counter");
    return state::undecided_state(king_moves, draw_flag);
  }

  void first_pass(int t) {
    Side<States>& s = sides_[static_cast<std::size_t>(t)];
    const std::uint64_t n = s.positions;
    const std::uint64_t chunks = chunks_of(n);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::uint64_t c = 0; c < chunks; ++c) {
      if (interrupt_requested()) continue;
      const std::uint64_t end = std::min(n, (c + 1) * kChunk);
      LevelCursor cursor(s.slices, s.kps(), c * kChunk);
      bool frontier[2] = {false, false};
      for (std::uint64_t word = c * kChunk; word < end; word += 64) {
        std::uint8_t states[64];
        std::uint64_t capture_bits = 0;  // whole words: chunks own their words
        std::size_t k = 0;
        for (std::uint64_t i = word; i < std::min(end, word + 64); ++i, ++k, cursor.next()) {
          const Position p = s.index.unrank(cursor.index());
          if (probe::must_capture(p)) {  // the fast form of has_capture (cross-checked in tests/probe)
            capture_bits |= std::uint64_t{1} << k;
            states[k] = capture_state(p);
          } else {
            states[k] = quiet_state(t, p);
          }
          for (int parity = 0; parity < 2; ++parity) frontier[parity] |= state::is_frontier(states[k], parity);
          if (s.mtc) s.mtc->set(cursor.index(), 0);
        }
        s.state.set_word(word >> 6, states, k, capture_bits);
      }
      for (int parity = 0; parity < 2; ++parity)
        if (frontier[parity]) s.pending[static_cast<std::size_t>(parity)][c].store(true, std::memory_order_relaxed);
      report(kFirstPassWork * (end - c * kChunk));
    }
  }

  // Where the king-move predecessors of one slice's positions lie: all in one
  // slice of the other table (the colour reversal of the men), found once per
  // slice by a binary search in the level.
  struct PredecessorSlice {
    std::uint64_t slice = ~std::uint64_t{0};  // of the table being propagated
    std::uint64_t first_local = 0;           // of the predecessor slice, in the level's local order
  };

  // Undo the king moves into q (table t, local index `local`, decided `v`
  // for its mover) and update the predecessors in the other table.
  // Returns how many predecessors it decided: the next round's frontier.
  std::uint32_t propagate_from(int t, const LevelCursor& cursor, PredecessorSlice& where, Wdl v, int next) {
    Side<States>& u = sides_[static_cast<std::size_t>(other(t))];
    // q with White to move in M_t is, colour-reversed, Black to move in M_u:
    // White just moved there, from a position with White to move in M_u.
    const Position after = colour_reversed(sides_[static_cast<std::size_t>(t)].index.unrank(cursor.index()));
    if (where.slice != cursor.slice()) {
      where.slice = cursor.slice();
      const std::uint64_t s = u.index.rank_men(after.men_of(Color::White), after.men_of(Color::Black));
      const auto at = std::lower_bound(u.slices.begin(), u.slices.end(), static_cast<std::uint32_t>(s));
      where.first_local = static_cast<std::uint64_t>(at - u.slices.begin()) * u.kps();
    }
    // The predecessors' states lie all over the level (a king move changes
    // the high-order part of the index): listing them first and prefetching
    // them all lets the cache misses overlap instead of queueing, which was
    // most of propagation's time on kings-heavy units.
    std::array<std::uint64_t, kMaxPredecessors> at;
    std::array<Position, States::kCountsMoves ? 1 : kMaxPredecessors> befores;  // for the check
    std::size_t count = 0;
    for_each_king_predecessor(after, [&](const Position& before) {
      const std::uint64_t j = where.first_local + u.index.kings_rank(before);
      u.state.prefetch(j);
      if constexpr (!States::kCountsMoves) befores[count] = before;
      at[count++] = j;
    });
    const std::uint8_t win_next = state::kWinAt[static_cast<std::size_t>(next)];
    const std::uint8_t loss_next = state::kLossAt[static_cast<std::size_t>(next)];
    std::uint32_t decided = 0;
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t j = at[k];
      std::uint8_t s = u.state.load(j);
      if (v == Wdl::Loss) {  // a move to a lost position wins
        while (state::undecided(s)) {
          if (u.state.compare_exchange(j, s, win_next)) {
            u.mark_pending(next, j);
            ++decided;
            break;
          }
        }
        continue;
      }
      if constexpr (States::kCountsMoves) {
        while (state::undecided(s)) {  // one more move refuted
          std::uint8_t n = static_cast<std::uint8_t>(s - 2);
          if (n < 2) n = (s & 1) ? state::kDraw : loss_next;
          if (u.state.compare_exchange(j, s, n)) {
            if (n == loss_next) u.mark_pending(next, j), ++decided;
            break;
          }
        }
      } else if (state::undecided(s) && all_moves_refuted(t, befores[k], 1 - next)) {
        while (state::undecided(s)) {  // (another thread's check may have won the race)
          if (u.state.compare_exchange(j, s, loss_next)) {
            u.mark_pending(next, j);
            ++decided;
            break;
          }
        }
      }
    }
    return decided;
  }

  // NibbleStates (level_states.h): is every move of p, White to move in the
  // other table than t, refuted, i.e. does it reach a position of table t
  // decided as a win by round `round_parity`'s round? p is undecided, so
  // quiet: its moves are its king moves, into table t's one level, whose
  // local order is index order.
  bool all_moves_refuted(int t, const Position& p, int round_parity) const {
    const Side<States>& s = sides_[static_cast<std::size_t>(t)];
    const std::uint8_t pending_win = state::kWinAt[static_cast<std::size_t>(round_parity)];
    const Bitboard empty = p.empty();
    Position after = p;
    after.side = Color::Black;
    Bitboard kings = p.kings_of(Color::White);
    while (kings) {
      const Bitboard from = bit(pop_lsb(kings));
      for (int d : kDirections)
        for (Bitboard to = shift(from, d) & empty; to; to = shift(to, d) & empty) {
          after.white = p.white ^ from ^ to;
          after.kings = p.kings ^ from ^ to;
          const std::uint8_t st = s.state.load(s.index.rank(colour_reversed(after)));
          if (st != state::kWin && st != pending_win) return false;
        }
    }
    return true;
  }

  // Propagate the frontier positions of round `round` in one chunk (their
  // MTC is `round`).
  RoundCount propagate_chunk(const ChunkTask& task, int round) {
    const int parity = round & 1;
    Side<States>& s = sides_[static_cast<std::size_t>(task.side)];
    const std::uint64_t end = std::min(s.positions, (task.chunk + 1) * kChunk);
    RoundCount here;
    LevelCursor cursor(s.slices, s.kps(), task.chunk * kChunk);
    PredecessorSlice where;
    for (std::uint64_t i = task.chunk * kChunk; i < end; ++i, cursor.next()) {
      const std::uint8_t st = s.state.load(i);
      if (!state::is_frontier(st, parity)) continue;
      const bool win = st == state::kWinAt[static_cast<std::size_t>(parity)];
      here.marked += propagate_from(task.side, cursor, where, win ? Wdl::Win : Wdl::Loss, 1 - parity);
      s.state.store(i, win ? state::kWin : state::kLoss);
      if (s.mtc) s.mtc->set(cursor.index(), std::min(round, kMaxMtc));  // past it, solve() fails
      ++here.propagated;
    }
    return here;
  }

  // The chunks holding frontier positions of this parity; clears their flags
  // (this round marks only the other parity).
  std::vector<ChunkTask> pending_chunks(int parity) {
    std::vector<ChunkTask> tasks;
    for (std::size_t t = 0; t < sides_.size(); ++t)
      for (std::uint64_t c = 0; c < sides_[t].pending[static_cast<std::size_t>(parity)].size(); ++c) {
        std::atomic<bool>& flag = sides_[t].pending[static_cast<std::size_t>(parity)][c];
        if (!flag.load(std::memory_order_relaxed)) continue;
        flag.store(false, std::memory_order_relaxed);
        tasks.push_back({static_cast<int>(t), c});
      }
    return tasks;
  }

  // One round: propagate every frontier position of this round.
  RoundCount propagation_round(int round) {
    const std::vector<ChunkTask> tasks = pending_chunks(round & 1);
    if (tasks.empty()) return {};
    std::uint64_t propagated = 0, marked = 0;
    std::optional<SpreadScheduler> scheduler;
#pragma omp parallel reduction(+ : propagated, marked)
    {
#pragma omp single
      scheduler.emplace(tasks.size(), omp_get_num_threads());
      // (the barrier at the end of `single` publishes the scheduler)
      scheduler->run(omp_get_thread_num(), [&](std::size_t k) {
        if (interrupt_requested()) return;
        const RoundCount here = propagate_chunk(tasks[k], round);
        propagated += here.propagated;
        marked += here.marked;
        if (here.propagated) report_decided(here.propagated);
      });
    }
    return {propagated, marked};
  }

  // Rounds until one decides nothing. Round 0 (positions without a move)
  // may be empty while round 1 is not: only from round 1 on does an empty
  // round mean that no position is left to decide (each round marks only
  // the next). Returns the first empty round: the largest MTC plus one.
  // A one-level unit saves a round checkpoint before a round when
  // checkpoint_seconds have passed (not right after resuming from one);
  // nullopt if saving failed (out.error says why).
  std::optional<int> propagate(int round, bool resumed, UnitSolution& out) {
    for (bool first = true; !interrupt_requested(); first = false, ++round) {
      if (round_checkpoints_ && !(first && resumed) && due_for_checkpoint()) {
        show_phase("checkpoint");
        if (!save_round_checkpoint(round, out)) return std::nullopt;
        saved_at_ = std::chrono::steady_clock::now();
      }
      if (options_.before_round) options_.before_round(round);
      if (interrupt_requested()) break;
      show_phase("round " + std::to_string(round));
      const RoundCount count = propagation_round(round);
      if (!interrupt_requested()) forecast_after_round(count);
      if (count.propagated == 0 && round > 0) break;
    }
    return round;
  }

  // Names the phase on the progress line, so that a long unit says where it
  // is ("KKMMvKM level 3: round 12", "KKKKKvKK: checkpoint").
  void show_phase(const std::string& phase) {
    if (!progress_) return;
    std::string item = sides_.front().material.name();
    if (sides_.front().levels->levels() > 1) item += " level " + std::to_string(level_);
    progress_->set_item(item + ": " + phase);
  }

  // A checkpoint counts on the scratch files' contents: flush them first.
  bool sync_scratch_files(UnitSolution& out) {
    for (Side<States>& side : sides_) {
      if (side.mtc && side.mtc->file() && !side.mtc->file()->sync(out.error)) return false;
      if (side.values && side.values->file() && !side.values->file()->sync(out.error)) return false;
    }
    return true;
  }

  bool due_for_checkpoint() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - saved_at_).count() >=
           options_.checkpoint_seconds;
  }

  // Round checkpoints, for one-level (kings-only) units: their one level
  // takes hours at 7 pieces, so a level checkpoint would never come. Between
  // two rounds the solve is entirely in the working state (each position's
  // state, capture bit, and MTC once propagated) and the pending flags of
  // the chunks, so a checkpoint holds those, the next round and the work
  // reported so far (level_checkpoint.h, "Round checkpoints"). Each
  // position is propagated once, in the round of its MTC, whatever the
  // scheduling, so a resumed solve gives the same values and MTC.
  struct RoundBuffers {
    std::vector<std::vector<std::uint8_t>> flags;  // per side, per parity: a byte per chunk
    std::vector<std::uint64_t> words;              // per side with MTC in a file: its hash; then the work reported
  };

  std::vector<std::span<std::uint8_t>> round_checkpoint_arrays(RoundBuffers& b) {
    std::vector<std::span<std::uint8_t>> arrays;
    b.flags.clear();
    std::size_t hashes = 0;
    for (Side<States>& s : sides_) {
      for (const std::span<std::uint8_t> a : s.state.raw()) arrays.push_back(a);
      for (const auto& parity : s.pending) {
        b.flags.emplace_back(parity.size());
        arrays.push_back(b.flags.back());
      }
      if (s.mtc && !s.mtc->file()) arrays.push_back(s.mtc->bytes());
      if (s.mtc && s.mtc->file()) ++hashes;
    }
    b.words.assign(hashes + 1, 0);
    arrays.push_back({reinterpret_cast<std::uint8_t*>(b.words.data()), b.words.size() * 8});
    return arrays;
  }

  // XXH3 of the MTC values in side s's scratch file at the positions already
  // propagated (state kWin or kLoss): the only ones the file must still hold
  // when a round checkpoint resumes. Positions propagated after the
  // checkpoint are written again, with the same values, by the resumed
  // solve. Read by pread in batches, so nothing stays resident.
  std::uint64_t propagated_mtc_hash(const Side<States>& s) const {
    constexpr std::uint64_t kBatch = std::uint64_t{1} << 22;
    const std::uint64_t batches = (s.positions + kBatch - 1) / kBatch;
    std::vector<std::uint64_t> hashes(batches);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::uint64_t b = 0; b < batches; ++b) {
      const std::uint64_t first = b * kBatch, n = std::min(kBatch, s.positions - first);
      std::vector<std::uint8_t> plies(n);
      s.mtc->read(first, plies);
      for (std::uint64_t k = 0; k < n; ++k) {
        const std::uint8_t st = s.state.load(first + k);
        if (st != state::kWin && st != state::kLoss) plies[k] = 0;
      }
      hashes[b] = XXH3_64bits(plies.data(), plies.size());
    }
    return XXH3_64bits(hashes.data(), hashes.size() * sizeof(std::uint64_t));
  }

  void fill_round_words(RoundBuffers& b) {
    std::size_t k = 0;
    for (const Side<States>& s : sides_)
      if (s.mtc && s.mtc->file()) b.words[k++] = propagated_mtc_hash(s);
    b.words[k] = reported_work_.load();
  }

  bool save_round_checkpoint(int next_round, UnitSolution& out) {
    RoundBuffers b;
    const std::vector<std::span<std::uint8_t>> arrays = round_checkpoint_arrays(b);
    if (!sync_scratch_files(out)) return false;
    std::size_t f = 0;
    for (Side<States>& s : sides_) {
      for (const auto& parity : s.pending) {
        for (std::size_t c = 0; c < parity.size(); ++c) b.flags[f][c] = parity[c].load(std::memory_order_relaxed);
        ++f;
      }
    }
    fill_round_words(b);
    return save_level_checkpoint(options_.checkpoint_path, sides_.front().material, {0, next_round}, arrays,
                                 out.error);
  }

  // The round to resume at, if a valid round checkpoint is there; its
  // states, flags and (in memory) MTC are then loaded. Otherwise the first
  // pass overwrites whatever a partial load left.
  std::optional<int> resume_round(UnitSolution& out) {
    RoundBuffers b;
    const std::vector<std::span<std::uint8_t>> arrays = round_checkpoint_arrays(b);
    const auto at = load_level_checkpoint(options_.checkpoint_path, sides_.front().material, arrays);
    if (!at || at->next_level != 0 || at->rounds < 0) return std::nullopt;
    const std::vector<std::uint64_t> saved = b.words;
    fill_round_words(b);
    if (!std::equal(saved.begin(), saved.end() - 1, b.words.begin())) return std::nullopt;  // not our scratch
    std::size_t f = 0;
    for (Side<States>& s : sides_)
      for (auto& parity : s.pending) {
        for (std::size_t c = 0; c < parity.size(); ++c) parity[c].store(b.flags[f][c] != 0, std::memory_order_relaxed);
        ++f;
      }
    for (Side<States>& s : sides_)
      if (s.mtc) s.mtc->drop_resident_pages();
    const std::uint64_t work = saved.back();
    if (progress_) progress_->skip(work);
    reported_work_.store(work);
    out.resumed_level = 0;
    out.resumed_round = at->rounds;
    return at->rounds;
  }

  // The value a finished position keeps: its state's, but with a 6.2 limit
  // (SolveOptions::article62_plies) a draw if decided past it. Why the cut is
  // exact: round r decides exactly the positions that force their result
  // within r plies of this phase (unit_solver.h, "Rounds are plies to
  // conversion"), so a win of MTC above the limit is one the winner cannot
  // force before the count runs out, from a fresh count.
  static Wdl final_value(const Side<States>& s, std::uint8_t state, std::uint64_t index, int article62_plies) {
    const Wdl v = state::final_value(state);
    if (article62_plies > 0 && v != Wdl::Draw && s.mtc->get(index) > article62_plies) return Wdl::Draw;
    return v;
  }

  // The level's values into the unit's packed values.
  static void finalize(Side<States>& s, int article62_plies) {
    const std::uint64_t chunks = chunks_of(s.positions);
#pragma omp parallel for schedule(static)
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const std::uint64_t end = std::min(s.positions, (c + 1) * kChunk);
      LevelCursor cursor(s.slices, s.kps(), c * kChunk);
      UnitValues::Appender values(*s.values);
      for (std::uint64_t word = c * kChunk; word < end; word += 64) {
        const std::uint64_t captures = s.state.capture_word(word >> 6);
        for (std::uint64_t i = word; i < std::min(end, word + 64); ++i, cursor.next())
          values.set(cursor.index(), final_value(s, s.state.load(i), cursor.index(), article62_plies),
                     (captures >> (i & 63)) & 1);
      }
    }
  }

  // The values of a one-level unit from its states, a batch at a time, each
  // batch's states released once read: the states (a byte a position) and
  // the packed values (3 bits) never both exist in full. Here local order is
  // index order (the one level holds every slice, in order), and each word
  // of 64 positions is written whole by one thread.
  static void finalize_releasing(Side<States>& s, int article62_plies) {
    if (s.positions != s.index.size()) throw std::logic_error("finalize_releasing: not a one-level unit");
    constexpr std::uint64_t kBatch = std::uint64_t{1} << 25;  // positions: 32 MB of states
    s.values = std::make_unique<UnitValues>(s.index.size(), UnitValues::Unset{});
    const std::uint64_t n = s.positions;
    for (std::uint64_t first = 0; first < n; first += kBatch) {
      const std::uint64_t end = std::min(n, first + kBatch);
      const auto words_begin = static_cast<std::int64_t>(first / 64);
      const auto words_end = static_cast<std::int64_t>((end + 63) / 64);
#pragma omp parallel for schedule(static)
      for (std::int64_t w = words_begin; w < words_end; ++w) {
        const std::uint64_t base = static_cast<std::uint64_t>(w) * 64;
        std::uint64_t half[2] = {0, 0};
        for (std::uint64_t k = 0; k < 64 && base + k < n; ++k)
          half[k >> 5] |=
              std::uint64_t{static_cast<std::uint8_t>(final_value(s, s.state.load(base + k), base + k, article62_plies))}
              << ((k & 31) * 2);
        s.values->set_words(static_cast<std::uint64_t>(w), half[0], half[1],
                            s.state.capture_word(static_cast<std::uint64_t>(w)));
      }
      s.state.release(first, end);
    }
    s.state.clear();
  }

  const FinishedValues& finished_;
  ProgressBar* progress_;
  SolveOptions options_;
  bool one_level_ = false;
  bool round_checkpoints_ = false;
  std::chrono::steady_clock::time_point saved_at_;  // when the solve started or last saved a checkpoint
  std::vector<Side<States>> sides_;
  int level_ = 0;
  std::atomic<std::uint64_t> reported_work_{0};
  struct LevelProgress {
    std::uint64_t positions = 0;             // of the level (or part), both sides
    std::uint64_t budget = 0;                // its propagation work
    std::atomic<std::uint64_t> reported{0};  // of that, reported so far
    std::uint64_t decided = 0;               // positions decided by the rounds so far
    std::vector<std::uint64_t> frontiers;    // decided per round
    double scale = 1.0;                      // work reported per position decided
  } level_progress_;
};

}  // namespace

SolveStatus solve_slices(const Material& m, const FinishedValues& finished, int level,
                         const std::vector<std::vector<std::uint32_t>>& slices, UnitSolution& io) {
  SolveOptions options;
  options.mtc = !io.mtc.empty();
  UnitSolver<ByteStates> solver(m, finished, nullptr, options);
  if (io.values.size() != unit_of(m).size() || slices.size() != io.values.size() ||
      (!io.mtc.empty() && io.mtc.size() != io.values.size()))
    throw std::logic_error("solve_slices: one value array and one slice list per table of the unit");
  return solver.solve_part(level, slices, io);
}

std::vector<Material> unit_of(const Material& m) {
  if (m.symmetric()) return {m};
  return {m, m.reversed()};
}

std::uint64_t unit_solve_work(const Material& m) {
  std::uint64_t work = 0;
  for (const Material& t : unit_of(m)) work += kSolveWorkPerPosition * PositionIndex(t).size();
  return work;
}

SolveStatus solve_unit(const Material& m, const FinishedValues& finished, ProgressBar* progress,
                       UnitSolution& out, const SolveOptions& options) {
  if (options.compact_states) {
    UnitSolver<NibbleStates> solver(m, finished, progress, options);
    return solver.solve(out);
  }
  UnitSolver<ByteStates> solver(m, finished, progress, options);
  return solver.solve(out);
}

}  // namespace dtb::gen
