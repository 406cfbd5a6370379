#include "gen/large_array.h"

#include <sys/mman.h>

#include <cstdint>

namespace dtb::gen {

void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  // madvise wants page-aligned ranges; the allocator aligns large arrays to
  // 2 MB, but stay safe for any pointer: advise the whole pages inside.
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + 4095) & ~std::uintptr_t{4095};
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~std::uintptr_t{4095};
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

void advise_small_pages(void* p, std::size_t bytes) noexcept {
#ifdef MADV_NOHUGEPAGE
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + 4095) & ~std::uintptr_t{4095};
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~std::uintptr_t{4095};
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_NOHUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

void release_pages(void* p, std::size_t bytes) noexcept {
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + 4095) & ~std::uintptr_t{4095};
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~std::uintptr_t{4095};
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace dtb::gen
