#include "probe/block_cache.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
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

std::uint32_t BlockCache::lock(Set& s) {
  // Spin on a plain load so waiting threads do not steal the cache line from
  // the holder. Critical sections are short (a 4 KiB copy at most); yield in
  // case the holder was preempted.
  for (int spins = 0;; ++spins) {
    std::uint32_t v = s.version.load(std::memory_order_relaxed);
    if (!(v & 1) && s.version.compare_exchange_weak(v, v + 1, std::memory_order_acquire)) {
      // Orders the odd version before the changes (the seqlock writer's fence).
      std::atomic_thread_fence(std::memory_order_release);
      return v + 1;
    }
    if (spins > 64) std::this_thread::yield();
  }
}

int BlockCache::read_value(const std::uint8_t* page, std::uint32_t offset) {
  const std::uint32_t byte = offset >> 2;
  auto* word = reinterpret_cast<std::uint64_t*>(const_cast<std::uint8_t*>(page)) + (byte >> 3);
  const std::uint64_t w = std::atomic_ref<std::uint64_t>(*word).load(std::memory_order_relaxed);
  // Little-endian byte order within the word, as the page was packed.
  const auto b = static_cast<std::uint8_t>(w >> ((byte & 7) * 8));
  return (b >> ((offset & 3) * 2)) & 3;
}

int BlockCache::read_wide(const std::uint8_t* page, std::uint32_t offset) {
  // Four values per word; value i is page bytes 2i (low) and 2i + 1 (high).
  auto* word = reinterpret_cast<std::uint64_t*>(const_cast<std::uint8_t*>(page)) + (offset >> 2);
  const std::uint64_t w = std::atomic_ref<std::uint64_t>(*word).load(std::memory_order_relaxed);
  return static_cast<int>((w >> ((offset & 3) * 16)) & 0xFFFF);
}

void BlockCache::write_page(std::uint8_t* page, const std::uint8_t* packed_page) {
  auto* words = reinterpret_cast<std::uint64_t*>(page);
  for (std::size_t k = 0; k < kPageBytes / 8; ++k) {
    // Little-endian words (read_value reads bytes from them in that order):
    // one load on a little-endian host, where assembling the word byte by
    // byte was an eighth of a cold probe.
    std::uint64_t w;
    std::memcpy(&w, packed_page + k * 8, 8);
    if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
    std::atomic_ref<std::uint64_t>(words[k]).store(w, std::memory_order_relaxed);
  }
}

template <class Read>
int BlockCache::find(std::uint64_t key, Read read) {
  Set& s = set_of(key);
  for (;;) {
    const std::uint32_t before = s.version.load(std::memory_order_acquire);
    if (before & 1) {  // an insert is changing this set
      std::this_thread::yield();
      continue;
    }
    int way = -1, value = -1;
    for (int w = 0; w < kWays; ++w)
      if (s.keys[w].load(std::memory_order_relaxed) == key) {
        way = w;
        value = read(page(s, w));
        break;
      }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (s.version.load(std::memory_order_relaxed) != before) continue;  // changed meanwhile: retry
    if (way >= 0) {
      // Record the use only if an insert happened since the last one, so that
      // hits on a warm cache do not write.
      const std::uint32_t now = s.inserts.load(std::memory_order_relaxed);
      if (s.stamps[way].load(std::memory_order_relaxed) != now) s.stamps[way].store(now, std::memory_order_relaxed);
    }
    return value;
  }
}

int BlockCache::lookup(std::uint64_t key, std::uint32_t offset) {
  return find(key, [offset](const std::uint8_t* p) { return read_value(p, offset); });
}

int BlockCache::lookup_wide(std::uint64_t key, std::uint32_t offset) {
  return find(key, [offset](const std::uint8_t* p) { return read_wide(p, offset); });
}

void BlockCache::insert_wide(std::uint64_t key, const std::uint16_t* values, std::size_t count) {
  // Byte by byte, low byte first: the page reads the same on any host.
  std::array<std::uint8_t, kPageBytes> bytes{};
  for (std::size_t i = 0; i < count; ++i) {
    bytes[2 * i] = static_cast<std::uint8_t>(values[i] & 0xFF);
    bytes[2 * i + 1] = static_cast<std::uint8_t>(values[i] >> 8);
  }
  insert(key, bytes.data());
}

void BlockCache::insert(std::uint64_t key, const std::uint8_t* packed_page) {
  Set& s = set_of(key);
  const std::uint32_t version = lock(s);
  // Victim: a free way if there is one, else the one unused for the most
  // inserts. Ages are distances from the set's clock, so wrap-around is harmless.
  const std::uint32_t now = s.inserts.load(std::memory_order_relaxed);
  int victim = 0;
  std::uint32_t victim_age = 0;
  for (int w = 0; w < kWays; ++w) {
    const std::uint64_t k = s.keys[w].load(std::memory_order_relaxed);
    if (k == key) {  // another thread decoded the same block first
      unlock(s, version);
      return;
    }
    const std::uint32_t age = k == 0 ? UINT32_MAX : now - s.stamps[w].load(std::memory_order_relaxed);
    if (age >= victim_age) {
      victim = w;
      victim_age = age;
    }
  }
  write_page(page(s, victim), packed_page);
  s.keys[victim].store(key, std::memory_order_relaxed);
  s.inserts.store(now + 1, std::memory_order_relaxed);
  s.stamps[victim].store(now + 1, std::memory_order_relaxed);
  unlock(s, version);
}

}  // namespace dtb::probe
