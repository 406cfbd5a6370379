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
// threads queue. Here a key hashes to one "set" of kWays page slots.
//
// Why lookups take no lock and write nothing: a first version took a per-set
// spinlock and bumped an LRU stamp on every hit, so every probe WROTE the
// set's cache line. Two threads probing the same hot tables kept stealing
// those lines from each other and ran at 0.8x the speed of one. Now each set
// carries a version number (a seqlock): an insert makes it odd while it
// changes the set and even again when done; a lookup reads the version, the
// keys and the value, and retries if the version moved or was odd. A hit
// writes only when an insert happened in that set since the way's last use
// (it records the set's insert count as the way's stamp), so a warm cache is
// read-only and the lines stay shared by all cores.
// Eviction takes the way with the oldest stamp: least recently used, at the
// granularity of the set's inserts.
//
// One cache per handle holds every kind of table it reads: besides the WDL
// pages, "wide" pages of 16-bit values (.dtw, .rule, .mtc: LimitTableFiles),
// kWidePagePositions little-endian values in the same kPageBytes. A wide key
// has kWideKeyBit set and a WDL key never has (probe/table_directory.cpp
// keeps WDL table ids below 2^15), so the two cannot collide, and one
// budget (dtb_open's cache_bytes) bounds them all.
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
  static constexpr std::uint32_t kWidePagePositions = kPageBytes / 2;  // 16 bits per value
  static constexpr std::uint64_t kWideKeyBit = std::uint64_t{1} << 63;

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

  /// The 16-bit value at `offset` (< kWidePagePositions) of the wide page
  /// `key`, or -1 if the page is not cached.
  int lookup_wide(std::uint64_t key, std::uint32_t offset);

  /// Store a wide page of `count` (<= kWidePagePositions) values; the rest
  /// of the page is zero. If the page is already cached, nothing changes.
  void insert_wide(std::uint64_t key, const std::uint16_t* values, std::size_t count);

  std::size_t capacity_bytes() const { return set_count_ * kWays * kPageBytes; }

  /// Read value `i` from a packed page.
  static int unpack(const std::uint8_t* page, std::uint32_t i) {
    return (page[i >> 2] >> ((i & 3) * 2)) & 3;
  }

 private:
  struct alignas(64) Set {
    std::atomic<std::uint32_t> version{0};           // odd while an insert changes the set
    std::atomic<std::uint32_t> inserts{0};           // the set's clock
    std::atomic<std::uint32_t> stamps[kWays] = {};   // `inserts` at the way's last use
    std::atomic<std::uint64_t> keys[kWays] = {};     // 0 = free way
  };

  Set& set_of(std::uint64_t key);
  // The seqlock read shared by lookup and lookup_wide: `read(page)` on the
  // page of `key`, or -1 if it is not cached.
  template <class Read>
  int find(std::uint64_t key, Read read);
  std::uint8_t* page(const Set& s, int way);
  static std::uint32_t lock(Set& s);  // returns the (odd) version it set
  static void unlock(Set& s, std::uint32_t odd_version) {
    s.version.store(odd_version + 1, std::memory_order_release);
  }
  // Page bytes are read and written through 64-bit relaxed atomics: a lookup
  // may read a page while an insert rewrites it (the version check then
  // discards what it read), and atomics make that race well defined.
  static int read_value(const std::uint8_t* page, std::uint32_t offset);
  static int read_wide(const std::uint8_t* page, std::uint32_t offset);
  static void write_page(std::uint8_t* page, const std::uint8_t* packed_page);

  std::size_t set_count_ = 0;
  std::unique_ptr<Set[]> sets_;
  struct FreeMemory {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint8_t, FreeMemory> pages_;  // set_count_ * kWays pages
};

}  // namespace dtb::probe
