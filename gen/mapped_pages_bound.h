// Keeps the file pages a probe handle (probe::Tablebase, probe::PerfectPlay)
// has mapped within kMappedPagesBytes.
//
// Each page a block decode reads stays in the process's resident set until
// its mapping drops it, so a long job that probes table files (the build's
// finished tables, the .mtc tables a .r62 check reads: hundreds of MB) would
// otherwise grow past its memory bound by the files it has read. A decode
// maps at most a 64 KB fault-around window plus the page a block straddles,
// so dropping every kMappedPagesBytes / 68 KB decodes keeps them within it.
#pragma once

#include <atomic>
#include <cstdint>

#include "gen/cost_model.h"

namespace dtb::gen {

// Files: anything with blocks_decoded() and drop_mapped_pages().
template <class Files>
class MappedPagesBound {
 public:
  explicit MappedPagesBound(Files& files) : files_(files) {}

  /// After a probe: drop the mapped pages if enough blocks were decoded
  /// since the last drop. Thread-safe: one thread drops, the others go on
  /// (their reads map pages again safely).
  void after_probe() const {
    const std::uint64_t decoded = files_.blocks_decoded();
    std::uint64_t last = decoded_at_last_drop_.load(std::memory_order_relaxed);
    if (decoded - last < kDecodesBetweenDrops) return;
    if (decoded_at_last_drop_.compare_exchange_strong(last, decoded, std::memory_order_relaxed))
      files_.drop_mapped_pages();
  }

 private:
  static constexpr std::uint64_t kDecodesBetweenDrops = kMappedPagesBytes / ((64 + 4) << 10);
  Files& files_;
  mutable std::atomic<std::uint64_t> decoded_at_last_drop_{0};
};

}  // namespace dtb::gen
