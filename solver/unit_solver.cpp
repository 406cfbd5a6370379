#include "solver/unit_solver.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "support/interrupt.h"
#include "support/large_array.h"
#include "solver/level_states.h"
#include "solver/propagation_forecast.h"
#include "support/scratch_file.h"
#include "solver/slice_order.h"
#include "solver/solver_state.h"
#include "solver/spread_scheduler.h"
#include "support/stopwatch.h"
#include "solver/table_loading.h"
#include "solver/unit_checkpoints.h"
#include "solver/unmove.h"
#include "index/king_move_ranks.h"
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

// The slices man moves lead to from the slice being walked. Within a slice
// the men stand still and only the kings vary, so a man move (from, to)
// leads into one slice of the other table for the whole slice: ranked once
// there, not once a position (the men's rank is about half of a rank).
class ManMoveSlices {
 public:
  // The slice of man move m from p: `rank()` the first time in p's slice.
  template <class Rank>
  std::uint64_t slice_of(const Position& p, const Move& m, Rank&& rank) {
    const Bitboard white_men = p.white & ~p.kings, black_men = p.black & ~p.kings;
    if (white_men != white_men_ || black_men != black_men_) {
      white_men_ = white_men, black_men_ = black_men;
      known_ = {0, 0};
    }
    // A man reaches `to` from one of two squares (a step of 5 or 6 bits,
    // men of one colour moving one way): the step's length tells which.
    const std::size_t way = (m.from > m.to ? m.from - m.to : m.to - m.from) == 6 ? 1 : 0;
    const Bitboard to = Bitboard{1} << m.to;
    std::uint64_t& slice = slices_[way][m.to];
    if (!(known_[way] & to)) {
      slice = rank();
      known_[way] |= to;
    }
    return slice;
  }

 private:
  Bitboard white_men_ = ~Bitboard{0}, black_men_ = ~Bitboard{0};  // (no slice yet)
  std::array<Bitboard, 2> known_ = {0, 0};
  std::array<std::array<std::uint64_t, 64>, 2> slices_;
};

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
  std::vector<std::uint16_t> plies;    // with SolveOptions::exits: each decided position's distance
  std::vector<std::uint16_t> exit_loss;  // with exits, the level: its exits' longest delay (ExitSummary)
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
    if (options_.exits) start_distance_policy();
    for (Side<States>& s : sides_) s.levels.emplace(s.index);
    const int levels = sides_.front().levels->levels();
    // A unit of one level (kings only) never reads its own final values
    // while it solves: they are made from the states at the end, and the
    // states are released as that goes (finalize_releasing), so the two
    // never coexist. What keeps 5 kings against 2 inside the default bound.
    one_level_ = levels == 1;
    if (!States::kCountsMoves && (!one_level_ || sides_.front().material.men() != 0))
      throw std::logic_error("compact states are for kings-only units");
    if (!options_.checkpoint_path.empty())
      checkpoints_.emplace(options_.checkpoint_path, options_.checkpoint_seconds, sides_.front().material);
    if (!one_level_ && !make_values(checkpoints_ && checkpoints_->may_resume(), out)) return SolveStatus::Failed;
    if (options_.article62_plies > 0 && !options_.mtc) throw std::logic_error("a rule-aware solve records MTC");
    if (options_.mtc && !make_mtc(out)) return SolveStatus::Failed;
    out.seconds.allocate += watch.lap();
    out.levels = levels;
    const int first = level_checkpoints() ? resume_levels(levels, out) : levels - 1;
    if (first < 0) return SolveStatus::Failed;
    for (int a = first; a >= 0; --a) {
      const SolveStatus s = solve_level(a, out);
      if (s != SolveStatus::Ok) return s;
      // (nothing to save after the last level: the unit is solved)
      if (!level_checkpoints() || a == 0 || !checkpoints_->due()) continue;
      show_phase("checkpoint");
      if (!checkpoints_->save_levels(a - 1, out.rounds, checkpointed_tables(), out.error)) return SolveStatus::Failed;
    }
    out.materials.clear();
    out.values.clear();
    out.mtc.clear();
    out.plies.clear();
    for (Side<States>& s : sides_) {
      out.materials.push_back(s.material);
      out.values.push_back(std::move(s.values));
      if (s.mtc) out.mtc.push_back(std::move(s.mtc));
      if (options_.exits) out.plies.push_back(std::move(s.plies));
    }
    if (progress_) progress_->advance(remaining_work());
    return SolveStatus::Ok;
  }

 private:
  int other(int t) const { return sides_.size() == 1 ? 0 : 1 - t; }

  // The distance policy solves small units in memory, with none of the
  // options made for large ones.
  void start_distance_policy() {
    if (options_.mtc || options_.article62_plies > 0 || !options_.checkpoint_path.empty() ||
        !options_.values_scratch_dir.empty() || !States::kCountsMoves)
      throw std::logic_error("the distance policy solves in memory, without MTC, 6.2, checkpoints or spills");
    for (Side<States>& s : sides_) s.plies.assign(s.index.size(), 0);
  }

  bool spilled() const { return !one_level_ && !options_.values_scratch_dir.empty(); }

  // A unit of many levels saves between levels; a one-level (kings-only)
  // unit, whose one level takes hours at 7 pieces, between rounds.
  bool level_checkpoints() const { return checkpoints_ && !one_level_; }
  bool round_checkpoints() const { return checkpoints_ && one_level_; }

  // Each side's values, in memory or spilled to a scratch file. A spilled
  // file is kept only if `keep_spilled`, for a checkpoint to resume from
  // (resume_levels() checks it); otherwise it starts afresh, all zero.
  bool make_values(bool keep_spilled, UnitSolution& out) {
    for (Side<States>& s : sides_) {
      if (!spilled()) {
        s.values = std::make_unique<UnitValues>(s.index.size());
        continue;
      }
      if (!open_spilled_values(s, !keep_spilled, out)) return false;
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
  bool make_mtc(UnitSolution& out) {
    for (Side<States>& s : sides_) {
      if (options_.mtc_scratch_dir.empty()) {
        s.mtc = std::make_unique<MtcValues>(s.index.size());
        continue;
      }
      auto file = ScratchFile::open(mtc_scratch_path(options_.mtc_scratch_dir, s.material),
                                    MtcValues::bytes_for(s.index.size()), out.error);
      if (!file) return false;
      s.mtc = std::make_unique<MtcValues>(std::move(file));
    }
    return true;
  }

  // The unit's tables as a level checkpoint sees them.
  std::vector<CheckpointedTable> checkpointed_tables() {
    std::vector<CheckpointedTable> tables;
    for (Side<States>& s : sides_) tables.push_back({s.values.get(), s.mtc.get(), &*s.levels, s.kps()});
    return tables;
  }

  // The level to start at: below a valid checkpoint's levels, or the top
  // (-1 with out.error if spilled values cannot be had afresh).
  int resume_levels(int levels, UnitSolution& out) {
    const std::optional<LevelCheckpoint> at = checkpoints_->resume_levels(levels, checkpointed_tables());
    if (!at) {
      // A partial load must not leave values behind.
      if (checkpoints_->may_resume() && !make_values(false, out)) return -1;
      return levels - 1;
    }
    out.resumed_level = at->next_level;
    out.rounds = at->rounds;
    std::uint64_t skipped = 0;
    for (const Side<States>& s : sides_)
      for (int a = at->next_level + 1; a < levels; ++a) skipped += kSolveWorkPerPosition * s.levels->positions(a);
    skip_work(skipped);
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
    if (options_.exits)
      for (Side<States>& s : sides_) s.exit_loss.assign(s.positions, 0);
    out.seconds.allocate += watch.lap();
    const std::optional<int> resumed = round_checkpoints() ? resume_round(out) : std::nullopt;
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
    if (options_.exits && out.rounds > kMaxStoredPlies + 1) {
      out.error = "a position of " + sides_.front().material.name() + " is decided only after " +
                  std::to_string(out.rounds - 1) + " plies, more than a table holds (" +
                  std::to_string(kMaxStoredPlies) + ")";
      return SolveStatus::Failed;
    }
    if (options_.mtc && out.rounds > kMaxMtc + 1) {
      out.error = "a position of " + sides_.front().material.name() + " converts only after " +
                  std::to_string(out.rounds - 1) + " plies, more than a .mtc table holds (" +
                  std::to_string(kMaxMtc) + ")";
      return SolveStatus::Failed;
    }
    // Spilled values: what is resident now is level a + 1, which only this
    // level's first pass and rounds read; finalize writes level a, which
    // stays resident for the level below to read.
    for (Side<States>& s : sides_)
      if (s.values) s.values->drop_resident_pages();
    for (Side<States>& s : sides_) one_level_ ? finalize_releasing(s, options_.article62_plies)
                                              : finalize(s, options_.article62_plies);
    if (level_checkpoints()) checkpoints_->level_finished(a, checkpointed_tables());
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
  // Work a resumed checkpoint had done: counted as done, not as speed.
  void skip_work(std::uint64_t work) {
    if (progress_) progress_->skip(work);
    reported_work_.fetch_add(work, std::memory_order_relaxed);
  }

  // Progress work of a position's first pass, and of its propagation.
  std::uint64_t first_pass_work() const {
    return std::clamp<std::uint64_t>(options_.first_pass_work, 1, kSolveWorkPerPosition - 1);
  }
  std::uint64_t propagation_work() const { return kSolveWorkPerPosition - first_pass_work(); }

  // Progress of a level's propagation (propagation_forecast.h): its work,
  // propagation_work() a position of the level, is spread over the positions
  // the rounds are expected to decide, and completed when the level ends.
  void start_level_progress(bool resumed_round) {
    LevelProgress& l = level_progress_;
    l.positions = 0;
    for (const Side<States>& s : sides_) l.positions += s.positions;
    l.budget = propagation_work() * l.positions;
    // A resumed round checkpoint restored the work reported so far: the
    // first pass and the propagation before it.
    const std::uint64_t before = reported_work_.load(), first_pass = first_pass_work() * l.positions;
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
  // it has Black to move in M_t, i.e. White to move in M_other(t). Its rank
  // is its men's slice (the same for the whole slice walked: `slice_men`)
  // and its kings' rank.
  Wdl man_move_value(int t, const Position& p, const Move& m, ManMoveSlices& slice_men) const {
    const Side<States>& u = sides_[static_cast<std::size_t>(other(t))];
    const Position after = colour_reversed(make_move(p, m));
    const std::uint64_t slice = slice_men.slice_of(p, m, [&] {
      return u.index.rank_men(after.white & ~after.kings, after.black & ~after.kings);
    });
    return negate(u.values->value(slice * u.kps() + u.index.kings_rank(after)));
  }

  // A position that must capture: every move leaves the unit, so it is
  // final at once (the loader resolves such positions the same way).
  // Every move converts: MTC 1, so round 1 (unit_solver.h).
  std::uint8_t capture_state(const Position& p) const {
    const Wdl best = resolve_captures(p, finished_);
    if (best == Wdl::Win) return state::kWinAt[1];
    return best == Wdl::Loss ? state::kLossAt[1] : state::kDraw;
  }

  std::uint8_t quiet_state(int t, const Position& p, ManMoveSlices& slice_men) const {
    const Color us = p.side;
    const Bitboard empty = p.empty();
    const Bitboard men = p.men_of(us);
    bool draw_flag = false, man_moves = false;
    for (int d : forward_directions(us)) {
      Bitboard targets = shift(men, d) & empty;
      while (targets) {
        const int to = pop_lsb(targets);
        const Move m{0, static_cast<std::uint8_t>(to + (-d)), static_cast<std::uint8_t>(to)};
        const bool promotes = (bit(to) & promotion_row(us)) != 0;
        const Wdl v = promotes ? conversion_value(p, m) : man_move_value(t, p, m, slice_men);
        if (v == Wdl::Win) return state::kWinAt[1];  // converts at once: MTC 1
        draw_flag |= v == Wdl::Draw;
        man_moves = true;
      }
    }
    const int king_moves = count_king_moves(p.kings_of(us), empty);
    // No king move: drawn by a man move, lost by converting (MTC 1), or lost
    // with no move at all, the end of the game (MTC 0).
    if (king_moves == 0) return draw_flag ? state::kDraw : state::kLossAt[man_moves ? 1 : 0];
    if constexpr (!States::kCountsMoves) return NibbleStates::kUncounted;  // kings only: no draw flag
    if (king_moves > state::kMaxCounter) throw std::logic_error("too many moves for the solver's counter");
    return state::undecided_state(king_moves, draw_flag);
  }

  // The distance policy's first pass of one position (exit_distances.h):
  // every move out of the level summed up, the king moves counted. `local`:
  // its place in the level; a decision that waits for a later round goes to
  // `later`. Sets `captures` if the side to move must capture.
  std::uint8_t distance_state(int t, const Position& p, std::uint64_t local, bool& captures,
                              std::vector<DecisionSchedule::Scheduled>& later) {
    thread_local MoveList list;  // (16 KB: not one per position)
    generate_moves(p, list);
    captures = list.size > 0 && list[0].is_capture();
    ExitSummary exits;
    int king_moves = 0;
    for (const Move& m : list) {
      const Position after = colour_reversed(make_move(p, m));  // White to move again
      const bool man = (p.kings & bit(m.from)) == 0;
      if (after.white == 0)  // the opponent's last piece was taken: lost in 0
        exits.add(Outcome{Wdl::Loss, 0});
      else if (m.is_capture() || (man && (bit(m.to) & promotion_row(p.side))))
        exits.add(options_.exits->outcome(after));
      else if (man)
        exits.add(level_above_outcome(t, after));
      else
        ++king_moves;
    }
    const auto side = static_cast<std::uint8_t>(t);
    if (exits.wins()) {
      if (exits.quickest_win == 1) return state::kWinAt[1];
      later.push_back({exits.quickest_win, {local, side, true}});
      // (the king moves into a position that must capture, which the rounds
      // undo, are not its moves: it must not take a win from them)
      return captures ? state::kWaitCaptureWin : state::kWaitWin;
    }
    if (king_moves == 0) {
      if (exits.draws) return state::kDraw;
      if (exits.longest_loss <= 1) return state::kLossAt[static_cast<std::size_t>(exits.longest_loss)];
      later.push_back({exits.longest_loss, {local, side, false}});
      return state::kWaitLoss;
    }
    if (king_moves > state::kMaxCounter) throw std::logic_error("too many moves for the solver's counter");
    sides_[static_cast<std::size_t>(t)].exit_loss[local] =
        static_cast<std::uint16_t>(std::min<int>(exits.longest_loss, kMaxStoredPlies + 1));
    return state::undecided_state(king_moves, exits.draws);
  }

  // The distance policy: the outcome of a man move of side t that stays in
  // the unit, from its own side to move's view: the level above, solved.
  Outcome level_above_outcome(int t, const Position& after_white_to_move) const {
    const Side<States>& u = sides_[static_cast<std::size_t>(other(t))];
    const std::uint64_t i = u.index.rank(after_white_to_move);
    return Outcome{u.values->value(i), u.plies[i]};
  }

  void first_pass(int t) {
    Side<States>& s = sides_[static_cast<std::size_t>(t)];
    const std::uint64_t n = s.positions;
    const std::uint64_t chunks = chunks_of(n);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::uint64_t c = 0; c < chunks; ++c) {
      if (interrupt_requested()) continue;
      const std::uint64_t end = std::min(n, (c + 1) * kChunk);
      LevelWalk walk(s.index, s.slices, c * kChunk);
      bool frontier[2] = {false, false};
      std::vector<DecisionSchedule::Scheduled> later;  // the distance policy's waiting decisions
      ManMoveSlices slice_men;
      for (std::uint64_t word = c * kChunk; word < end; word += 64) {
        std::uint8_t states[64];
        std::uint64_t capture_bits = 0;  // whole words: chunks own their words
        std::size_t k = 0;
        for (std::uint64_t i = word; i < std::min(end, word + 64); ++i, ++k, walk.next()) {
          const Position& p = walk.position();
          if (options_.exits) {
            bool captures = false;
            states[k] = distance_state(t, p, i, captures, later);
            if (captures) capture_bits |= std::uint64_t{1} << k;
          } else if (probe::must_capture(p)) {  // the fast form of has_capture (cross-checked in tests/probe)
            capture_bits |= std::uint64_t{1} << k;
            states[k] = capture_state(p);
          } else {
            states[k] = quiet_state(t, p, slice_men);
          }
          for (int parity = 0; parity < 2; ++parity) frontier[parity] |= state::is_frontier(states[k], parity);
          if (s.mtc) s.mtc->set(walk.index(), 0);
        }
        s.state.set_word(word >> 6, states, k, capture_bits);
      }
      schedule_.add(later);
      for (int parity = 0; parity < 2; ++parity)
        if (frontier[parity]) s.pending[static_cast<std::size_t>(parity)][c].store(true, std::memory_order_relaxed);
      report(first_pass_work() * (end - c * kChunk));
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
  // The distance policy: `next_round` is the round it decides for, and a
  // loss that must wait for its longest exit goes to `later`.
  std::uint32_t propagate_from(int t, LevelWalk& walk, PredecessorSlice& where, Wdl v, int next,
                               int next_round, std::vector<DecisionSchedule::Scheduled>& later) {
    Side<States>& u = sides_[static_cast<std::size_t>(other(t))];
    const LevelCursor& cursor = walk.cursor();
    // q with White to move in M_t is, colour-reversed, Black to move in M_u:
    // White just moved there, from a position with White to move in M_u.
    const Position after = colour_reversed(walk.position());
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
    // (ranked by KingMoveRanks: the kings' rank with only the moving king's
    // square to account for, about half the cost of ranking all the kings)
    KingMoveRanks ranks(u.index);
    for_each_king_unmove(
        after, [&](Bitboard king) { ranks.set_king(after, king); },
        [&](const Position& before, Bitboard from) {
          const std::uint64_t j = where.first_local + ranks.kings_rank(std::countr_zero(from));
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
      if (v == Wdl::Loss) {  // a move to a lost position wins (sooner than a waiting exit, too)
        while (state::undecided(s) || s == state::kWaitWin) {
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
          if (n < 2) n = (s & 1) ? state::kDraw : lost_after_last_refutation(u, j, next_round, loss_next);
          if (u.state.compare_exchange(j, s, n)) {
            if (n == loss_next) u.mark_pending(next, j), ++decided;
            if (n == state::kWaitLoss)
              later.push_back({u.exit_loss[j], {j, static_cast<std::uint8_t>(other(t)), false}});
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

  // The state of a position whose last king move was just refuted: lost in
  // `next_round`, unless (distance policy) an exit delays the loss longer.
  std::uint8_t lost_after_last_refutation(const Side<States>& u, std::uint64_t j, int next_round,
                                          std::uint8_t loss_next) const {
    return options_.exits && u.exit_loss[j] > next_round ? state::kWaitLoss : loss_next;
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
    LevelWalk walk(s.index, s.slices, task.chunk * kChunk);
    PredecessorSlice where;
    std::vector<DecisionSchedule::Scheduled> later;
    for (std::uint64_t i = task.chunk * kChunk; i < end; ++i, walk.next()) {
      const std::uint8_t st = s.state.load(i);
      if (!state::is_frontier(st, parity)) continue;
      const bool win = st == state::kWinAt[static_cast<std::size_t>(parity)];
      here.marked +=
          propagate_from(task.side, walk, where, win ? Wdl::Win : Wdl::Loss, 1 - parity, round + 1, later);
      s.state.store(i, win ? state::kWin : state::kLoss);
      if (s.mtc) s.mtc->set(walk.index(), std::min(round, kMaxMtc));  // past it, solve() fails
      if (options_.exits)
        s.plies[walk.index()] = static_cast<std::uint16_t>(std::min<int>(round, kMaxStoredPlies));  // likewise
      ++here.propagated;
    }
    schedule_.add(later);
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
      if (round_checkpoints() && !(first && resumed) && checkpoints_->due()) {
        show_phase("checkpoint");
        if (!checkpoints_->save_round(round, round_states(), reported_work_.load(), out.error)) return std::nullopt;
      }
      if (options_.before_round) options_.before_round(round);
      if (interrupt_requested()) break;
      show_phase("round " + std::to_string(round));
      if (options_.exits) release_scheduled(round);
      const RoundCount count = propagation_round(round);
      if (!interrupt_requested()) forecast_after_round(count);
      if (count.propagated == 0 && round > 0 && schedule_.last_round() <= round) break;
    }
    return round;
  }

  // The distance policy: the decisions that waited for this round join its
  // frontier, unless a king move decided them sooner.
  void release_scheduled(int round) {
    const std::size_t parity = static_cast<std::size_t>(round & 1);
    for (const DecisionSchedule::Entry& e : schedule_.take(round)) {
      Side<States>& s = sides_[e.side];
      const std::uint8_t st = s.state.load(e.local);
      const bool waits = e.win ? st == state::kWaitWin || st == state::kWaitCaptureWin : st == state::kWaitLoss;
      if (!waits) continue;
      s.state.store(e.local, e.win ? state::kWinAt[parity] : state::kLossAt[parity]);
      s.mark_pending(static_cast<int>(parity), e.local);
    }
  }

  // Names the phase on the progress line, so that a long unit says where it
  // is ("KKMMvKM level 3: round 12", "KKKKKvKK: checkpoint").
  void show_phase(const std::string& phase) {
    if (!progress_) return;
    std::string item = sides_.front().material.name();
    if (sides_.front().levels->levels() > 1) item += " level " + std::to_string(level_);
    progress_->set_item(item + ": " + phase);
  }

  // The unit's tables as a round checkpoint sees them: between two rounds
  // the solve is entirely in the working states (each position's state,
  // capture bit, and MTC once propagated) and the pending flags.
  std::vector<RoundState> round_states() {
    std::vector<RoundState> tables;
    for (Side<States>& s : sides_) {
      auto keep_propagated = [&s](std::uint64_t first, std::span<std::uint8_t> plies) {
        for (std::uint64_t k = 0; k < plies.size(); ++k) {
          const std::uint8_t st = s.state.load(first + k);
          if (st != state::kWin && st != state::kLoss) plies[k] = 0;
        }
      };
      tables.push_back({s.state.raw(), &s.pending, s.mtc.get(), s.positions, keep_propagated});
    }
    return tables;
  }

  // The round to resume a one-level unit at, if a valid round checkpoint is
  // there; its states, flags and (in memory) MTC are then loaded.
  std::optional<int> resume_round(UnitSolution& out) {
    const std::optional<ResumedRound> at = checkpoints_->resume_round(round_states());
    if (!at) return std::nullopt;
    skip_work(at->reported_work);
    out.resumed_level = 0;
    out.resumed_round = at->round;
    return at->round;
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
  std::optional<UnitCheckpoints> checkpoints_;  // with SolveOptions::checkpoint_path
  DecisionSchedule schedule_;                   // with SolveOptions::exits: decisions waiting for a round
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

namespace {

// What the distance policy's solve is given instead of finished values: it
// never reads them (its ExitOutcomes value the moves out of the unit).
class NoFinishedValues final : public FinishedValues {
 public:
  Wdl value(const Position&) const override {
    throw std::logic_error("the distance policy values its exits through ExitOutcomes");
  }
};

}  // namespace

SolveStatus solve_unit_with_exits(const Material& m, const ExitOutcomes& exits, ProgressBar* progress,
                                  UnitSolution& out, SolveOptions options) {
  static const NoFinishedValues none;
  options.exits = &exits;
  UnitSolver<ByteStates> solver(m, none, progress, options);
  return solver.solve(out);
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
