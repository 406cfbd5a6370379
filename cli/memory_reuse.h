// Keep freed memory in the process for the next table instead of handing it
// back to the kernel.
//
// Why: the generator and the verifier allocate and free arrays of hundreds of
// megabytes per table (solver state, values, packed blocks). glibc serves
// every allocation above 32 MB with its own mmap and unmaps it on free, so the
// next table faults every page in again; on the VMs this project runs on a
// first touch costs about 12 us per 4 KB page (84 MB: 0.25 s, against 0.005 s
// for the same copy into memory already mapped). Serving all allocations from
// the heap and never trimming it lets later tables reuse mapped pages. The peak
// resident size stays that of the largest unit, which the process reaches
// anyway. A process-wide setting, so it lives in the command-line tool, not in
// a library.
#pragma once

namespace dtb::cli {

/// Call once, early, before the large allocations. Best effort: a C library
/// without these settings just keeps its default behaviour.
void keep_freed_memory();

}  // namespace dtb::cli
