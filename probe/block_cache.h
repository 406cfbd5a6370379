// A bounded cache of decoded table values shared by every probing thread.
//
// Values are WDL (0..2), so the cache keeps them packed 2 bits per position
// in fixed-size pages: 4 KiB hold 16384 positions, 8 times what the decoder's
// uint16_t output would take, so the same budget caches 8 times more of the
// tables. A page never straddles two compressed blocks (see Table), so one
// decoded block fills whole pages.
//
// Why set-associative rather than a map + LRU list behind a mutex: a probe is
// a few dozen nanoseconds of arithmetic, and a single lock (or even a shard
// lock held while walking a std::unordered_map) would dominate it and make
// threads queue. Here a key hashes to one "set" of kWays page slots; each set
// has its own spinlock on its own cache line, held only to compare 8 keys and
// read one byte (or to copy one 4 KiB page in). Two threads collide only when
// they touch the same set at the same instant, so they scale.
// Eviction is least-recently-used within the set.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace dtb::probe {

class BlockCache {
 public:
  static constexpr int kPagePositionsLog2 = 14;
  static constexpr std::uint32_t kPagePositions = 1u << kPagePositionsLog2;
  static constexpr std::size_t kPageBytes = kPagePositions / 4;  // 2 bits per value
  static constexpr int kWays = 8;

  /// A cache using at most about `bytes` bytes of page memory (at least one
  /// set of kWays pages). Throws std::bad_alloc if that memory is not there.
  explicit BlockCache(std::size_t bytes);
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  /// The 2-bit value at `offset` (< kPagePositions) of the page `key`, or -1
  /// if the page is not cached. `key` must not be 0 (0 marks a free slot).
  int lookup(std::uint64_t key, std::uint32_t offset);

  /// Store a packed page (kPageBytes bytes; positions past the end of a short
  /// page are ignored). If the page is already cached, nothing changes.
  void insert(std::uint64_t key, const std::uint8_t* packed_page);

  std::size_t capacity_bytes() const { return set_count_ * kWays * kPageBytes; }

  /// Read value `i` from a packed page.
  static int unpack(const std::uint8_t* page, std::uint32_t i) {
    return (page[i >> 2] >> ((i & 3) * 2)) & 3;
  }

 private:
  struct alignas(64) Set {
    std::atomic<bool> locked{false};
    std::uint32_t clock = 0;                 // per-set time for LRU stamps
    std::uint32_t stamps[kWays] = {};        // last use of each way
    std::uint64_t keys[kWays] = {};          // 0 = free way
  };

  Set& set_of(std::uint64_t key);
  std::uint8_t* page(const Set& s, int way);
  static void lock(Set& s);
  static void unlock(Set& s) { s.locked.store(false, std::memory_order_release); }

  std::size_t set_count_ = 0;
  std::unique_ptr<Set[]> sets_;
  struct FreeMemory {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint8_t, FreeMemory> pages_;  // set_count_ * kWays pages
};

}  // namespace dtb::probe
