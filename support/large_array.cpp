#include "support/large_array.h"

#include <sys/mman.h>

#include <cstdint>

namespace dtb::gen {
namespace {

// madvise wants page-aligned ranges: advise the whole 4 KB pages inside
// [p, p + bytes), for any pointer.
void advise_whole_pages(void* p, std::size_t bytes, int advice) noexcept {
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + 4095) & ~std::uintptr_t{4095};
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~std::uintptr_t{4095};
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, advice);
}

}  // namespace

void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  advise_whole_pages(p, bytes, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

void advise_small_pages(void* p, std::size_t bytes) noexcept {
#ifdef MADV_NOHUGEPAGE
  advise_whole_pages(p, bytes, MADV_NOHUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

void release_pages(void* p, std::size_t bytes) noexcept { advise_whole_pages(p, bytes, MADV_DONTNEED); }

}  // namespace dtb::gen
