// A std::vector whose resize() leaves new elements uninitialised.
//
// Why: the solver's large arrays (a byte per position, hundreds of MB) are
// each filled by a parallel loop that writes every element. A plain vector
// would first zero them on one thread, and on this kind of VM the first touch
// of a page is the expensive part (~12 us per 4 KB page: 0.6 s for a 200 MB
// unit, serial). Left uninitialised, the pages are first touched by the
// parallel loop that fills them, on every thread at once.
//
// Only for trivial element types, and only where a loop writes every element
// before anything reads it.
#pragma once

#include <memory>
#include <type_traits>
#include <vector>

namespace dtb::gen {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  static_assert(std::is_trivially_default_constructible_v<T>);
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  // Value-less construction default-initialises: no zeroing.
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using NoInitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace dtb::gen
