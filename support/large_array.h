// LargeArray<T>: a std::vector for the generator's big per-position arrays
// (solver states, packed values, the writer's inputs: hundreds of MB each).
//
// Two differences from a plain vector, both about the cost of memory on this
// kind of VM, where the first touch of a 4 KB page costs 12-30 us (the host
// backs guest memory lazily; measured: 512 MB touched in 4.0-4.6 s):
//
//  - resize() leaves new elements uninitialised. Every such array is filled by
//    a parallel loop that writes every element, so its pages are first touched
//    on all threads at once instead of being zeroed on one thread first
//    (~0.6 s serial for a 200 MB unit).
//  - allocations of at least kHugePageMinBytes are aligned to 2 MB and asked
//    for transparent huge pages (madvise; the system's THP mode is "madvise").
//    Touching 512 MB took 1.9-2.7 s instead of 4.0-4.6 s, and the solver's
//    random updates of a 200 MB state array hit the TLB (100 entries instead
//    of 50,000).
//
// Only for trivial element types, and only where a loop writes every element
// before anything reads it.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

namespace dtb::gen {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
inline constexpr std::size_t kHugePageMinBytes = 4 * kHugePageBytes;

/// Ask the kernel to back [p, p + bytes) with huge pages (best effort: a
/// kernel without THP, or a refusal, just leaves 4 KB pages).
void advise_huge_pages(void* p, std::size_t bytes) noexcept;

/// Undo advise_huge_pages: back [p, p + bytes) with 4 KB pages, for an array
/// used sparsely (a worker of a distributed build touches a few slices of a
/// unit-sized array; with huge pages each touch would cost 2 MB).
void advise_small_pages(void* p, std::size_t bytes) noexcept;

/// Give the whole pages inside [p, p + bytes) back to the system (they read
/// as zero afterwards): for the part of a large array read for the last time
/// while the rest is still in use.
void release_pages(void* p, std::size_t bytes) noexcept;

template <class T>
struct LargeArrayAllocator {
  static_assert(std::is_trivially_default_constructible_v<T>);
  using value_type = T;

  LargeArrayAllocator() = default;
  template <class U>
  LargeArrayAllocator(const LargeArrayAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageMinBytes) return static_cast<T*>(::operator new(bytes));
    void* p = ::operator new(bytes, std::align_val_t{kHugePageBytes});
    advise_huge_pages(p, bytes);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePageMinBytes) {
      ::operator delete(p);
      return;
    }
    // `dtb gen` keeps freed memory in the heap (cli/memory_reuse.h), where
    // its pages would stay resident until reused: give them back first, so
    // that the process's RSS is what is live, as --memory assumes.
    release_pages(p, n * sizeof(T));
    ::operator delete(p, std::align_val_t{kHugePageBytes});
  }
  // Value-less construction default-initialises: no zeroing.
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <class U>
  bool operator==(const LargeArrayAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using LargeArray = std::vector<T, LargeArrayAllocator<T>>;

/// Make `a` hold `n` elements for a loop that will write every one of them:
/// the old contents are not kept. Why not a plain resize(): growing a vector
/// allocates the new block while the old one is still held, copies the old
/// elements across, and rounds the capacity up to twice the old size, so a
/// solver whose levels grow from one to the next held up to three times its
/// largest level (the 6-piece build's peak RSS went 8 % over --memory).
/// Here the old block is released first and the new one is exactly `n`;
/// a smaller `n` keeps the block (the next level may need it again).
template <class T>
void resize_for_overwrite(LargeArray<T>& a, std::size_t n) {
  if (n > a.capacity()) {
    LargeArray<T>().swap(a);
    a.reserve(n);
  }
  a.resize(n);
}

}  // namespace dtb::gen
