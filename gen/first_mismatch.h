// The per-position checks of `dtb verify` (mtc_verifier.h, r62_verifier.h)
// share one loop: find the first position of a table whose stored value its
// moves contradict, in parallel.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>

#include "gen/progress_bar.h"

namespace dtb::gen {

inline constexpr std::uint64_t kNoMismatch = std::numeric_limits<std::uint64_t>::max();

/// The least i in [0, n) with wrong(i), or kNoMismatch. Chunks of positions,
/// so that the progress line (if any) moves without an atomic update per
/// position: a 6-piece table's check takes minutes. `wrong` is called from
/// many threads.
template <class Wrong>
std::uint64_t first_mismatch(std::uint64_t n, ProgressBar* progress, const Wrong& wrong) {
  constexpr std::uint64_t kChunk = 1 << 16;
  std::atomic<std::uint64_t> first{kNoMismatch};
  const auto chunks = static_cast<std::int64_t>((n + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::uint64_t begin = static_cast<std::uint64_t>(c) * kChunk, end = std::min(n, begin + kChunk);
    for (std::uint64_t i = begin; i < end; ++i) {
      if (!wrong(i)) continue;
      std::uint64_t cur = first.load();
      while (i < cur && !first.compare_exchange_weak(cur, i)) {
      }
    }
    if (progress) progress->advance(end - begin);
  }
  return first.load();
}

}  // namespace dtb::gen
