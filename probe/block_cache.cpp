#include "probe/block_cache.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

namespace dtb::probe {
namespace {
__extension__ using uint128 = unsigned __int128;
}  // namespace

BlockCache::BlockCache(std::size_t bytes) {
  set_count_ = std::max<std::size_t>(1, bytes / (kWays * kPageBytes));
  sets_ = std::make_unique<Set[]>(set_count_);
  // Not zeroed: the kernel maps memory only when a block is first stored, so
  // a large budget costs nothing until it is used. Aligned to 2 MiB and marked
  // for transparent huge pages: probes hit random pages of the cache, and
  // with 4 KiB pages nearly every probe would also miss the TLB.
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const std::size_t bytes_needed = set_count_ * kWays * kPageBytes;
  const std::size_t rounded = (bytes_needed + kHugePage - 1) / kHugePage * kHugePage;
  void* memory = std::aligned_alloc(kHugePage, rounded);
  if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(memory, rounded, MADV_HUGEPAGE);  // only a hint: failure is harmless
#endif
  pages_.reset(static_cast<std::uint8_t*>(memory));
}

BlockCache::Set& BlockCache::set_of(std::uint64_t key) {
  // Mix the key (table id in the high bits, page number in the low bits) so
  // that consecutive pages of one table spread over all sets, then map the
  // 64-bit hash onto [0, set_count_) with a multiply instead of a division.
  std::uint64_t h = key * 0x9E3779B97F4A7C15ULL;
  h ^= h >> 29;
  const auto index = static_cast<std::size_t>(
      (static_cast<uint128>(h) * set_count_) >> 64);
  return sets_[index];
}

std::uint8_t* BlockCache::page(const Set& s, int way) {
  const auto set_index = static_cast<std::size_t>(&s - sets_.get());
  return pages_.get() + (set_index * kWays + static_cast<std::size_t>(way)) * kPageBytes;
}

void BlockCache::lock(Set& s) {
  // Test-and-test-and-set: spin on a plain load so waiting threads do not
  // steal the cache line from the holder. Critical sections are a few
  // nanoseconds (a 4 KiB copy at most); yield in case the holder was preempted.
  for (int spins = 0;; ++spins) {
    if (!s.locked.exchange(true, std::memory_order_acquire)) return;
    while (s.locked.load(std::memory_order_relaxed)) {
      if (++spins > 64) std::this_thread::yield();
    }
  }
}

int BlockCache::lookup(std::uint64_t key, std::uint32_t offset) {
  Set& s = set_of(key);
  lock(s);
  int value = -1;
  for (int w = 0; w < kWays; ++w) {
    if (s.keys[w] != key) continue;
    s.stamps[w] = ++s.clock;
    value = unpack(page(s, w), offset);
    break;
  }
  unlock(s);
  return value;
}

void BlockCache::insert(std::uint64_t key, const std::uint8_t* packed_page) {
  Set& s = set_of(key);
  lock(s);
  // Victim: a free way if there is one, else the least recently used way.
  // Ages are distances from the set's clock, so wrap-around is harmless.
  int victim = 0;
  std::uint32_t victim_age = 0;
  for (int w = 0; w < kWays; ++w) {
    if (s.keys[w] == key) {  // another thread decoded the same block first
      unlock(s);
      return;
    }
    const std::uint32_t age = s.keys[w] == 0 ? UINT32_MAX : s.clock - s.stamps[w];
    if (age > victim_age) {
      victim = w;
      victim_age = age;
    }
  }
  std::memcpy(page(s, victim), packed_page, kPageBytes);
  s.keys[victim] = key;
  s.stamps[victim] = ++s.clock;
  unlock(s);
}

}  // namespace dtb::probe
