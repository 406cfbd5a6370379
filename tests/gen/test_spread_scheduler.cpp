// The propagation rounds' task scheduler: every task runs exactly once,
// whatever the number of threads and however unevenly the tasks cost.
#include <catch2/catch.hpp>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "solver/spread_scheduler.h"

using dtb::gen::SpreadScheduler;

TEST_CASE("every task runs exactly once", "[scheduler]") {
  for (int threads : {1, 2, 3, 5}) {
    for (std::size_t tasks : {0u, 1u, 2u, 7u, 1000u}) {
      std::vector<std::atomic<int>> runs(tasks);
      SpreadScheduler scheduler(tasks, threads);
#pragma omp parallel num_threads(threads)
      scheduler.run(omp_get_thread_num(), [&](std::size_t k) {
        // Uneven costs: the first share is slow, so the others must steal from it.
        if (k < tasks / static_cast<std::size_t>(threads) && k % 16 == 0)
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        runs[k].fetch_add(1);
      });
      for (std::size_t k = 0; k < tasks; ++k) {
        INFO(threads << " threads, " << tasks << " tasks, task " << k);
        REQUIRE(runs[k].load() == 1);
      }
    }
  }
}

TEST_CASE("a thread starts on its own share, at the front", "[scheduler]") {
  // With one thread running alone, it takes its share in order and then the
  // others' from their ends backwards.
  SpreadScheduler scheduler(10, 2);
  std::vector<std::size_t> order;
  scheduler.run(1, [&](std::size_t k) { order.push_back(k); });
  CHECK(order == std::vector<std::size_t>{5, 6, 7, 8, 9, 4, 3, 2, 1, 0});
}
