#include "verify/verifier.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>

#include "compress/table_file.h"
#include "gen/checksums.h"
#include "gen/cost_model.h"
#include "gen/finished_tables.h"
#include "gen/mapped_pages_bound.h"
#include "verify/article62_verifier.h"
#include "gen/article62_builder.h"
#include "probe/capture_check.h"
#include "probe/perfect_play.h"
#include "probe/tablebase.h"
#include "support/interrupt.h"
#include "support/large_array.h"
#include "verify/mtc_verifier.h"
#include "verify/first_mismatch.h"
#include "verify/unit_progress.h"
#include "support/progress_bar.h"
#include "solver/mtc_values.h"
#include "solver/slice_order.h"
#include "solver/table_loading.h"
#include "gen/table_discovery.h"
#include "gen/table_builder.h"
#include "solver/unit_solver.h"
#include "solver/unmove.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::gen {
namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

// Positions per scheduling chunk of a level.
constexpr std::uint64_t kChunk = 4096;

// The verifier's byte per position of the level being checked (verifier.h):
//   0 .. kMaxCounter   a stored loss waiting for proofs of that many of its
//                      in-level successors (0 left over: its forward check failed)
//   kPendingWin        a stored win without a proof yet
//   kProvenAt[parity]  proven, to be propagated in the round of that parity
//   kSettled           proven and propagated, or a draw, or a capture position
namespace check_state {
constexpr int kMaxCounter = 200;
constexpr std::uint8_t kPendingWin = 250;
constexpr std::array<std::uint8_t, 2> kProvenAt = {251, 252};
constexpr std::uint8_t kSettled = 253;
constexpr bool proven(std::uint8_t s) { return s >= kProvenAt[0]; }
}  // namespace check_state

void atomic_min(std::atomic<std::uint64_t>& a, std::uint64_t v) {
  std::uint64_t cur = a.load();
  while (v < cur && !a.compare_exchange_weak(cur, v)) {
  }
}

struct CheckedTable {
  Material material;
  PositionIndex index;
  // Every slice by level: not made for the check of one part (listing a
  // table's slices costs more than checking a small part).
  std::optional<SliceLevels> levels;
  std::unique_ptr<UnitValues> owned;  // the values loaded from its file (dtb verify), if they are held here
  const UnitValues* values;           // stored values, captures resolved
  // The level being checked, in local order (LevelCursor).
  std::span<const std::uint32_t> slices;
  bool whole_level = true;
  std::uint64_t positions = 0;
  LargeArray<std::uint8_t> state;  // not made when the depths prove the values (UnitChecker)
  std::array<std::vector<std::atomic<bool>>, 2> pending;  // [parity][chunk] holds proven positions to propagate
  std::atomic<std::uint64_t> first_mismatch{kNone};      // table index
  // The stored MTC, a byte a position in index order, when it is checked
  // with the values (UnitChecker::check_mtc_with_levels); else empty.
  std::span<const std::uint8_t> mtc;
  // `mtc` holds 1, the MTC of a capture, at every capture position (where
  // the file holds anything): a king move's cost then needs no capture flag.
  bool mtc_of_captures_is_one = false;
  std::atomic<std::uint64_t> first_mtc_mismatch{kNone};  // table index
  explicit CheckedTable(const Material& m)
      : material(m), index(m), levels(std::in_place, index), owned(std::make_unique<UnitValues>(index.size())),
        values(owned.get()) {}
  CheckedTable(const Material& m, const UnitValues& held) : material(m), index(m), levels(std::in_place, index), values(&held) {}
  struct PartOnly {};
  CheckedTable(const Material& m, const UnitValues& held, PartOnly) : material(m), index(m), values(&held) {}
  std::uint64_t kps() const { return index.kings_per_slice(); }
  // Level a, or only `part` of it (its slices in this table, sorted); with
  // `states` for the proof rounds.
  void start_level(int a, std::span<const std::uint32_t> part, bool states) {
    whole_level = part.empty();
    slices = whole_level ? levels->level(a) : part;
    positions = slices.size() * kps();
    if (states) resize_for_overwrite(state, positions);
    for (auto& flags : pending) flags = std::vector<std::atomic<bool>>(states ? (positions + kChunk - 1) / kChunk : 0);
    first_mismatch = kNone;
    first_mtc_mismatch = kNone;
  }
  void mark_pending(int parity, std::uint64_t local) {
    std::atomic<bool>& flag = pending[static_cast<std::size_t>(parity)][local / kChunk];
    if (!flag.load(std::memory_order_relaxed)) flag.store(true, std::memory_order_relaxed);
  }
  std::atomic_ref<std::uint8_t> at(std::uint64_t local) { return std::atomic_ref<std::uint8_t>(state[local]); }
};

// What the moves of one position imply, read forwards from the stored values.
struct Forward {
  Wdl implied = Wdl::Loss;  // best of the negated successor values ("no move" loses)
  bool win_proof = false;   // some move reaches a proven loss
  bool loss_proof = true;   // every move reaches a proven win
  int in_level = 0;         // successors in this level that need a proof of their own
  // With the MTC checked (CheckedTable::mtc): the least cost of a move that
  // wins and the greatest of any move, a cost being the plies to conversion
  // along it (mtc_verifier.h).
  int win_cost = std::numeric_limits<int>::max();
  int worst_cost = 0;
};

// Where a level's check stands, for a stop and a resume inside a level
// (unit_progress.h): of `level`, the tables before `table` and the first
// `positions` of table `table` (in its local order) passed.
struct LevelPart {
  int level = -1;
  int table = 0;
  std::uint64_t positions = 0;
};

// What run_from() tells its caller as the check goes.
struct CheckHooks {
  std::function<bool(int level, std::string& failure)> level_passed;
  // With the MTC checked (no proof rounds), each position's check is on its
  // own: told after every `part_positions` of a table's level.
  std::function<bool(const LevelPart& passed, std::string& failure)> part_passed;
  std::uint64_t part_positions = std::uint64_t{1} << 26;
};

class UnitChecker {
 public:
  // `check_captures`: also check every capture flag and every capture
  // position's value against the smaller tables. Values loaded from a file
  // need not (the loader derived both); values solved elsewhere do.
  UnitChecker(std::vector<CheckedTable*> tables, const FinishedValues& store, ProgressBar& progress,
              bool check_captures = false)
      : tables_(std::move(tables)), store_(store), progress_(progress), check_captures_(check_captures) {}

  // Check every level, from the most advanced down (slice_order.h); false
  // with a message on the first failure.
  bool run(int& rounds, std::string& failure) { return run_from(levels() - 1, {}, {}, rounds, failure); }

  int levels() const { return tables_.front()->levels->levels(); }

  // Check only `part` of level a (part[t]: its slices in table t, sorted, a
  // set closed under king moves: slice_order.h). The same two steps as a
  // whole level: the part's king moves stay in it, and its other moves
  // reach the level above or smaller tables, which are read as they stand.
  bool run_part(int a, const std::vector<std::vector<std::uint32_t>>& part, std::string& failure) {
    level_ = a;
    for (std::size_t t = 0; t < tables_.size(); ++t) tables_[t]->start_level(a, part.at(t), !proofs_by_depth_);
    for (std::size_t t = 0; t < tables_.size(); ++t) first_pass(static_cast<int>(t), 0, tables_[t]->positions);
    if (interrupted(failure) || report_mismatch(failure) || report_mtc_mismatch(failure)) return false;
    if (!proofs_by_depth_) {
      int round = 0;
      while (propagation_round(round & 1) > 0) ++round;
      if (interrupted(failure) || report_unproven(failure)) return false;
    }
    for (CheckedTable* t : tables_) t->state = {};
    return true;
  }

  // Leave step 2 (the proof rounds) to the unit's .mtc check, which must
  // follow: a depth that strictly falls along every winning line proves the
  // wins and losses well-founded on its own (mtc_verifier.h), and step 1
  // still checks every value against its successors. Step 2 is about half
  // of the WDL check's time.
  void leave_proofs_to_depths() { proofs_by_depth_ = true; }

  // Check the stored MTC (mtc[t]: table t's, a byte a position in index
  // order) in step 1, with the values, and leave the proofs to it. The same
  // equations as mtc_verifier.h, read from the same moves: a second pass
  // over the unit that unranked every position and ranked every successor
  // again cost about a third of a verify with MTC.
  // `captures_are_one`: mtc holds 1 at every capture position.
  void check_mtc_with_levels(const std::vector<std::span<const std::uint8_t>>& mtc, bool captures_are_one = false) {
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      tables_[t]->mtc = mtc.at(t);
      tables_[t]->mtc_of_captures_is_one = captures_are_one;
    }
    proofs_by_depth_ = true;
  }
  bool checks_mtc() const { return !tables_.front()->mtc.empty(); }

  // The same from level `first` down, the levels above having passed before
  // (unit_progress.h), and of level `first` what `resume` says passed (with
  // the MTC checked only). `hooks` hear of each level, and each part of a
  // level, that passes; a false from them stops the check.
  bool run_from(int first, const LevelPart& resume, const CheckHooks& hooks, int& rounds, std::string& failure) {
    rounds = 0;
    for (int a = levels() - 1; a > first; --a)
      for (CheckedTable* t : tables_) progress_.skip(level_work(*t) * t->levels->positions(a));
    for (int a = first; a >= 0; --a) {
      level_ = a;
      // (named for a unit without men too, whose one level would else stay under the last table loaded)
      progress_.set_item(tables_.front()->material.name() +
                         (levels() > 1 ? " level " + std::to_string(a) : std::string(" checking")));
      for (CheckedTable* t : tables_) t->start_level(a, {}, !proofs_by_depth_);
      if (checks_mtc()) {
        if (!check_level_in_parts(a == resume.level ? resume : LevelPart{a, 0, 0}, hooks, failure)) return false;
      } else {
        for (std::size_t t = 0; t < tables_.size(); ++t) first_pass(static_cast<int>(t), 0, tables_[t]->positions);
        if (interrupted(failure) || report_mismatch(failure)) return false;
      }
      if (!proofs_by_depth_) {
        int round = 0;
        while (propagation_round(round & 1) > 0) ++round;
        rounds = std::max(rounds, round);
        if (interrupted(failure) || report_unproven(failure)) return false;
      }
      for (CheckedTable* t : tables_) progress_.advance(t->positions);
      if (hooks.level_passed && !hooks.level_passed(a, failure)) return false;
    }
    for (CheckedTable* t : tables_) t->state = {};
    return true;
  }

 private:
  int other(int t) const { return tables_.size() == 1 ? 0 : 1 - t; }

  // Step 1 of a level whose MTC is checked with it, from `from` on, part by
  // part (hooks.part_positions, whole chunks), each part's mismatches
  // reported before the hook hears it passed.
  bool check_level_in_parts(const LevelPart& from, const CheckHooks& hooks, std::string& failure) {
    const std::uint64_t part = std::max<std::uint64_t>(hooks.part_positions / kChunk, 1) * kChunk;
    for (int t = 0; t < static_cast<int>(tables_.size()); ++t) {
      const CheckedTable& s = *tables_[static_cast<std::size_t>(t)];
      const std::uint64_t start = t < from.table ? s.positions : t == from.table ? std::min(from.positions, s.positions) : 0;
      progress_.skip((level_work(s) - 1) * start);  // their step 1 and MTC; step 2's share comes with the level
      for (std::uint64_t begin = start; begin < s.positions; begin += part) {
        const std::uint64_t end = std::min(s.positions, begin + part);
        first_pass(t, begin, end);
        if (interrupted(failure) || report_mismatch(failure) || report_mtc_mismatch(failure)) return false;
        if (hooks.part_passed && !hooks.part_passed(LevelPart{level_, t, end}, failure)) return false;
      }
    }
    return true;
  }

  // Progress work a position of a level: step 1, its MTC if checked with
  // it, and step 2 (or the share of it the depths took over).
  static std::uint64_t level_work(const CheckedTable& t) { return t.mtc.empty() ? 2 : 3; }

  static bool interrupted(std::string& failure) {
    if (!interrupt_requested()) return false;
    failure = "interrupted";
    return true;
  }

  // Local index, in table u's level, of the first position of the slice
  // with the men of `p` (a position in u's colours: White or Black to move).
  // King moves keep the men, so one lookup serves all of a position's
  // in-level successors or predecessors.
  std::uint64_t slice_start(const CheckedTable& u, const Position& p) const {
    const auto s = static_cast<std::uint32_t>(u.index.rank_men(p.men_of(Color::White), p.men_of(Color::Black)));
    if (u.whole_level) return u.levels->ordinal(level_, s) * u.kps();
    // A part: closed under king moves, so the slice is one of its own.
    return static_cast<std::uint64_t>(std::lower_bound(u.slices.begin(), u.slices.end(), s) - u.slices.begin()) *
           u.kps();
  }

  // What to look for among the moves of a position.
  enum class Need {
    Everything,     // the implied value and the in-level count
    ProvenLoss,     // stop at a move that reaches a proven loss (a win's proof)
    AllProvenWins,  // stop at a move that does not reach a proven win (a loss's proof)
  };

  // Position p of table t, White to move, that need not capture (so none of
  // its moves captures): each successor's stored value and whether that
  // value is proven. A king move stays in the level: its value is proven if
  // it is a capture position (derived from smaller tables) or, if
  // `read_states`, when this level's state says so (step 1 writes those
  // states, so there it counts as not proven yet). A man move goes to the
  // level above and a promotion to a smaller table: both checked before, so
  // proven. `need` lets a proof stop at the first move that decides it.
  Forward evaluate(int t, const Position& p, Need need, bool read_states) {
    CheckedTable& u = *tables_[static_cast<std::size_t>(other(t))];
    // thread_local: a MoveList is 16 KB, and zero-filling one per position dominated the profile.
    thread_local MoveList list;
    generate_quiet_moves(p, list);  // the caller knows p has no capture (its flag)
    // First every successor's index in u, prefetching its stored value: the
    // values are scattered over the table, and waiting for each miss in turn
    // was half of the verifier's time. kPromotion: not in u.
    constexpr std::uint64_t kPromotion = kLeavesUnit;
    static_assert(kNone == kLeavesUnit);  // a king move's rank, else kNone
    thread_local std::array<std::uint64_t, MoveList::kCapacity> index;
    thread_local std::array<std::uint64_t, MoveList::kCapacity> kings_rank;  // king moves; else kNone
    for_each_quiet_successor(p, list, u.index, [&](int k, std::uint64_t j, std::uint64_t rank_in_slice) {
      const auto at = static_cast<std::size_t>(k);
      index[at] = j;
      kings_rank[at] = rank_in_slice;
      if (j == kPromotion) return;
      if (proofs_by_depth_ && u.mtc_of_captures_is_one) {  // no capture flag read below
        u.values->prefetch_value(j);
      } else {
        u.values->prefetch(j);
      }
      if (rank_in_slice != kNone && !u.mtc.empty()) __builtin_prefetch(&u.mtc[j]);
    });
    Forward f;
    const bool costs = !u.mtc.empty();
    std::uint64_t local_first = kNone;  // of the in-level successors in u's level
    for (int k = 0; k < list.size; ++k) {
      const auto at = static_cast<std::size_t>(k);
      const std::uint64_t j = index[at];
      Wdl v;
      bool proven = true;
      if (j == kPromotion) {
        v = store_.value(make_move(p, list[k]));  // a smaller table
      } else {
        v = u.values->value(j);
        if (kings_rank[at] != kNone && !proofs_by_depth_ && !u.values->capture(j)) {  // proofs: step 2
          ++f.in_level;
          proven = false;
          if (read_states) {
            if (local_first == kNone) local_first = slice_start(u, colour_reversed(make_move(p, list[k])));
            proven = check_state::proven(u.at(local_first + kings_rank[at]).load(std::memory_order_relaxed));
          }
        }
      }
      f.implied = std::max(f.implied, negate(v));
      if (costs) {  // a promotion or a man move converts; a king move costs 1 + the plies from where it leads
        const bool capture = !u.mtc_of_captures_is_one && kings_rank[at] != kNone && u.values->capture(j);
        const int cost = kings_rank[at] == kNone ? 1 : 1 + (capture ? 1 : int{u.mtc[j]});
        f.worst_cost = std::max(f.worst_cost, cost);
        if (v == Wdl::Loss) f.win_cost = std::min(f.win_cost, cost);
      }
      f.win_proof |= v == Wdl::Loss && proven;
      f.loss_proof &= v == Wdl::Win && proven;
      if (need == Need::ProvenLoss && f.win_proof) break;
      if (need == Need::AllProvenWins && !f.loss_proof) break;
    }
    return f;
  }

  // Step 1 for the positions [begin, end) of table t's level (begin a
  // multiple of kChunk), and the start of step 2.
  void first_pass(int t, std::uint64_t begin, std::uint64_t end_of_range) {
    using namespace check_state;
    CheckedTable& s = *tables_[static_cast<std::size_t>(t)];
    const std::uint64_t first_chunk = begin / kChunk, chunks = (end_of_range + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::uint64_t c = first_chunk; c < chunks; ++c) {
      if (interrupt_requested()) continue;
      const std::uint64_t end = std::min(end_of_range, (c + 1) * kChunk);
      LevelCursor cursor(s.slices, s.kps(), c * kChunk);
      bool frontier = false;
      for (std::uint64_t i = c * kChunk; i < end; ++i, cursor.next()) {
        const std::uint64_t k = cursor.index();
        const Wdl stored = s.values->value(k);
        if (check_captures_ && capture_wrong(s.index.unrank(k), stored, s.values->capture(k)))
          atomic_min(s.first_mismatch, k);
        if (s.values->capture(k)) {  // derived from smaller tables (by the loader, or checked just above)
          if (!proofs_by_depth_) s.state[i] = kSettled;
          continue;
        }
        const bool wins_early = stored == Wdl::Win && !checks_mtc();  // the MTC needs every winning move
        const Forward f = evaluate(t, s.index.unrank(k), wins_early ? Need::ProvenLoss : Need::Everything, false);
        if (f.implied != stored) atomic_min(s.first_mismatch, k);
        if (!s.mtc.empty() && stored != Wdl::Draw && implied_mtc(f, stored) != s.mtc[k])
          atomic_min(s.first_mtc_mismatch, k);
        if (proofs_by_depth_) continue;
        std::uint8_t st = kSettled;
        if (stored == Wdl::Win) st = f.win_proof ? kProvenAt[0] : kPendingWin;
        if (stored == Wdl::Loss) st = f.loss_proof ? kProvenAt[0] : static_cast<std::uint8_t>(std::min(f.in_level, kMaxCounter));
        s.state[i] = st;
        frontier |= st == kProvenAt[0];
      }
      if (frontier) s.pending[0][c].store(true, std::memory_order_relaxed);
      progress_.advance((s.mtc.empty() ? 1 : 2) * (end - c * kChunk));
    }
  }

  // The MTC the moves imply for a win or a loss (mtc_verifier.h): the
  // quickest winning conversion, or the slowest of all.
  static int implied_mtc(const Forward& f, Wdl stored) { return stored == Wdl::Win ? f.win_cost : f.worst_cost; }

  // Whether a position's capture flag is wrong, or, where it must capture,
  // its value is not the best of its captures.
  bool capture_wrong(const Position& p, Wdl stored, bool flagged) const {
    const bool capture = probe::must_capture(p);
    return capture != flagged || (capture && resolve_captures(p, store_) != stored);
  }

  // Step 2: undo the king moves into a proven position q (table t, local i)
  // to find the predecessors it may prove. The un-moves only say where to
  // look: a predecessor is marked proven only after a forward check of its
  // own moves, so a wrong un-move can cost a proof, never fake one.
  void propagate_from(int t, const LevelCursor& cursor, int next) {
    using namespace check_state;
    CheckedTable& s = *tables_[static_cast<std::size_t>(t)];
    const int ut = other(t);
    CheckedTable& u = *tables_[static_cast<std::size_t>(ut)];
    const Wdl v = s.values->value(cursor.index());
    const Position after = colour_reversed(s.index.unrank(cursor.index()));
    const std::uint64_t start = slice_start(u, after);
    // The predecessors first, their states prefetched (as the solver does).
    thread_local std::vector<std::pair<Position, std::uint64_t>> predecessors;
    predecessors.clear();
    for_each_king_predecessor(after, [&](const Position& before) {
      // j is the index of `before` if it has after's men and White to move;
      // then the forward checks below are about the position at j.
      if (before.side != Color::White || before.men_of(Color::White) != after.men_of(Color::White) ||
          before.men_of(Color::Black) != after.men_of(Color::Black))
        return;
      const std::uint64_t j = start + u.index.kings_rank(before);
      __builtin_prefetch(&u.state[j]);
      predecessors.emplace_back(before, j);
    });
    for (const auto& [before, j] : predecessors) {
      std::atomic_ref<std::uint8_t> ref = u.at(j);
      std::uint8_t st = ref.load(std::memory_order_relaxed);
      if (v == Wdl::Loss) {  // a move to a proven loss may prove a win
        if (st != kPendingWin || !has_quiet_move_to(before, after)) continue;
        if (ref.compare_exchange_strong(st, kProvenAt[static_cast<std::size_t>(next)], std::memory_order_relaxed))
          u.mark_pending(next, j);
        continue;
      }
      while (st >= 1 && st <= kMaxCounter) {  // one more move of a stored loss proven bad
        const std::uint8_t n = static_cast<std::uint8_t>(st - 1);
        if (!ref.compare_exchange_weak(st, n, std::memory_order_relaxed)) continue;
        if (n == 0 && evaluate(ut, before, Need::AllProvenWins, true).loss_proof) {
          ref.store(kProvenAt[static_cast<std::size_t>(next)], std::memory_order_relaxed);
          u.mark_pending(next, j);
        }
        break;
      }
    }
  }

  // The forward check of a win's proof: `after` is a proven loss, so
  // `before` is a proven win if the move generator (not the un-move that
  // found it) gives it a move to `after`. Cheaper than evaluate(): no
  // successor is ranked or looked up.
  static bool has_quiet_move_to(const Position& before, const Position& after) {
    thread_local MoveList list;  // 16 KB: not zero-filled per call
    generate_quiet_moves(before, list);
    for (int k = 0; k < list.size; ++k)
      if (make_move(before, list[k]) == after) return true;
    return false;
  }

  // One round: propagate every proven position of this parity. Returns how many.
  std::uint64_t propagation_round(int parity) {
    using namespace check_state;
    std::vector<std::pair<int, std::uint64_t>> tasks;  // (table, chunk)
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      auto& flags = tables_[t]->pending[static_cast<std::size_t>(parity)];
      for (std::uint64_t c = 0; c < flags.size(); ++c)
        if (flags[c].exchange(false, std::memory_order_relaxed)) tasks.emplace_back(static_cast<int>(t), c);
    }
    std::uint64_t propagated = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : propagated)
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      if (interrupt_requested()) continue;
      const auto [t, c] = tasks[k];
      CheckedTable& s = *tables_[static_cast<std::size_t>(t)];
      const std::uint64_t end = std::min(s.positions, (c + 1) * kChunk);
      LevelCursor cursor(s.slices, s.kps(), c * kChunk);
      for (std::uint64_t i = c * kChunk; i < end; ++i, cursor.next()) {
        if (s.state[i] != kProvenAt[static_cast<std::size_t>(parity)]) continue;
        propagate_from(t, cursor, 1 - parity);
        s.at(i).store(kSettled, std::memory_order_relaxed);
        ++propagated;
      }
    }
    return propagated;
  }

  // Where a position is: its table, level and slice (a unit solved in parts
  // was solved slice by slice), its index and its FEN.
  std::string describe(const CheckedTable& t, std::uint64_t i) const {
    return t.material.name() + " level " + std::to_string(level_) + " slice " + std::to_string(i / t.kps()) +
           " index " + std::to_string(i) + ": " + to_fen(t.index.unrank(i));
  }

  bool report_mismatch(std::string& failure) {
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      const CheckedTable& s = *tables_[t];
      const std::uint64_t i = s.first_mismatch.load();
      if (i == kNone) continue;
      const Position p = s.index.unrank(i);
      const bool flagged = s.values->capture(i), capture = probe::must_capture(p);
      if (flagged != capture) {
        failure = "capture flag mismatch at " + describe(s, i) + ": stored " + (flagged ? "must" : "need not") +
                  " capture, its moves say it " + (capture ? "must" : "need not");
        return true;
      }
      const Wdl implied =
          capture ? resolve_captures(p, store_) : evaluate(static_cast<int>(t), p, Need::Everything, false).implied;
      failure = "value mismatch at " + describe(s, i) + " stored " + std::string(to_string(s.values->value(i))) +
                ", its moves imply " + std::string(to_string(implied));
      return true;
    }
    return false;
  }

  // The first wrong MTC, in the words of mtc_verifier.cpp.
  bool report_mtc_mismatch(std::string& failure) {
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      const CheckedTable& s = *tables_[t];
      const std::uint64_t i = s.first_mtc_mismatch.load();
      if (i == kNone) continue;
      const Wdl stored = s.values->value(i);
      const Position p = s.index.unrank(i);
      failure = s.material.name() + ".mtc: position " + std::to_string(i) + " (" + to_fen(p) + ", " +
                std::string(to_string(stored)) + "; level " + std::to_string(level_) + " slice " +
                std::to_string(i / s.kps()) + ") stores MTC " + std::to_string(s.mtc[i]) + ", its moves imply " +
                std::to_string(implied_mtc(evaluate(static_cast<int>(t), p, Need::Everything, false), stored));
      return true;
    }
    return false;
  }

  bool report_unproven(std::string& failure) const {
    for (const CheckedTable* t : tables_) {
      LevelCursor cursor(t->slices, t->kps(), 0);
      std::uint64_t first = kNone;
      for (std::uint64_t i = 0; i < t->positions; ++i, cursor.next())
        if (t->state[i] != check_state::kSettled) first = std::min(first, cursor.index());
      if (first == kNone) continue;
      failure = "unfounded value at " + describe(*t, first) + " stored " +
                std::string(to_string(t->values->value(first))) +
                ", but no finite forced line proves it (a self-consistent cycle)";
      return true;
    }
    return false;
  }

  std::vector<CheckedTable*> tables_;
  const FinishedValues& store_;
  ProgressBar& progress_;
  bool check_captures_ = false;
  bool proofs_by_depth_ = false;
  int level_ = 0;
};

// The table files of m in the directory, by the names a checksum list
// gives them: its .wdl table and, if it has them, its .mtc and .r62 tables.
std::vector<std::string> table_file_names(const std::string& dir, const Material& m) {
  std::vector<std::string> names;
  for (const TableKind kind : {TableKind::Wdl, TableKind::Mtc, TableKind::Article62}) {
    if (kind == TableKind::Mtc && !has_mtc_table(dir, m)) continue;
    if (kind == TableKind::Article62 && !has_r62_table(dir, m)) continue;
    names.push_back(m.name() + table_extension(kind));
  }
  return names;
}

// The files of m a checksum list vouches for: its table files (above) and,
// if it has them, its .dtw and .rule tables (the draw-rule research's, checked
// by drawrules/table_verifier.h after the units, so not part of a journal entry).
std::vector<std::string> checksummed_file_names(const std::string& dir, const Material& m) {
  std::vector<std::string> names = table_file_names(dir, m);
  for (const TableKind kind : {TableKind::Dtw, TableKind::Rule}) {
    const std::string name = m.name() + table_extension(kind);
    if (std::filesystem::exists(dir + "/" + name)) names.push_back(name);
  }
  return names;
}

// Every .wdl table of the directory must be listed with its XXH3 (the list
// may name more: tables/CHECKSUMS lists sets larger than most builds). An
// .mtc, .r62, .dtw or .rule table is compared where the list names it; one it does not
// name is counted, not failed: lists written before .mtc files were listed
// name only .wdl files, and the committed list names the .mtc files of the
// builds that made them, not of every set a user may build.
bool compare_checksums(const VerifyOptions& options, const std::vector<Material>& materials,
                       VerifyReport& report, std::string& failure) {
  if (options.checksums_file.empty()) return true;
  ChecksumList expected;
  if (!read_checksum_list(options.checksums_file, expected, failure)) return false;
  for (const Material& m : materials)
    for (const std::string& name : checksummed_file_names(options.dir, m)) {
      const auto it = expected.find(name);
      if (it == expected.end()) {
        if (name != m.name() + table_extension(TableKind::Wdl)) {
          ++report.checksums_unlisted;
          continue;
        }
        failure = name + " is not listed in " + options.checksums_file;
        return false;
      }
      std::uint64_t actual = 0;
      if (!file_xxh3(options.dir + "/" + name, actual, failure)) return false;
      if (actual != it->second) {
        failure = name + ": XXH3 " + format_hash(actual) + " differs from " + format_hash(it->second) +
                  " in " + options.checksums_file;
        return false;
      }
      ++report.checksums_compared;
    }
  return true;
}

bool write_checksums(const VerifyOptions& options, const std::vector<Material>& materials, std::string& failure) {
  if (options.write_checksums_file.empty()) return true;
  ChecksumList list;
  for (const Material& m : materials)
    for (const std::string& name : checksummed_file_names(options.dir, m))
      if (!file_xxh3(options.dir + "/" + name, list[name], failure)) return false;
  return write_checksum_list(options.write_checksums_file, list, failure);
}

// The progress work of a position of an .r62 table's check, which generates
// the moves of every position neither drawn nor capturing (article62_verifier.h)
// and values each conversion under 6.2. At 1 a position, the checks took a
// quarter of the whole 2-6 verify for 7 % of its progress line (5.45 min a
// percent against 1.41 on average) when they valued every capture too; at
// 1.4 times that speed, 3 a position matches the rest.
constexpr std::uint64_t kR62CheckWork = 3;

// The block cache of the probe that the .r62 checks read the directory's
// .mtc tables through (check_r62), opened once for the whole verify.
constexpr std::uint64_t kR62ProbeCacheBytes = std::uint64_t{64} << 20;

// A checked unit's tables and values, and how many of them have a table of
// a further kind (`has`: has_mtc_table, has_r62_table).
struct UnitParts {
  std::vector<Material> materials;
  std::vector<const UnitValues*> values;
  int present = 0;
};

UnitParts unit_parts(const std::string& dir, const std::vector<std::unique_ptr<CheckedTable>>& unit,
                     bool (*has)(const std::string&, const Material&)) {
  UnitParts parts;
  for (const auto& t : unit) {
    parts.materials.push_back(t->material);
    parts.values.push_back(t->values);
    parts.present += has(dir, t->material);
  }
  return parts;
}

// The exits of a .r62 check, keeping the file pages read through `base` and
// `play` within kMappedPagesBytes each (mapped_pages_bound.h): the check reads
// the .mtc and .r62 tables of the units a promotion leads to, and their pages
// took the check of KKMMvKM 200 MiB past its memory bound before they were
// dropped as it went.
class PageBoundedExits final : public FinishedValues {
 public:
  PageBoundedExits(const FinishedValues& exits, probe::Tablebase& base, probe::PerfectPlay& play)
      : exits_(exits), base_pages_(base), play_pages_(play) {}
  Wdl value(const Position& p) const override {
    const Wdl v = exits_.value(p);
    base_pages_.after_probe();
    play_pages_.after_probe();
    return v;
  }
  std::optional<std::string> error() const override { return exits_.error(); }

 private:
  const FinishedValues& exits_;
  MappedPagesBound<probe::Tablebase> base_pages_;
  MappedPagesBound<probe::PerfectPlay> play_pages_;
};

// The unit's .r62 tables, if it has any (article62_verifier.h): all or none, and
// only beside its .mtc tables. The tables it converts into are valued under
// 6.2 from a fresh count as the rule-aware solve valued them (Article62Exits),
// read through `base`, a probe handle on the directory opened for them.
bool check_r62(const std::string& dir, const std::vector<std::unique_ptr<CheckedTable>>& unit,
               const FinishedValues& finished, std::unique_ptr<probe::Tablebase>& base, ProgressBar& progress,
               VerifyReport& report, std::string& failure) {
  const auto [materials, values, present] = unit_parts(dir, unit, has_r62_table);
  if (present == 0) return true;
  if (present != static_cast<int>(unit.size()) || !has_mtc_table(dir, materials.front())) {
    failure = "the unit of " + materials.front().name() + " has .r62 tables for one colour only, or no .mtc tables";
    return false;
  }
  probe::ProbeError pe;
  if (!base && probe::Tablebase::open(dir, kR62ProbeCacheBytes, 0, base, &pe) != DTB_OK) {
    failure = pe.message;
    return false;
  }
  probe::PerfectPlay play(*base);
  std::map<Material, bool> faithful;
  if (!dependencies_faithful(play, materials.front(), faithful, failure)) return false;
  bool captures_keep_values = true;
  for (const Material& t : materials) captures_keep_values = captures_keep_values && captures_faithful(t, faithful);
  const Article62Exits exits(finished, play, std::move(faithful));
  const PageBoundedExits bounded(exits, *base, play);
  progress.set_weight(kR62CheckWork);
  const bool passed = verify_unit_r62(dir, materials, values, bounded, captures_keep_values, &progress, failure);
  progress.set_weight(1);
  base->drop_mapped_pages();  // the pages of the files this probe read stay out of the bound
  if (!passed) return false;
  report.r62_tables += present;
  return true;
}

// The files of a unit a journal entry vouches for, with their XXH3: its
// .wdl tables and, if it has them, its .mtc and .r62 tables.
bool unit_file_hashes(const std::string& dir, const std::vector<Material>& unit, ChecksumList& hashes,
                      std::string& failure) {
  hashes.clear();
  for (const Material& m : unit)
    for (const std::string& name : table_file_names(dir, m))
      if (!file_xxh3(dir + "/" + name, hashes[name], failure)) return false;
  return true;
}

// The progress work of checking table m: loading its WDL values, two passes
// over them (the first pass and the proof rounds, UnitChecker), one over its
// MTC and the check of its .r62 (above).
std::uint64_t verify_work(const std::string& dir, const Material& m) {
  const std::uint64_t n = PositionIndex(m).size();
  return 3 * n + (has_mtc_table(dir, m) ? n : 0) + (has_r62_table(dir, m) ? kR62CheckWork * n : 0);
}

// Where to resume the unit whose files hash as `hashes`: the progress file
// of the journal if it was recorded for these very files, else nothing
// (the unit from its start). Without a journal, nothing. For a unit with
// .mtc tables, levels recorded as passed without their MTC (checked after
// them, as an older verifier did) count for nothing.
bool resume_point(const VerifyOptions& options, const ChecksumList& hashes, bool with_mtc, UnitProgress& resumed,
                  VerifyReport& report, std::string& failure) {
  resumed = {};
  if (options.journal_file.empty()) return true;
  if (!read_unit_progress(unit_progress_path(options.journal_file), resumed, failure)) return false;
  // (A part of a level is recorded only with its MTC checked.)
  const bool mtc_vouched = !with_mtc || resumed.levels_with_mtc || resumed.part_level >= 0 || resumed.mtc_passed;
  if (progress_applies(resumed, hashes) && mtc_vouched) {
    report.resumed_inside_unit = true;
    return true;
  }
  resumed = {};
  resumed.files = hashes;
  return true;
}

// MTC 1, a capture's, at every capture position (don't-care in the file).
void set_capture_mtc(const UnitValues& values, LargeArray<std::uint8_t>& mtc) {
  const auto n = static_cast<std::int64_t>(mtc.size());
#pragma omp parallel for schedule(static, 1 << 16)
  for (std::int64_t i = 0; i < n; ++i)
    if (values.capture(static_cast<std::uint64_t>(i))) mtc[static_cast<std::size_t>(i)] = 1;
}

// Load the unit's .mtc tables (every one is there) and hand them to the
// checker, to be checked with the values.
bool load_unit_mtc(const std::string& dir, const std::vector<std::unique_ptr<CheckedTable>>& unit,
                   std::vector<LargeArray<std::uint8_t>>& mtc, UnitChecker& checker, ProgressBar& progress,
                   std::string& failure) {
  std::vector<std::span<const std::uint8_t>> spans;
  for (std::size_t t = 0; t < unit.size(); ++t) {
    progress.set_item(unit[t]->material.name() + ".mtc loading");
    if (!load_mtc_values(dir, unit[t]->material, mtc[t], failure)) return false;
    set_capture_mtc(*unit[t]->values, mtc[t]);
    spans.emplace_back(mtc[t].data(), mtc[t].size());
  }
  checker.check_mtc_with_levels(spans, true);
  return true;
}

// A recorded part of level a that this unit's level can have passed (a
// record that does not fit is ignored: the level is checked from its start).
bool part_fits(const UnitProgress& resumed, const std::vector<std::unique_ptr<CheckedTable>>& unit, int a) {
  if (resumed.part_table >= static_cast<int>(unit.size())) return false;
  const CheckedTable& t = *unit[static_cast<std::size_t>(resumed.part_table)];
  return resumed.part_positions <= t.levels->positions(a) &&
         (resumed.part_positions % kChunk == 0 || resumed.part_positions == t.levels->positions(a));
}

// The unit's .mtc tables passed in the run that recorded the progress.
void skip_mtc(const std::string& dir, const std::vector<std::unique_ptr<CheckedTable>>& unit, ProgressBar& progress,
              VerifyReport& report) {
  const int present = unit_parts(dir, unit, has_mtc_table).present;
  for (const auto& t : unit)
    if (has_mtc_table(dir, t->material)) progress.skip(t->index.size());
  report.mtc_tables += present;
}

bool journal_lists(const ChecksumList& journal, const ChecksumList& hashes) {
  for (const auto& [name, hash] : hashes) {
    const auto it = journal.find(name);
    if (it == journal.end() || it->second != hash) return false;
  }
  return true;
}

// The unit's arrays: released before what follows them takes as much.
template <class T>
void release(std::vector<T>& arrays) {
  std::vector<T>().swap(arrays);
}

}  // namespace

std::uint64_t verify_unit_bytes(const std::string& dir, const Material& m) {
  std::uint64_t values = 0, slice_lists = 0, positions = 0, largest_levels = 0;
  for (const Material& t : unit_of(m)) {
    const PositionIndex index(t);
    const std::vector<std::uint64_t> levels = positions_by_advancement(t);
    const std::uint64_t largest = *std::max_element(levels.begin(), levels.end());
    values += UnitValues::bytes_for(index.size());
    slice_lists += SliceLevels::memory_bytes_for(index.slice_count(), largest / index.kings_per_slice());
    positions += index.size();
    // Each table's state array keeps the size of its largest level so far
    // (CheckedTable::start_level), so the unit holds every table's largest.
    largest_levels += largest;
  }
  const bool mtc = has_mtc_table(dir, m) || has_mtc_table(dir, m.reversed());
  // A level's state: a byte a position and two pending flags a chunk.
  return values + slice_lists + (mtc ? positions : largest_levels + 2 * (largest_levels / kChunk + 1));
}

namespace {

// Half of the bound at most, whatever a unit leaves: a large unit's arrays
// reuse the memory of the tables dropped to make room for them only where
// it lies in one piece (the freed heap is kept, cli/memory_reuse.h), so
// keeping the resident tables well under the bound keeps that growth there.
std::uint64_t resident_within(const VerifyMemoryPlan& plan, std::uint64_t unit_bytes) {
  const std::uint64_t taken = plan.overhead + plan.cache + unit_bytes;
  return plan.budget > taken ? std::min(plan.budget - taken, plan.budget / 2) : 0;
}

}  // namespace

std::uint64_t VerifyMemoryPlan::resident_beside(const Material& m) const {
  const auto it = unit_bytes.find(m <= m.reversed() ? m : m.reversed());
  return resident_within(*this, it == unit_bytes.end() ? 0 : it->second);
}

std::uint64_t VerifyMemoryPlan::resident_between_units() const { return resident_within(*this, 0); }

VerifyMemoryPlan plan_verify_memory(const std::string& dir, const std::vector<Material>& materials,
                                    std::uint64_t budget) {
  VerifyMemoryPlan plan;
  plan.budget = budget;
  plan.overhead = kOverheadBytes + kMappedPagesBytes;
  for (const Material& m : materials) {
    if (has_r62_table(dir, m))  // the .r62 check's probe: its cache, the pages of its WDL and of its .mtc/.r62 files
      plan.overhead = kOverheadBytes + kMappedPagesBytes + kR62ProbeCacheBytes + 2 * kMappedPagesBytes;
    if (!(m <= m.reversed())) continue;
    const std::uint64_t need = verify_unit_bytes(dir, m);
    plan.unit_bytes[m] = need;
    if (need > plan.largest_unit) {
      plan.largest_unit = need;
      plan.largest = m;
    }
  }
  plan.least_budget = plan.largest_unit + plan.overhead + kMinCacheBytes;
  if (!plan.fits()) return plan;
  // The cache serves every unit, the largest too; resident tables use what
  // each unit leaves (resident_beside), which is more beside a small one.
  // A resident lookup costs a fifth of a cached one (finished_tables.h),
  // so the cache gets at most an eighth of the bound.
  const std::uint64_t left = budget - plan.largest_unit - plan.overhead;
  plan.cache = std::max(kMinCacheBytes, std::min(budget / 8, left));
  return plan;
}

bool verify_tables(const VerifyOptions& options, VerifyReport& report, std::string& failure) {
  std::vector<Material> materials;
  if (!discover_tables(options.dir, materials, failure)) return false;
  if (!compare_checksums(options, materials, report, failure)) return false;
  if (options.checksums_only) {
    for (const Material& m : materials) {
      report.positions += PositionIndex(m).size();
      ++report.tables;
    }
    return write_checksums(options, materials, failure);
  }
  std::uint64_t work = 0;
  for (const Material& m : materials) work += verify_work(options.dir, m);
  ProgressBar progress("verify", work, options.show_progress);
  // Dependencies are read as `dtb gen` reads them: verified tables stay
  // resident while later units read them, the rest comes from the files
  // through the probe's block cache (finished_tables.h). So the verifier
  // holds the unit it checks (2 bytes a position) and a bounded rest, not
  // every table.
  int max_pieces = 0;
  std::vector<Material> units;
  for (const Material& m : materials) {
    max_pieces = std::max(max_pieces, m.pieces());
    if (m <= m.reversed()) units.push_back(m);
  }
  const VerifyMemoryPlan memory = plan_verify_memory(
      options.dir, materials, options.memory_bytes ? options.memory_bytes : default_memory_bytes());
  if (options.on_memory_plan) options.on_memory_plan(memory);
  if (!memory.fits()) {
    failure = "the unit of " + memory.largest.name() + " needs " + std::to_string(memory.largest_unit >> 20) +
              " MiB to be verified (its values, and its MTC or a level's state), and the rest at least " +
              std::to_string((memory.overhead + kMinCacheBytes) >> 20) + " MiB: more than the memory bound of " +
              std::to_string(memory.budget >> 20) + " MiB; --memory " +
              std::to_string((memory.least_budget + (1 << 20) - 1) >> 20) + "M or more would do";
    return false;
  }
  std::unique_ptr<FinishedTables> finished;
  try {
    finished = std::make_unique<FinishedTables>(options.dir, max_pieces, memory.cache, 0);
  } catch (const std::exception& e) {
    failure = e.what();
    return false;
  }
  std::unique_ptr<probe::Tablebase> base;  // for the .r62 checks, opened if there are any
  ChecksumList journal;
  if (!options.journal_file.empty() && std::filesystem::exists(options.journal_file) &&
      !read_checksum_list(options.journal_file, journal, failure))
    return false;
  // The units an earlier run verified, skipped before the first unit is
  // checked: skipped as they came, those after it counted as work left at
  // the rate of real checking, and a resumed run's ETA said hours where
  // minutes were left.
  std::vector<ChecksumList> unit_hashes(units.size());
  std::vector<bool> verified_before(units.size(), false);
  if (!options.journal_file.empty()) {
    progress.set_item("hashing the files the journal lists");
    for (std::size_t k = 0; k < units.size(); ++k) {
      if (!unit_file_hashes(options.dir, unit_of(units[k]), unit_hashes[k], failure)) return false;
      verified_before[k] = journal_lists(journal, unit_hashes[k]);
      if (!verified_before[k]) continue;
      for (const Material& t : unit_of(units[k])) {  // read from its files from now on
        progress.skip(verify_work(options.dir, t));
        report.positions += PositionIndex(t).size();
        ++report.tables;
        ++report.tables_from_journal;
      }
    }
  }
  for (std::size_t k = 0; k < units.size(); ++k) {
    const Material& m = units[k];
    if (verified_before[k]) continue;
    const ChecksumList& hashes = unit_hashes[k];
    if (options.on_unit_start) options.on_unit_start(m, progress.done(), progress.total());
    // Make room for this unit's arrays: what is read last goes first.
    finished->set_resident_budget(memory.resident_beside(m),
                                  std::vector<Material>(units.begin() + static_cast<std::ptrdiff_t>(k), units.end()));
    std::vector<std::unique_ptr<CheckedTable>> unit;
    std::vector<CheckedTable*> pointers;
    for (const Material& t : unit_of(m)) {
      unit.push_back(std::make_unique<CheckedTable>(t));
      progress.set_item(t.name() + " loading");  // minutes for a 7-piece table: say so
      std::uint64_t bytes = 0;
      if (!load_checked(options.dir, t, *finished, *unit.back()->owned, bytes, failure,
                        [&](std::uint64_t positions) { progress.advance(positions); })) {
        if (interrupt_requested()) failure = "interrupted";  // not the file's fault
        return false;
      }
      pointers.push_back(unit.back().get());
    }
    // The unit's .mtc tables, if it has any (mtc_verifier.h): all or none.
    const int mtc_present = unit_parts(options.dir, unit, has_mtc_table).present;
    if (mtc_present != 0 && mtc_present != static_cast<int>(unit.size())) {
      failure = "the unit of " + m.name() + " has a .mtc table for one colour only";
      return false;
    }
    const bool mtc_follows = mtc_present > 0;
    UnitProgress resumed;
    if (!resume_point(options, hashes, mtc_follows, resumed, report, failure)) return false;
    resumed.levels_with_mtc = mtc_follows;
    UnitProgressRecorder recorder(options.journal_file.empty() ? "" : unit_progress_path(options.journal_file),
                                  options.progress_seconds, resumed);
    CheckHooks hooks;
    hooks.level_passed = [&](int a, std::string& error) {
      if (options.on_level_passed) options.on_level_passed(m, a);
      return recorder.level_passed(a, error);
    };
    hooks.part_passed = [&](const LevelPart& passed, std::string& error) {
      if (options.on_level_part_passed) options.on_level_part_passed(m, passed.level, passed.table, passed.positions);
      return recorder.level_part_passed(passed.level, passed.table, passed.positions, error);
    };
    hooks.part_positions = options.level_part_positions;
    UnitChecker checker(pointers, *finished, progress);
    // The stored MTC, checked with the values level by level (and proving
    // them), unless an earlier run passed it.
    std::vector<LargeArray<std::uint8_t>> mtc(unit.size());
    if (mtc_follows) {
      if (!resumed.mtc_passed && !load_unit_mtc(options.dir, unit, mtc, checker, progress, failure)) return false;
      checker.leave_proofs_to_depths();
      report.units_proven_by_depth += 1;
    }
    const int first = resumed.levels_passed_from >= 0 ? resumed.levels_passed_from - 1 : checker.levels() - 1;
    report.levels_resumed += checker.levels() - 1 - first;
    LevelPart resume_at;
    if (resumed.levels_with_mtc && resumed.part_level == first && first >= 0 && part_fits(resumed, unit, first)) {
      resume_at = {first, resumed.part_table, resumed.part_positions};
      report.resumed_inside_unit = true;
      report.level_part_resumed = true;
    }
    int rounds = 0;
    if (!checker.run_from(first, resume_at, hooks, rounds, failure)) return false;
    if (const auto e = finished->error()) {
      failure = *e;
      return false;
    }
    report.longest_proof_rounds = std::max(report.longest_proof_rounds, rounds);
    if (resumed.mtc_passed) {
      skip_mtc(options.dir, unit, progress, report);
    } else if (mtc_follows) {  // checked with the levels
      report.mtc_tables += mtc_present;
      if (!recorder.mtc_passed(failure)) return false;
    }
    release(mtc);  // its memory is the .r62 check's
    if (!check_r62(options.dir, unit, *finished, base, progress, report, failure)) return false;
    const std::vector<Material> remaining(units.begin() + static_cast<std::ptrdiff_t>(k) + 1, units.end());
    // The unit's values become resident tables, within what the bound
    // leaves between units, until the next unit makes room for itself.
    finished->set_resident_budget(memory.resident_between_units(), remaining);
    for (auto& t : unit) {
      report.positions += t->index.size();
      ++report.tables;
      finished->keep(t->material, std::move(t->owned), remaining);
    }
    if (!options.journal_file.empty()) {
      for (const auto& [name, hash] : hashes) journal.insert_or_assign(name, hash);  // a changed file: its new hash
      if (!write_checksum_list(options.journal_file, journal, failure)) return false;
      std::filesystem::remove(unit_progress_path(options.journal_file));  // the journal now vouches for the unit
    }
  }
  if (!write_checksums(options, materials, failure)) return false;
  progress.finish();
  return true;
}

bool verify_unit_in_memory(const std::vector<Material>& materials, const std::vector<const UnitValues*>& values,
                           const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                           std::string& failure) {
  std::vector<std::unique_ptr<CheckedTable>> unit;
  std::vector<CheckedTable*> pointers;
  for (std::size_t t = 0; t < materials.size(); ++t) {
    unit.push_back(std::make_unique<CheckedTable>(materials[t], *values.at(t)));
    pointers.push_back(unit.back().get());
  }
  ProgressBar quiet("check", 0, false);
  UnitChecker checker(pointers, finished, quiet, true);
  if (!mtc.empty()) checker.check_mtc_with_levels(mtc);
  int rounds = 0;
  if (!checker.run(rounds, failure)) return false;
  if (const auto e = finished.error()) {
    failure = *e;
    return false;
  }
  return true;
}

bool verify_part_in_memory(const std::vector<Material>& materials, int level,
                           const std::vector<std::vector<std::uint32_t>>& part,
                           const std::vector<const UnitValues*>& values,
                           const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                           std::string& failure) {
  std::vector<std::unique_ptr<CheckedTable>> unit;
  std::vector<CheckedTable*> pointers;
  for (std::size_t t = 0; t < materials.size(); ++t) {
    unit.push_back(std::make_unique<CheckedTable>(materials[t], *values.at(t), CheckedTable::PartOnly{}));
    pointers.push_back(unit.back().get());
  }
  if (part.size() != materials.size()) throw std::invalid_argument("verify_part_in_memory: one slice list per table");
  ProgressBar quiet("check", 0, false);
  UnitChecker checker(pointers, finished, quiet, true);
  if (!mtc.empty()) checker.check_mtc_with_levels(mtc);
  if (!checker.run_part(level, part, failure)) return false;
  if (const auto e = finished.error()) {
    failure = *e;
    return false;
  }
  return true;
}

}  // namespace dtb::gen
