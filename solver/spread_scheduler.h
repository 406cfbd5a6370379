// Hands out the tasks of one parallel loop so that threads work far apart.
//
// Why not OpenMP's schedule(dynamic): in retrograde propagation, a task (a
// chunk of consecutive positions) writes the counters of its predecessors,
// and neighbouring chunks have neighbouring predecessors. With dynamic
// scheduling the two threads take chunks c and c + 1 and keep writing the same
// cache lines, which then bounce between the cores: on KMvKM the biggest round
// ran only 1.26x faster on two threads. Giving each thread its own contiguous
// share of the tasks removed that (1.76x) but lets a thread idle when its
// share holds less work.
//
// So: thread t owns the t-th contiguous share and walks it forwards; when it
// is done it steals from the END of the other shares, walking backwards, so
// owner and thief stay apart until they meet. Every task is claimed by one
// atomic exchange on its own flag, so each runs exactly once whatever the
// timing. Which thread runs a task is not deterministic; the solver's result
// does not depend on it (unit_solver.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <vector>

namespace dtb::gen {

class SpreadScheduler {
 public:
  SpreadScheduler(std::size_t tasks, int threads)
      : claimed_(tasks), threads_(threads < 1 ? 1 : threads) {}

  /// Called by every thread of the parallel region (thread = 0 .. threads-1):
  /// runs run_task(task) for the tasks this thread claims.
  template <class RunTask>
  void run(int thread, RunTask&& run_task) {
    const std::size_t begin = share_begin(thread), end = share_begin(thread + 1);
    for (std::size_t k = begin; k < end; ++k)
      if (claim(k)) run_task(k);
    for (int v = 1; v < threads_; ++v) {
      const int victim = (thread + v) % threads_;
      const std::size_t vbegin = share_begin(victim);
      for (std::size_t k = share_begin(victim + 1); k > vbegin; --k)
        if (claim(k - 1)) run_task(k - 1);
    }
  }

 private:
  std::size_t share_begin(int t) const {
    return claimed_.size() * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads_);
  }
  bool claim(std::size_t k) {
    return !claimed_[k].load(std::memory_order_relaxed) &&
           !claimed_[k].exchange(true, std::memory_order_acq_rel);
  }

  std::vector<std::atomic<bool>> claimed_;
  int threads_;
};

}  // namespace dtb::gen
