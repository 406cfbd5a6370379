#include "cli/memory_reuse.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace dtb::cli {

void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_MAX, 0);         // no allocation gets its own mapping...
  mallopt(M_TRIM_THRESHOLD, -1);  // ...and the heap is never trimmed (mallopt(3): -1 disables it)
#endif
}

}  // namespace dtb::cli
