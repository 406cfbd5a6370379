// Probing many positions at once, on several threads, without the GIL: the
// statistics path of the package (a Python loop pays ~1 us of interpreter
// per probe, more than the probe itself).
//
// The positions are cut into one contiguous run per thread, not interleaved:
// positions listed in table order (dtb.material_positions) then keep hitting
// the block each thread decoded last.
//
// Errors: each thread stops at its first failure; the failure reported is the
// one with the lowest index, so the answer does not depend on the thread count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "dtb/dtb.h"
#include "status_error.h"

namespace dtb::python {

/// Threads to use for `n` positions when the caller asked for `requested`
/// (0 or less: one per hardware thread). Small batches use fewer threads:
/// starting one costs more than probing a few thousand positions.
inline int batch_threads(std::size_t n, int requested) {
  constexpr std::size_t kMinPositionsPerThread = 4096;
  const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int wanted = requested > 0 ? requested : hardware;
  const std::size_t useful = std::max<std::size_t>(1, n / kMinPositionsPerThread);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(wanted), useful));
}

/// Calls `probe_one(positions[i], out[i], dtb_error* or nullptr)` (returns a
/// dtb_status) for every i < n, on `threads` threads. Call it without the GIL. Throws
/// the StatusError of the first failing position (with its index).
template <class Out, class ProbeOne>
void probe_batch(const dtb_position* positions, std::size_t n, Out* out, int threads, ProbeOne probe_one) {
  struct Failure {
    std::size_t index = 0;
    dtb_status status = DTB_OK;
    dtb_error error{};
  };
  std::vector<std::optional<Failure>> failures(static_cast<std::size_t>(threads));
  auto run = [&](int k) {
    const std::size_t begin = n * static_cast<std::size_t>(k) / static_cast<std::size_t>(threads);
    const std::size_t end = n * static_cast<std::size_t>(k + 1) / static_cast<std::size_t>(threads);
    for (std::size_t i = begin; i < end; ++i) {
      if (probe_one(positions[i], out[i], nullptr) == DTB_OK) continue;
      // Once more to learn why: filling a dtb_error (half a KiB) on every
      // probe would cost a good part of a warm probe's time.
      Failure f;
      f.index = i;
      f.status = probe_one(positions[i], out[i], &f.error);
      if (f.status == DTB_OK) continue;  // a passing failure (out of memory): answered now
      failures[static_cast<std::size_t>(k)] = f;
      return;
    }
  };
  std::vector<std::thread> workers;
  int started = 1;
  try {
    for (; started < threads; ++started) workers.emplace_back(run, started);
  } catch (const std::system_error&) {  // no more threads: this one does the rest
  }
  run(0);
  for (int k = started; k < threads; ++k) run(k);
  for (std::thread& w : workers) w.join();
  for (const std::optional<Failure>& f : failures) {  // runs are in order: the first is the lowest
    if (!f) continue;
    StatusError e = status_error(f->status, f->error);
    e.index = static_cast<std::int64_t>(f->index);
    e.message = "position " + std::to_string(f->index) + ": " + e.message;
    throw e;
  }
}

}  // namespace dtb::python
