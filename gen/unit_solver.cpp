#include "gen/unit_solver.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <optional>
#include <stdexcept>

#include "gen/interrupt.h"
#include "gen/large_array.h"
#include "gen/solver_state.h"
#include "gen/spread_scheduler.h"
#include "gen/stopwatch.h"
#include "gen/unmove.h"
#include "index/position_index.h"
#include "rules/movegen.h"

namespace dtb::gen {
namespace {

// Positions per scheduling chunk: a multiple of 64 so that each chunk owns
// whole words of the capture bitset (no two threads write the same word).
constexpr std::uint64_t kChunk = 64 * 64;

constexpr Bitboard bit(int b) { return Bitboard{1} << b; }

std::uint64_t chunks_of(std::uint64_t positions) { return (positions + kChunk - 1) / kChunk; }

struct Side {
  Material material;
  PositionIndex index;
  // Both filled by the first pass, which writes every element (in parallel:
  // no serial zeroing first, large_array.h).
  LargeArray<std::uint8_t> state;
  LargeArray<std::uint64_t> captures;  // 1 bit per position: must capture
  // pending[parity][chunk]: the chunk holds frontier positions of that parity.
  // A round visits only those chunks instead of scanning the whole table.
  std::array<std::vector<std::atomic<bool>>, 2> pending;
  explicit Side(const Material& m) : material(m), index(m) {}
  void mark_pending(int parity, std::uint64_t i) {
    std::atomic<bool>& flag = pending[static_cast<std::size_t>(parity)][i / kChunk];
    if (!flag.load(std::memory_order_relaxed)) flag.store(true, std::memory_order_relaxed);
  }
};

// One task of a propagation round: a chunk of one table of the unit.
struct ChunkTask {
  int side;
  std::uint64_t chunk;
};

class UnitSolver {
 public:
  UnitSolver(const Material& m, const WdlStore& store, ProgressBar* progress)
      : store_(store), progress_(progress) {
    for (const Material& u : unit_of(m)) sides_.emplace_back(u);
  }

  SolveStatus solve(UnitSolution& out) {
    Stopwatch watch;
    for (Side& s : sides_) {
      s.state.resize(s.index.size());
      s.captures.resize((s.index.size() + 63) / 64);
      for (auto& flags : s.pending) flags = std::vector<std::atomic<bool>>(chunks_of(s.index.size()));
    }
    out.seconds.allocate = watch.lap();
    for (Side& s : sides_) first_pass(s);
    if (interrupt_requested()) return SolveStatus::Interrupted;
    out.seconds.first_pass = watch.lap();
    const int rounds = propagate();
    if (interrupt_requested()) return SolveStatus::Interrupted;
    out.seconds.propagate = watch.lap();
    out.materials.clear();
    out.values.clear();
    out.rounds = rounds;
    for (Side& s : sides_) {
      finalize(s);
      out.materials.push_back(s.material);
      out.values.push_back(std::move(s.state));
    }
    out.seconds.finalize = watch.lap();
    if (progress_) progress_->advance(remaining_work());
    return SolveStatus::Ok;
  }

 private:
  int other(int t) const { return sides_.size() == 1 ? 0 : 1 - t; }

  std::uint64_t remaining_work() const {
    std::uint64_t total = 0;
    for (const Side& s : sides_) total += 2 * s.index.size();
    const std::uint64_t reported = reported_work_.load();
    return total > reported ? total - reported : 0;
  }
  void report(std::uint64_t work) {
    if (!progress_) return;
    progress_->advance(work);
    reported_work_.fetch_add(work, std::memory_order_relaxed);
  }

  // Value for the mover of a move that leaves the unit (capture or promotion).
  Wdl conversion_value(const Position& p, const Move& m) const {
    return negate(store_.value(make_move(p, m)));
  }

  std::uint8_t capture_state(const Position& p) const {
    // thread_local: a MoveList is 16 KB, and zero-filling one per position dominated the profile.
    thread_local MoveList list;
    generate_moves(p, list);
    Wdl best = Wdl::Loss;
    for (const Move& m : list) best = std::max(best, conversion_value(p, m));
    if (best == Wdl::Win) return state::kWinAt[0];
    return best == Wdl::Loss ? state::kLossAt[0] : state::kDraw;
  }

  std::uint8_t quiet_state(const Position& p) const {
    const Color us = p.side;
    const Bitboard empty = p.empty();
    const Bitboard men = p.men_of(us);
    int in_unit = 0, promotions = 0;
    bool draw_flag = false;
    for (int d : backward_directions(opposite(us))) {  // = forward directions of `us`
      const Bitboard targets = shift(men, d) & empty;
      in_unit += popcount(targets & ~promotion_row(us));
      Bitboard promoting = targets & promotion_row(us);
      while (promoting) {
        const int to = pop_lsb(promoting);
        ++promotions;
        const Wdl v = conversion_value(p, Move{0, static_cast<std::uint8_t>(to - d),
                                               static_cast<std::uint8_t>(to)});
        if (v == Wdl::Win) return state::kWinAt[0];
        draw_flag |= v == Wdl::Draw;
      }
    }
    Bitboard kings = p.kings_of(us);
    while (kings) {
      const Bitboard at = bit(pop_lsb(kings));
      for (int d : kDirections)
        for (Bitboard to = shift(at, d) & empty; to; to = shift(to, d) & empty) ++in_unit;
    }
    if (in_unit == 0) return draw_flag ? state::kDraw : state::kLossAt[0];
    if (in_unit > state::kMaxCounter) throw std::logic_error("too many moves for the solver's counter");
    return state::undecided_state(in_unit, draw_flag);
  }

  void first_pass(Side& s) {
    const std::uint64_t n = s.index.size();
    const std::uint64_t chunks = chunks_of(n);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::uint64_t c = 0; c < chunks; ++c) {
      if (interrupt_requested()) continue;
      const std::uint64_t end = std::min(n, (c + 1) * kChunk);
      bool frontier = false;
      for (std::uint64_t word = c * kChunk; word < end; word += 64) {
        std::uint64_t capture_bits = 0;  // whole words: chunks own their words
        for (std::uint64_t i = word; i < std::min(end, word + 64); ++i) {
          const Position p = s.index.unrank(i);
          if (has_capture(p)) {
            capture_bits |= std::uint64_t{1} << (i & 63);
            s.state[i] = capture_state(p);
          } else {
            s.state[i] = quiet_state(p);
          }
          frontier |= state::is_frontier(s.state[i], 0);
        }
        s.captures[word >> 6] = capture_bits;
      }
      if (frontier) s.pending[0][c].store(true, std::memory_order_relaxed);
      report(end - c * kChunk);
    }
  }

  // Undo the moves into q (table t, decided `v` for its mover) and update the
  // predecessors in the other table of the unit.
  void propagate_from(int t, std::uint64_t i, Wdl v, int next) {
    Side& u = sides_[static_cast<std::size_t>(other(t))];
    // q with White to move in M_t is, colour-reversed, Black to move in M_u:
    // White just moved there, from a position with White to move in M_u.
    const Position after = colour_reversed(sides_[static_cast<std::size_t>(t)].index.unrank(i));
    const std::uint8_t win_next = state::kWinAt[static_cast<std::size_t>(next)];
    const std::uint8_t loss_next = state::kLossAt[static_cast<std::size_t>(next)];
    for_each_quiet_predecessor(after, [&](const Position& before) {
      const std::uint64_t j = u.index.rank(before);
      std::atomic_ref<std::uint8_t> ref(u.state[j]);
      std::uint8_t s = ref.load(std::memory_order_relaxed);
      if (v == Wdl::Loss) {  // a move to a lost position wins
        while (state::undecided(s)) {
          if (ref.compare_exchange_weak(s, win_next, std::memory_order_relaxed)) {
            u.mark_pending(next, j);
            break;
          }
        }
        return;
      }
      while (state::undecided(s)) {  // one more move refuted
        std::uint8_t n = static_cast<std::uint8_t>(s - 2);
        if (n < 2) n = (s & 1) ? state::kDraw : loss_next;
        if (ref.compare_exchange_weak(s, n, std::memory_order_relaxed)) {
          if (n == loss_next) u.mark_pending(next, j);
          break;
        }
      }
    });
  }

  // Propagate the frontier positions of this parity in one chunk. Returns how many.
  std::uint64_t propagate_chunk(const ChunkTask& task, int parity) {
    Side& s = sides_[static_cast<std::size_t>(task.side)];
    const std::uint64_t end = std::min(s.index.size(), (task.chunk + 1) * kChunk);
    std::uint64_t here = 0;
    for (std::uint64_t i = task.chunk * kChunk; i < end; ++i) {
      std::atomic_ref<std::uint8_t> ref(s.state[i]);
      const std::uint8_t st = ref.load(std::memory_order_relaxed);
      if (!state::is_frontier(st, parity)) continue;
      const bool win = st == state::kWinAt[static_cast<std::size_t>(parity)];
      propagate_from(task.side, i, win ? Wdl::Win : Wdl::Loss, 1 - parity);
      ref.store(win ? state::kWin : state::kLoss, std::memory_order_relaxed);
      ++here;
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

  // One round: propagate every frontier position of this parity. Returns how many.
  std::uint64_t propagation_round(int parity) {
    const std::vector<ChunkTask> tasks = pending_chunks(parity);
    if (tasks.empty()) return 0;
    std::uint64_t frontier = 0;
    std::optional<SpreadScheduler> scheduler;
#pragma omp parallel reduction(+ : frontier)
    {
#pragma omp single
      scheduler.emplace(tasks.size(), omp_get_num_threads());
      // (the barrier at the end of `single` publishes the scheduler)
      scheduler->run(omp_get_thread_num(), [&](std::size_t k) {
        if (interrupt_requested()) return;
        const std::uint64_t here = propagate_chunk(tasks[k], parity);
        frontier += here;
        if (here) report(here);
      });
    }
    return frontier;
  }

  int propagate() {
    int round = 0;
    while (!interrupt_requested() && propagation_round(round & 1) > 0) ++round;
    return round;
  }

  static void finalize(Side& s) {
    const std::int64_t n = static_cast<std::int64_t>(s.state.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) {
      const auto i = static_cast<std::uint64_t>(k);
      const bool capture = (s.captures[i >> 6] >> (i & 63)) & 1;
      s.state[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(state::final_value(s.state[i])) |
                                             (capture ? kCaptureFlag : 0));
    }
    s.captures = {};
  }

  const WdlStore& store_;
  ProgressBar* progress_;
  std::vector<Side> sides_;
  std::atomic<std::uint64_t> reported_work_{0};
};

}  // namespace

std::vector<Material> unit_of(const Material& m) {
  if (m.symmetric()) return {m};
  return {m, m.reversed()};
}

SolveStatus solve_unit(const Material& m, const WdlStore& store, ProgressBar* progress,
                       UnitSolution& out) {
  UnitSolver solver(m, store, progress);
  return solver.solve(out);
}

}  // namespace dtb::gen
